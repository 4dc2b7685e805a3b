package jobs

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertest"
	"github.com/riverqueue/river/rivertype"

	"larder/config"
	"larder/importer"
	"larder/importer/browser"
	"larder/importer/extract"
	"larder/importer/fetch"
	"larder/repo"
	"larder/repo/repotest"
)

// pancakePage is a recipe page with JSON-LD: named instruction sections
// (HowToSection), keywords, a category, a yield in words, ISO durations
// and a relative image.
const pancakePage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sunday pancakes | Test Kitchen</title>
<script type="application/ld+json">
{"@context": "https://schema.org", "@graph": [
 {"@type": "WebSite", "name": "Test Kitchen"},
 {"@type": "Recipe",
  "name": "Sunday Pancakes",
  "description": "Fluffy pancakes for a slow morning.",
  "image": ["/img/pancakes.png"],
  "recipeYield": "4 servings",
  "prepTime": "PT10M", "cookTime": "PT20M", "totalTime": "PT30M",
  "recipeCategory": "Breakfast",
  "keywords": "quick, weeknight",
  "recipeIngredient": ["200 g flour", "2 eggs", "300 ml milk", "1 tbsp butter"],
  "recipeInstructions": [
   {"@type": "HowToSection", "name": "Batter", "itemListElement": [
     {"@type": "HowToStep", "text": "Whisk the flour, eggs and milk until smooth."}]},
   {"@type": "HowToSection", "name": "Cooking", "itemListElement": [
     {"@type": "HowToStep", "text": "Melt the butter in a pan."},
     {"@type": "HowToStep", "text": "Fry ladlefuls of batter until golden on both sides."}]}
  ]}
]}
</script></head>
<body><h1>Sunday pancakes</h1><p>Our favourite.</p></body></html>`

// noRecipePage is an article: prose, no lists, no structured recipe.
var noRecipePage = `<!doctype html><html><head><title>Why we love markets</title></head><body><article>` +
	strings.Repeat(`<p>Markets are where a town shows what it grows and what it eats. We went early, talked to the stall holders and came home with more questions than vegetables.</p>`, 8) +
	`</article></body></html>`

// importTestPNG is a small picture for the image download.
func importTestPNG(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.NRGBA{uint8(x * 3), uint8(y * 5), 120, 255})
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// recipeSite is a loopback web site with a recipe page, its image, and the
// kinds of pages an import must cope with, counting requests to some.
type recipeSite struct {
	*httptest.Server
	recipeHits, imageHits, brokenHits atomic.Int32
}

func newRecipeSite(t *testing.T) *recipeSite {
	t.Helper()
	pic := importTestPNG(t, 40, 30)
	s := &recipeSite{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		html := func(status int, body string) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.WriteHeader(status)
			io.WriteString(w, body)
		}
		switch r.URL.Path {
		case "/recipes/pancakes":
			s.recipeHits.Add(1)
			html(200, pancakePage)
		case "/img/pancakes.png":
			s.imageHits.Add(1)
			w.Header().Set("Content-Type", "image/png")
			w.Write(pic)
		case "/not-an-image.png":
			html(200, "<!doctype html><title>nope</title>")
		case "/article":
			html(200, noRecipePage)
		case "/forbidden":
			html(403, "<!doctype html><title>Forbidden</title><h1>Access denied</h1>")
		case "/broken":
			s.brokenHits.Add(1)
			html(500, "<!doctype html><title>Oops</title>")
		case "/to-metadata":
			// The classic SSRF target: cloud instance metadata.
			http.Redirect(w, r, "http://169.254.169.254/latest/meta-data/", http.StatusFound)
		default:
			html(404, "<!doctype html><title>Not found</title>")
		}
	}))
	t.Cleanup(s.Close)
	return s
}

// importBundle is the job environment with the import workers' fetcher.
type importBundle struct{ *jobEnv }

// importSetup builds the import workers over fc (Chromium left out: the
// importer package tests it).
func importSetup(t *testing.T, fc *fetch.Client) *importBundle {
	t.Helper()
	return importSetupOn(t, repotest.DB(t), fc)
}

// importSetupOn is importSetup on a database several subtests share; each
// gets its own user.
func importSetupOn(t testing.TB, db *pgxpool.Pool, fc *fetch.Client) *importBundle {
	t.Helper()
	e := newJobEnvOn(t, db)
	e.deps.Fetcher, e.deps.Importer = fc, &importer.Importer{Fetch: fc}
	return &importBundle{e}
}

func loopbackFetcher() *fetch.Client { return fetch.New(fetch.Options{AllowPrivate: true}) }

// enqueueImport inserts the job as the handler does (with the pasted page,
// if any, in the same transaction) and returns River's row.
func (b *importBundle) enqueueImport(t *testing.T, rawURL string, pasted *string) *rivertype.JobRow {
	t.Helper()
	args := ImportRecipeArgs{UserID: b.user.ID, URL: rawURL}
	if pasted != nil {
		id := uuid.New()
		args.PageID = &id
	}
	return b.enqueue(t, args, func(ctx context.Context, tx pgx.Tx, jobID uuid.UUID) error {
		if pasted == nil {
			return nil
		}
		return repo.CreateImportPage(ctx, tx, *args.PageID, jobID, []byte(*pasted))
	})
}

func (b *importBundle) workImport(t *testing.T, row *rivertype.JobRow) *rivertest.WorkResult {
	t.Helper()
	return workJob[ImportRecipeArgs](t, b.db, &ImportRecipeWorker{deps: b.deps}, row)
}

// imported returns the recipe a completed import created.
func (b *importBundle) imported(t *testing.T, row *rivertype.JobRow) repo.Recipe {
	t.Helper()
	o := b.outcome(t, row.ID)
	if o.Code != nil {
		t.Fatalf("job failed: %s: %s", *o.Code, derefOr(o.Message))
	}
	var res ImportRecipeResult
	if err := json.Unmarshal(o.Result, &res); err != nil || res.RecipeID == uuid.Nil {
		t.Fatalf("result %s: %v", o.Result, err)
	}
	rec, err := repo.GetRecipe(context.Background(), b.db, res.RecipeID, repo.Viewer{UserID: &b.user.ID})
	if err != nil {
		t.Fatalf("the importer cannot read the recipe: %v", err)
	}
	return rec
}

// wantFailed checks that the job ended for good with code and message.
func (b *importBundle) wantFailed(t *testing.T, row *rivertype.JobRow, code, message string) {
	t.Helper()
	o := b.outcome(t, row.ID)
	if derefOr(o.Code) != code || derefOr(o.Message) != message || o.Result != nil {
		t.Fatalf("outcome %s: %q, result %s; want %s: %q", derefOr(o.Code), derefOr(o.Message), o.Result, code, message)
	}
	if got := b.row(t, row.ID); got.State != rivertype.JobStateCancelled {
		t.Errorf("River state %s, want cancelled (no retry)", got.State)
	}
	if n := b.count(t, `SELECT count(*) FROM recipe WHERE owner_id = $1`, b.user.ID); n != 0 {
		t.Errorf("%d recipes after a failed import", n)
	}
	if n := b.count(t, `SELECT count(*) FROM import_page p JOIN app_job j ON j.id = p.job_id WHERE j.user_id = $1`, b.user.ID); n != 0 {
		t.Errorf("%d pasted pages left after the failure", n)
	}
}

func (b *importBundle) count(t *testing.T, sql string, args ...any) int {
	t.Helper()
	var n int
	if err := b.db.QueryRow(context.Background(), sql, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// followUp returns the job of kind enqueued for the recipe (named by
// recipeId, or by id for an image_process job).
func (b *importBundle) followUp(t *testing.T, kind string, recipeID uuid.UUID) *rivertype.JobRow {
	t.Helper()
	var id int64
	err := b.db.QueryRow(context.Background(), `SELECT id FROM river_job WHERE kind = $1 AND coalesce(args->>'recipeId', args->>'id') = $2`,
		kind, recipeID.String()).Scan(&id)
	if err != nil {
		t.Fatalf("no %s job for recipe %s: %v", kind, recipeID, err)
	}
	// Follow-ups are the importer's jobs too, readable at GET /api/jobs/:id.
	if o := b.outcome(t, id); o.UserID == nil || *o.UserID != b.user.ID {
		t.Errorf("%s job belongs to %v, want %s", kind, o.UserID, b.user.ID)
	}
	return b.row(t, id)
}

func sectionNames(ss []repo.Section) []string {
	out := []string{}
	for _, s := range ss {
		out = append(out, s.Name)
	}
	return out
}

func sectionTexts(ss []repo.Section) []string {
	out := []string{}
	for _, s := range ss {
		for _, it := range s.Items {
			out = append(out, it.Text)
		}
	}
	return out
}

func TestImportRecipeFromJSONLD(t *testing.T) {
	t.Parallel()
	site := newRecipeSite(t)
	b := importSetup(t, loopbackFetcher())
	ctx := context.Background()
	pageURL := site.URL + "/recipes/pancakes"

	row := b.enqueueImport(t, pageURL, nil)
	if row.Queue != config.QueueImport || row.Kind != "recipe_import" {
		t.Errorf("queue %s, kind %s", row.Queue, row.Kind)
	}
	if res := b.workImport(t, row); res.EventKind != river.EventKindJobCompleted {
		t.Fatalf("event %s: %v", res.EventKind, res.Job.Errors)
	}
	if o := b.outcome(t, row.ID); o.Progress == nil || *o.Progress != 1 {
		t.Errorf("progress %v, want 1", o.Progress)
	}
	// The last stage the job reported is the one after reading the page.
	if o := b.outcome(t, row.ID); o.Stage == nil || *o.Stage != StageSaving {
		t.Errorf("stage %v, want %s", o.Stage, StageSaving)
	}

	rec := b.imported(t, row)
	got := fmt.Sprintf("%s|%s|%s|%v|%v|%v|%v|%s|%v|%v",
		rec.OwnerID, rec.Visibility, rec.Title, *rec.Servings, *rec.PrepMinutes, *rec.CookMinutes, *rec.TotalMinutes,
		*rec.SourceURL, rec.Categories, rec.Tags)
	want := fmt.Sprintf("%s|PRIVATE|Sunday Pancakes|4|10|20|30|%s|[Breakfast]|[quick weeknight]", b.user.ID, pageURL)
	if got != want {
		t.Errorf("recipe\n got %s\nwant %s", got, want)
	}
	if rec.Description != "Fluffy pancakes for a slow morning." {
		t.Errorf("description %q", rec.Description)
	}
	if rec.ImageKey != nil {
		t.Errorf("image set before the download job ran: %v", *rec.ImageKey)
	}
	if g, w := sectionTexts(rec.IngredientSections), []string{"200 g flour", "2 eggs", "300 ml milk", "1 tbsp butter"}; fmt.Sprint(g) != fmt.Sprint(w) {
		t.Errorf("ingredients %q", g)
	}
	if g := sectionNames(rec.InstructionSections); fmt.Sprint(g) != "[Batter Cooking]" {
		t.Errorf("instruction sections %q", g)
	}
	if n := len(sectionTexts(rec.InstructionSections)); n != 3 {
		t.Errorf("%d steps, want 3", n)
	}
	// Written like a recipe created through the API: searchable.
	if n := b.count(t, `SELECT count(*) FROM recipe WHERE id = $1 AND search_vector @@ plainto_tsquery('english', 'pancakes flour')`, rec.ID); n != 1 {
		t.Errorf("the recipe is not found by its words")
	}

	// The mapping and the image download were enqueued with the recipe;
	// working them gives the recipe its links and its image.
	mapRow := b.followUp(t, "mapping_generate", rec.ID)
	if res := workJob[GenerateMappingsArgs](t, b.db, &GenerateMappingsWorker{deps: b.deps}, mapRow); res.EventKind != river.EventKindJobCompleted {
		t.Fatalf("mapping job: %s", res.EventKind)
	}
	m, err := repo.GetMappings(ctx, b.db, rec.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Links) == 0 {
		t.Errorf("no mappings for the imported recipe")
	}

	imgRow := b.followUp(t, "recipe_image_download", rec.ID)
	if imgRow.Queue != config.QueueImages {
		t.Errorf("image job on queue %s", imgRow.Queue)
	}
	if res := workJob[DownloadRecipeImageArgs](t, b.db, &DownloadRecipeImageWorker{deps: b.deps}, imgRow); res.EventKind != river.EventKindJobCompleted {
		t.Fatalf("image job: %s: %v", res.EventKind, res.Job.Errors)
	}
	key, err := repo.GetImageKey(ctx, b.db, repo.RecipeImage, rec.ID)
	if err != nil || key == nil || !strings.HasPrefix(*key, RecipeImagePrefix+"/") {
		t.Fatalf("image key %v, %v", key, err)
	}
	f, err := b.files.Open(ctx, *key)
	if err != nil {
		t.Fatal(err)
	}
	cfg, format, err := image.DecodeConfig(f)
	f.Close()
	if err != nil || cfg.Width != 40 || cfg.Height != 30 {
		t.Fatalf("stored image %s %dx%d: %v", format, cfg.Width, cfg.Height, err)
	}
	// Then its renditions, as for an upload.
	proc := b.followUp(t, "image_process", rec.ID)
	var pargs ProcessImageArgs
	if err := json.Unmarshal(proc.EncodedArgs, &pargs); err != nil || pargs.ImageKey != *key || pargs.Target != repo.RecipeImage {
		t.Errorf("image_process args %s", proc.EncodedArgs)
	}

	// A job that runs again after its success was recorded (the process
	// died before River learned of it) imports nothing twice.
	if _, err := b.db.Exec(ctx, `UPDATE river_job SET state = 'available', finalized_at = NULL WHERE id = $1`, row.ID); err != nil {
		t.Fatal(err)
	}
	if res := b.workImport(t, b.row(t, row.ID)); res.EventKind != river.EventKindJobCompleted {
		t.Fatalf("rerun: %s", res.EventKind)
	}
	if again := b.imported(t, row); again.ID != rec.ID {
		t.Errorf("rerun created recipe %s, want %s", again.ID, rec.ID)
	}
	if n := b.count(t, `SELECT count(*) FROM recipe`); n != 1 {
		t.Errorf("%d recipes after a rerun, want 1", n)
	}
}

func TestImportRecipeFromPastedPage(t *testing.T) {
	t.Parallel()
	// Nothing listens there and .invalid never resolves: the page can only
	// come from the paste.
	const pageURL = "https://recipes.invalid/pancakes"
	b := importSetup(t, fetch.New(fetch.Options{}))
	page := pancakePage
	row := b.enqueueImport(t, pageURL, &page)
	if strings.Contains(string(row.EncodedArgs), "Pancakes") {
		t.Errorf("the pasted page is in the job's args: %s", row.EncodedArgs)
	}
	if res := b.workImport(t, row); res.EventKind != river.EventKindJobCompleted {
		t.Fatalf("event %s: %v", res.EventKind, res.Job.Errors)
	}
	rec := b.imported(t, row)
	if rec.Title != "Sunday Pancakes" || rec.Visibility != repo.VisibilityPrivate || rec.OwnerID != b.user.ID ||
		rec.SourceURL == nil || *rec.SourceURL != pageURL || len(sectionTexts(rec.IngredientSections)) != 4 {
		t.Errorf("recipe %+v", rec.RecipeSummary)
	}
	if n := b.count(t, `SELECT count(*) FROM import_page`); n != 0 {
		t.Errorf("%d pasted pages left after the import", n)
	}
	// Relative links resolve against the given address.
	var args DownloadRecipeImageArgs
	if err := json.Unmarshal(b.followUp(t, "recipe_image_download", rec.ID).EncodedArgs, &args); err != nil ||
		args.URL != "https://recipes.invalid/img/pancakes.png" {
		t.Errorf("image download args %+v: %v", args, err)
	}
	b.followUp(t, "mapping_generate", rec.ID)
}

func TestImportRecipeFailures(t *testing.T) {
	t.Parallel()
	site := newRecipeSite(t)
	db := repotest.DB(t)
	article := noRecipePage
	pancakes := pancakePage

	// For "redirect to loopback": a public site, played by 127.0.0.2,
	// redirects to 127.0.0.1, which the fetcher refuses as production
	// refuses loopback (DenyAddr: private networks must be allowed for
	// the test to reach 127.0.0.2 at all). The redirect is refused when
	// the connection is made.
	originURL := ""
	if ln, err := net.Listen("tcp", "127.0.0.2:0"); err == nil {
		origin := httptest.NewUnstartedServer(http.RedirectHandler(site.URL+"/recipes/pancakes", http.StatusMovedPermanently))
		origin.Listener = ln
		origin.Start()
		t.Cleanup(origin.Close)
		originURL = origin.URL
	}
	loopback := netip.MustParseAddr("127.0.0.1")
	denyLoopback := fetch.New(fetch.Options{AllowPrivate: true, DenyAddr: func(a netip.Addr) bool { return a == loopback }})

	tests := []struct {
		name    string
		url     string
		pasted  *string
		fetcher *fetch.Client
		before  func(t *testing.T, b *importBundle)
		code    string
		message string // "" for any sentence that names an address
	}{
		{name: "no recipe", url: site.URL + "/article",
			code: importer.CodeNoRecipe, message: "this page has no recipe we can read"},
		{name: "pasted page without a recipe", url: "https://recipes.invalid/x", pasted: &article,
			code: importer.CodeNoRecipe, message: "this page has no recipe we can read"},
		{name: "pasted page gone", url: "https://recipes.invalid/x", pasted: &pancakes,
			before: func(t *testing.T, b *importBundle) {
				if _, err := b.db.Exec(context.Background(), `DELETE FROM import_page p USING app_job j
					WHERE j.id = p.job_id AND j.user_id = $1`, b.user.ID); err != nil {
					t.Fatal(err)
				}
			},
			code: "page_missing", message: "the pasted page is no longer stored; paste it again"},
		// Browser nil: nothing can rescue the refusal.
		{name: "403", url: site.URL + "/forbidden",
			code: fetch.CodeBlocked, message: "the site refused us (403)"},
		{name: "404", url: site.URL + "/gone",
			code: fetch.CodeHTTPStatus, message: "the site answered 404 (Not Found)"},
		{name: "not a page", url: site.URL + "/img/pancakes.png",
			code: fetch.CodeNotHTML, message: "the address is not a web page (it is image/png)"},
		// Link-local (cloud metadata) is refused even where private
		// networks are allowed; the redirect is checked like the first
		// request.
		{name: "redirect to metadata", url: site.URL + "/to-metadata", code: fetch.CodeForbiddenAddress},
		{name: "redirect to loopback", url: originURL + "/pancakes", fetcher: denyLoopback, code: fetch.CodeForbiddenAddress},
		// The production setting: the loopback site is out of reach.
		{name: "loopback with private addresses refused", url: site.URL + "/recipes/pancakes",
			fetcher: fetch.New(fetch.Options{}), code: fetch.CodeForbiddenAddress},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if strings.HasPrefix(tt.url, "/") {
				t.Skip("cannot listen on 127.0.0.2")
			}
			fc := tt.fetcher
			if fc == nil {
				fc = loopbackFetcher()
			}
			b := importSetupOn(t, db, fc)
			row := b.enqueueImport(t, tt.url, tt.pasted)
			if tt.before != nil {
				tt.before(t, b)
			}
			b.workImport(t, row)
			if tt.message == "" {
				msg := derefOr(b.outcome(t, row.ID).Message)
				if !strings.Contains(msg, "address") {
					t.Errorf("message %q does not say what was refused", msg)
				}
				tt.message = msg
			}
			b.wantFailed(t, row, tt.code, tt.message)
		})
	}
	// Every case that could have fetched the recipe page was refused
	// before it got there.
	if n := site.recipeHits.Load(); n != 0 {
		t.Errorf("the recipe page was fetched %d times", n)
	}
}

// TestImportRecipeRetriesTransientFailures: a 5xx is retried; the last
// attempt records the site's answer, not a generic error.
func TestImportRecipeRetriesTransientFailures(t *testing.T) {
	t.Parallel()
	site := newRecipeSite(t)
	b := importSetup(t, loopbackFetcher())
	row := b.enqueueImport(t, site.URL+"/broken", nil)
	if row.MaxAttempts != 3 {
		t.Errorf("max attempts %d", row.MaxAttempts)
	}
	res := b.workImport(t, row)
	if res.EventKind != river.EventKindJobFailed {
		t.Fatalf("first attempt: event %s, want a retryable failure", res.EventKind)
	}
	if o := b.outcome(t, row.ID); o.Code != nil || o.Result != nil {
		t.Fatalf("first attempt recorded an outcome: %s", derefOr(o.Code))
	}
	// Retryable, or available when the backoff is already over.
	if got := b.row(t, row.ID); (got.State != rivertype.JobStateRetryable && got.State != rivertype.JobStateAvailable) || got.FinalizedAt != nil {
		t.Errorf("River state %s, want one that runs again", got.State)
	}
	last := b.row(t, row.ID)
	last.Attempt = last.MaxAttempts - 1 // WorkJob makes it the last
	b.workImport(t, last)
	b.wantFailed(t, row, fetch.CodeHTTPStatus, "the site answered 500 (Internal Server Error)")
	if n := site.brokenHits.Load(); n != 2 {
		t.Errorf("%d requests, want 2", n)
	}
}

func TestDownloadRecipeImageRefusals(t *testing.T) {
	t.Parallel()
	site := newRecipeSite(t)
	db := repotest.DB(t)
	ctx := context.Background()

	t.Run("the owner's image stays", func(t *testing.T) {
		b := importSetupOn(t, db, loopbackFetcher())
		id, err := repo.CreateRecipe(ctx, b.db, b.user.ID, repo.RecipeInput{Title: "Toast", Visibility: repo.VisibilityPrivate})
		if err != nil {
			t.Fatal(err)
		}
		mine := "recipes/mine.png"
		if _, err := repo.SetImage(ctx, b.db, repo.RecipeImage, id, &mine); err != nil {
			t.Fatal(err)
		}
		row := b.enqueue(t, DownloadRecipeImageArgs{RecipeID: id, UserID: b.user.ID, URL: site.URL + "/img/pancakes.png"}, nil)
		if res := workJob[DownloadRecipeImageArgs](t, b.db, &DownloadRecipeImageWorker{deps: b.deps}, row); res.EventKind != river.EventKindJobCompleted {
			t.Fatalf("event %s", res.EventKind)
		}
		if key, _ := repo.GetImageKey(ctx, b.db, repo.RecipeImage, id); key == nil || *key != mine {
			t.Errorf("image key %v, want the owner's", key)
		}
		if o := b.outcome(t, row.ID); !strings.Contains(string(o.Result), "skipped") {
			t.Errorf("result %s", o.Result)
		}
		if site.imageHits.Load() != 0 {
			t.Errorf("downloaded an image that was not needed")
		}
	})

	t.Run("not an image", func(t *testing.T) {
		b := importSetupOn(t, db, loopbackFetcher())
		id, err := repo.CreateRecipe(ctx, b.db, b.user.ID, repo.RecipeInput{Title: "Toast", Visibility: repo.VisibilityPrivate})
		if err != nil {
			t.Fatal(err)
		}
		row := b.enqueue(t, DownloadRecipeImageArgs{RecipeID: id, UserID: b.user.ID, URL: site.URL + "/not-an-image.png"}, nil)
		workJob[DownloadRecipeImageArgs](t, b.db, &DownloadRecipeImageWorker{deps: b.deps}, row)
		if o := b.outcome(t, row.ID); derefOr(o.Code) != "not_an_image" {
			t.Errorf("outcome %s: %s", derefOr(o.Code), derefOr(o.Message))
		}
		if key, _ := repo.GetImageKey(ctx, b.db, repo.RecipeImage, id); key != nil {
			t.Errorf("image key %v", *key)
		}
		var stored int
		if err := b.files.Walk(ctx, func(string, int64) error { stored++; return nil }); err != nil {
			t.Fatal(err)
		}
		if stored != 0 {
			t.Errorf("%d files stored", stored)
		}
	})

	t.Run("a private address", func(t *testing.T) {
		b := importSetupOn(t, db, fetch.New(fetch.Options{}))
		id, err := repo.CreateRecipe(ctx, b.db, b.user.ID, repo.RecipeInput{Title: "Toast", Visibility: repo.VisibilityPrivate})
		if err != nil {
			t.Fatal(err)
		}
		row := b.enqueue(t, DownloadRecipeImageArgs{RecipeID: id, UserID: b.user.ID, URL: site.URL + "/img/pancakes.png"}, nil)
		workJob[DownloadRecipeImageArgs](t, b.db, &DownloadRecipeImageWorker{deps: b.deps}, row)
		if o := b.outcome(t, row.ID); derefOr(o.Code) != fetch.CodeForbiddenAddress {
			t.Errorf("outcome %s: %s", derefOr(o.Code), derefOr(o.Message))
		}
		if site.imageHits.Load() != 0 {
			t.Errorf("the private address was reached")
		}
	})
}

func TestImportRetryable(t *testing.T) {
	t.Parallel()
	tests := []struct {
		err   error
		retry bool
	}{
		{&fetch.Error{Code: fetch.CodeTimeout, Message: "timed out"}, true},
		{&fetch.Error{Code: fetch.CodeUnreachable, Message: "could not reach the site"}, true},
		{&fetch.Error{Code: fetch.CodeHTTPStatus, Status: 502, Message: "bad gateway"}, true},
		{&fetch.Error{Code: fetch.CodeHTTPStatus, Status: 410, Message: "gone"}, false},
		{&fetch.Error{Code: fetch.CodeBlocked, Status: 503, Message: "refused"}, false},
		{&fetch.Error{Code: fetch.CodeForbiddenAddress, Message: "private"}, false},
		{&fetch.Error{Code: fetch.CodeTooLarge, Message: "big"}, false},
		{&importer.Error{Code: importer.CodeNoRecipe, Message: "no recipe"}, false},
	}
	for _, tt := range tests {
		code, _, ok := importer.Describe(tt.err)
		if !ok || importRetryable(tt.err, code) != tt.retry {
			t.Errorf("%v: retryable %v, want %v", tt.err, !tt.retry, tt.retry)
		}
	}
}

func TestImportedRecipeInput(t *testing.T) {
	t.Parallel()
	n := func(v int) *int { return &v }
	many := func(k int, f func(int) string) []string {
		out := make([]string, k)
		for i := range out {
			out[i] = f(i)
		}
		return out
	}
	manySections := make([]extract.Section, 25)
	for i := range manySections {
		manySections[i] = extract.Section{Name: fmt.Sprintf("Part %d", i), Items: []string{fmt.Sprintf("step %d", i)}}
	}
	tests := []struct {
		name  string
		in    extract.Recipe
		check func(t *testing.T, got repo.RecipeInput)
	}{
		{"long title is cut at a character boundary", extract.Recipe{Title: strings.Repeat("é", 250)}, func(t *testing.T, got repo.RecipeInput) {
			if got.Title != strings.Repeat("é", recipeTitleMax) {
				t.Errorf("title of %d characters", len([]rune(got.Title)))
			}
		}},
		{"no title names the site", extract.Recipe{}, func(t *testing.T, got repo.RecipeInput) {
			if got.Title != "Recipe from example.com" || got.Visibility != repo.VisibilityPrivate {
				t.Errorf("title %q, visibility %s", got.Title, got.Visibility)
			}
		}},
		{"numbers out of range are dropped", extract.Recipe{Servings: n(0), PrepMinutes: n(-5), CookMinutes: n(200_000), TotalMinutes: n(45)}, func(t *testing.T, got repo.RecipeInput) {
			if got.Servings != nil || got.PrepMinutes != nil || got.CookMinutes != nil || got.TotalMinutes == nil || *got.TotalMinutes != 45 {
				t.Errorf("%v %v %v %v", got.Servings, got.PrepMinutes, got.CookMinutes, got.TotalMinutes)
			}
		}},
		{"a servings unit goes with its servings", extract.Recipe{Servings: n(12), ServingsUnit: " cookies "}, func(t *testing.T, got repo.RecipeInput) {
			if got.ServingsUnit != "cookies" || *got.Servings != 12 {
				t.Errorf("unit %q", got.ServingsUnit)
			}
		}},
		{"a servings unit without servings is dropped", extract.Recipe{Servings: n(0), ServingsUnit: "cookies"}, func(t *testing.T, got repo.RecipeInput) {
			if got.ServingsUnit != "" {
				t.Errorf("unit %q without servings", got.ServingsUnit)
			}
		}},
		{"a servings unit the API would refuse is dropped", extract.Recipe{Servings: n(2), ServingsUnit: strings.Repeat("loaf ", 10)}, func(t *testing.T, got repo.RecipeInput) {
			if got.ServingsUnit != "" || *got.Servings != 2 {
				t.Errorf("unit %q", got.ServingsUnit)
			}
		}},
		{"labels are cleaned", extract.Recipe{Categories: []string{" Dinner ", "dinner", "", strings.Repeat("x", 101)}, Tags: many(40, func(i int) string { return fmt.Sprint("tag", i) })}, func(t *testing.T, got repo.RecipeInput) {
			if fmt.Sprint(got.Categories) != "[Dinner]" || len(got.Tags) != recipeLabelsMax {
				t.Errorf("categories %q, %d tags", got.Categories, len(got.Tags))
			}
		}},
		{"source falls back to the page", extract.Recipe{SourceURL: "javascript:alert(1)"}, func(t *testing.T, got repo.RecipeInput) {
			if got.SourceURL == nil || *got.SourceURL != "https://www.example.com/r/1" {
				t.Errorf("source %v", got.SourceURL)
			}
		}},
		{"page's own source wins", extract.Recipe{SourceURL: "https://example.com/canonical"}, func(t *testing.T, got repo.RecipeInput) {
			if got.SourceURL == nil || *got.SourceURL != "https://example.com/canonical" {
				t.Errorf("source %v", got.SourceURL)
			}
		}},
		{"empty items and sections go", extract.Recipe{IngredientSections: []extract.Section{{Name: "Empty", Items: []string{" ", ""}}, {Name: " Sauce ", Items: []string{" salt ", ""}}}}, func(t *testing.T, got repo.RecipeInput) {
			if len(got.IngredientSections) != 1 || got.IngredientSections[0].Name != "Sauce" || fmt.Sprint(sectionTexts(got.IngredientSections)) != "[salt]" {
				t.Errorf("sections %+v", got.IngredientSections)
			}
		}},
		{"too many sections fold into the last", extract.Recipe{InstructionSections: manySections}, func(t *testing.T, got repo.RecipeInput) {
			if len(got.InstructionSections) != recipeSectionsMax || len(sectionTexts(got.InstructionSections)) != 25 {
				t.Errorf("%d sections, %d steps", len(got.InstructionSections), len(sectionTexts(got.InstructionSections)))
			}
		}},
		{"too many items are cut", extract.Recipe{IngredientSections: []extract.Section{{Items: many(250, func(i int) string { return fmt.Sprint("item ", i) })}}}, func(t *testing.T, got repo.RecipeInput) {
			if n := len(sectionTexts(got.IngredientSections)); n != recipeIngredientsMax {
				t.Errorf("%d ingredients", n)
			}
		}},
		{"long steps are cut", extract.Recipe{InstructionSections: []extract.Section{{Items: []string{strings.Repeat("a", 6000)}}}}, func(t *testing.T, got repo.RecipeInput) {
			if n := len(sectionTexts(got.InstructionSections)[0]); n != recipeStepMax {
				t.Errorf("step of %d characters", n)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tt.check(t, importedRecipeInput(tt.in, "https://www.example.com/r/1"))
		})
	}
}

// jsRecipeShell builds its JSON-LD with JavaScript: only a browser sees the
// recipe.
const jsRecipeShell = `<!doctype html><html><head><title>Pancakes</title></head><body><div id="root"></div>
<script>
fetch('/api/pancakes.json').then(r => r.text()).then(t => {
  const s = document.createElement('script');
  s.type = 'application/ld+json';
  s.textContent = t;
  document.head.appendChild(s);
});
</script></body></html>`

// TestImportRecipeThroughChromium is the one import through the real
// browser here (the importer package tests the renderer itself): a page
// that builds its recipe with JavaScript becomes a recipe.
func TestImportRecipeThroughChromium(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts Chromium")
	}
	fc := loopbackFetcher()
	r, err := browser.New(browser.Options{Fetch: fc, MaxTabs: 1})
	if errors.Is(err, browser.ErrNotInstalled) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	ld := pancakePage[strings.Index(pancakePage, "{") : strings.LastIndex(pancakePage, "}")+1]
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.URL.Path == "/api/pancakes.json" {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, ld)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, jsRecipeShell)
	}))
	t.Cleanup(srv.Close)

	b := importSetup(t, fc)
	b.deps.Importer = &importer.Importer{Fetch: fc, Browser: r}
	row := b.enqueueImport(t, srv.URL+"/pancakes", nil)
	if res := b.workImport(t, row); res.EventKind != river.EventKindJobCompleted {
		t.Fatalf("event %s: %v", res.EventKind, res.Job.Errors)
	}
	if rec := b.imported(t, row); rec.Title != "Sunday Pancakes" || len(sectionTexts(rec.IngredientSections)) != 4 {
		t.Errorf("recipe %+v", rec.RecipeSummary)
	}
}
