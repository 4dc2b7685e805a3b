package handlers

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"

	"larder/config"
	"larder/filestore"
	"larder/importer"
	"larder/importer/fetch"
	"larder/jobs"
	"larder/repo"
)

// Importing needs only a signed-in caller; the recipe is theirs.
func init() {
	addAuthz(authzCase{method: "POST", route: "/api/recipes/import", want: ruleAuth,
		prepare: func(*testing.T, *testBundle, repo.User) (string, any) {
			return "/api/recipes/import", map[string]string{"url": "https://www.example.com/recipes/soup"}
		}})
}

// soupPage is a recipe page with JSON-LD: a yield as a number, categories
// and keywords as arrays, an entity in the text and a relative image.
const soupPage = `<!doctype html>
<html><head><meta charset="utf-8"><title>Tomato soup</title>
<script type="application/ld+json">
{"@context": "https://schema.org/", "@type": "Recipe",
 "name": "Roast Tomato Soup",
 "description": "A warming soup &amp; a good use of late tomatoes.",
 "image": {"@type": "ImageObject", "url": "/media/soup.png"},
 "recipeYield": 6,
 "prepTime": "PT15M", "cookTime": "PT1H", "totalTime": "PT1H15M",
 "recipeCategory": ["Soup", "Starter"],
 "keywords": ["vegetarian", "autumn"],
 "recipeIngredient": ["1 kg tomatoes", "2 onions", "3 cloves garlic", "500 ml vegetable stock"],
 "recipeInstructions": [
  {"@type": "HowToStep", "text": "Roast the tomatoes, onions and garlic for 40 minutes."},
  {"@type": "HowToStep", "text": "Blend with the vegetable stock and simmer for 20 minutes."}
 ]}
</script></head><body><h1>Roast tomato soup</h1></body></html>`

var articlePage = `<!doctype html><html><head><title>On soup</title></head><body>` +
	strings.Repeat(`<p>Soup is less a recipe than a habit: whatever the week left behind, warmed and shared. This essay has opinions but no instructions.</p>`, 6) +
	`</body></html>`

func importPNG(t *testing.T) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, 48, 32))
	for y := range 32 {
		for x := range 48 {
			img.Set(x, y, color.NRGBA{200, uint8(x * 4), uint8(y * 6), 255})
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// soupSite serves the recipe, its image, an article and a refusal on
// loopback, counting requests.
type soupSite struct {
	*httptest.Server
	hits atomic.Int32
}

func newSoupSite(t *testing.T) *soupSite {
	t.Helper()
	pic := importPNG(t)
	s := &soupSite{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.hits.Add(1)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		switch r.URL.Path {
		case "/recipes/soup":
			io.WriteString(w, soupPage)
		case "/media/soup.png":
			w.Header().Set("Content-Type", "image/png")
			w.Write(pic)
		case "/essays/soup":
			io.WriteString(w, articlePage)
		case "/members-only":
			w.WriteHeader(http.StatusForbidden)
			io.WriteString(w, "<!doctype html><title>Forbidden</title>")
		default:
			w.WriteHeader(http.StatusNotFound)
		}
	}))
	t.Cleanup(s.Close)
	return s
}

// allowPrivate lets the API accept loopback addresses, for the test sites.
func allowPrivate(d *Deps) { d.Config.ImportAllowPrivate = true }

// importSetup builds the app with private addresses allowed and real
// workers on the import, images and mapping queues (no browser: the
// importer package tests Chromium).
func importSetup(t *testing.T) *testBundle {
	t.Helper()
	b := setup(t, allowPrivate)
	fc := fetch.New(fetch.Options{AllowPrivate: true})
	deps := &jobs.Deps{DB: b.db, Logger: b.deps.Logger, Config: b.deps.Config,
		Files: filestore.Local{Root: b.deps.Config.UploadPath}, Fetcher: fc, Importer: &importer.Importer{Fetch: fc}}
	client, err := jobs.NewClient(b.db, b.deps.Logger, jobs.NewWorkers(deps), jobs.ClientConfig{
		Concurrency: map[string]int{config.QueueImport: 2, config.QueueImages: 2, config.QueueMapping: 2},
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := client.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = jobs.Shutdown(client, 5*time.Second) })
	return b
}

// startImport posts the import and returns the job it answered with.
func startImport(t *testing.T, b *testBundle, tok string, body any) Job {
	t.Helper()
	r := b.do(t, "POST", "/api/recipes/import", body, tok)
	wantStatus(t, r, 202)
	var acc struct{ Job Job }
	r.JSON(t, &acc)
	if acc.Job.Kind != "recipe_import" || acc.Job.ID == uuid.Nil {
		t.Fatalf("job %s", r.Body)
	}
	return acc.Job
}

