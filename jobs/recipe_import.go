package jobs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"

	"larder/config"
	"larder/importer"
	"larder/importer/extract"
	"larder/importer/fetch"
	"larder/repo"
)

// ImportPasteMaxBytes is the largest page a user may paste: what the
// fetcher reads of a page it downloads itself.
const ImportPasteMaxBytes = fetch.DefaultMaxBytes

// ImportRecipeArgs imports the recipe of a web page as a new PRIVATE recipe
// of UserID (POST /api/recipes/import). The page is fetched from URL, or,
// when PageID is set, is the page the user pasted, stored in import_page:
// a pasted page can be megabytes, too much to keep in River's job row for
// the week it retains finished jobs (see migrations/0007_import.sql). URL
// then only resolves the page's relative links and becomes the source.
type ImportRecipeArgs struct {
	UserID uuid.UUID  `json:"userId"`
	URL    string     `json:"url"`
	PageID *uuid.UUID `json:"pageId,omitempty"`
}

// Kind is the stable job kind.
func (ImportRecipeArgs) Kind() string { return "recipe_import" }

// InsertOpts puts the job on the import queue, whose concurrency also bounds
// the Chromium tabs (boot.Workers). Three attempts ride out a site that is
// briefly down or slow; a refusal a person must act on ends the job at once.
func (ImportRecipeArgs) InsertOpts() river.InsertOpts {
	return queueOpts(config.QueueImport, 3)
}

// ImportRecipeResult is what a finished ImportRecipeArgs job reports.
type ImportRecipeResult struct {
	RecipeID uuid.UUID `json:"recipeId"`
}

// ImportRecipeWorker runs ImportRecipeArgs: it reads the recipe (fetching
// with the Chromium fallback, or from the pasted page), then, in one
// transaction, creates the recipe, enqueues its mapping generation and the
// download of its image, deletes the pasted page and records the result.
//
// Failures a person can act on end the job with importer.Describe's code and
// message (no_recipe, blocked, forbidden_address, invalid_url, too_large,
// not_html, too_many_redirects, http_status for a 4xx). Failures that may
// pass (timeout, unreachable, a 5xx, a damaged response) are retried, and
// reported with their own code and message when the last attempt fails too.
type ImportRecipeWorker struct {
	river.WorkerDefaults[ImportRecipeArgs]
	deps *Deps
}

// Timeout bounds one attempt: a plain fetch (15 s), a Chromium render (30 s)
// and the extraction, with room to spare.
func (w *ImportRecipeWorker) Timeout(*river.Job[ImportRecipeArgs]) time.Duration {
	return w.deps.timeLimit(2 * time.Minute)
}

// Work imports the page; the result is {"recipeId"}.
func (w *ImportRecipeWorker) Work(ctx context.Context, job *river.Job[ImportRecipeArgs]) error {
	res, err := w.importRecipe(ctx, job)
	if err != nil && job.Args.PageID != nil && (isFailure(err) || job.Attempt >= job.MaxAttempts) {
		// No attempt will read the pasted page again. (A success
		// deleted it with the recipe.)
		if derr := repo.DeleteImportPage(context.WithoutCancel(ctx), w.deps.DB, *job.Args.PageID); derr != nil {
			w.deps.Logger.WarnContext(ctx, "delete pasted page", "error", derr)
		}
	}
	if err != nil {
		return w.deps.recorder().finish(ctx, job.JobRow, nil, err)
	}
	return w.deps.recorder().finish(ctx, job.JobRow, res, nil)
}

// Stages of an import job besides the importer's own (importer.Stage*),
// as GET /api/jobs/:id reports them.
const (
	StageRetrying = "retrying" // an earlier attempt failed in a way worth retrying
	StageSaving   = "saving"   // the recipe is read; it is being stored
)

