package archive

import (
	"archive/zip"
	"fmt"
	"path"
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
var schemaUnmapped = []string{"nutrition", "recipeCuisine", "aggregateRating", "review", "video", "tool", "suitableForDiet", "estimatedCost", "cookingMethod"}

// fromSchemaNode reads one schema.org object.
func fromSchemaNode(entry string, n map[string]any) Recipe {
	r := extract.FromSchema(n, "")
	switch {
	case r.Title == "":
		return Recipe{Entry: entry, Err: fmt.Errorf("%w: the recipe has no name", ErrInvalidRecipe)}
	case len(r.IngredientSections) == 0 && len(r.InstructionSections) == 0:
		return Recipe{Entry: entry, Err: fmt.Errorf("%w: the recipe has neither ingredients nor steps", ErrInvalidRecipe)}
	}
	// Source and image addresses only when absolute: a relative one has
	// no page to resolve against.
	if u := str(n, "url", "mainEntityOfPage"); strings.HasPrefix(u, "http://") || strings.HasPrefix(u, "https://") {
		r.SourceURL = u
	}
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

func appendOnce(list []string, s string) []string {
	for _, e := range list {
		if e == s {
			return list
		}
	}
	return append(list, s)
}

// openJSONDocument reads a JSON file of schema.org recipes (a Mealie, Paprika
// or Tandoor export is a zip; a single JSON file is schema.org).
func openJSONDocument(doc []byte) (*Archive, error) {
	if _, err := extract.DecodeJSON(trimBOM(doc)); err != nil {
		return nil, fmt.Errorf("%w: not valid JSON: %v", ErrCorrupt, err)
	}
	nodes := extract.RecipeNodes(doc)
	if len(nodes) == 0 {
		if a := mealieJSON(doc); a != nil {
			return a, nil
		}
		return nil, fmt.Errorf("%w: the JSON holds no schema.org Recipe", ErrUnknownFormat)
	}
	return &Archive{Format: FormatSchemaOrg, Total: len(nodes), each: func(yield func(Recipe) bool) {
		for i, n := range nodes {
			if !yield(fromSchemaNode(fmt.Sprintf("recipe %d", i+1), n)) {
				return
			}
		}
	}}, nil
}

func trimBOM(b []byte) []byte {
	if len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF {
		return b[3:]
	}
	return b
}

// schemaOrg opens a zip of JSON files with schema.org recipes, or returns
// nil when no JSON file of the zip holds one. The files are read once here
// to count the recipes (for "n of m") and again, one at a time, when the
// recipes are read.
func (z *zipArchive) schemaOrg() *Archive {
	type doc struct {
		name  string
		count int
	}
	var docs []doc
	total := 0
	for _, name := range z.names() {
		if !strings.HasSuffix(strings.ToLower(name), ".json") {
			continue
		}
		b, err := z.read(z.file(name), z.lim.MaxDocumentBytes)
		if err != nil {
			docs = append(docs, doc{name: name, count: -1})
			total++
			continue
		}
		if n := len(extract.RecipeNodes(b)); n > 0 {
			docs = append(docs, doc{name: name, count: n})
			total += n
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
			b, err := z.read(z.file(d.name), z.lim.MaxDocumentBytes)
			if err != nil {
				if !yield(Recipe{Entry: d.name, Err: err}) {
					return
				}
				continue
			}
			nodes := extract.RecipeNodes(b)
			image := z.readImage(z.imageBeside(d.name))
			for i, n := range nodes {
				entry := d.name
				if len(nodes) > 1 {
					entry = fmt.Sprintf("%s (recipe %d)", d.name, i+1)
				}
				rec := fromSchemaNode(entry, n)
				if rec.Err == nil && len(nodes) == 1 && image != nil {
					rec.Image = image
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
		case strings.HasSuffix(strings.ToLower(b), ".json"):
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
