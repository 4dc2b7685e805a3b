package extract

import (
	"html"
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// tagLike is what stripTags removes; none may be left in output text.
var tagLike = regexp.MustCompile(`<[a-zA-Z/!?][^<>]*>`)

func htmlUnescapeOnce(s string) string { return html.UnescapeString(s) }

func addSeeds(f *testing.F) {
	pages, _ := filepath.Glob(filepath.Join("testdata", "*.html"))
	for _, p := range pages {
		b, err := os.ReadFile(p)
		if err == nil {
			f.Add(b)
		}
	}
}

// FuzzFromHTML checks the invariants of every extraction on arbitrary
// pages: no panic, positive numbers, clean text, absolute image links,
// non-nil slices.
func FuzzFromHTML(f *testing.F) {
	addSeeds(f)
	f.Add([]byte(`<script type="application/ld+json">{"@type":"Recipe","name":"&amp;lt;b&amp;gt;x","recipeYield":{"a":[]},"image":"//x","recipeIngredient":"a\nb","recipeInstructions":[[{"@type":"HowToSection"}]]}</script>`))
	f.Fuzz(func(t *testing.T, page []byte) {
		r, err := FromHTML(page, "https://example.com/a/b")
		if err != nil && err != ErrNoRecipe {
			t.Fatalf("unexpected error %v", err)
		}
		assertInvariants(t, r)
	})
}

// FuzzJSONLD checks the tolerant JSON reader: it never panics or hangs, it
// agrees with encoding/json on valid JSON, and a Recipe read from whatever
// it returns keeps the invariants.
func FuzzJSONLD(f *testing.F) {
	f.Add([]byte(`{"@type":"Recipe","name":"x","recipeIngredient":["a",],}`))
	f.Add([]byte("<!--\n{\"a\": \"b\nc\"}{\"@graph\": [{\"@id\": \"#r\"}]}-->"))
	f.Add([]byte(`[{"@type":["Recipe"],"name":"the "best"","recipeYield":["4","4 servings"]}]`))
	f.Fuzz(func(t *testing.T, in []byte) {
		vals := parseLenientJSON(in)
		checkAgainstEncodingJSON(t, in)
		g := newGraph(vals)
		for _, n := range findTyped(vals, "Recipe") {
			r := fromSchema(n, g, nil)
			finish(&r, newPage(nil, "https://example.com/"))
			assertInvariants(t, r)
		}
	})
}
