package jobs

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river"

	"larder/config"
	"larder/repo"
)

// CookbookImagePrefix is the file-store folder of cookbook images.
const CookbookImagePrefix = "cookbooks"

// DownloadCookbookImageArgs makes the image at URL the cookbook's image
// (POST /api/cookbooks/:id/image/from-url). The handler has checked that
// the caller may edit the cookbook and that the URL is one the fetcher may
// try; the fetcher checks every address again when it connects. UserID is
// who asked (the owner of the follow-up job); jobs queued before it was
// added have none.
type DownloadCookbookImageArgs struct {
	CookbookID uuid.UUID `json:"cookbookId"`
	UserID     uuid.UUID `json:"userId"`
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
	return w.deps.timeLimit(2 * time.Minute)
}

// Work downloads, checks, re-encodes and stores the image, then, in one
// transaction, points the cookbook at it and enqueues the renditions job
// (ProcessImageArgs), as POST /api/cookbooks/:id/image does; once that has
// committed it deletes the files of the image it replaced. The result is
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

	enc, err := w.deps.downloadImage(ctx, job.JobRow, job.Args.URL, "the address")
	if err != nil {
		return nil, err
	}
	queue, err := workerQueue(ctx)
	if err != nil {
		return nil, err
	}
	var requester *uuid.UUID
	if job.Args.UserID != uuid.Nil {
		requester = &job.Args.UserID
	}
	_, err = w.deps.images(queue).Replace(ctx, NewImage{Owner: repo.CookbookImage, ID: id, Prefix: CookbookImagePrefix, Requester: requester}, enc)
	if errors.Is(err, repo.ErrNotFound) {
		return nil, Fail("not_found", "the cookbook no longer exists")
	}
	if err != nil {
		return nil, fmt.Errorf("set cookbook image: %w", err)
	}
	return map[string]any{"cookbookId": id}, nil
}
