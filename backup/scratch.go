package backup

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// The files this package writes in a scratch directory (storage.Stores
// Scratch, DATA_DIR/tmp): an uploaded archive being verified and stored
// (TempPath, by the API) and an archive fetched from the store for a
// restore (fetchArchive, by a worker). Each is removed when its request or
// job ends; one whose process was killed stays until
// RemoveScratchLeftovers finds it.
const (
	uploadScratchPrefix  = "upload-"
	restoreScratchPrefix = "restore-"
	scratchSuffix        = ".zip"
)

// RemoveScratchLeftovers removes from dir the scratch archives of this
// package (upload-*.zip, restore-*.zip) last modified before `before`, and
// returns how many it removed. Nothing else in dir is touched, nor is any
// directory.
//
// Pass a time at least TimeLimit ago. A scratch archive is modified last
// when it is written, just before its owner (an upload's adoption, a
// restore) starts to read it, and no owner lives longer than TimeLimit
// after that; so a file older than that belongs to a request or a job that
// is over, whatever process made it. Several processes may share dir (an
// API and a worker on one machine, several APIs on one data directory):
// each removes only such files, and none can take a live file from another.
func RemoveScratchLeftovers(dir string, before time.Time) (int, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("remove scratch leftovers: %w", err)
	}
	removed := 0
	for _, e := range entries {
		if !e.Type().IsRegular() || !isScratchArchive(e.Name()) {
			continue
		}
		info, err := e.Info()
		if errors.Is(err, fs.ErrNotExist) {
			continue // its owner removed it meanwhile
		}
		if err != nil {
			return removed, fmt.Errorf("remove scratch leftovers: %w", err)
		}
		if !info.ModTime().Before(before) {
			continue
		}
		if err := os.Remove(filepath.Join(dir, e.Name())); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return removed, fmt.Errorf("remove scratch leftovers: %w", err)
		}
		removed++
	}
	return removed, nil
}

func isScratchArchive(name string) bool {
	return strings.HasSuffix(name, scratchSuffix) &&
		(strings.HasPrefix(name, uploadScratchPrefix) || strings.HasPrefix(name, restoreScratchPrefix))
}