func (w *ImportRecipeWorker) importRecipe(ctx context.Context, job *river.Job[ImportRecipeArgs]) (*ImportRecipeResult, error) {
	args := job.Args
	// The result is recorded in the transaction that creates the recipe.
	// If River did not learn of the success (the process died right
	// after the commit), the job runs again: answer with that recipe
	// instead of importing it twice.
	if prev, err := previousResult(ctx, w.deps.DB, job.ID); err != nil {
		return nil, err
	} else if prev != nil {
		return prev, nil
	}
	w.deps.recorder().progress(ctx, job.JobRow, 0.1)
	// What the wait is for (fetching, a browser, reading), for the person
	// watching the job; a retry after a failed attempt says so first.
	stage := func(s string) { w.deps.recorder().stage(ctx, job.JobRow, s) }
	switch {
	case job.Attempt > 1:
		stage(StageRetrying)
	case args.PageID != nil:
		stage(importer.StageReading) // a pasted page is only read
	}
	rec, pageURL, err := w.read(importer.WithStage(ctx, stage), args)
	if err != nil {
		return nil, w.failure(ctx, job, err)
	}
	w.deps.recorder().progress(ctx, job.JobRow, 0.6)
	stage(StageSaving)

	in := importedRecipeInput(rec, pageURL)
	imageURL := ""
	if rec.ImageURL != "" {
		// An image address the fetcher would refuse outright (a data:
		// URL, a literal private address) would only make a failed job.
		if err := w.deps.importer().Fetch.CheckURL(rec.ImageURL); err == nil && len(rec.ImageURL) <= recipeURLMax {
			imageURL = rec.ImageURL
		}
	}
	queue, err := workerQueue(ctx)
	if err != nil {
		return nil, err
	}
	var res ImportRecipeResult
	err = pgx.BeginFunc(ctx, w.deps.DB, func(tx pgx.Tx) error {
		id, err := repo.CreateRecipe(ctx, tx, args.UserID, in)
		if err != nil {
			return err
		}
		res.RecipeID = id
		if _, err := queue.Enqueue(ctx, tx, &args.UserID, GenerateMappingsArgs{RecipeID: id}); err != nil {
			return err
		}
		if imageURL != "" {
			if _, err := queue.Enqueue(ctx, tx, &args.UserID, DownloadRecipeImageArgs{RecipeID: id, UserID: args.UserID, URL: imageURL}); err != nil {
				return err
			}
		}
		if args.PageID != nil {
			if err := repo.DeleteImportPage(ctx, tx, *args.PageID); err != nil {
				return err
			}
		}
		raw, err := json.Marshal(res)
		if err != nil {
			return err
		}
		return repo.CompleteJob(ctx, tx, job.ID, raw)
	})
	if errors.Is(err, repo.ErrNotFound) {
		// The only reference a new recipe has is its owner.
		return nil, Fail("not_found", "the account that started the import no longer exists")
	}
	if err != nil {
		return nil, fmt.Errorf("save imported recipe: %w", err)
	}
	w.deps.Metrics.ImportOutcome(rec.Via, "ok")
	return &res, nil
}

// read returns the recipe of the page and the page's address: fetched (with
// the Chromium fallback) or the pasted page.
func (w *ImportRecipeWorker) read(ctx context.Context, args ImportRecipeArgs) (extract.Recipe, string, error) {
	im := w.deps.importer()
	if args.PageID == nil {
		rec, err := im.Import(ctx, args.URL)
		return rec, args.URL, err
	}
	html, err := repo.GetImportPage(ctx, w.deps.DB, *args.PageID)
	if errors.Is(err, repo.ErrNotFound) {
		return extract.Recipe{}, "", Fail("page_missing", "the pasted page is no longer stored; paste it again")
	}
	if err != nil {
		return extract.Recipe{}, "", err
	}
	rec, err := im.FromHTML(args.URL, html)
	return rec, args.URL, err
}

