package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"larder/boot"
	"larder/config"
	"larder/filestore"
	"larder/storage"
)

func init() {
	commands["storage"] = command{
		usage: "storage migrate --from local|s3 --to s3|local: copy images and backups between stores, checksum-verified, re-runnable; storage create-bucket: make S3_BUCKET if missing",
		run:   runStorage,
	}
}

// runStorage copies every stored file (images of every generation, and
// backups) from one store to the other, both described by the usual
// settings (UPLOAD_PATH and BACKUP_PATH; S3_*), whatever STORAGE says. Run
// it with the service stopped (or read-only), then set STORAGE to the
// destination and start the service again.
func runStorage(ctx context.Context, args []string, stdout io.Writer) error {
	if len(args) == 1 && args[0] == "create-bucket" {
		return createBucket(ctx, stdout)
	}
	if len(args) == 0 || args[0] != "migrate" {
		return errors.New("usage: admin storage migrate --from local|s3 --to s3|local, or admin storage create-bucket")
	}
	fs := flag.NewFlagSet("storage migrate", flag.ContinueOnError)
	from := fs.String("from", "", "the store to copy from: local or s3")
	to := fs.String("to", "", "the store to copy to: s3 or local")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	kinds := map[string]bool{config.StorageLocal: true, config.StorageS3: true}
	if !kinds[*from] || !kinds[*to] || *from == *to {
		return errors.New("--from and --to must be local and s3, one each")
	}
	cfg := boot.Config()
	side := func(kind string) (config.Config, error) {
		c := cfg
		c.Storage = kind
		if kind == config.StorageS3 {
			if c.S3.Endpoint == "" || c.S3.Bucket == "" {
				return c, errors.New("set S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY")
			}
		}
		return c, nil
	}
	src, err := side(*from)
	if err != nil {
		return err
	}
	dst, err := side(*to)
	if err != nil {
		return err
	}
	srcFiles, srcBackups, err := storage.Bases(src)
	if err != nil {
		return err
	}
	dstFiles, dstBackups, err := storage.Bases(dst)
	if err != nil {
		return err
	}
	if err := dstFiles.Check(ctx); err != nil {
		return fmt.Errorf("destination: %w", err)
	}
	for _, part := range []struct {
		name     string
		from, to filestore.Store
	}{{"images", srcFiles, dstFiles}, {"backups", srcBackups, dstBackups}} {
		res, err := storage.Migrate(ctx, part.from, part.to, nil)
		if err != nil {
			return fmt.Errorf("%s: %w (copied %d before; run the command again to go on)", part.name, err, res.Copied)
		}
		fmt.Fprintf(stdout, "%s: %d copied (%d bytes), %d already there; all verified by SHA-256\n", part.name, res.Copied, res.Bytes, res.Skipped)
	}
	fmt.Fprintf(stdout, "done: set STORAGE=%s and restart the service\n", *to)
	return nil
}

// createBucket makes S3_BUCKET when it does not exist (a new SeaweedFS or
// Garage); the compose file runs it once before the service starts.
func createBucket(ctx context.Context, stdout io.Writer) error {
	cfg := boot.Config()
	s3, err := storage.S3(cfg)
	if err != nil {
		return err
	}
	created, err := s3.CreateBucket(ctx, cfg.S3.Region)
	if err != nil {
		return err
	}
	if created {
		fmt.Fprintf(stdout, "bucket %s created\n", cfg.S3.Bucket)
	} else {
		fmt.Fprintf(stdout, "bucket %s exists\n", cfg.S3.Bucket)
	}
	return nil
}
