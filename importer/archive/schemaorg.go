package archive

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"path"
	"slices"
	"strings"

	"larder/importer/extract"
)

// Any zip of JSON files, or one JSON file, holding schema.org Recipe
// objects: a Recipe, an array of them, or an @graph, as recipe sites and
// many apps write them. Each Recipe is read by the page reader's own
// schema.org rules (extract.FromSchema). In a zip, an image beside the JSON
// file with the same base name ("soup.json", "soup.jpg"), or the only image
// of its folder, is the recipe's image; otherwise the object's image
// address is downloaded like an imported page's.

// schemaUnmapped are the schema.org properties a recipe here has no place for.
var schemaUnmapped = []string{"nutrition", "recipeCuisine", "aggregateRating", "review", "video", "tool", "suitableForDiet", "estimatedCost", "cookingMethod", "creditText"}

// withHeadingSteps returns the node with its instructions' headings made
// lines: apps that keep a recipe as lines (RecipeSage's JSON-LD export)
// write a group's heading as a HowToSection holding only a text ("[Sauce]")
// before the group's HowToSteps, where schema.org nests the steps in the
// section; the heading line then starts the group (bracketGroups). The
// node itself is not changed.
func withHeadingSteps(n map[string]any) map[string]any {
	steps := list(n["recipeInstructions"])
	changed := false
	out := make([]any, len(steps))
	for i, st := range steps {
		out[i] = st
		o := obj(st)
		if o == nil || str(o, "@type") != "HowToSection" || o["itemListElement"] != nil {
			continue
		}
		if h := str(o, "text", "name"); h != "" {
			out[i] = "[" + strings.Trim(h, "[]") + "]"
			changed = true
		}
	}
	if !changed {
		return n
	}
	c := make(map[string]any, len(n))
	for k, v := range n {
		c[k] = v
	}
	c["recipeInstructions"] = out
	return c
}

// bracketGroups starts a group at each line written wholly in brackets
// ("[For the sauce]"), the heading convention of RecipeSage and of apps
// that keep a recipe as plain lines: no ingredient or step is written so.
func bracketGroups(in []extract.Section) []extract.Section {
	var b sections
	for _, s := range in {
		if s.Name != "" {
			b.section(s.Name)
		}
		for _, it := range s.Items {
			if t := strings.TrimSpace(it); len(t) > 2 && t[0] == '[' && t[len(t)-1] == ']' && !strings.ContainsAny(t[1:len(t)-1], "[]") {
				b.section(t[1 : len(t)-1])
				continue
			}
			b.item(it)
		}
	}
	return b.done()
}

// nullWords are what a program prints for an empty field when it writes
// an ingredient's amount, unit and food into one line: Python's None
// (Tandoor's RecipeSage export writes f"{amount} {unit} {food}", so a line
// without unit reads "1.0 None onion"), JavaScript's null and undefined.
var nullWords = map[string]bool{"None": true, "null": true, "undefined": true}

// withoutNulls reads the lines a program wrote from an ingredient's fields:
// a line that starts with an amount and holds a null word has those words
// dropped, and its amount too when it is 0 (no amount: "0.0 None salt" is
// "salt"); a line left empty is no ingredient.
func withoutNulls(in []extract.Section) []extract.Section {
	out := make([]extract.Section, 0, len(in))
	for _, s := range in {
		items := make([]string, 0, len(s.Items))
		for _, it := range s.Items {
			if it = programLine(it); it != "" {
				items = append(items, it)
			}
		}
		if len(items) > 0 || s.Name != "" {
			out = append(out, extract.Section{Name: s.Name, Items: items})
		}
	}
	return out
}

func programLine(line string) string {
	f := strings.Fields(line)
	if len(f) < 2 || !slices.ContainsFunc(f[1:], func(w string) bool { return nullWords[w] }) {
		return line
	}
	amount, ok := number(f[0])
	if !ok {
		return line
	}
	kept := f[:0]
	if amount != 0 {
		kept = append(kept, f[0])
	}
	for _, w := range f[1:] {
		if !nullWords[w] {
			kept = append(kept, w)
		}
	}
	return strings.Join(kept, " ")
}