// failure turns an import error into the job's outcome, as ImportRecipeWorker
// describes. Errors importer.Describe does not know (the job's context
// ended, the database) are returned as they are, for River to retry.
func (w *ImportRecipeWorker) failure(ctx context.Context, job *river.Job[ImportRecipeArgs], err error) error {
	if isFailure(err) {
		return err
	}
	code, message, ok := importer.Describe(err)
	if !ok {
		return err
	}
	if importRetryable(err, code) && job.Attempt < job.MaxAttempts {
		w.deps.Logger.InfoContext(ctx, "import attempt failed; will retry", "url", job.Args.URL,
			"code", code, "attempt", job.Attempt, "error", err)
		return err
	}
	// The cause (which address, which status, why Chromium did not
	// help) is for the log; the user gets the message.
	w.deps.Logger.InfoContext(ctx, "import failed", "url", job.Args.URL, "code", code, "error", err)
	w.deps.Metrics.ImportOutcome("", code)
	return Fail(code, message)
}

// importRetryable reports whether an import failure may pass by itself.
func importRetryable(err error, code string) bool {
	switch code {
	case fetch.CodeTimeout, fetch.CodeUnreachable, fetch.CodeBadResponse:
		return true
	case fetch.CodeHTTPStatus:
		fe := fetch.AsError(err)
		return fe != nil && fe.Status >= 500
	}
	// blocked (403, 429, 503, a bot check) has had its Chromium attempt
	// already; no_recipe, forbidden_address, invalid_url, too_large,
	// not_html and too_many_redirects are the same next time.
	return false
}

func isFailure(err error) bool {
	var f *Failure
	return errors.As(err, &f)
}

// previousResult returns the result an earlier attempt of the River job
// recorded, nil when there is none (or no app_job row, for a job inserted
// by other means).
func previousResult(ctx context.Context, db repo.DBTX, riverJobID int64) (*ImportRecipeResult, error) {
	id, err := repo.GetJobIDByRiverID(ctx, db, riverJobID)
	if errors.Is(err, repo.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	j, err := repo.GetJob(ctx, db, id)
	if err != nil || j.Result == nil {
		return nil, err
	}
	var res ImportRecipeResult
	if err := json.Unmarshal(*j.Result, &res); err != nil || res.RecipeID == uuid.Nil {
		return nil, nil
	}
	return &res, nil
}

// workerQueue is the queue of the River client working the current job, for
// a job that enqueues follow-up jobs in its own transaction.
func workerQueue(ctx context.Context) (*Queue, error) {
	client, err := river.ClientFromContextSafely[pgx.Tx](ctx)
	if err != nil {
		return nil, fmt.Errorf("enqueue follow-up jobs: %w", err)
	}
	return QueueFromClient(client), nil
}

// importer is Deps.Importer, else a plain importer (no browser) over the
// fetcher.
func (d *Deps) importer() *importer.Importer {
	if d.Importer != nil {
		return d.Importer
	}
	return &importer.Importer{Fetch: d.fetcher()}
}

// fetcher is Deps.Fetcher, else one built from the configuration.
func (d *Deps) fetcher() *fetch.Client {
	if d.Fetcher != nil {
		return d.Fetcher
	}
	return fetch.New(fetch.Options{AllowPrivate: d.Config.ImportAllowPrivate})
}

// The limits POST /api/recipes enforces on a recipe (handlers/recipe.go),
// which an imported recipe must meet as well. A page is not a person who
// can fix a field, so the import trims to them instead of refusing.
const (
	recipeTitleMax       = 200
	recipeDescriptionMax = 10_000
	recipeURLMax         = 2048
	recipeLabelMax       = 100
	recipeLabelsMax      = 30
	recipeSectionsMax    = 20
	recipeSectionNameMax = 200
	recipeIngredientsMax = 200
	recipeStepsMax       = 200
	recipeIngredientMax  = 1000
	recipeStepMax        = 5000
	recipeServingsMax    = 1000
	recipeMinutesMax     = 100_000
)

// importedRecipeInput turns an extracted recipe into a PRIVATE recipe
// within the limits of a recipe written through the API. pageURL is the
// address the page was read from, the source when the page names no valid
// one of its own.
func importedRecipeInput(r extract.Recipe, pageURL string) repo.RecipeInput {
	in := repo.RecipeInput{
		Title:        clipText(r.Title, recipeTitleMax),
		Description:  clipText(r.Description, recipeDescriptionMax),
		Servings:     withinRange(r.Servings, 1, recipeServingsMax),
		PrepMinutes:  withinRange(r.PrepMinutes, 0, recipeMinutesMax),
		CookMinutes:  withinRange(r.CookMinutes, 0, recipeMinutesMax),
		TotalMinutes: withinRange(r.TotalMinutes, 0, recipeMinutesMax),
		Visibility:   repo.VisibilityPrivate,
		Categories:   importLabels(r.Categories),
		Tags:         importLabels(r.Tags),
	}
	// A unit counts servings: without them it is dropped, as is one the
	// API would refuse (a reader keeps only short one-line noun phrases).
	if u := strings.TrimSpace(r.ServingsUnit); in.Servings != nil && repo.ServingsUnitOK(u) {
		in.ServingsUnit = u
	}
	if in.Title == "" {
		in.Title = "Imported recipe"
		if u, err := url.Parse(pageURL); err == nil && u.Hostname() != "" {
			in.Title = "Recipe from " + strings.TrimPrefix(u.Hostname(), "www.")
		}
	}
	for _, src := range []string{r.SourceURL, pageURL} {
		if u := strings.TrimSpace(src); webAddress(u) && len(u) <= recipeURLMax {
			in.SourceURL = &u
			break
		}
	}
	in.IngredientSections = importSections(r.IngredientSections, recipeIngredientsMax, recipeIngredientMax)
	in.InstructionSections = importSections(r.InstructionSections, recipeStepsMax, recipeStepMax)
	return in
}

func webAddress(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// clipText trims s and cuts it to at most n characters.
func clipText(s string, n int) string {
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:n]))
}

