package archive

import (
	"archive/zip"
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
// first inner zip has a recipe.json. The inner zip is opened like any zip
// in a zip (unwrap): read in place or from a temporary file, never held in
// memory, however large it says it is.
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
			iz, err := z.unwrap(z.file(n))
			if err != nil {
				return false
			}
			defer iz.close()
			return iz.file("recipe.json") != nil
		}
	}
	return false
}

func (z *zipArchive) tandoor() *Archive {
	return z.perEntry(FormatTandoor, func(n string) bool { return strings.HasSuffix(strings.ToLower(n), ".zip") }, z.tandoorRecipe)
}

func (z *zipArchive) tandoorRecipe(name string, f *zip.File) Recipe {
	iz, err := z.unwrap(f)
	if err != nil {
		return Recipe{Entry: name, Err: err}
	}
	// The recipe's data and image are read into the Recipe; the inner
	// zip's temporary file is not needed after.
	defer iz.close()
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
	return iz.tandoorFolderRecipe(entry, "recipe.json", iz.file("recipe.json"))
}

// tandoorFolderRecipe reads a recipe.json of Tandoor's and the image.* beside
// it.
func (z *zipArchive) tandoorFolderRecipe(entry, name string, f *zip.File) Recipe {
	m, err := z.readObjectFile(f)
	if err != nil {
		return Recipe{Entry: entry, Err: err}
	}
	rec := tandoorRecipe(entry, m)
	if rec.Err == nil {
		for _, n := range z.inDir(path.Dir(name)) {
			if strings.HasPrefix(strings.ToLower(path.Base(n)), "image") && isImageName(n) {
				z.setImage(&rec, z.file(n))
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
	// servings_text is the unit of the servings count ("cookies"), or a
	// yield in words when there is no count.
	r.Servings = extract.Servings(m["servings"])
	r.ServingsUnit = extract.YieldUnit(map[string]any{"value": m["servings"], "unitText": str(m, "servings_text")})
	if r.Servings == nil {
		r.Servings = extract.Servings(str(m, "servings_text"))
		r.ServingsUnit = extract.YieldUnit(str(m, "servings_text"))
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
		for _, line := range extract.Lines(plainMarkdown(renderTemplates(str(st, "instruction"), list(st["ingredients"])))) {
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

// tandoorIngredient writes "amount unit food, note", as Tandoor lists it.
func tandoorIngredient(ing map[string]any) string {
	p := tandoorParts(ing)
	line := p.String()
	if p.note != "" {
		if line == "" {
			return p.note
		}
		line += ", " + p.note
	}
	return line
}

// tandoorLine is an ingredient's parts as Tandoor shows them.
type tandoorLine struct{ amount, unit, food, note string }

// String is the line without its note, as a step's {{ ingredients[i] }}
// writes it (cookbook/helper/template_helper.py).
func (l tandoorLine) String() string {
	var parts []string
	for _, p := range []string{l.amount, l.unit, l.food} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, " ")
}

// tandoorParts reads an ingredient: the amount unless it has none, the
// unit's and food's plural names for amounts above one or when the
// ingredient says to always use them (Tandoor 1.5's always_use_plural_unit
// and always_use_plural_food). An ingredient marked no_amount keeps the
// amount it had before in the export, hidden: its names are singular, as
// both Tandoor 1.x (IngredientComponent.vue) and 2.x (pluralString in
// vue3/src/utils/model_utils.ts) show them ("pinch salt", not "pinches").
// The two versions disagree on amounts below one (2.x writes "0.5 cups");
// an export does not say which version wrote it, and "½ cup" is how a cook
// reads it, so the 1.x rule is kept for those.
func tandoorParts(ing map[string]any) tandoorLine {
	var l tandoorLine
	amount, _ := number(ing["amount"])
	noAmount, _ := ing["no_amount"].(bool)
	if noAmount {
		amount = 0
	}
	if amount > 0 {
		l.amount = trimFloat(amount)
	}
	name := func(k string) string {
		o := obj(ing[k])
		always, _ := ing["always_use_plural_"+k].(bool)
		if p := str(o, "plural_name"); p != "" && (amount > 1 || always) {
			return p
		}
		return str(o, "name")
	}
	l.unit, l.food, l.note = name("unit"), name("food"), str(ing, "note")
	return l
}

// tandoorTemplate is the Jinja code a step's text may hold to show one of
// the step's ingredients, or a part of it, and a number scaled with the
// servings (docs/features/templating.md).
var tandoorTemplate = regexp.MustCompile(`\{\{\s*(?:ingredients\[(\d+)\](?:\.(amount|unit|food|note))?|scale\(\s*([0-9]+(?:\.[0-9]+)?)\s*\))\s*\}\}`)

// renderTemplates writes a step's templates as Tandoor shows them at the
// recipe's own servings; a reference to an ingredient the step does not
// have is left as written.
func renderTemplates(text string, ings []any) string {
	if !strings.Contains(text, "{{") {
		return text
	}
	return tandoorTemplate.ReplaceAllStringFunc(text, func(t string) string {
		m := tandoorTemplate.FindStringSubmatch(t)
		if m[3] != "" {
			f, _ := strconv.ParseFloat(m[3], 64)
			return trimFloat(f)
		}
		i, err := strconv.Atoi(m[1])
		if err != nil || i >= len(ings) || obj(ings[i]) == nil {
			return t
		}
		l := tandoorParts(obj(ings[i]))
		switch m[2] {
		case "amount":
			return l.amount
		case "unit":
			return l.unit
		case "food":
			return l.food
		case "note":
			return l.note
		}
		return l.String()
	})
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
// "__hot__", "*gently*") and its links, as Tandoor's and Mealie's steps
// are written.
var (
	markdownStrong = regexp.MustCompile(`(\*\*|__)([^*_\n]+?)(\*\*|__)`)
	markdownEm     = regexp.MustCompile(`(?m)(^|[\s(])[*_]([^*_\s][^*_\n]*?)[*_]($|[\s.,;:!?)])`)
	markdownLink   = regexp.MustCompile(`!?\[([^\]]*)\]\([^)\s]*\)`)
)

// plainMarkdown writes a step's Markdown as the text it shows:
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
		return err == nil && isTandoorRecipe(m)
	}
	return false
}

// isTandoorRecipe: Tandoor's recipe objects have steps; Nextcloud's
// recipe.json, schema.org, has recipeIngredient.
func isTandoorRecipe(m map[string]any) bool {
	_, steps := m["steps"]
	_, schema := m["recipeIngredient"]
	return steps && !schema
}

func (z *zipArchive) tandoorFolders() *Archive {
	return z.perEntry(FormatTandoor, func(n string) bool { return path.Base(n) == "recipe.json" },
		func(n string, f *zip.File) Recipe { return z.tandoorFolderRecipe(n, n, f) })
}
