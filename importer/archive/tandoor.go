package archive

import (
	"archive/zip"
	"bytes"
	"fmt"
	"math"
	"path"
	"regexp"
	"strconv"
	"strings"

	"larder/importer/extract"
)

// Tandoor's export (cookbook/integration/default.py in its source) is a zip
// of zips, <recipe name>.zip each, holding recipe.json and image.<ext>.
// recipe.json: name, description, keywords [{name}], steps [{name,
// instruction, ingredients [{food {name, plural_name}, unit {name,
// plural_name}, amount, note, is_header, no_amount, order}], time, order}],
// working_time and waiting_time (minutes), servings, servings_text,
// source_url, internal, nutrition. A step's name and an ingredient marked
// is_header start groups.

var tandoorUnmapped = []string{"nutrition"}

// isTandoor: the zip holds zips and no recipe documents of its own, and the
// first inner zip has a recipe.json.
func isTandoor(z *zipArchive, names []string) bool {
	inner := 0
	for _, n := range names {
		switch {
		case strings.HasSuffix(strings.ToLower(n), ".zip"):
			inner++
		case strings.HasSuffix(strings.ToLower(n), ".json"):
			return false
		}
	}
	if inner == 0 {
		return false
	}
	for _, n := range names {
		if strings.HasSuffix(strings.ToLower(n), ".zip") {
			iz, err := z.nested(z.file(n))
			return err == nil && iz.file("recipe.json") != nil
		}
	}
	return false
}

// nested opens a zip stored in the zip, held in memory (at most one
// document's size) and checked like the outer one.
func (z *zipArchive) nested(f *zip.File) (*zipArchive, error) {
	b, err := z.read(f, z.lim.MaxDocumentBytes)
	if err != nil {
		return nil, err
	}
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil && zr == nil {
		return nil, fmt.Errorf("%w: %q is not a zip: %v", ErrCorrupt, clipName(f.Name), err)
	}
	return checkZip(zr, z.lim)
}

func (z *zipArchive) tandoor() *Archive {
	return z.perEntry(FormatTandoor, func(n string) bool { return strings.HasSuffix(strings.ToLower(n), ".zip") }, z.tandoorRecipe)
}

func (z *zipArchive) tandoorRecipe(name string) Recipe {
	iz, err := z.nested(z.file(name))
	if err != nil {
		return Recipe{Entry: name, Err: err}
	}
	if len(iz.unsafe) > 0 {
		return Recipe{Entry: name + "/" + iz.unsafe[0], Err: ErrUnsafePath}
	}
	return z.tandoorZipRecipe(name, iz)
}

// tandoorZipRecipe reads one recipe's zip: recipe.json and image.*.
func (z *zipArchive) tandoorZipRecipe(entry string, iz *zipArchive) Recipe {
	if iz.file("recipe.json") == nil {
		return Recipe{Entry: entry, Err: fmt.Errorf("%w: no recipe.json inside", ErrCorrupt)}
	}
	return iz.tandoorFolderRecipe(entry, "recipe.json")
}

// tandoorFolderRecipe reads a recipe.json of Tandoor's and the image.* beside
// it.
func (z *zipArchive) tandoorFolderRecipe(entry, name string) Recipe {
	m, err := z.readObject(name)
	if err != nil {
		return Recipe{Entry: entry, Err: err}
	}
	rec := tandoorRecipe(entry, m)
	if rec.Err == nil {
		for _, n := range z.inDir(path.Dir(name)) {
			if strings.HasPrefix(strings.ToLower(path.Base(n)), "image") && isImageName(n) {
				rec.Image = z.readImage(z.file(n))
				break
			}
		}
	}
	return rec
}

