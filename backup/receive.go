package backup

import (
	"archive/zip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
)

// TempPath returns a fresh path in dir (created if missing) for an
// incoming archive. The name starts with the temp prefix, so List never
// shows it; pass it to Adopt once the archive is written there.
func TempPath(dir string) (string, error) {
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return "", fmt.Errorf("create backup directory: %w", err)
	}
	return filepath.Join(dir, tempPrefix+"upload-"+randomHex()+".zip"), nil
}

// Adopt verifies the archive written at tmp (a TempPath of dir) completely
// and, if it passes, publishes it under the name its manifest's creation
// time gives, so it appears in the list. The name a client sent is never
// used. tmp is removed in every case. A *Refusal says what is wrong with
// the archive; ErrExists means a backup of that name is already there.
func Adopt(dir, tmp string, limits Limits) (Info, error) {
	defer os.Remove(tmp) // gone already once published
	if filepath.Dir(tmp) != filepath.Clean(dir) {
		return Info{}, fmt.Errorf("adopt backup: %s is not in the backup directory", tmp)
	}
	f, err := os.OpenFile(tmp, os.O_RDWR, 0)
	if err != nil {
		return Info{}, fmt.Errorf("adopt backup: %w", err)
	}
	if err := f.Chmod(0o600); err != nil { // it holds password hashes
		f.Close()
		return Info{}, fmt.Errorf("adopt backup: %w", err)
	}
	err = f.Sync()
	f.Close()
	if err != nil {
		return Info{}, fmt.Errorf("adopt backup: %w", err)
	}
	m, err := Verify(tmp, limits)
	if err != nil {
		return Info{}, err
	}
	name, err := publish(dir, tmp, m.CreatedAt.UTC().Truncate(time.Second), 1)
	if err != nil {
		return Info{}, err
	}
	return Stat(dir, name)
}

// Prune removes the scheduled backups in dir beyond the newest keep and
// returns the names removed. Backups made by hand or uploaded are never
// removed; a backup whose manifest cannot be read is left alone.
func Prune(dir string, keep int) ([]string, error) {
	list, err := List(dir)
	if err != nil {
		return nil, err
	}
	var removed []string
	kept := 0
	for _, b := range list { // newest first
		m, err := readManifest(filepath.Join(dir, b.Name))
		if err != nil || !m.Scheduled {
			continue
		}
		if kept < keep {
			kept++
			continue
		}
		if err := Delete(dir, b.Name); err != nil {
			return removed, err
		}
		removed = append(removed, b.Name)
	}
	return removed, nil
}

// readManifest reads only the manifest of an archive, within the default
// limits. It trusts nothing else in the archive; use Verify for that.
func readManifest(p string) (*Manifest, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if err := checkDirectory(f, fi.Size(), DefaultLimits); err != nil {
		return nil, err
	}
	zr, err := zip.NewReader(f, fi.Size())
	if err != nil {
		return nil, err
	}
	for _, zf := range zr.File {
		if zf.Name != ManifestName {
			continue
		}
		rc, err := zf.Open()
		if err != nil {
			return nil, err
		}
		defer rc.Close()
		var m Manifest
		if err := json.NewDecoder(io.LimitReader(rc, DefaultLimits.MaxManifestBytes)).Decode(&m); err != nil {
			return nil, err
		}
		return &m, nil
	}
	return nil, fmt.Errorf("no manifest")
}
