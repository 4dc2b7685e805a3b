package jobs

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river"

	"larder/config"
	"larder/filestore"
	"larder/imageproc"
	"larder/importer/fetch"
	"larder/repo"
)

// CookbookImageMaxBytes is the largest image a cookbook downloads: the 20 MB
// of an upload.
const CookbookImageMaxBytes = imageproc.DefaultMaxBytes

// CookbookImagePrefix is the file-store folder of cookbook images.
const CookbookImagePrefix = "cookbooks"

// DownloadCookbookImageArgs makes the image at URL the cookbook's image
// (POST /api/cookbooks/:id/image/from-url). The handler has checked that
// the caller may edit the cookbook and that the URL is one the fetcher may
// try; the fetcher checks every address again when it connects.
type DownloadCookbookImageArgs struct {
	CookbookID uuid.UUID `json:"cookbookId"`
	URL        string    `json:"url"`
}

// Kind is the stable job kind.
func (DownloadCookbookImageArgs) Kind() string { return "cookbook_image_download" }

// InsertOpts puts the job on the images queue. Three attempts ride out a
// site that is briefly down; a refusal a person must act on ends it at once.
func (DownloadCookbookImageArgs) InsertOpts() river.InsertOpts {
	return queueOpts(config.QueueImages, 3)
}

// DownloadCookbookImageWorker runs DownloadCookbookImageArgs.
type DownloadCookbookImageWorker struct {
	river.WorkerDefaults[DownloadCookbookImageArgs]
	deps *Deps
}

// Timeout bounds one attempt: the fetch has its own shorter limit, decoding
// a 40-megapixel image takes a few seconds.
func (w *DownloadCookbookImageWorker) Timeout(*river.Job[DownloadCookbookImageArgs]) time.Duration {
	return 2 * time.Minute
}

// Work downloads, checks, re-encodes and stores the image, then points the
// cookbook at it and deletes the files it replaced. The result is
// {"cookbookId"}.
func (w *DownloadCookbookImageWorker) Work(ctx context.Context, job *river.Job[DownloadCookbookImageArgs]) error {
	result, err := w.download(ctx, job)
	return w.deps.recorder().finish(ctx, job.JobRow, result, err)
}

func (w *DownloadCookbookImageWorker) download(ctx context.Context, job *river.Job[DownloadCookbookImageArgs]) (map[string]any, error) {
	id := job.Args.CookbookID
	// A cookbook deleted since the request needs no image; checking first
	// spares the download.
	if _, err := repo.GetCookbook(ctx, w.deps.DB, id); errors.Is(err, repo.ErrNotFound) {
		return nil, Fail("not_found", "the cookbook no longer exists")
	} else if err != nil {
		return nil, err
	}

	data, _, err := w.fetcher().Download(ctx, job.Args.URL, CookbookImageMaxBytes)
	if err != nil {
		return nil, fetchFailure(err, job.Attempt >= job.MaxAttempts)
	}
	w.deps.recorder().progress(ctx, job.JobRow, 0.5)

	// The Content-Type is the site's claim; the bytes decide. What is stored
	// is a fresh encoding without the file's metadata, as for an upload.
	enc, err := imageproc.Process(bytes.NewReader(data), imageproc.Limits{MaxBytes: CookbookImageMaxBytes})
	switch {
	case errors.Is(err, imageproc.ErrTooLarge):
		return nil, Fail("too_large", "the image is too large: "+err.Error())
	case errors.Is(err, imageproc.ErrUnsupportedType):
		return nil, Fail("not_an_image", "the address does not point to a JPEG, PNG, GIF or WEBP image ("+err.Error()+")")
	case err != nil:
		return nil, err
	}

	files := w.files()
	key := filestore.NewKey(CookbookImagePrefix, enc.Ext())
	if err := files.Put(ctx, key, bytes.NewReader(enc.Data)); err != nil {
		return nil, fmt.Errorf("store cookbook image: %w", err)
	}
	// The row changes first and the replaced files go after it has
	// committed: a failure in between leaves an orphan file, never a
	// cookbook naming a missing one.
	old, err := repo.SetCookbookImage(ctx, w.deps.DB, id, &key)
	if err != nil {
		w.deleteFiles(ctx, []string{key})
		if errors.Is(err, repo.ErrNotFound) {
			return nil, Fail("not_found", "the cookbook no longer exists")
		}
		return nil, err
	}
	w.deleteFiles(ctx, old)
	return map[string]any{"cookbookId": id}, nil
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

func (w *DownloadCookbookImageWorker) fetcher() *fetch.Client {
	if w.deps.Fetcher != nil {
		return w.deps.Fetcher
	}
	return fetch.New(fetch.Options{AllowPrivate: w.deps.Config.ImportAllowPrivate})
}

func (w *DownloadCookbookImageWorker) files() filestore.Store {
	if w.deps.Files != nil {
		return w.deps.Files
	}
	return filestore.Local{Root: w.deps.Config.UploadPath}
}

// deleteFiles removes replaced files. A failure is logged, not returned:
// the image change has committed, and an orphan file costs only space.
func (w *DownloadCookbookImageWorker) deleteFiles(ctx context.Context, keys []string) {
	ctx = context.WithoutCancel(ctx)
	for _, k := range keys {
		if err := w.files().Delete(ctx, k); err != nil {
			w.deps.Logger.Warn("delete replaced cookbook image", "key", k, "error", err)
		}
	}
}