func tandoorRecipe(entry string, m map[string]any) Recipe {
	r := extract.Recipe{
		Title:       str(m, "name"),
		Description: str(m, "description"),
		Tags:        labels(m["keywords"]),
	}
	if r.Title == "" {
		return Recipe{Entry: entry, Err: fmt.Errorf("%w: the recipe has no name", ErrInvalidRecipe)}
	}
	if u := str(m, "source_url"); strings.HasPrefix(u, "http://") || strings.HasPrefix(u, "https://") {
		r.SourceURL = u
	}
	r.Servings = extract.Servings(m["servings"])
	if r.Servings == nil {
		r.Servings = extract.Servings(str(m, "servings_text"))
	}
	// Tandoor has working (hands-on) and waiting time; the total is both.
	work, _ := m["working_time"].(float64)
	wait, _ := m["waiting_time"].(float64)
	r.PrepMinutes = extract.Minutes(work)
	if work+wait > 0 {
		r.TotalMinutes = extract.Minutes(work + wait)
	}
	var ings, steps sections
	unmapped := present(m, tandoorUnmapped...)
	for _, s := range list(m["steps"]) {
		st := obj(s)
		if st == nil {
			continue
		}
		if n := str(st, "name"); n != "" {
			steps.section(n)
			if len(list(st["ingredients"])) > 0 {
				ings.section(n)
			}
		}
		if hasValue(st["time"]) {
			unmapped = appendOnce(unmapped, "step time")
		}
		for _, line := range extract.Lines(plainMarkdown(str(st, "instruction"))) {
			steps.item(line)
		}
		for _, i := range list(st["ingredients"]) {
			ing := obj(i)
			if ing == nil {
				continue
			}
			if h, _ := ing["is_header"].(bool); h {
				ings.section(str(ing, "note"))
				continue
			}
			ings.item(tandoorIngredient(ing))
		}
	}
	r.IngredientSections = ings.done()
	r.InstructionSections = steps.done()
	finish(&r)
	return Recipe{Entry: entry, Recipe: r, Unmapped: unmapped}
}

// tandoorIngredient writes "amount unit food, note" (plural names for
// amounts above one, as Tandoor shows them).
func tandoorIngredient(ing map[string]any) string {
	var parts []string
	amount, _ := number(ing["amount"])
	noAmount, _ := ing["no_amount"].(bool)
	plural := amount > 1
	if amount > 0 && !noAmount {
		parts = append(parts, trimFloat(amount))
	}
	for _, k := range []string{"unit", "food"} {
		o := obj(ing[k])
		if o == nil {
			continue
		}
		name := str(o, "name")
		if p := str(o, "plural_name"); plural && p != "" {
			name = p
		}
		if name != "" {
			parts = append(parts, name)
		}
	}
	line := strings.Join(parts, " ")
	if note := str(ing, "note"); note != "" {
		if line == "" {
			return note
		}
		line += ", " + note
	}
	return line
}

// number reads an amount written as a JSON number or, as Django REST
// Framework writes decimals by default (Tandoor before its own decimal
// field), as a string ("0.500", or "0,5" typed in a comma locale).
func number(v any) (float64, bool) {
	switch v := v.(type) {
	case float64:
		return v, true
	case string:
		f, err := strconv.ParseFloat(strings.ReplaceAll(strings.TrimSpace(v), ",", "."), 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return 0, false
		}
		return f, true
	}
	return 0, false
}

// Markdown's strong and emphasis markers around words ("**50 minutes**",
// "__hot__", "*gently*") and its links, as Tandoor's steps are written.
var (
	markdownStrong = regexp.MustCompile(`(\*\*|__)([^*_\n]+?)(\*\*|__)`)
	markdownEm     = regexp.MustCompile(`(?m)(^|[\s(])[*_]([^*_\s][^*_\n]*?)[*_]($|[\s.,;:!?)])`)
	markdownLink   = regexp.MustCompile(`!?\[([^\]]*)\]\([^)\s]*\)`)
)

// plainMarkdown writes a Tandoor step's Markdown as the text it shows:
// emphasis markers and link targets dropped (the recipe here is plain text).
func plainMarkdown(s string) string {
	s = markdownLink.ReplaceAllString(s, "$1")
	s = markdownStrong.ReplaceAllString(s, "$2")
	return markdownEm.ReplaceAllString(s, "$1$2$3")
}

// isTandoorFolders: the zip holds Tandoor's recipe zips unpacked: one
// recipe exported alone (recipe.json and image.* at the top, or in a folder
// when the zip was unpacked and packed again), or an export's recipes each
// in a folder. Nextcloud Cookbook names its files recipe.json too; the
// first one tells them apart: Tandoor's has steps, schema.org's has
// recipeIngredient.
func (z *zipArchive) isTandoorFolders() bool {
	for _, n := range z.names() {
		if path.Base(n) != "recipe.json" {
			continue
		}
		m, err := z.readObject(n)
		if err != nil {
			return false
		}
		_, steps := m["steps"]
		_, schema := m["recipeIngredient"]
		return steps && !schema
	}
	return false
}

func (z *zipArchive) tandoorFolders() *Archive {
	return z.perEntry(FormatTandoor, func(n string) bool { return path.Base(n) == "recipe.json" },
		func(n string) Recipe { return z.tandoorFolderRecipe(n, n) })
}
