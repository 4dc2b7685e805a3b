package jobs

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"

	"larder/config"
	"larder/filestore"
	"larder/imageproc"
	"larder/importer/archive"
	"larder/repo"
)

// ArchiveMaxBytes is the largest export a user may upload
// (POST /api/recipes/import/archive).
const ArchiveMaxBytes = 500 << 20

// ArchivePrefix is the file-store folder where an uploaded export waits for
// its job; the job deletes the file when it is done with it.
const ArchivePrefix = "archive-imports"

// ImportArchiveArgs imports every recipe of an export from another app
// (Mealie, Tandoor, Paprika, Nextcloud Cookbook, schema.org JSON) for
// UserID. The export waits in the file store under FileKey; FileName is the
// name it was uploaded with, for the result only (the format is detected
// from the content). Visibility is that of every recipe created.
type ImportArchiveArgs struct {
	UserID     uuid.UUID `json:"userId"`
	FileKey    string    `json:"fileKey"`
	FileName   string    `json:"fileName"`
	Visibility string    `json:"visibility"`
}

// Kind is the stable job kind.
func (ImportArchiveArgs) Kind() string { return "recipe_archive_import" }

// InsertOpts puts the job on the import queue. A worker that dies midway
// leaves the job to be run again, which skips what the first run created
// (as duplicates) and goes on.
func (ImportArchiveArgs) InsertOpts() river.InsertOpts {
	return queueOpts(config.QueueImport, 3)
}

// ArchiveImportResult is what a finished ImportArchiveArgs job reports.
type ArchiveImportResult struct {
	FileName string `json:"fileName"`
	Format   string `json:"format"`
	Total    int    `json:"total"`
	Created  int    `json:"created"`
	Skipped  int    `json:"skipped"`
	Failed   int    `json:"failed"`
	// Recipes has one entry per recipe of the archive, in its order.
	Recipes []ArchiveRecipeResult `json:"recipes"`
	// Unmapped lists every field some recipe carried that has no place
	// here (also given per recipe).
	Unmapped []string `json:"unmapped"`
}

// Statuses of one recipe of an archive.
const (
	ArchiveCreated = "created"
	ArchiveSkipped = "skipped"
	ArchiveFailed  = "failed"
)

// ArchiveRecipeResult is the outcome for one recipe of the archive.
type ArchiveRecipeResult struct {
	Entry  string `json:"entry"`
	Title  string `json:"title,omitempty"`
	Status string `json:"status"`
	// RecipeID is the recipe created, or for a duplicate the recipe the
	// user already had.
	RecipeID *uuid.UUID `json:"recipeId,omitempty"`
	// Reason says why a recipe failed or was skipped.
	Reason   string   `json:"reason,omitempty"`
	Unmapped []string `json:"unmapped,omitempty"`
	// Warning notes what was left out of a created recipe (an unreadable image).
	Warning string `json:"warning,omitempty"`
}

// archiveProgress is the job's progress detail while it runs.
type archiveProgress struct {
	Format string `json:"format"`
	Done   int    `json:"done"`
	Total  int    `json:"total"`
}

// ImportArchiveWorker runs ImportArchiveArgs: it copies the export from the
// file store to a temporary file (a zip must be read at random places, and
// the store may be remote), detects the format, and creates the recipes one
// by one, each in its own transaction with its image, its mapping job and
// its image renditions job, so a failure leaves nothing half-made and the
// recipes before it stay. Progress ("n of m") is recorded after each
// recipe. The file is deleted when the job ends for good.
//
// A file that cannot be read as a whole ends the job with unknown_format,
// corrupt_archive, archive_too_large or archive_missing; a recipe that
// cannot be read or saved is listed as failed with its reason, one the
// user already has (same source address, or same title and ingredients) as
// skipped.
type ImportArchiveWorker struct {
	river.WorkerDefaults[ImportArchiveArgs]
	deps *Deps
}

// Timeout bounds the whole import: a 500 MB export of thousands of
// recipes with their photos.
func (w *ImportArchiveWorker) Timeout(*river.Job[ImportArchiveArgs]) time.Duration {
	return w.deps.timeLimit(3 * time.Hour)
}

// Work imports the archive; the result is an ArchiveImportResult.
func (w *ImportArchiveWorker) Work(ctx context.Context, job *river.Job[ImportArchiveArgs]) error {
	res, err := w.importArchive(ctx, job)
	if err == nil || isFailure(err) || job.Attempt >= job.MaxAttempts {
		// No attempt will read the upload again.
		if derr := w.deps.fileStore().Delete(context.WithoutCancel(ctx), job.Args.FileKey); derr != nil {
			w.deps.Logger.Warn("delete imported archive", "job_id", job.ID, "error", derr)
		}
	}
	if err != nil {
		return w.deps.recorder().finish(ctx, job.JobRow, nil, err)
	}
	return w.deps.recorder().finish(ctx, job.JobRow, res, nil)
}

