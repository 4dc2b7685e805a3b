package extract

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/")

// goldenPageURL is the address every testdata page is read as.
const goldenPageURL = "https://example.com/recipes/test-page/"

// goldenResult is what a golden file holds: the recipe, or the error.
type goldenResult struct {
	Recipe *Recipe `json:"recipe,omitempty"`
	Error  string  `json:"error,omitempty"`
}

// TestGolden reads every testdata/*.html page and compares the result with
// its .golden.json file (go test -update rewrites them).
func TestGolden(t *testing.T) {
	t.Parallel()
	pages, err := filepath.Glob(filepath.Join("testdata", "*.html"))
	if err != nil || len(pages) == 0 {
		t.Fatalf("no testdata pages: %v", err)
	}
	for _, page := range pages {
		name := strings.TrimSuffix(filepath.Base(page), ".html")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			raw, err := os.ReadFile(page)
			if err != nil {
				t.Fatal(err)
			}
			var res goldenResult
			r, err := FromHTML(raw, goldenPageURL)
			if err != nil {
				res.Error = err.Error()
			} else {
				res.Recipe = &r
			}
			got, err := json.MarshalIndent(res, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			golden := strings.TrimSuffix(page, ".html") + ".golden.json"
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from %s:\n--- got\n%s\n--- want\n%s", page, golden, got, want)
			}
		})
	}
}

func TestNoRecipe(t *testing.T) {
	t.Parallel()
	for _, page := range []string{
		"",
		"<html><body><p>Just words.</p></body></html>",
		`<script type="application/ld+json">{"@type":"Organization","name":"x"}</script>`,
		`<script type="application/ld+json">{"@type":"Recipe","name":"Only a title"}</script>`,
	} {
		if _, err := FromHTML([]byte(page), "https://example.com/"); !errors.Is(err, ErrNoRecipe) {
			t.Errorf("FromHTML(%.40q) error = %v, want ErrNoRecipe", page, err)
		}
	}
}

// TestFieldFailureIsIsolated makes one field reader panic and checks that
// the other fields are still read.
func TestFieldFailureIsIsolated(t *testing.T) {
	t.Parallel()
	node := map[string]any{
		"@type":            "Recipe",
		"name":             "Toast",
		"recipeYield":      "2",
		"recipeIngredient": []any{"2 slices bread"},
	}
	fields := []schemaField{
		{"boom", func(_ map[string]any, _ *graph, _ *url.URL, r *Recipe) {
			r.Description = "half-written"
			panic("reader bug")
		}},
	}
	fields = append(fields, schemaFields...)
	r := readFields(node, nil, nil, fields)
	if r.Description != "" {
		t.Errorf("description = %q, want it dropped with the failed field", r.Description)
	}
	if r.Title != "Toast" || r.Servings == nil || *r.Servings != 2 || countItems(r.IngredientSections) != 1 {
		t.Errorf("other fields lost after one failed: %+v", r)
	}
}

func TestSiteRegistry(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for _, s := range siteExtractors {
		if s.why == "" || s.fix == nil || len(s.hosts) == 0 {
			t.Errorf("site extractor %v lacks hosts, reason or fix", s.hosts)
		}
		for _, h := range s.hosts {
			if seen[h] {
				t.Errorf("host %s registered twice", h)
			}
			seen[h] = true
			if siteFor("www."+h) != s || siteFor("m."+h) != s {
				t.Errorf("siteFor does not find %s with a subdomain", h)
			}
		}
	}
	if siteFor("example.com") != nil {
		t.Error("siteFor(example.com) found an extractor")
	}
	sites, err := os.ReadFile("SITES.md")
	if err != nil {
		t.Fatal(err)
	}
	for h := range seen {
		if !strings.Contains(string(sites), h) {
			t.Errorf("SITES.md does not list %s", h)
		}
	}
}
