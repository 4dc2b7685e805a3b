package jobs

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river"

	"larder/config"
	"larder/filestore"
	"larder/imageproc"
	"larder/repo"
)

// RecipeImagePrefix is the file-store folder of recipe images.
const RecipeImagePrefix = "recipes"

// ProcessImageArgs makes the smaller renditions (imageproc.Sizes: "thumb"
// and "medium") of the image of a recipe or a cookbook, which lists show
// instead of the full image. Target is the kind of row and ID the row.
// ImageKey is the image the job was enqueued for: if the row's image has
// changed since, the job has nothing to do.
type ProcessImageArgs struct {
	Target   repo.ImageOwner `json:"target"`
	ID       uuid.UUID       `json:"id"`
	ImageKey string          `json:"imageKey"`
}

// Kind is the stable job kind.
func (ProcessImageArgs) Kind() string { return "image_process" }

// InsertOpts puts the job on the images queue.
func (ProcessImageArgs) InsertOpts() river.InsertOpts {
	return queueOpts(config.QueueImages, 5)
}

// UnmarshalJSON also reads the arguments of the jobs queued before
// cookbooks had renditions, {"recipeId", "imageKey"}, which River may still
// hold when this version starts.
func (a *ProcessImageArgs) UnmarshalJSON(data []byte) error {
	type current ProcessImageArgs // without this method
	var v struct {
		current
		RecipeID uuid.UUID `json:"recipeId"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	*a = ProcessImageArgs(v.current)
	if a.Target == "" && v.RecipeID != uuid.Nil {
		a.Target, a.ID = repo.RecipeImage, v.RecipeID
	}
	return nil
}

// ProcessImageWorker runs ProcessImageArgs.
type ProcessImageWorker struct {
	river.WorkerDefaults[ProcessImageArgs]
	deps *Deps
}

// Timeout bounds one attempt: decoding and resizing a 40-megapixel image
// takes a few seconds.
func (w *ProcessImageWorker) Timeout(*river.Job[ProcessImageArgs]) time.Duration {
	return w.deps.timeLimit(2 * time.Minute)
}

// Work makes and stores the renditions and records them on the row. The
// result is {"recipeId" or "cookbookId", "variants": ["medium", "thumb"]},
// or "skipped" with a reason when the image was replaced or removed in the
// meantime.
func (w *ProcessImageWorker) Work(ctx context.Context, job *river.Job[ProcessImageArgs]) error {
	result, err := w.process(ctx, job)
	return w.deps.recorder().finish(ctx, job.JobRow, result, err)
}

func (w *ProcessImageWorker) process(ctx context.Context, job *river.Job[ProcessImageArgs]) (map[string]any, error) {
	target, id, key := job.Args.Target, job.Args.ID, job.Args.ImageKey
	if !target.Valid() {
		return nil, Fail("bad_target", fmt.Sprintf("%q is not a kind of row with an image", target))
	}
	idField := string(target) + "Id"
	skipped := map[string]any{idField: id, "skipped": "the " + string(target) + "'s image was replaced or removed"}
	current, err := repo.GetImageKey(ctx, w.deps.DB, target, id)
	if errors.Is(err, repo.ErrNotFound) || (err == nil && (current == nil || *current != key)) {
		return skipped, nil
	}
	if err != nil {
		return nil, err
	}

	files := w.deps.fileStore()
	rc, err := files.Open(ctx, key)
	if errors.Is(err, filestore.ErrNotFound) {
		// Either a replacement deleted it just now (then there is nothing
		// to do), or the file store lost it, which no retry mends.
		if current, err := repo.GetImageKey(ctx, w.deps.DB, target, id); err != nil || current == nil || *current != key {
			return skipped, nil
		}
		return nil, Fail("missing_file", "the "+string(target)+"'s image file is missing from the file store")
	}
	if err != nil {
		return nil, fmt.Errorf("open %s image: %w", target, err)
	}
	// The stored file is our own re-encoding of an upload that passed every
	// check, so the default limits hold it.
	im, err := imageproc.Decode(rc, imageproc.Limits{})
	rc.Close()
	if err != nil {
		return nil, Fail("bad_image", "the stored image cannot be decoded: "+err.Error())
	}
	w.deps.recorder().progress(ctx, job.JobRow, 0.3)

	// Rendition keys derive from the image's key, so a retried attempt
	// overwrites its own files instead of leaving orphans, and whoever
	// deletes the image can find them without this job's record.
	variants := map[string]string{}
	var names []string
	sizes := imageproc.Sizes()
	for i, size := range sizes {
		enc, err := imageproc.Resize(im, size.Width)
		if err != nil {
			return nil, fmt.Errorf("resize %s image to %s: %w", target, size.Name, err)
		}
		vk, err := filestore.VariantKey(key, size.Name)
		if err != nil {
			return nil, Fail("bad_key", "the "+string(target)+"'s image key cannot have renditions")
		}
		if err := files.Put(ctx, vk, bytes.NewReader(enc.Data)); err != nil {
			return nil, fmt.Errorf("store %s rendition: %w", size.Name, err)
		}
		variants[size.Name] = vk
		names = append(names, size.Name)
		w.deps.recorder().progress(ctx, job.JobRow, 0.3+0.6*float64(i+1)/float64(len(sizes)))
	}

	replaced, ok, err := repo.SetImageVariants(ctx, w.deps.DB, target, id, key, variants)
	if err != nil {
		return nil, err
	}
	if !ok {
		// Replaced or removed while we worked: whoever did it has deleted
		// (or will delete) the files it knew of; these may have been written
		// after that, so they go too.
		w.deps.deleteStored(ctx, variantKeys(variants))
		return skipped, nil
	}
	w.deps.deleteStored(ctx, replaced)
	return map[string]any{idField: id, "variants": names}, nil
}

func variantKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for _, k := range m {
		keys = append(keys, k)
	}
	return keys
}
