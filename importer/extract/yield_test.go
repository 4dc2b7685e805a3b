package extract

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// A yield that counts something other than people keeps its noun, as
// written; one that counts people, or gives a bare number, has none. The
// cases are labelled by the rule a cook states: the noun after the number
// is what the recipe makes, unless it (or "serves" before the number)
// names people or their portions.
func TestParseYieldUnit(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   any
		want string
	}{
		// things the recipe makes
		{"12 cookies", "cookies"},
		{"Makes 24 muffins", "muffins"},
		{"2 loaves", "loaves"},
		{"1 9-inch pie", "9-inch pie"},
		{"Makes 6 jars", "jars"},
		{"Makes about 2 dozen Cookies", "Cookies"}, // as written
		{"Yield: 10 to 12 scones", "scones"},
		{"Makes one 9x13 pan", "9x13 pan"},
		{"24 muffins (about 1/4 cup batter each)", "muffins"},
		{"2 loaves, about 1 lb each", "loaves"},
		{"Makes 2 loaves or 24 rolls.", "loaves"},
		{"9 large or 16 small brownies", "large brownies"}, // the sizes share the alternative's noun
		{"12 large or 24 small.", "large"},
		{"12 Stück", "Stück"}, // another language: as written
		{"4 cups", "cups"},
		{[]any{"24", "24 muffins"}, "muffins"},
		{map[string]any{"value": 24.0, "unitText": "muffins"}, "muffins"},
		{map[string]any{"value": 24.0, "unitText": "24 muffins"}, "muffins"},
		{map[string]any{"value": 1.0, "unitText": "9-inch pie"}, "9-inch pie"},
		// people
		{"Serves 4", ""},
		{"4 servings", ""},
		{"4 people", ""},
		{"4 portions", ""},
		{"Portionen: 4", ""},
		{"4 personnes", ""},
		{"4 porciones", ""},
		{"Für 4 Personen", ""},
		{"4 (1-cup) servings", ""},
		{"4 1.25 cups curry lentils + 1 cup rice", ""}, // the size of each serving, not what is counted
		{"Serves 4 hungry adults", ""},
		{"4人份", ""},
		{map[string]any{"value": 4.0, "unitText": "servings"}, ""},
		// no noun
		{"4", ""},
		{4.0, ""},
		{"4-6", ""},
		{"Makes plenty", ""},
		{"12 " + strings.Repeat("very ", 10) + "small cookies", ""}, // a sentence, not a unit
	}
	for _, tt := range tests {
		if got := parseYieldUnit(tt.in); got != tt.want {
			t.Errorf("parseYieldUnit(%#v) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// The page reader keeps the unit of recipeYield with its number.
func TestSchemaYieldUnit(t *testing.T) {
	t.Parallel()
	page := `<html><head><script type="application/ld+json">{"@context":"https://schema.org","@type":"Recipe",
"name":"Rye bread","recipeYield":"Makes 2 small loaves","recipeIngredient":["500 g rye flour","10 g salt"],
"recipeInstructions":"Mix. Bake."}</script></head><body></body></html>`
	r, err := FromHTML([]byte(page), "https://example.com/rye")
	if err != nil {
		t.Fatal(err)
	}
	if r.Servings == nil || *r.Servings != 2 || r.ServingsUnit != "small loaves" {
		t.Fatalf("servings %v unit %q", deref(r.Servings), r.ServingsUnit)
	}
}

// FuzzYieldUnit checks the unit reader on arbitrary text: no panic; a unit
// only with a number, made of words written in the text, trimmed, and no
// longer than a unit may be.
func FuzzYieldUnit(f *testing.F) {
	for _, s := range []string{"12 cookies", "Makes about 2 dozen Cookies", "1 9-inch pie", "Serves 4", "4 (1-cup) servings", "İ 2 loaves", "two dozen rolls", "9 large or 16 small brownies."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		u := yieldUnitFromText(s)
		if u == "" {
			return
		}
		if yieldFromText(s) == nil || u != strings.TrimSpace(u) || utf8.RuneCountInString(u) > servingsUnitMax {
			t.Fatalf("yieldUnitFromText(%q) = %q", s, u)
		}
		for _, w := range strings.Fields(u) {
			if !strings.Contains(strings.ToLower(cleanText(s)), strings.ToLower(w)) {
				t.Fatalf("yieldUnitFromText(%q) = %q: %q is not in the text", s, u, w)
			}
		}
	})
}