func (w *ImportArchiveWorker) importArchive(ctx context.Context, job *river.Job[ImportArchiveArgs]) (*ArchiveImportResult, error) {
	tmp, size, err := w.spool(ctx, job.Args.FileKey)
	if err != nil {
		return nil, err
	}
	defer func() {
		tmp.Close()
		os.Remove(tmp.Name())
	}()
	a, err := archive.Open(tmp, size, archive.DefaultLimits)
	if err != nil {
		return nil, archiveFailure(err)
	}
	defer a.Close() // an export zipped again is read from a file of its own
	res := &ArchiveImportResult{FileName: job.Args.FileName, Format: a.Format, Total: a.Total, Recipes: []ArchiveRecipeResult{}, Unmapped: []string{}}
	w.progress(ctx, job, res)
	queue, err := workerQueue(ctx)
	if err != nil {
		return nil, err
	}
	for rec := range a.Recipes() {
		if err := ctx.Err(); err != nil {
			return nil, err // River runs the job again; what was created is skipped then
		}
		out, err := w.importOne(ctx, job, queue, rec)
		if err != nil {
			return nil, err
		}
		res.add(out)
		w.progress(ctx, job, res)
	}
	// An archive may list fewer recipes than it announced (an inner zip
	// without its recipe): the total is what was read.
	res.Total = len(res.Recipes)
	return res, nil
}

func (res *ArchiveImportResult) add(r ArchiveRecipeResult) {
	res.Recipes = append(res.Recipes, r)
	switch r.Status {
	case ArchiveCreated:
		res.Created++
	case ArchiveSkipped:
		res.Skipped++
	default:
		res.Failed++
	}
	for _, u := range r.Unmapped {
		if !slices.Contains(res.Unmapped, u) {
			res.Unmapped = append(res.Unmapped, u)
		}
	}
}

func (w *ImportArchiveWorker) progress(ctx context.Context, job *river.Job[ImportArchiveArgs], res *ArchiveImportResult) {
	done := len(res.Recipes)
	frac := 0.0
	if res.Total > 0 {
		frac = float64(done) / float64(res.Total)
	}
	// The last step (recording the result) sets 1.
	frac = min(frac, 0.99)
	if err := repo.SetJobProgressDetail(ctx, w.deps.DB, job.ID, frac, archiveProgress{Format: res.Format, Done: done, Total: res.Total}); err != nil {
		w.deps.Logger.Warn("record job progress", "job_id", job.ID, "error", err)
	}
}

// spool copies the upload from the file store into a temporary file.
func (w *ImportArchiveWorker) spool(ctx context.Context, key string) (*os.File, int64, error) {
	rc, err := w.deps.fileStore().Open(ctx, key)
	if errors.Is(err, filestore.ErrNotFound) {
		return nil, 0, Fail("archive_missing", "the uploaded file is no longer stored; upload it again")
	}
	if err != nil {
		return nil, 0, fmt.Errorf("open uploaded archive: %w", err)
	}
	defer rc.Close()
	tmp, err := os.CreateTemp("", "larder-archive-*")
	if err != nil {
		return nil, 0, fmt.Errorf("spool uploaded archive: %w", err)
	}
	n, err := io.Copy(tmp, io.LimitReader(rc, ArchiveMaxBytes+1))
	if err == nil && n > ArchiveMaxBytes {
		err = Fail("archive_too_large", fmt.Sprintf("the file is larger than %d MB", ArchiveMaxBytes>>20))
	}
	if err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		if isFailure(err) {
			return nil, 0, err
		}
		return nil, 0, fmt.Errorf("spool uploaded archive: %w", err)
	}
	return tmp, n, nil
}

// archiveFailure turns archive.Open's errors into the job's failure.
func archiveFailure(err error) error {
	switch {
	case errors.Is(err, archive.ErrTooLarge):
		return Fail("archive_too_large", "the archive is refused: "+err.Error())
	case errors.Is(err, archive.ErrCorrupt):
		return Fail("corrupt_archive", "the archive cannot be read: "+err.Error())
	case errors.Is(err, archive.ErrUnknownFormat):
		return Fail("unknown_format", "the file is not an export we can read: a Mealie export or backup, a Tandoor export, "+
			"a Paprika .paprikarecipes file, a Nextcloud Cookbook folder zip, or a zip or JSON file of schema.org recipes")
	}
	return err
}

