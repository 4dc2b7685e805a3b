package e2e

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"image"
	"image/color"
	"image/jpeg"
	"mime/multipart"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"larder/repo"
)

// lighthouseRuns is how many measured loads of the page Lighthouse makes
// (after one unreported warm-up load: web/scripts/lighthouse.mjs); the
// median run by performance is the one held to the bar, as Lighthouse's own
// guidance on variability advises (the median of five).
const lighthouseRuns = 5

// TestLighthouse runs Lighthouse 12.2.3 at its default mobile settings on a
// recipe page as a cook's phone opens it from a shared link: a public recipe
// with a photo, two sections of ingredients and six steps. Accessibility and
// best practices must each score at least 95; the performance score is
// printed with the measures it is made of (the goal is 95 as well).
//
// Performance is not asserted because it is a timing: Lighthouse computes it
// from how long the page's main-thread tasks took on this machine (times a
// 4× slowdown), and on two cores Chromium's own compositor and browser
// process compete with the page for them, so one build read 83–97 from
// one run to the next with one Chromium package and 98–99 with the next
// (house rule: speed is measured and printed, not asserted). make test (scripts/test.sh) runs this test on its own after
// every other test, with LARDER_LIGHTHOUSE=1, so that no test package adds
// to that; a plain `go test ./...` skips it.
func TestLighthouse(t *testing.T) {
	if os.Getenv("LARDER_LIGHTHOUSE") != "1" {
		t.Skip("Lighthouse runs on its own after the other tests: make test sets LARDER_LIGHTHOUSE=1 for it")
	}
	requirements(t)
	if _, err := os.Stat("../web/node_modules/lighthouse"); err != nil {
		t.Fatalf("lighthouse is missing (cd web && npm ci): %v", err)
	}
	svc := startService(t)
	recipe := seedLighthouseRecipe(t, svc)

	runs := runLighthouse(t, svc.URL+"/recipes/"+recipe.String(), lighthouseRuns)
	for i, r := range runs {
		t.Logf("run %d: performance %.0f, accessibility %.0f, best practices %.0f (%s)", i+1,
			r.score("performance"), r.score("accessibility"), r.score("best-practices"), r.metrics())
	}
	slices.SortFunc(runs, func(a, b lighthouseRun) int { return cmp.Compare(a.score("performance"), b.score("performance")) })
	median := runs[len(runs)/2]
	// The whole report of the median run, for a look at what moved a score.
	if err := os.MkdirAll("screenshots", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join("screenshots", "lighthouse-recipe.json"), median.raw, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("Lighthouse 12.2.3, mobile, recipe page, median of %d runs: performance %.0f, accessibility %.0f, best practices %.0f (%s)",
		lighthouseRuns, median.score("performance"), median.score("accessibility"), median.score("best-practices"), median.metrics())
	for _, c := range []string{"accessibility", "best-practices"} {
		if median.score(c) < 95 {
			t.Errorf("Lighthouse %s %.0f, want at least 95 (report: e2e/screenshots/lighthouse-recipe.json)", c, median.score(c))
		}
	}
}

// seedLighthouseRecipe creates a public recipe of a usual size with a photo
// and waits for the photo's smaller sizes, which the page offers a phone.
func seedLighthouseRecipe(t *testing.T, svc *service) uuid.UUID {
	t.Helper()
	ctx := context.Background()
	const email, pw = "lighthouse@example.test", "Lighthouse-kitchen-2025"
	cook := verifiedUser(t, svc, "Lena Cook", email, pw)
	four := 4
	id, err := repo.CreateRecipe(ctx, svc.DB, cook.ID, repo.RecipeInput{
		Title:       "Roast tomato soup with basil croutons",
		Description: "A weeknight soup: tomatoes roasted until they collapse, blended with stock, and crisp croutons on top.",
		Visibility:  "PUBLIC", Servings: &four, Categories: []string{"Soup", "Dinner"}, Tags: []string{"vegetarian", "freezes well"},
		IngredientSections: []repo.Section{
			{Name: "Soup", Items: []repo.Item{{Text: "1 kg ripe tomatoes, halved"}, {Text: "1 large onion, quartered"},
				{Text: "4 cloves garlic, unpeeled"}, {Text: "3 tbsp olive oil"}, {Text: "750 ml vegetable stock"},
				{Text: "1 tsp sugar"}, {Text: "Salt and black pepper, to taste"}}},
			{Name: "Croutons", Items: []repo.Item{{Text: "2 thick slices sourdough, cubed"}, {Text: "1 tbsp olive oil"},
				{Text: "A handful of basil leaves"}}},
		},
		InstructionSections: []repo.Section{{Items: []repo.Item{
			{Text: "Heat the oven to 200 °C (180 °C fan)."},
			{Text: "Toss the tomatoes, onion and garlic with the olive oil, salt and pepper in a roasting tin."},
			{Text: "Roast for 40 minutes, until the tomatoes collapse and catch at the edges."},
			{Text: "Squeeze the garlic from its skins into a pan, add the roasted vegetables, stock and sugar, and simmer for 10 minutes."},
			{Text: "Meanwhile toss the bread with the oil and bake for 8–10 minutes until golden; tear the basil over."},
			{Text: "Blend the soup until smooth, season, and serve with the croutons."},
		}}},
	})
	if err != nil {
		t.Fatal(err)
	}

	// The photo goes through the API, as an upload does: stored, then
	// resized by the images job.
	tok := loginToken(t, svc, email, pw)
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	part, _ := w.CreateFormFile("image", "soup.jpg")
	part.Write(photoJPEG(t, 1600, 1200))
	w.Close()
	req, _ := http.NewRequest("POST", svc.URL+"/api/recipes/"+id.String()+"/image", &body)
	req.Header.Set("Content-Type", w.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("image upload: %d", resp.StatusCode)
	}
	waitDB(t, svc, "the photo's smaller sizes", func() (bool, error) {
		var n int
		err := svc.DB.QueryRow(ctx, `SELECT count(*) FROM jsonb_object_keys((SELECT image_variants FROM recipe WHERE id = $1))`, id).Scan(&n)
		return n > 0, err
	})
	return id
}

// loginToken signs in through the API and returns the access token.
func loginToken(t *testing.T, svc *service, email, pw string) string {
	t.Helper()
	b, _ := json.Marshal(map[string]string{"email": email, "password": pw})
	resp, err := http.Post(svc.URL+"/api/auth/login", "application/json", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		AccessToken string `json:"accessToken"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || out.AccessToken == "" {
		t.Fatalf("login: %d %v", resp.StatusCode, err)
	}
	return out.AccessToken
}

// photoJPEG is a photo-like JPEG: smooth colour with fine grain, so it
// compresses like a picture of food rather than like a flat test pattern.
func photoJPEG(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	seed := uint32(1)
	for y := range h {
		for x := range w {
			seed = seed*1664525 + 1013904223
			grain := int(seed>>27) - 16
			img.Set(x, y, color.RGBA{clampByte(180 + x*60/w + grain), clampByte(60 + y*80/h + grain), clampByte(40 + grain), 255})
		}
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 85}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func clampByte(v int) uint8 { return uint8(max(0, min(255, v))) }

// lighthouseRun is one Lighthouse report.
type lighthouseRun struct {
	raw        []byte
	Categories map[string]struct {
		Score float64 `json:"score"`
	} `json:"categories"`
	Audits map[string]struct {
		DisplayValue string `json:"displayValue"`
	} `json:"audits"`
}

// score is a category's score out of 100.
func (r lighthouseRun) score(category string) float64 { return r.Categories[category].Score * 100 }

// metrics names the measures the performance score is made of.
func (r lighthouseRun) metrics() string {
	var parts []string
	for _, a := range []struct{ id, name string }{{"first-contentful-paint", "FCP"}, {"largest-contentful-paint", "LCP"},
		{"total-blocking-time", "TBT"}, {"cumulative-layout-shift", "CLS"}, {"speed-index", "SI"}} {
		parts = append(parts, a.name+" "+r.Audits[a.id].DisplayValue)
	}
	return strings.Join(parts, ", ")
}

// runLighthouse runs web/scripts/lighthouse.mjs (Lighthouse from
// web/node_modules with Debian's Chromium, at Lighthouse's default mobile
// settings: simulated slow 4G and a 4× slower CPU) and returns its reports.
func runLighthouse(t *testing.T, pageURL string, n int) []lighthouseRun {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", "scripts/lighthouse.mjs", pageURL, strconv.Itoa(n))
	cmd.Dir = "../web"
	cmd.Env = append(os.Environ(), "CHROME_PATH="+chromiumPath)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("lighthouse: %v\n%s", err, stderr.String())
	}
	var runs []lighthouseRun
	for line := range bytes.Lines(out) {
		r := lighthouseRun{raw: line}
		if err := json.Unmarshal(line, &r); err != nil {
			t.Fatalf("lighthouse report: %v", err)
		}
		runs = append(runs, r)
	}
	if len(runs) != n {
		t.Fatalf("lighthouse printed %d reports, want %d\n%s", len(runs), n, stderr.String())
	}
	return runs
}