// withinRange returns v when it is in [lo, hi], else nil (the page's number is
// nonsense, and no number beats a wrong one).
func withinRange(v *int, lo, hi int) *int {
	if v == nil || *v < lo || *v > hi {
		return nil
	}
	n := *v
	return &n
}

// importLabels trims categories or tags and drops empty, overlong and repeated
// ones (the first spelling wins, without regard to case), keeping at most
// recipeLabelsMax.
func importLabels(in []string) []string {
	out := []string{}
	seen := map[string]bool{}
	for _, l := range in {
		l = strings.TrimSpace(l)
		if l == "" || utf8.RuneCountInString(l) > recipeLabelMax || seen[strings.ToLower(l)] {
			continue
		}
		seen[strings.ToLower(l)] = true
		out = append(out, l)
		if len(out) == recipeLabelsMax {
			break
		}
	}
	return out
}

// importSections turns extracted sections into the recipe's: empty items and
// sections go, texts are cut to maxText, at most maxItems items are kept
// over all sections, and sections past recipeSectionsMax are merged into
// the last one kept.
func importSections(in []extract.Section, maxItems, maxText int) []repo.Section {
	out := []repo.Section{}
	count := 0
	for _, s := range in {
		var items []repo.Item
		for _, t := range s.Items {
			if t = clipText(t, maxText); t != "" && count < maxItems {
				items = append(items, repo.Item{Text: t})
				count++
			}
		}
		if len(items) == 0 {
			continue
		}
		if len(out) == recipeSectionsMax {
			last := &out[len(out)-1]
			last.Items = append(last.Items, items...)
			continue
		}
		out = append(out, repo.Section{Name: clipText(s.Name, recipeSectionNameMax), Items: items})
	}
	return out
}