// importOne creates one recipe of the archive, or says why not. An error
// is returned only when the job itself cannot go on (its context ended).
func (w *ImportArchiveWorker) importOne(ctx context.Context, job *river.Job[ImportArchiveArgs], queue *Queue, rec archive.Recipe) (ArchiveRecipeResult, error) {
	out := ArchiveRecipeResult{Entry: rec.Entry, Title: clipText(rec.Recipe.Title, recipeTitleMax), Unmapped: rec.Unmapped}
	failed := func(reason string) (ArchiveRecipeResult, error) {
		out.Status, out.Reason = ArchiveFailed, reason
		return out, nil
	}
	if rec.Err != nil {
		return failed(rec.Err.Error())
	}
	in := importedRecipeInput(rec.Recipe, "")
	switch {
	case out.Title == "":
		return failed("the recipe has no name")
	case len(in.IngredientSections) == 0 && len(in.InstructionSections) == 0:
		return failed("the recipe has neither ingredients nor steps")
	}
	if job.Args.Visibility != "" {
		in.Visibility = job.Args.Visibility
	}

	imageKey, warning := w.storeImage(ctx, rec.Image)
	out.Warning = warning
	switch {
	case rec.ImageErr != nil:
		// The archive holds a photo for the recipe that could not be read
		// (too large, damaged): the recipe is created without it, and says so.
		out.Warning = "the image was not used: " + rec.ImageErr.Error()
	case warning == "":
		// What the archive gave in a lesser form (a thumbnail in place of
		// the photo), said by the archive's reader.
		out.Warning = rec.Warning
	}
	imageURL := ""
	if imageKey == "" && rec.Recipe.ImageURL != "" && len(rec.Recipe.ImageURL) <= recipeURLMax {
		if err := w.deps.importer().Fetch.CheckURL(rec.Recipe.ImageURL); err == nil {
			imageURL = rec.Recipe.ImageURL
		}
	}
	var ingredients []string
	for _, s := range in.IngredientSections {
		for _, it := range s.Items {
			ingredients = append(ingredients, it.Text)
		}
	}
	lockKey := in.Title
	if in.SourceURL != nil {
		lockKey = *in.SourceURL
	}
	userID := job.Args.UserID
	var created, duplicate uuid.UUID
	err := pgx.BeginFunc(ctx, w.deps.DB, func(tx pgx.Tx) error {
		if err := repo.LockRecipeImport(ctx, tx, userID, lockKey); err != nil {
			return err
		}
		dup, found, err := repo.FindDuplicateRecipe(ctx, tx, userID, in.SourceURL, in.Title, ingredients)
		if err != nil || found {
			duplicate = dup
			return err
		}
		id, err := repo.CreateRecipe(ctx, tx, userID, in)
		if err != nil {
			return err
		}
		created = id
		if imageKey != "" {
			if _, err := repo.SetImageIfNone(ctx, tx, repo.RecipeImage, id, imageKey); err != nil {
				return err
			}
			if _, err := queue.Enqueue(ctx, tx, &userID, ProcessImageArgs{Target: repo.RecipeImage, ID: id, ImageKey: imageKey}); err != nil {
				return err
			}
		} else if imageURL != "" {
			if _, err := queue.Enqueue(ctx, tx, &userID, DownloadRecipeImageArgs{RecipeID: id, UserID: userID, URL: imageURL}); err != nil {
				return err
			}
		}
		_, err = queue.Enqueue(ctx, tx, &userID, GenerateMappingsArgs{RecipeID: id})
		return err
	})
	if imageKey != "" && (err != nil || created == uuid.Nil) {
		w.deps.deleteStored(ctx, []string{imageKey}) // no row names it
	}
	switch {
	case err != nil && ctx.Err() != nil:
		return out, ctx.Err()
	case errors.Is(err, repo.ErrNotFound):
		return out, Fail("not_found", "the account that started the import no longer exists")
	case err != nil:
		w.deps.Logger.Warn("archive recipe not saved", "job_id", job.ID, "entry", rec.Entry, "error", err)
		return failed("the recipe could not be saved")
	case duplicate != uuid.Nil:
		out.Status, out.RecipeID, out.Warning = ArchiveSkipped, &duplicate, ""
		out.Reason = "you already have this recipe (same source address, or same title and ingredients)"
		return out, nil
	}
	out.Status, out.RecipeID = ArchiveCreated, &created
	return out, nil
}

// storeImage checks and re-encodes an image from the archive like an
// upload and stores it; an image that cannot be used costs the recipe its
// image, not the recipe: the warning says why.
func (w *ImportArchiveWorker) storeImage(ctx context.Context, data []byte) (key, warning string) {
	if len(data) == 0 {
		return "", ""
	}
	enc, err := imageproc.Process(bytes.NewReader(data), imageproc.Limits{MaxBytes: ImageMaxBytes})
	if err != nil {
		return "", "the image was not used: " + err.Error()
	}
	key = filestore.NewKey(RecipeImagePrefix, enc.Ext())
	if err := w.deps.fileStore().Put(ctx, key, bytes.NewReader(enc.Data)); err != nil {
		w.deps.Logger.Warn("store archive image", "error", err)
		return "", "the image could not be stored"
	}
	return key, ""
}
