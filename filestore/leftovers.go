package filestore

import (
	"context"
	"fmt"
	"io/fs"
	"strings"
	"time"

	"github.com/minio/minio-go/v7"
)

// LeftoverRemover is a Store whose writes can leave something behind when
// the process writing is killed outright (a worker's machine dies in the
// middle of a backup): Local's hidden temporary file, S3's unfinished
// multipart upload. Neither is ever a stored file, but both take space for
// ever unless removed. The purge job removes them once they are older than
// the longest a write may legitimately take.
type LeftoverRemover interface {
	// RemoveLeftovers removes what unfinished writes begun before `before`
	// left behind, and nothing else: stored files of any age and anything
	// begun since are kept. It returns how many it removed.
	RemoveLeftovers(ctx context.Context, before time.Time) (int, error)
}

var (
	_ LeftoverRemover = Local{}
	_ LeftoverRemover = (*S3)(nil)
)

// RemoveLeftovers removes the temporary files of Put (tmpPrefix) last
// modified before `before`. A Put in progress writes to its file as the
// data arrives, so its modification time is recent; one whose process died
// keeps the time of its last write.
func (l Local) RemoveLeftovers(ctx context.Context, before time.Time) (int, error) {
	root, err := l.openRoot(false)
	if notExist(err) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("remove leftovers: %w", err)
	}
	defer root.Close()

	removed := 0
	err = walkKeyDirs(ctx, root, "remove leftovers", func(p string, d fs.DirEntry) error {
		if !d.Type().IsRegular() || !strings.HasPrefix(d.Name(), tmpPrefix) {
			return nil
		}
		info, err := d.Info()
		if notExist(err) {
			return nil // renamed into place, or removed, meanwhile
		}
		if err != nil {
			return fmt.Errorf("remove leftovers: %w", err)
		}
		if !info.ModTime().Before(before) {
			return nil
		}
		if err := root.Remove(p); err != nil && !notExist(err) {
			return fmt.Errorf("remove leftovers: %w", err)
		}
		removed++
		return nil
	})
	return removed, err
}

// RemoveLeftovers aborts the multipart uploads under the store's prefix
// initiated before `before`, each by its upload ID: a younger upload of the
// same object (one in progress) is left alone. Aborting frees the parts
// already uploaded.
func (s *S3) RemoveLeftovers(ctx context.Context, before time.Time) (int, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // stops the listing goroutine on an early return
	core := minio.Core{Client: s.client}
	removed := 0
	for u := range s.client.ListIncompleteUploads(ctx, s.bucket, s.prefix, true) {
		if u.Err != nil {
			return removed, fmt.Errorf("remove leftovers under %s: %w", s.prefix, u.Err)
		}
		if u.UploadID == "" || !u.Initiated.Before(before) {
			continue
		}
		if err := core.AbortMultipartUpload(ctx, s.bucket, u.Key, u.UploadID); err != nil {
			if minio.ToErrorResponse(err).Code == "NoSuchUpload" {
				continue // completed or aborted meanwhile
			}
			return removed, fmt.Errorf("remove leftover upload of %s: %w", u.Key, err)
		}
		removed++
	}
	return removed, ctx.Err()
}
