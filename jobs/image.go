package jobs

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river/rivertype"

	"larder/filestore"
	"larder/imageproc"
	"larder/importer/fetch"
	"larder/repo"
	"larder/storage"
)

// Image files, shared by the jobs that store images (the downloads of
// recipe and cookbook images) and the one that makes their renditions, and
// by the handlers of uploads (ImageStore).

// ImageMaxBytes is the largest image a download accepts: the 20 MB of an
// upload.
const ImageMaxBytes = imageproc.DefaultMaxBytes

// fileStore is the store of uploaded files: Deps.Files, else the
// configuration's.
func (d *Deps) fileStore() filestore.Store {
	if d.Files != nil {
		return d.Files
	}
	return d.stores().Files
}

// stores are Deps.Storage, else those the configuration names.
func (d *Deps) stores() storage.Stores {
	if d.Storage.Backups != nil {
		return d.Storage
	}
	s, err := storage.Open(d.Config, d.DB)
	if err != nil { // the configuration was validated at start
		panic(fmt.Sprintf("storage: %v", err))
	}
	return s
}

// deleteStored removes files nothing names any more (filestore.DeleteOrphans).
func (d *Deps) deleteStored(ctx context.Context, keys []string) {
	filestore.DeleteOrphans(ctx, d.fileStore(), d.Logger, keys)
}

// images is the ImageStore of the jobs, enqueueing with queue.
func (d *Deps) images(queue *Queue) ImageStore {
	return ImageStore{DB: d.DB, Files: d.fileStore(), Logger: d.Logger, Queue: queue}
}

// ImageStore replaces and deletes the images of rows (recipes, cookbooks:
// repo.ImageOwner), the one routine behind uploads, downloads from an
// address and imports.
type ImageStore struct {
	DB     repo.DBTX
	Files  filestore.Store
	Logger *slog.Logger
	Queue  *Queue // enqueues the renditions job
}

// NewImage says which row an image is for and how it is set.
type NewImage struct {
	Owner     repo.ImageOwner
	ID        uuid.UUID
	Prefix    string     // the file-store folder of the owner's images
	Requester *uuid.UUID // the owner of the renditions job; nil: none
	// KeepExisting leaves a row that has an image by now as it is (an
	// imported image gives way to one the owner uploaded meanwhile).
	KeepExisting bool
}

// Replace stores enc under a new key in img.Prefix and, in one transaction,
// makes the row name it and enqueues the job making its renditions
// (ProcessImageArgs); only after that has committed are the replaced
// image's files deleted, so a failure in between leaves an orphan file,
// never a row naming a missing one. On any failure, or when KeepExisting
// kept the row's image, the new file is deleted and the row is as it was.
// It returns the new key, "" when the row kept its image. The row having
// been deleted is repo.ErrNotFound (without KeepExisting; with it, "").
func (s ImageStore) Replace(ctx context.Context, img NewImage, enc *imageproc.Encoded) (string, error) {
	key := filestore.NewKey(img.Prefix, enc.Ext())
	if err := s.Files.Put(ctx, key, bytes.NewReader(enc.Data)); err != nil {
		return "", fmt.Errorf("store image: %w", err)
	}
	set := true
	var old *repo.StoredImage
	err := pgx.BeginFunc(ctx, s.DB, func(tx pgx.Tx) error {
		var err error
		if img.KeepExisting {
			set, err = repo.SetImageIfNone(ctx, tx, img.Owner, img.ID, key)
		} else {
			old, err = repo.SetImage(ctx, tx, img.Owner, img.ID, &key)
		}
		if err != nil || !set {
			return err
		}
		_, err = s.Queue.Enqueue(ctx, tx, img.Requester, ProcessImageArgs{Target: img.Owner, ID: img.ID, ImageKey: key})
		return err
	})
	if err != nil || !set {
		s.deleteStored(ctx, []string{key}) // nothing names it
		return "", err
	}
	s.DeleteImage(ctx, old)
	return key, nil
}

// Remove removes the image of the owner's row id, then its files.
// repo.ErrNotFound when the row is gone.
func (s ImageStore) Remove(ctx context.Context, owner repo.ImageOwner, id uuid.UUID) error {
	old, err := repo.SetImage(ctx, s.DB, owner, id, nil)
	if err != nil {
		return err
	}
	s.DeleteImage(ctx, old)
	return nil
}

// DeleteImage removes every file of an image that a committed change
// replaced or deleted (nil: none): the image, its renditions, and those an
// image job may have written without recording them.
func (s ImageStore) DeleteImage(ctx context.Context, img *repo.StoredImage) {
	if img != nil {
		s.deleteStored(ctx, imageproc.StoredFiles(img.Key, img.Variants))
	}
}

func (s ImageStore) deleteStored(ctx context.Context, keys []string) {
	filestore.DeleteOrphans(ctx, s.Files, s.Logger, keys)
}

// downloadImage fetches the image at url through the SSRF-safe fetcher, at
// most ImageMaxBytes, and checks and re-encodes it like an upload, for
// ImageStore.Replace. what is how a refusal names the address ("the
// address", "the recipe's image address").
func (d *Deps) downloadImage(ctx context.Context, job *rivertype.JobRow, url, what string) (*imageproc.Encoded, error) {
	data, _, err := d.fetcher().Download(ctx, url, ImageMaxBytes)
	if err != nil {
		return nil, fetchFailure(err, job.Attempt >= job.MaxAttempts)
	}
	d.recorder().progress(ctx, job, 0.5)

	// The Content-Type is the site's claim; the bytes decide. What is stored
	// is a fresh encoding without the file's metadata, as for an upload.
	enc, err := imageproc.Process(bytes.NewReader(data), imageproc.Limits{MaxBytes: ImageMaxBytes})
	switch {
	case errors.Is(err, imageproc.ErrTooLarge):
		return nil, Fail("too_large", "the image is too large: "+err.Error())
	case errors.Is(err, imageproc.ErrUnsupportedType):
		return nil, Fail("not_an_image", what+" does not point to a JPEG, PNG, GIF or WEBP image ("+err.Error()+")")
	}
	return enc, err
}

// fetchFailure turns a download error into the job's outcome: a refusal a
// person must act on (a bad or forbidden address, a file too large, a page
// that is not there) ends the job; a failure that may pass (a timeout, an
// unreachable or overloaded site) is retried, and reported as it is on the
// last attempt.
func fetchFailure(err error, lastAttempt bool) error {
	fe := fetch.AsError(err)
	if fe == nil {
		return err // the job's context ended: River retries it
	}
	transient := false
	switch fe.Code {
	case fetch.CodeTimeout, fetch.CodeUnreachable:
		transient = true
	case fetch.CodeBlocked, fetch.CodeHTTPStatus:
		transient = fe.Status == http.StatusTooManyRequests || fe.Status >= 500
	}
	if transient && !lastAttempt {
		return err
	}
	return Fail(fe.Code, fe.Message)
}