// commentTexts reads the texts of a recipe's comment objects: in an export
// they are the owner's notes (RecipeSage writes its notes as a Comment
// named "Author Notes").
func commentTexts(v any) []string {
	var out []string
	items := list(v)
	if o := obj(v); o != nil {
		items = []any{o}
	}
	for _, c := range items {
		switch c := c.(type) {
		case string:
			out = append(out, c)
		case map[string]any:
			out = append(out, str(c, "text"))
		}
	}
	return out
}

// fromSchemaNode reads one schema.org object. base is the address of the
// entry it came from (entryURL), "" outside a zip: an image given by a
// path relative to the JSON file then resolves to an entry (see
// zipArchive.localImage).
func fromSchemaNode(entry string, n map[string]any, base string) Recipe {
	r := extract.FromSchema(withHeadingSteps(n), base)
	r.IngredientSections = bracketGroups(withoutNulls(r.IngredientSections))
	r.InstructionSections = bracketGroups(r.InstructionSections)
	switch {
	case r.Title == "":
		return Recipe{Entry: entry, Err: fmt.Errorf("%w: the recipe has no name", ErrInvalidRecipe)}
	case len(r.IngredientSections) == 0 && len(r.InstructionSections) == 0:
		return Recipe{Entry: entry, Err: fmt.Errorf("%w: the recipe has neither ingredients nor steps", ErrInvalidRecipe)}
	}
	// Source and image addresses only when absolute: a relative one has
	// no page to resolve against.
	if u := str(n, "url", "mainEntityOfPage", "isBasedOn"); strings.HasPrefix(u, "http://") || strings.HasPrefix(u, "https://") {
		r.SourceURL = u
	}
	r.Description = withNotes(r.Description, commentTexts(n["comment"]))
	if !strings.HasPrefix(r.ImageURL, "http://") && !strings.HasPrefix(r.ImageURL, "https://") {
		r.ImageURL = ""
	}
	un := present(n, schemaUnmapped...)
	if len(r.Cuisines) > 0 {
		un = appendOnce(un, "recipeCuisine")
	}
	if r.Author != "" {
		un = appendOnce(un, "author")
	}
	return Recipe{Entry: entry, Recipe: r, Unmapped: un}
}

// entryHost is the host of the addresses entryURL gives a zip's entries: a
// name that can never exist (.invalid is reserved for that), so the page
// reader's own rules resolve a relative link ("images/a.jpg", "../a.jpg")
// and what resolves under it names an entry of the zip, never the web.
const entryHost = "archive.invalid"

// entryURL is the address relative links inside the entry name resolve
// against.
func entryURL(name string) string {
	return (&url.URL{Scheme: "https", Host: entryHost, Path: "/" + name}).String()
}

// entryOf returns the entry an address made under entryURL names.
func entryOf(address string) (string, bool) {
	u, err := url.Parse(address)
	if err != nil || u.Host != entryHost {
		return "", false
	}
	return strings.TrimPrefix(path.Clean(u.Path), "/"), true
}

// localImage reads the image a recipe names by a relative path in the zip,
// and drops the addresses that only point inside it.
func (z *zipArchive) localImage(rec *Recipe) {
	if name, ok := entryOf(rec.Recipe.ImageURL); ok {
		rec.Recipe.ImageURL = ""
		if f := z.file(name); f != nil && isImageName(name) {
			z.setImage(rec, f)
		}
	}
	if _, ok := entryOf(rec.Recipe.SourceURL); ok {
		rec.Recipe.SourceURL = ""
	}
}

// pageRecipe reads the recipe of a page in a zip: an HTML file, or a
// page saved whole (MHTML).
func (z *zipArchive) pageRecipe(entry string, b []byte) (Recipe, bool) {
	if isMHTMLName(entry) {
		return fromMHTML(entry, b, z.lim.MaxImageBytes)
	}
	return fromPage(entry, b, entryURL(entry))
}

