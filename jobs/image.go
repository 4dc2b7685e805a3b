package jobs

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/riverqueue/river/rivertype"

	"larder/filestore"
	"larder/imageproc"
	"larder/importer/fetch"
	"larder/repo"
	"larder/storage"
)

// Image files, shared by the jobs that store images (the downloads of
// recipe and cookbook images) and the one that makes their renditions.

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

// deleteImage removes every file of a replaced image (nil: none), the
// renditions an image job may have written without recording them included.
func (d *Deps) deleteImage(ctx context.Context, img *repo.StoredImage) {
	if img != nil {
		d.deleteStored(ctx, imageproc.StoredFiles(img.Key, img.Variants))
	}
}

// downloadImage fetches the image at url through the SSRF-safe fetcher, at
// most ImageMaxBytes, checks and re-encodes it like an upload, and stores it
// under a new key in the folder prefix. The caller makes a row name the key
// or deletes the file. what is how a refusal names the address ("the
// address", "the recipe's image address").
func (d *Deps) downloadImage(ctx context.Context, job *rivertype.JobRow, url, prefix, what string) (string, error) {
	data, _, err := d.fetcher().Download(ctx, url, ImageMaxBytes)
	if err != nil {
		return "", fetchFailure(err, job.Attempt >= job.MaxAttempts)
	}
	d.recorder().progress(ctx, job, 0.5)

	// The Content-Type is the site's claim; the bytes decide. What is stored
	// is a fresh encoding without the file's metadata, as for an upload.
	enc, err := imageproc.Process(bytes.NewReader(data), imageproc.Limits{MaxBytes: ImageMaxBytes})
	switch {
	case errors.Is(err, imageproc.ErrTooLarge):
		return "", Fail("too_large", "the image is too large: "+err.Error())
	case errors.Is(err, imageproc.ErrUnsupportedType):
		return "", Fail("not_an_image", what+" does not point to a JPEG, PNG, GIF or WEBP image ("+err.Error()+")")
	case err != nil:
		return "", err
	}
	key := filestore.NewKey(prefix, enc.Ext())
	if err := d.fileStore().Put(ctx, key, bytes.NewReader(enc.Data)); err != nil {
		return "", fmt.Errorf("store downloaded image: %w", err)
	}
	return key, nil
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
