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
//
// The API's temporary directory is the scratch directory too
// (boot.UseScratchAsTempDir), so the files in which the HTTP server spools
// the large parts of a request body as it arrives (Go's mime/multipart
// names them multipart-*) are there as well: an image, an archive to
// import, a backup upload (renamed to upload-*.zip once it has arrived).
// The server removes each when its request ends, and a killed API leaves
// them like the others.
const (
	uploadScratchPrefix  = "upload-"
	restoreScratchPrefix = "restore-"
	scratchSuffix        = ".zip"
	requestSpoolPrefix   = "multipart-"
)

// RemoveScratchLeftovers removes from dir the scratch archives of this
// package (upload-*.zip, restore-*.zip) and the spooled request bodies
// (multipart-*) last modified before `before`, and returns how many it
// removed. Nothing else in dir is touched, nor is any directory.
//
// Pass a time at least TimeLimit ago. A scratch archive is modified last
// when it is written, just before its owner (an upload's adoption, a
// restore) starts to read it, and no owner lives longer than TimeLimit
// after that; a spooled request body is written as the request arrives,
// and its handler opens it at once (an image is decoded from it, a backup
// upload renamed, an archive to import copied into the store from the
// open file, which removing its name does not cut short). So a file older
// than that belongs to a request or a job that is over, or is read through
// a file already open, whatever process made it. Several processes may share dir (an API and a worker on one machine,
// several APIs on one data directory): each removes only such files, and
// none can take a live file from another.
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
		if !e.Type().IsRegular() || !isScratchLeftover(e.Name()) {
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

func isScratchLeftover(name string) bool {
	return strings.HasPrefix(name, requestSpoolPrefix) || strings.HasSuffix(name, scratchSuffix) &&
		(strings.HasPrefix(name, uploadScratchPrefix) || strings.HasPrefix(name, restoreScratchPrefix))
}
