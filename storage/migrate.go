package storage

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"log/slog"

	"larder/filestore"
)

// MigrateResult counts what Migrate did.
type MigrateResult struct {
	Copied  int   // files copied
	Skipped int   // files already at the destination with the same content
	Bytes   int64 // bytes copied
}

// Migrate copies every file of from into to (admin storage migrate):
// each is streamed across while its SHA-256 is computed, then read back
// from the destination and compared, so a copy that does not match fails
// the migration. A file already at the destination with the same size and
// checksum is skipped, so an interrupted migration is simply run again.
// Files are never deleted from from: the operator switches STORAGE once the
// migration has succeeded, and removes the old copy when satisfied.
func Migrate(ctx context.Context, from, to filestore.Store, logger *slog.Logger) (MigrateResult, error) {
	var res MigrateResult
	type file struct {
		key  string
		size int64
	}
	var files []file
	if err := from.Walk(ctx, func(key string, size int64) error {
		files = append(files, file{key, size})
		return nil
	}); err != nil {
		return res, fmt.Errorf("list source files: %w", err)
	}
	for _, f := range files {
		want, err := digest(ctx, from, f.key)
		if errors.Is(err, filestore.ErrNotFound) {
			continue // deleted since it was listed
		}
		if err != nil {
			return res, err
		}
		if info, err := to.Stat(ctx, f.key); err == nil && info.Size == f.size {
			if got, err := digest(ctx, to, f.key); err == nil && bytes.Equal(got, want) {
				res.Skipped++
				continue
			}
		}
		rc, err := from.Open(ctx, f.key)
		if err != nil {
			return res, fmt.Errorf("read %s: %w", f.key, err)
		}
		h := sha256.New()
		err = to.Put(ctx, f.key, io.TeeReader(rc, h))
		rc.Close()
		if err != nil {
			return res, fmt.Errorf("copy %s: %w", f.key, err)
		}
		got, err := digest(ctx, to, f.key)
		if err != nil {
			return res, fmt.Errorf("verify %s: %w", f.key, err)
		}
		if !bytes.Equal(h.Sum(nil), want) || !bytes.Equal(got, want) {
			return res, fmt.Errorf("verify %s: the copy's SHA-256 differs from the source's (did it change meanwhile?); run the migration again", f.key)
		}
		res.Copied++
		res.Bytes += f.size
		if logger != nil && res.Copied%500 == 0 {
			logger.Info("storage migrate", "copied", res.Copied, "skipped", res.Skipped, "of", len(files))
		}
	}
	return res, nil
}

func digest(ctx context.Context, s filestore.Store, key string) ([]byte, error) {
	rc, err := s.Open(ctx, key)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	h := sha256.New()
	if _, err := io.Copy(h, rc); err != nil {
		return nil, fmt.Errorf("read %s: %w", key, err)
	}
	return h.Sum(nil), nil
}

// Bases returns the stores of uploaded files and backups of one kind
// (config.StorageLocal or config.StorageS3) with cfg's settings, without
// the generation: what admin storage migrate copies between.
var Bases = bases
