package extract

import (
	"encoding/json"
	"net/url"
	"strings"
)

// The functions below let other readers of recipes (the archive importer's
// format readers) use the page reader's rules for the same fields, so a
// yield, a duration or a schema.org object reads the same way from an
// export file as from a web page.

// Servings reads a yield in any of its published shapes (4, "4 servings",
// "Serves 4-6", ["4"], {"value": 4}), by the rule of recipeYield: a range
// gives its upper bound. It returns nil when there is no positive number.
func Servings(v any) *int { return parseServings(v) }

// Minutes reads a duration ("PT1H30M", "1 hour 30 mins", "1:30", a number
// of minutes) as whole minutes, or nil.
func Minutes(v any) *int { return parseMinutes(v) }

// Steps divides a block of instructions into steps, by the rules used for
// a page's single-block method (line breaks, step numbers, glued sentences).
func Steps(text string) []string { return splitSteps(text) }

// Lines splits text at line breaks into trimmed, non-empty lines.
func Lines(text string) []string { return cleanLines(text) }

// RecipeNodes returns the schema.org Recipe objects of a JSON document: a
// Recipe, an array of them, an @graph, or Recipes nested in other objects.
// The reader is the page reader's tolerant one.
func RecipeNodes(doc []byte) []map[string]any {
	return findTyped(parseLenientJSON(doc), "Recipe")
}

// FromSchema reads one schema.org Recipe object (as decoded from JSON) the
// way a page's JSON-LD is read, and tidies the result like a page's
// recipe. baseURL resolves a relative image address; it may be "".
func FromSchema(node map[string]any, baseURL string) Recipe {
	var base *url.URL
	if u, err := url.Parse(strings.TrimSpace(baseURL)); err == nil && u.IsAbs() {
		base = u
	}
	// The node may come from encoding/json, whose numbers are float64 like
	// the page reader's; a json.Number would not be read.
	r := fromSchema(node, newGraph([]any{node}), base)
	finish(&r, &page{base: base})
	return r
}

// Tidy normalizes a recipe built by hand from another format the way a
// page's recipe is finished: plain text, no empty lines or sections, step
// numbers written into the text removed, no repeated labels.
func Tidy(r *Recipe) { finish(r, &page{}) }

// DecodeJSON decodes a JSON document into the generic shape FromSchema
// reads (maps, slices, float64 numbers, strings).
func DecodeJSON(doc []byte) (any, error) {
	var v any
	err := json.Unmarshal(doc, &v)
	return v, err
}