// importedRecipe waits for the import to complete and reads its recipe.
func importedRecipe(t *testing.T, b *testBundle, tok string, id uuid.UUID) Recipe {
	t.Helper()
	j := finishedJob(t, b, tok, id)
	var res struct{ RecipeID uuid.UUID }
	if j.State != "completed" || json.Unmarshal(j.Result, &res) != nil || res.RecipeID == uuid.Nil {
		raw, _ := json.Marshal(j)
		t.Fatalf("job %s", raw)
	}
	r := b.do(t, "GET", "/api/recipes/"+res.RecipeID.String(), nil, tok)
	wantStatus(t, r, 200)
	var rec Recipe
	r.JSON(t, &rec)
	return rec
}

func TestImportRecipeFromURL(t *testing.T) {
	t.Parallel()
	site := newSoupSite(t)
	b := importSetup(t)
	u, tok := b.user(t, repo.RoleUser)
	_, otherTok := b.user(t, repo.RoleUser)
	pageURL := site.URL + "/recipes/soup"

	j := startImport(t, b, tok, map[string]string{"url": pageURL})
	rec := importedRecipe(t, b, tok, j.ID)

	got := fmt.Sprintf("%s|%s|%s|%s|%d|%d|%d|%d|%s|%v|%v", rec.OwnerID, rec.Visibility, rec.Title, rec.Description,
		*rec.Servings, *rec.PrepMinutes, *rec.CookMinutes, *rec.TotalMinutes, *rec.SourceURL, rec.Categories, rec.Tags)
	want := fmt.Sprintf("%s|PRIVATE|Roast Tomato Soup|A warming soup & a good use of late tomatoes.|6|15|60|75|%s|[Soup Starter]|[autumn vegetarian]",
		u.ID, pageURL)
	if got != want {
		t.Errorf("recipe\n got %s\nwant %s", got, want)
	}
	if len(rec.IngredientSections) != 1 || len(rec.IngredientSections[0].Ingredients) != 4 ||
		len(rec.InstructionSections) != 1 || len(rec.InstructionSections[0].Steps) != 2 {
		t.Errorf("sections %+v %+v", rec.IngredientSections, rec.InstructionSections)
	}

	// Private: nobody else sees the recipe or the job.
	wantStatus(t, b.do(t, "GET", "/api/recipes/"+rec.ID.String(), nil, otherTok), 404)
	wantStatus(t, b.do(t, "GET", "/api/jobs/"+j.ID.String(), nil, otherTok), 404)
	// It is listed among the owner's recipes and found by its words.
	var list struct{ Items []RecipeSummary }
	b.do(t, "GET", "/api/recipes?owner=me&q=tomato", nil, tok).JSON(t, &list)
	if len(list.Items) != 1 || list.Items[0].ID != rec.ID {
		t.Errorf("search for the imported recipe: %+v", list.Items)
	}

	// The mapping job the import enqueued links ingredients to steps.
	eventually(t, "mappings", func() bool {
		var m MappingSet
		b.do(t, "GET", "/api/recipes/"+rec.ID.String()+"/mappings", nil, tok).JSON(t, &m)
		return len(m.Mappings) > 0
	})

	// The image job downloads the picture and stores it like an upload,
	// served under /uploads, then its renditions are made.
	eventually(t, "the recipe's image", func() bool {
		b.do(t, "GET", "/api/recipes/"+rec.ID.String(), nil, tok).JSON(t, &rec)
		return rec.ImageURL != nil && len(rec.ImageVariants) > 0
	})
	if !strings.HasPrefix(*rec.ImageURL, "/uploads/recipes/") {
		t.Errorf("image url %s", *rec.ImageURL)
	}
	img := b.do(t, "GET", *rec.ImageURL, nil, "")
	wantStatus(t, img, 200)
	cfg, _, err := image.DecodeConfig(bytes.NewReader(img.Body))
	if err != nil || cfg.Width != 48 || cfg.Height != 32 || !strings.HasPrefix(img.Header.Get("Content-Type"), "image/") {
		t.Errorf("served image %s %dx%d: %v", img.Header.Get("Content-Type"), cfg.Width, cfg.Height, err)
	}
	for name, v := range rec.ImageVariants {
		wantStatus(t, b.do(t, "GET", v, nil, ""), 200)
		_ = name
	}
}

func TestImportRecipeFromPastedPage(t *testing.T) {
	t.Parallel()
	b := importSetup(t)
	u, tok := b.user(t, repo.RoleUser)
	// Nothing answers there: the recipe can only come from the paste.
	const pageURL = "https://recipes.invalid/soup"

	j := startImport(t, b, tok, map[string]string{"url": pageURL, "html": soupPage})
	var args []byte
	if err := b.db.QueryRow(context.Background(), `SELECT args FROM river_job WHERE kind = 'recipe_import'`).Scan(&args); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(args, []byte("Tomato")) {
		t.Errorf("the pasted page is in the job's args: %s", args)
	}
	rec := importedRecipe(t, b, tok, j.ID)
	if rec.OwnerID != u.ID || rec.Visibility != "PRIVATE" || rec.Title != "Roast Tomato Soup" ||
		rec.SourceURL == nil || *rec.SourceURL != pageURL || len(rec.IngredientSections) != 1 {
		t.Errorf("recipe %+v", rec.RecipeSummary)
	}
	var pages int
	if err := b.db.QueryRow(context.Background(), `SELECT count(*) FROM import_page`).Scan(&pages); err != nil || pages != 0 {
		t.Errorf("%d pasted pages kept after the import (%v)", pages, err)
	}
}

