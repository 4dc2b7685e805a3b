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

// DownloadRecipeImageArgs makes the image at URL the image of an imported
// recipe. The import job enqueues it, with the recipe, when the page named
// an image; UserID is who imported it (the owner of the follow-up job).
type DownloadRecipeImageArgs struct {
	RecipeID uuid.UUID `json:"recipeId"`
	UserID   uuid.UUID `json:"userId"`
	URL      string    `json:"url"`
}

// Kind is the stable job kind.
func (DownloadRecipeImageArgs) Kind() string { return "recipe_image_download" }

// InsertOpts puts the job on the images queue. Three attempts ride out a
// site that is briefly down; a refusal a person must act on ends it at once.
func (DownloadRecipeImageArgs) InsertOpts() river.InsertOpts {
	return queueOpts(config.QueueImages, 3)
}

// DownloadRecipeImageWorker runs DownloadRecipeImageArgs: it downloads the
// image through the SSRF-safe fetcher (20 MB at most), checks and re-encodes
// it like an upload, stores it, and in one transaction makes it the
// recipe's image and enqueues the renditions job (ProcessImageArgs), as
// POST /api/recipes/:id/image does. A recipe that has an image by then (the
// owner uploaded one) or was deleted keeps what it has: the job completes
// with "skipped".
type DownloadRecipeImageWorker struct {
	river.WorkerDefaults[DownloadRecipeImageArgs]
	deps *Deps
}

// Timeout bounds one attempt: the fetch has its own shorter limit, decoding
// a 40-megapixel image takes a few seconds.
func (w *DownloadRecipeImageWorker) Timeout(*river.Job[DownloadRecipeImageArgs]) time.Duration {
	return w.deps.timeLimit(2 * time.Minute)
}

// Work downloads and stores the image. The result is {"recipeId",
// "imageKey"}, or {"recipeId", "skipped": reason}.
func (w *DownloadRecipeImageWorker) Work(ctx context.Context, job *river.Job[DownloadRecipeImageArgs]) error {
	result, err := w.download(ctx, job)
	return w.deps.recorder().finish(ctx, job.JobRow, result, err)
}

func (w *DownloadRecipeImageWorker) download(ctx context.Context, job *river.Job[DownloadRecipeImageArgs]) (map[string]any, error) {
	id := job.Args.RecipeID
	skipped := func(reason string) map[string]any { return map[string]any{"recipeId": id, "skipped": reason} }
	// Checked first to spare the download; checked again when the image
	// is set.
	current, err := repo.GetImageKey(ctx, w.deps.DB, repo.RecipeImage, id)
	switch {
	case errors.Is(err, repo.ErrNotFound):
		return skipped("the recipe was deleted"), nil
	case err != nil:
		return nil, err
	case current != nil:
		return skipped("the recipe has an image already"), nil
	}

	enc, err := w.deps.downloadImage(ctx, job.JobRow, job.Args.URL, "the recipe's image address")
	if err != nil {
		return nil, err
	}
	queue, err := workerQueue(ctx)
	if err != nil {
		return nil, err
	}
	key, err := w.deps.images(queue).Replace(ctx, NewImage{Owner: repo.RecipeImage, ID: id, Prefix: RecipeImagePrefix,
		Requester: &job.Args.UserID, KeepExisting: true}, enc)
	if err != nil {
		return nil, fmt.Errorf("set imported recipe image: %w", err)
	}
	if key == "" {
		return skipped("the recipe has an image already, or was deleted"), nil
	}
	return map[string]any{"recipeId": id, "imageKey": key}, nil
}