// fromPage reads the recipe of an HTML page in a zip (a saved page, an
// app's HTML export), at address, from its schema.org data, JSON-LD or
// microdata; a page whose recipe could only be guessed from its text is
// not a recipe of the export.
func fromPage(entry string, page []byte, address string) (Recipe, bool) {
	r, err := extract.FromHTML(page, address)
	if err != nil || r.Via == "heuristic" || r.Title == "" {
		return Recipe{}, false
	}
	// The page's properties with no place here, named as JSON-LD keys or
	// microdata itemprops.
	var un []string
	for _, k := range schemaUnmapped {
		if bytes.Contains(page, []byte(`"`+k+`"`)) || bytes.Contains(page, []byte(`itemprop="`+k+`"`)) {
			un = append(un, k)
		}
	}
	if len(r.Cuisines) > 0 {
		un = appendOnce(un, "recipeCuisine")
	}
	if r.Author != "" {
		un = appendOnce(un, "author")
	}
	return Recipe{Entry: entry, Recipe: r, Unmapped: un}, true
}

// maxPageBytes bounds an HTML page read from a zip, as a fetched page is
// bounded (fetch.DefaultMaxBytes): a page is parsed into a tree many times
// its size, and a recipe page is far smaller.
const maxPageBytes = 10 << 20

// docLimit is the most an entry read as a document may unpack to.
func (z *zipArchive) docLimit(name string) int64 {
	if isMHTMLName(name) {
		return min(z.lim.MaxDocumentBytes, maxSavedPageBytes)
	}
	if isHTMLName(name) {
		return min(z.lim.MaxDocumentBytes, maxPageBytes)
	}
	return z.lim.MaxDocumentBytes
}

// isJSONName: a JSON file, or a JSON-LD one by the extension the JSON-LD
// specification registers (.jsonld, application/ld+json).
func isJSONName(name string) bool {
	lower := strings.ToLower(name)
	return strings.HasSuffix(lower, ".json") || strings.HasSuffix(lower, ".jsonld")
}

// isHTMLName: a page, as HTML or saved whole (MHTML).
func isHTMLName(name string) bool {
	lower := strings.ToLower(name)
	return strings.HasSuffix(lower, ".html") || strings.HasSuffix(lower, ".htm") || isMHTMLName(name)
}

func appendOnce(list []string, s string) []string {
	for _, e := range list {
		if e == s {
			return list
		}
	}
	return append(list, s)
}

// openJSONDocument reads a JSON file of recipes outside a zip: schema.org
// recipes, Mealie's recipe JSON, or one recipe of an app whose export is
// a zip of such files, taken out of it (Paprika's recipe, gzipped or not;
// Tandoor's recipe.json). A file of several JSON values one after another
// (JSON Lines, as scrapers and database dumps write them) is read as a
// list of them.
func openJSONDocument(doc []byte, lim Limits) (*Archive, error) {
	doc = jsonText(doc)
	if _, err := extract.DecodeJSON(doc); err != nil {
		seq, serr := jsonSequence(doc)
		if serr != nil {
			return nil, fmt.Errorf("%w: not valid JSON: %v", ErrCorrupt, err)
		}
		doc = seq
	}
	nodes := extract.RecipeNodes(doc)
	if len(nodes) == 0 {
		if a := mealieJSON(doc); a != nil {
			return a, nil
		}
		if a := appRecipe(doc, lim); a != nil {
			return a, nil
		}
		return nil, fmt.Errorf("%w: the JSON holds no schema.org Recipe", ErrUnknownFormat)
	}
	return &Archive{Format: FormatSchemaOrg, Total: len(nodes), each: func(yield func(Recipe) bool) {
		for i, n := range nodes {
			if !yield(fromSchemaNode(fmt.Sprintf("recipe %d", i+1), n, "")) {
				return
			}
		}
	}}, nil
}

