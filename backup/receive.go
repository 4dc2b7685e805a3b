package backup

import (
	"archive/zip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"larder/filestore"
)

// TempPath returns a fresh path in dir (a local scratch directory,
// created if missing) for an incoming archive: ZIP needs random access, so
// an upload is spooled to local disk and verified there before it goes to
// the store. Pass it to Adopt once the archive is written there.
func TempPath(dir string) (string, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("create scratch directory: %w", err)
	}
	return filepath.Join(dir, uploadScratchPrefix+randomHex()+scratchSuffix), nil
}

// Adopt verifies the archive at tmp completely and, if it passes, stores
// it under the name its manifest's creation time gives, so it appears in
// the list. The name a client sent is never used. tmp is removed in every
// case. A *Refusal says what is wrong with the archive; ErrExists means a
// backup of that name is already there.
//
// The adoption ends within TimeLimit (sooner if ctx says so): a copy to S3
// is a multipart upload, and the purge aborts unfinished ones older than
// TimeLimit, so no copy still running may be older. One cut short stores
// nothing and returns an error wrapping context.DeadlineExceeded.
func Adopt(ctx context.Context, store filestore.Store, tmp string, limits Limits) (Info, error) {
	defer os.Remove(tmp)
	ctx, cancel := context.WithTimeout(ctx, TimeLimit)
	defer cancel()
	m, err := Verify(tmp, limits)
	if err != nil {
		return Info{}, err
	}
	// Verify reads local disk and does not watch ctx: a deadline that
	// passed meanwhile ends the adoption here, before the copy begins.
	if err := ctx.Err(); err != nil {
		return Info{}, fmt.Errorf("adopt backup: %w", err)
	}
	name, err := freeName(ctx, store, m.CreatedAt.UTC().Truncate(time.Second), 1)
	if err != nil {
		return Info{}, err
	}
	f, err := os.Open(tmp)
	if err != nil {
		return Info{}, fmt.Errorf("adopt backup: %w", err)
	}
	defer f.Close()
	if err := store.Put(ctx, name, f); err != nil {
		return Info{}, fmt.Errorf("store backup: %w", err)
	}
	return Stat(ctx, store, name)
}

// Prune removes the scheduled backups beyond the newest keep and returns
// the names removed. Backups made by hand or uploaded are never removed; a
// backup whose manifest cannot be read is left alone.
func Prune(ctx context.Context, store filestore.Store, keep int) ([]string, error) {
	list, err := List(ctx, store)
	if err != nil {
		return nil, err
	}
	var removed []string
	kept := 0
	for _, b := range list { // newest first
		m, err := readManifest(ctx, store, b)
		if err != nil || !m.Scheduled {
			continue
		}
		if kept < keep {
			kept++
			continue
		}
		if err := Delete(ctx, store, b.Name); err != nil {
			return removed, err
		}
		removed = append(removed, b.Name)
	}
	return removed, nil
}

// readManifest reads only the manifest of an archive, within the default
// limits. It trusts nothing else in the archive; use Verify for that.
// Both stores' readers read at offsets (S3 with ranged requests), so only
// the directory and the manifest are fetched.
func readManifest(ctx context.Context, store filestore.Store, b Info) (*Manifest, error) {
	rc, err := store.Open(ctx, b.Name)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	f, ok := rc.(io.ReaderAt)
	if !ok {
		return nil, fmt.Errorf("the store's reader of %s does not read at offsets", b.Name)
	}
	if err := checkDirectory(f, b.Size, DefaultLimits); err != nil {
		return nil, err
	}
	zr, err := zip.NewReader(f, b.Size)
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
