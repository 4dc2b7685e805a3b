// Package storage builds the file stores the configuration names: the
// uploaded images (in the generation the database names, see
// filestore.Generations) and the backups, on local disk (UPLOAD_PATH,
// BACKUP_PATH) or in an S3 bucket (S3_*: "uploads/" and "backups/" under
// S3_PREFIX). Handlers, jobs and the binaries all get their stores here,
// so every process sees the same files.
package storage

import (
	"context"
	"path/filepath"

	"larder/config"
	"larder/filestore"
	"larder/repo"
)

// Stores are the file stores of one configuration.
type Stores struct {
	// Files are the uploaded images as the service sees them: the current
	// generation of FilesBase.
	Files filestore.Generations
	// Backups holds the backup archives under their names.
	Backups filestore.Store
	// Scratch is a local directory for archives that must be read at
	// random (uploaded backups being verified, a backup being restored
	// from a remote store).
	Scratch string
}

// Open returns the stores cfg names; db answers the current generation.
// It does not contact the object store (Check does).
func Open(cfg config.Config, db repo.DBTX) (Stores, error) {
	files, backups, err := bases(cfg)
	if err != nil {
		return Stores{}, err
	}
	return Stores{
		Files: filestore.Generations{Base: files, Current: func(ctx context.Context) (string, error) {
			return repo.FileGeneration(ctx, db)
		}},
		Backups: backups,
		Scratch: filepath.Join(cfg.DataDir, "tmp"),
	}, nil
}

// bases returns the stores of uploaded files and of backups.
func bases(cfg config.Config) (files, backups filestore.Store, err error) {
	if cfg.Storage != config.StorageS3 {
		return filestore.Local{Root: cfg.UploadPath}, filestore.Local{Root: cfg.BackupPath}, nil
	}
	s3, err := S3(cfg)
	if err != nil {
		return nil, nil, err
	}
	return s3.WithPrefix("uploads"), s3.WithPrefix("backups"), nil
}

// S3 is the bucket of cfg's S3_* settings, under S3_PREFIX.
func S3(cfg config.Config) (*filestore.S3, error) {
	return filestore.NewS3(filestore.S3Config{
		Endpoint: cfg.S3.Endpoint, Bucket: cfg.S3.Bucket, Region: cfg.S3.Region,
		AccessKeyID: cfg.S3.AccessKeyID, SecretAccessKey: cfg.S3.SecretAccessKey.Reveal(),
		PathStyle: cfg.S3.PathStyle, Prefix: cfg.S3.Prefix,
	})
}

// Check reports whether both stores are reachable (readiness).
func (s Stores) Check(ctx context.Context) error {
	if err := s.Files.Check(ctx); err != nil {
		return err
	}
	return s.Backups.Check(ctx)
}