// appRecipe reads one recipe object of Paprika or Tandoor on its own, nil
// when the document is neither.
func appRecipe(doc []byte, lim Limits) *Archive {
	m, err := decodeObject(doc)
	if err != nil {
		return nil
	}
	var rec Recipe
	var format string
	switch {
	case isPaprikaRecipe(m):
		rec, format = paprikaRecipe("recipe", m, lim.MaxImageBytes), FormatPaprika
	case isTandoorRecipe(m):
		rec, format = tandoorRecipe("recipe.json", m), FormatTandoor
	default:
		return nil
	}
	return &Archive{Format: format, Total: 1, each: func(yield func(Recipe) bool) { yield(rec) }}
}

// jsonSequence rewrites several JSON values separated by white space (JSON
// Lines) as one JSON array of them; it fails unless the document is at
// least two such values and nothing else.
func jsonSequence(doc []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	var vals []json.RawMessage
	for {
		var v json.RawMessage
		if err := dec.Decode(&v); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return nil, err
		}
		vals = append(vals, v)
	}
	if len(vals) < 2 {
		return nil, errors.New("not a sequence of JSON values")
	}
	return json.Marshal(vals)
}

// schemaOrg opens a zip of JSON (or HTML) files with schema.org recipes, or
// returns nil when no file of the zip holds one. The files are read once
// here to count the recipes (for "n of m") and again, one at a time, when
// the recipes are read.
func (z *zipArchive) schemaOrg() *Archive {
	// Files are kept by position: two entries may share a name.
	type doc struct {
		name string
		f    *zip.File
	}
	var docs []doc
	total := 0
	for i, name := range z.names() {
		isHTML := isHTMLName(name)
		if !isHTML && !isJSONName(name) {
			continue
		}
		f := z.files[i]
		b, err := z.read(f, z.docLimit(name))
		switch {
		case err != nil:
			docs = append(docs, doc{name, f})
			total++
		case isHTML:
			if _, ok := z.pageRecipe(name, b); ok {
				docs = append(docs, doc{name, f})
				total++
			}
		default:
			if n := len(extract.RecipeNodes(jsonText(b))); n > 0 {
				docs = append(docs, doc{name, f})
				total += n
			}
		}
	}
	if total == 0 {
		return nil
	}
	return &Archive{Format: FormatSchemaOrg, Total: total + len(z.unsafe), each: func(yield func(Recipe) bool) {
		if !z.unsafeEntries(yield) {
			return
		}
		for _, d := range docs {
			b, err := z.read(d.f, z.docLimit(d.name))
			if err != nil {
				if !yield(Recipe{Entry: d.name, Err: err}) {
					return
				}
				continue
			}
			var recs []Recipe
			if isHTMLName(d.name) {
				rec, ok := z.pageRecipe(d.name, b)
				if !ok {
					rec = Recipe{Entry: d.name, Err: fmt.Errorf("%w: the page holds no recipe data", ErrInvalidRecipe)}
				}
				recs = append(recs, rec)
			} else {
				nodes := extract.RecipeNodes(jsonText(b))
				for i, n := range nodes {
					entry := d.name
					if len(nodes) > 1 {
						entry = fmt.Sprintf("%s (recipe %d)", d.name, i+1)
					}
					recs = append(recs, fromSchemaNode(entry, n, entryURL(d.name)))
				}
			}
			for _, rec := range recs {
				if rec.Err == nil {
					z.localImage(&rec)
					if rec.Image == nil && len(recs) == 1 {
						z.setImage(&rec, z.imageBeside(d.name))
					}
				}
				if !yield(rec) {
					return
				}
			}
		}
	}}
}

// imageBeside is the image that belongs to a JSON file: the one with the
// same base name, else the only image in its folder (when the folder holds
// one JSON file).
func (z *zipArchive) imageBeside(name string) *zip.File {
	_, base := path.Split(name)
	stem := strings.TrimSuffix(base, path.Ext(base))
	var only *zip.File
	images, jsons := 0, 0
	for _, n := range z.inDir(path.Dir(name)) {
		_, b := path.Split(n)
		switch {
		case isJSONName(b):
			jsons++
		case isImageName(b):
			if strings.TrimSuffix(b, path.Ext(b)) == stem {
				return z.file(n)
			}
			images++
			only = z.file(n)
		}
	}
	if images == 1 && jsons == 1 {
		return only
	}
	return nil
}
