package extract

import (
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
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
		if r.SourceURL != "https://example.com/a/b" {
			t.Errorf("source %q: the caller's address must win", r.SourceURL)
		}
		// Without a caller address (a saved file) and without the site
		// extractors (an unseen site) the same invariants hold, and a
		// source link read from the page is an absolute http(s) address.
		g, err := FromHTMLGeneric(page, "")
		if err != nil && err != ErrNoRecipe {
			t.Fatalf("unexpected error %v", err)
		}
		assertInvariants(t, g)
		if g.SourceURL != "" && !strings.HasPrefix(g.SourceURL, "http://") && !strings.HasPrefix(g.SourceURL, "https://") {
			t.Errorf("source %q is not an http(s) address", g.SourceURL)
		}
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

// FuzzSplitSteps checks the step splitters: glued sentences are split
// without losing or adding a character (in any script), no step is empty,
// and a trailing "Serves N" never survives dropTrailingServes.
func FuzzSplitSteps(f *testing.F) {
	f.Add("Zwiebeln schneiden.Öl erhitzen.Braten.")
	f.Add("Mix the salt and pepper.2. Bring to the boil. 3. Serve.")
	f.Add("Нарезать лук.Обжарить его. Serves 4")
	f.Add("U.S.A. style.Done")
	f.Add("1. Mix.2. Bake.\nServes 4-6.")
	f.Add("Voorbereiden: Zet klaar.Bak de zalm. Bereiden: Maak de saus.")
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return
		}
		if parts := splitGluedSentences(s); parts != nil {
			joined := strings.Join(parts, "")
			if strip(joined) != strip(s) {
				t.Fatalf("splitGluedSentences(%q) = %q lost or added text", s, parts)
			}
		}
		// The labelled parts of a one-paragraph method hold all of its
		// text: each part's name and colon, then its steps.
		if parts := methodParts(s); parts[0].name != "" {
			var b strings.Builder
			for _, p := range parts {
				b.WriteString(p.name + ":" + p.text)
			}
			if strip(b.String()) != strip(oneLine(s)) {
				t.Fatalf("methodParts(%q) = %q lost or added text", s, parts)
			}
		} else if len(parts) != 1 || parts[0].text != s {
			t.Fatalf("methodParts(%q) = %q, want the text whole", s, parts)
		}
		steps := splitSteps(s)
		for _, st := range steps {
			if strings.TrimSpace(st) == "" {
				t.Fatalf("splitSteps(%q) has an empty step: %q", s, steps)
			}
		}
		if len(steps) == 0 {
			return
		}
		out := dropTrailingServes([]Section{{Items: append([]string(nil), steps...)}})
		if n := len(out); n > 0 {
			last := out[n-1].Items
			if len(last) == 0 || servesLine.MatchString(last[len(last)-1]) && len(flatten(out)) == len(steps) {
				t.Fatalf("dropTrailingServes(%q) = %q", steps, out)
			}
		}
	})
}

// strip removes white space, which the splitter may trim at the cuts.
func strip(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
}

// FuzzServingsInText checks the yield reader on arbitrary page lines: it
// never panics and gives a count between 1 and maxTextServings, or nothing.
func FuzzServingsInText(f *testing.F) {
	for _, s := range []string{"Serves 4", "Ración para: 4 - 6", "4 porce", "Portionen: 2", "8 os.", "4492 os.", "10 pieces — 20 minutes", "Makes:", "Pour 4 personnes", "pour 200 g"} {
		f.Add(s, "12")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		n := servingsInText([]block{{kind: 'p', text: a}, {kind: 'p', text: b}})
		if n != nil && (*n < 1 || *n > maxTextServings) {
			t.Fatalf("servingsInText(%q, %q) = %d", a, b, *n)
		}
	})
}

// FuzzYieldAndDuration checks the readers of yields, durations and
// srcsets on arbitrary text: no panic, a yield between 1 and 100000, a
// duration between one minute and a year, and a srcset candidate that is
// part of the srcset.
func FuzzYieldAndDuration(f *testing.F) {
	for _, s := range []string{"Makes about 2 dozen", "Serves four to six", "Makes one 9x13 pan", "99999 dozen", "PT1H90M", "P1H30M", "P30M",
		"an hour and a half", "half an hour", "a 5 minute rest", "a.jpg 300w, b.jpg 1024w", "1 hr. 15 min.", "Step 1: Mix. Step 2: Bake."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if n := parseServings(s); n != nil && (*n < 1 || *n > 100000) {
			t.Fatalf("parseServings(%q) = %d", s, *n)
		}
		if m := parseMinutes(s); m != nil && (*m < 1 || *m > 60*24*365) {
			t.Fatalf("parseMinutes(%q) = %d", s, *m)
		}
		if u := largestInSrcset(s); u != "" && !strings.Contains(s, u) {
			t.Fatalf("largestInSrcset(%q) = %q, not in the set", s, u)
		}
	})
}