func TestImportRecipeJobFailures(t *testing.T) {
	t.Parallel()
	site := newSoupSite(t)
	b := importSetup(t)
	_, tok := b.user(t, repo.RoleUser)
	tests := []struct {
		name          string
		body          map[string]string
		code, message string
	}{
		{"no recipe", map[string]string{"url": site.URL + "/essays/soup"}, "no_recipe", "this page has no recipe we can read"},
		{"pasted page without a recipe", map[string]string{"url": "https://recipes.invalid/x", "html": articlePage},
			"no_recipe", "this page has no recipe we can read"},
		{"refused", map[string]string{"url": site.URL + "/members-only"}, "blocked", "the site refused us (403)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			j := finishedJob(t, b, tok, startImport(t, b, tok, tt.body).ID)
			if j.State != "failed" || j.Error == nil || j.Error.Code != tt.code || j.Error.Message != tt.message || string(j.Result) != "null" {
				raw, _ := json.Marshal(j)
				t.Errorf("job %s, want failed with %s: %q", raw, tt.code, tt.message)
			}
		})
	}
}

// TestImportRecipeRefusesBadRequests: each request is refused before
// anything is enqueued or fetched. Private addresses are refused as in
// production (ImportAllowPrivate false).
func TestImportRecipeRefusesBadRequests(t *testing.T) {
	t.Parallel()
	site := newSoupSite(t)
	b := setup(t)
	_, tok := b.user(t, repo.RoleUser)
	// No characters JSON escapes, so the body stays under the app's limit
	// and the page's own limit is what refuses it.
	huge := strings.Repeat("pasted ", jobs.ImportPasteMaxBytes/len("pasted ")+1)
	tests := []struct {
		name   string
		body   any
		status int
		code   string
		field  string
	}{
		{"no url", map[string]string{}, 400, "validation_failed", "url"},
		{"blank url", map[string]string{"url": "  "}, 400, "validation_failed", "url"},
		{"not http", map[string]string{"url": "ftp://example.com/soup"}, 400, "validation_failed", "url"},
		{"file url", map[string]string{"url": "file:///etc/passwd"}, 400, "validation_failed", "url"},
		{"no host", map[string]string{"url": "https:///soup"}, 400, "validation_failed", "url"},
		{"loopback", map[string]string{"url": "http://127.0.0.1/"}, 400, "validation_failed", "url"},
		{"the test site", map[string]string{"url": site.URL + "/recipes/soup"}, 400, "validation_failed", "url"},
		{"loopback spelled oddly", map[string]string{"url": "http://0x7f.1/"}, 400, "validation_failed", "url"},
		{"localhost", map[string]string{"url": "http://localhost:8080/"}, 400, "validation_failed", "url"},
		{"ipv6 loopback", map[string]string{"url": "http://[::1]/"}, 400, "validation_failed", "url"},
		{"ipv4-mapped ipv6", map[string]string{"url": "http://[::ffff:10.0.0.1]/"}, 400, "validation_failed", "url"},
		{"private network", map[string]string{"url": "http://192.168.1.1/"}, 400, "validation_failed", "url"},
		{"cloud metadata", map[string]string{"url": "http://169.254.169.254/latest/meta-data/"}, 400, "validation_failed", "url"},
		{"long url", map[string]string{"url": "https://example.com/" + strings.Repeat("a", 2048)}, 400, "validation_failed", "url"},
		{"pasted page empty", map[string]string{"url": "https://example.com/soup", "html": " \n"}, 400, "validation_failed", "html"},
		{"pasted page too large", map[string]string{"url": "https://example.com/soup", "html": huge}, 413, "payload_too_large", ""},
		{"url not a string", `{"url": 42}`, 400, "validation_failed", "url"},
		{"not json", "url=https://example.com", 400, "invalid_request", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := b.do(t, "POST", "/api/recipes/import", tt.body, tok)
			wantStatus(t, r, tt.status)
			var e struct {
				Error struct {
					Code    string
					Message string
					Fields  map[string]string
				}
			}
			r.JSON(t, &e)
			if e.Error.Code != tt.code || e.Error.Message == "" {
				t.Errorf("error %s", r.Body)
			}
			if tt.field != "" && e.Error.Fields[tt.field] == "" {
				t.Errorf("no message for %s: %s", tt.field, r.Body)
			}
		})
	}
	var jobs, riverJobs, pages int
	if err := b.db.QueryRow(context.Background(), `SELECT (SELECT count(*) FROM app_job), (SELECT count(*) FROM river_job),
		(SELECT count(*) FROM import_page)`).Scan(&jobs, &riverJobs, &pages); err != nil {
		t.Fatal(err)
	}
	if jobs+riverJobs+pages != 0 {
		t.Errorf("refused requests left %d jobs, %d River jobs, %d pages", jobs, riverJobs, pages)
	}
	if n := site.hits.Load(); n != 0 {
		t.Errorf("the site was reached %d times", n)
	}
}
