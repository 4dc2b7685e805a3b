package archive

import (
	"archive/zip"
	"fmt"
	"math"
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/google/uuid"

	"larder/importer/extract"
)

// Mealie writes two kinds of zip (read from its source: services/exporter
// and services/backups_v2):
//
//   - the recipe export: recipes/<slug>/<slug>.json, one Recipe per
//     folder as the API shows it (name, description, recipeYield,
//     recipeServings, prepTime/performTime/cookTime/totalTime as text,
//     recipeCategory and tags as objects with a name, recipeIngredient
//     objects with title/note/quantity/unit/food/display/originalText,
//     recipeInstructions objects with title/text, notes with title/text,
//     orgURL), with the photo in recipes/<slug>/images/original.webp;
//     depending on the version the keys are camelCase or snake_case, and
//     both are read;
//   - the backup: database.json (every table, as lists of rows: recipes,
//     recipes_ingredients, recipe_instructions, notes, categories and
//     recipes_to_categories, tags and recipes_to_tags, ingredient_units,
//     ingredient_foods) and data/recipes/<recipe id>/images/original.webp.
//
// A section starts at an ingredient or step with a title.

// mealieUnmapped are the recipe fields Mealie has and this service does not.
var mealieUnmapped = []string{"nutrition", "tools", "rating", "recipeCuisine", "recipe_cuisine", "extras", "comments", "assets", "lastMade", "last_made"}

func isMealieExport(names []string) bool {
	for _, n := range names {
		if mealieRecipeJSON(n) {
			return true
		}
	}
	return false
}

// isMealieFlat: Mealie 0.4 and older wrote recipes/<name>.json
// (services/backups/exports.py), with the images apart in images/. Those names are common, so the first
// such file must read as Mealie's: a slug and no schema.org type.
func (z *zipArchive) isMealieFlat() bool {
	for _, n := range z.names() {
		if mealieFlatJSON(n) {
			m, err := z.readObject(n)
			_, slug := m["slug"]
			_, typed := m["@type"]
			return err == nil && slug && !typed
		}
	}
	return false
}

// isMealieDownload: the zip Mealie gives for one recipe (its "zip"
// download, routes/recipe/recipe_crud_routes.py get_recipe_as_zip, and the
// zip template of services/recipe/template_service.py): <slug>.json and
// the photo original.webp side by side. Several such downloads unpacked
// into folders and zipped together read the same. The zip's JSON files
// must all read as Mealie recipes (isMealieRecipe): a name as common as
// <slug>.json says nothing by itself.
func (z *zipArchive) isMealieDownload() bool {
	found := false
	for _, n := range z.names() {
		if !strings.HasSuffix(strings.ToLower(n), ".json") {
			continue
		}
		if m, err := z.readObject(n); err != nil || !isMealieRecipe(m) {
			return false
		}
		found = true
	}
	return found
}

// isMealieRecipe: a recipe object as Mealie's API and exports write it: a
// slug, ingredients or instructions under Mealie's names, and no schema.org
// type.
func isMealieRecipe(m map[string]any) bool {
	_, slug := m["slug"]
	_, typed := m["@type"]
	return m != nil && slug && !typed &&
		firstOf(m, "recipeIngredient", "recipe_ingredient", "recipeInstructions", "recipe_instructions") != nil
}

func mealieFlatJSON(name string) bool {
	return strings.HasSuffix(name, ".json") && path.Base(path.Dir(name)) == "recipes"
}

// mealieRecipeJSON matches recipes/<slug>/<slug>.json (with or without a
// folder above, as unpacking and re-zipping adds one).
func mealieRecipeJSON(name string) bool {
	dir, file := path.Split(name)
	dir = strings.TrimSuffix(dir, "/")
	slug := path.Base(dir)
	return file == slug+".json" && path.Base(path.Dir(dir)) == "recipes"
}

func isMealieBackup(names []string) bool {
	hasDB, hasData := false, false
	for _, n := range names {
		switch {
		case n == "database.json" || strings.Count(n, "/") == 1 && strings.HasSuffix(n, "/database.json"):
			hasDB = true
		case strings.HasPrefix(n, "data/") || strings.Contains(n, "/data/"):
			hasData = true
		}
	}
	return hasDB && (hasData || len(names) == 1)
}

func (z *zipArchive) mealieExport() *Archive {
	return z.perEntry(FormatMealie, mealieRecipeJSON, z.mealieExportRecipe)
}

func (z *zipArchive) mealieFlatExport() *Archive {
	return z.perEntry(FormatMealie, mealieFlatJSON, z.mealieExportRecipe)
}

func (z *zipArchive) mealieDownload() *Archive {
	return z.perEntry(FormatMealie, func(n string) bool { return strings.HasSuffix(strings.ToLower(n), ".json") }, z.mealieExportRecipe)
}

func (z *zipArchive) mealieExportRecipe(name string, f *zip.File) Recipe {
	m, err := z.readObjectFile(f)
	if err != nil {
		return Recipe{Entry: name, Err: err}
	}
	rec := mealieRecipe(name, m, nil, "")
	if rec.Err != nil {
		return rec
	}
	if mealieRecipeJSON(name) {
		z.setImage(&rec, z.mealieImage(path.Dir(name)+"/images"))
		return rec
	}
	if !mealieFlatJSON(name) {
		// A download: the photo beside the recipe, when the recipe is the
		// only one of its folder (the photo is always named original.*).
		jsons := 0
		for _, n := range z.inDir(path.Dir(name)) {
			if strings.HasSuffix(strings.ToLower(n), ".json") {
				jsons++
			}
		}
		if jsons == 1 {
			z.setImage(&rec, z.mealieImage(path.Dir(name)))
		}
		return rec
	}
	// The flat layout: images/<slug>/original.* beside the recipes folder
	// (0.4, services/image/image.py), or images/<slug>.<ext> (0.2 and 0.3,
	// services/image_services.py).
	images := path.Join(path.Dir(path.Dir(name)), "images")
	slug := str(m, "slug")
	if slug == "" || strings.ContainsAny(slug, "/\\") {
		return rec
	}
	z.setImage(&rec, z.mealieImage(path.Join(images, slug)))
	if rec.Image == nil {
		for _, n := range z.inDir(images) {
			if isImageName(n) && strings.TrimSuffix(path.Base(n), path.Ext(n)) == slug {
				z.setImage(&rec, z.file(n))
				break
			}
		}
	}
	return rec
}

// mealieImage picks the recipe's photo in its images folder: the original,
// else any image there.
func (z *zipArchive) mealieImage(dir string) *zip.File {
	var any *zip.File
	for _, n := range z.inDir(dir) {
		if !isImageName(n) {
			continue
		}
		if strings.HasPrefix(path.Base(n), "original.") {
			return z.file(n)
		}
		if any == nil {
			any = z.file(n)
		}
	}
	return any
}

// mealieRecipe maps one Mealie recipe object (camelCase or snake_case). db
// and id give a backup's rows of the recipe (nil for the export, whose
// recipe objects nest them).
func mealieRecipe(entry string, m map[string]any, db *mealieTables, id string) Recipe {
	r := extract.Recipe{
		Title:       str(m, "name"),
		Description: str(m, "description"),
		SourceURL:   str(m, "orgURL", "org_url"),
		Categories:  labels(firstOf(m, "recipeCategory", "recipe_category")),
		Tags:        labels(m["tags"]),
	}
	if r.Title == "" {
		return Recipe{Entry: entry, Err: fmt.Errorf("%w: the recipe has no name", ErrInvalidRecipe)}
	}
	// Servings are the servings count, else (Mealie 2: "24" "cookies")
	// the yield's quantity, else the number in the yield text (Mealie 1 and
	// older); a count of 0 means "not given".
	// The unit is the yield's: none for a servings count (people); the
	// yield text beside its quantity (Mealie 2); else what follows the
	// number in the yield text.
	yieldText := firstOf(m, "recipeYield", "recipe_yield")
	for _, k := range []string{"recipeServings", "recipe_servings", "recipeYieldQuantity", "recipe_yield_quantity", "recipeYield", "recipe_yield"} {
		if r.Servings = extract.Servings(m[k]); r.Servings == nil {
			continue
		}
		switch k {
		case "recipeYieldQuantity", "recipe_yield_quantity":
			r.ServingsUnit = extract.YieldUnit(map[string]any{"value": m[k], "unitText": yieldText})
		case "recipeYield", "recipe_yield":
			r.ServingsUnit = extract.YieldUnit(yieldText)
		}
		break
	}
	r.PrepMinutes = extract.Minutes(firstOf(m, "prepTime", "prep_time"))
	r.CookMinutes = extract.Minutes(firstOf(m, "cookTime", "cook_time", "performTime", "perform_time"))
	r.TotalMinutes = extract.Minutes(firstOf(m, "totalTime", "total_time"))
	ings, steps, noteRows := list(firstOf(m, "recipeIngredient", "recipe_ingredient")), list(firstOf(m, "recipeInstructions", "recipe_instructions")), list(m["notes"])
	lines := mealieLines{settings: obj(m["settings"])}
	if db != nil {
		ings, steps, noteRows = rows(db.ingredients[id]), rows(db.steps[id]), rows(db.notes[id])
		lines = mealieLines{settings: db.settings[id], units: db.units, foods: db.foods, recipes: db.recipes}
		r.Categories = append(r.Categories, db.categories[id]...)
		r.Tags = append(r.Tags, db.tags[id]...)
	}
	unmapped := present(m, mealieUnmapped...)
	if db != nil {
		for _, f := range db.unmapped[id] {
			unmapped = appendOnce(unmapped, f)
		}
	}
	r.IngredientSections = mealieSections(ings, lines.text)
	r.InstructionSections = mealieSteps(steps)
	var notes []string
	for _, n := range noteRows {
		notes = append(notes, noteText(obj(n)))
	}
	finish(&r)
	r.Description = withNotes(r.Description, notes)
	return Recipe{Entry: entry, Recipe: r, Unmapped: unmapped}
}

func firstOf(m map[string]any, keys ...string) any {
	for _, k := range keys {
		if v, ok := m[k]; ok && v != nil {
			return v
		}
	}
	return nil
}

func noteText(n map[string]any) string {
	title, text := str(n, "title"), str(n, "text")
	switch {
	case title != "" && text != "":
		return title + ": " + text
	case text != "":
		return text
	}
	return title
}

// mealieLines writes ingredient objects (the export's) or rows (the
// backup's) as the lines Mealie shows.
type mealieLines struct {
	// settings are the recipe's settings (disableAmount), nil when unknown.
	settings map[string]any
	// units, foods and recipes are the backup's rows by id (nil for the
	// export, whose ingredients nest them).
	units, foods, recipes map[string]map[string]any
}

// text is the line Mealie shows: its own display text when stored, else
// the original text, else the line written by Mealie's rules
// (frontend use-recipe-ingredients.ts): with amounts disabled (the recipe
// setting, on for recipes whose lines were never parsed) only the note,
// which holds the whole line; otherwise quantity, unit (plural above one),
// food (plural above one or without quantity) and note.
//
// Mealie 3 lets a line name another recipe in place of a food
// (referencedRecipe in the export, referenced_recipe_id in a backup; the
// frontend's use-recipe-ingredients.ts shows the recipe's name as the
// food's): such a line is written from its parts with that name, which its
// stored display text, made by a backend that knows only foods, may lack.
func (l mealieLines) text(it map[string]any) string {
	unit := l.row(it["unit"], l.units, it["unit_id"])
	if ref := l.row(firstOf(it, "referencedRecipe", "referenced_recipe"), l.recipes, it["referenced_recipe_id"]); str(ref, "name") != "" &&
		l.row(it["food"], l.foods, it["food_id"]) == nil {
		return l.parts(it, unit, ref)
	}
	if d := str(it, "display"); d != "" {
		return plainFractions(d)
	}
	if o := str(it, "originalText", "original_text"); o != "" {
		return o
	}
	food := l.row(it["food"], l.foods, it["food_id"])
	if l.amountsDisabled(it, food) {
		return str(it, "note")
	}
	return l.parts(it, unit, food)
}

// parts writes a line from its quantity, unit, food and note.
func (l mealieLines) parts(it, unit, food map[string]any) string {
	q, _ := number(it["quantity"])
	var parts []string
	if q > 0 {
		parts = append(parts, mealieQuantity(q, unit))
		if u := unitName(unit, q > 1); u != "" {
			parts = append(parts, u)
		}
	}
	if f := pluralName(food, q == 0 || q > 1); f != "" {
		parts = append(parts, f)
	}
	if n := str(it, "note"); n != "" {
		parts = append(parts, n)
	}
	return strings.Join(parts, " ")
}

// amountsDisabled: the ingredient's own flag (disableAmount, or isFood
// false) when it has one, else the recipe's setting, else, as Mealie
// decides when neither is stored, whether the line names no food.
func (l mealieLines) amountsDisabled(it, food map[string]any) bool {
	if d, ok := firstOf(it, "disableAmount", "disable_amount").(bool); ok {
		return d
	}
	if f, ok := firstOf(it, "isFood", "is_food").(bool); ok {
		return !f
	}
	if d, ok := firstOf(l.settings, "disableAmount", "disable_amount").(bool); ok {
		return d
	}
	return food == nil
}

// row reads a nested unit or food object, or a backup's row by its id.
func (l mealieLines) row(nested any, byID map[string]map[string]any, id any) map[string]any {
	if o := obj(nested); o != nil {
		return o
	}
	if s, ok := id.(string); ok {
		return byID[normID(s)]
	}
	return nil
}

// unitName is the unit as Mealie writes it: its abbreviation when the unit
// says to use it, else its name (plural forms for amounts above one).
func unitName(u map[string]any, plural bool) string {
	if use, _ := firstOf(u, "useAbbreviation", "use_abbreviation").(bool); use {
		if plural {
			if a := str(u, "pluralAbbreviation", "plural_abbreviation"); a != "" {
				return a
			}
		}
		if a := str(u, "abbreviation"); a != "" {
			return a
		}
	}
	return pluralName(u, plural)
}

// mealieQuantity writes a quantity as Mealie shows it: as a fraction
// ("1 1/2", denominators up to 10) unless the unit turns fractions off
// (its "fraction" setting, on by default and for lines without a unit);
// else as a decimal.
func mealieQuantity(q float64, unit map[string]any) string {
	if f, ok := firstOf(unit, "fraction").(bool); ok && !f {
		return trimFloat(q)
	}
	whole, num, den := nearestFraction(q, 10)
	switch {
	case num == 0 && whole == 0:
		return trimFloat(q) // too small for a fraction: the amount is kept
	case num == 0:
		return strconv.Itoa(whole)
	case whole == 0:
		return fmt.Sprintf("%d/%d", num, den)
	}
	return fmt.Sprintf("%d %d/%d", whole, num, den)
}

// nearestFraction is the mixed fraction nearest x whose denominator is at
// most maxDen (the smaller denominator on a tie).
func nearestFraction(x float64, maxDen int) (whole, num, den int) {
	whole = int(math.Floor(x))
	rest := x - float64(whole)
	best, num, den := rest, 0, 1
	for d := 2; d <= maxDen; d++ {
		n := int(math.Round(rest * float64(d)))
		if diff := math.Abs(rest - float64(n)/float64(d)); diff < best-1e-9 {
			best, num, den = diff, n, d
		}
	}
	if 1-rest < best-1e-9 { // nearer the next whole number
		return whole + 1, 0, 1
	}
	if num == den {
		return whole + 1, 0, 1
	}
	return whole, num, den
}

func pluralName(o map[string]any, plural bool) string {
	if plural {
		if p := str(o, "pluralName", "plural_name"); p != "" {
			return p
		}
	}
	return str(o, "name")
}

// mealieFraction is how Mealie's server writes a fraction in display
// texts: superscript numerator, "/", subscript denominator ("2 ¹/₂ cups").
var mealieFraction = regexp.MustCompile(`([⁰¹²³⁴⁵⁶⁷⁸⁹]+)/([₀₁₂₃₄₅₆₇₈₉]+)`)

var (
	superscripts = strings.NewReplacer("⁰", "0", "¹", "1", "²", "2", "³", "3", "⁴", "4", "⁵", "5", "⁶", "6", "⁷", "7", "⁸", "8", "⁹", "9")
	subscripts   = strings.NewReplacer("₀", "0", "₁", "1", "₂", "2", "₃", "3", "₄", "4", "₅", "5", "₆", "6", "₇", "7", "₈", "8", "₉", "9")
)

// plainFractions writes Mealie's fractions with plain digits ("2 1/2
// cups"), as a line is typed and read by the ingredient parser.
func plainFractions(s string) string {
	return mealieFraction.ReplaceAllStringFunc(s, func(f string) string {
		m := mealieFraction.FindStringSubmatch(f)
		return superscripts.Replace(m[1]) + "/" + subscripts.Replace(m[2])
	})
}

// mealieSteps reads Mealie's steps: Markdown (the page renders it), shown
// under the step's summary when it has one (RecipePageInstructions.vue
// writes the summary where it otherwise writes "Step n"), kept here as the
// step's first words.
func mealieSteps(items []any) []extract.Section {
	return mealieSections(items, func(it map[string]any) string {
		text := plainMarkdown(str(it, "text"))
		if s := strings.TrimRight(str(it, "summary"), ":"); s != "" && text != "" && !strings.HasPrefix(text, s) {
			return s + ": " + text
		}
		return text
	})
}

// mealieSections reads Mealie's ingredient or step lists: plain strings,
// or objects whose title, when set, starts a section and whose line text
// reads.
func mealieSections(items []any, text func(map[string]any) string) []extract.Section {
	var b sections
	for _, it := range items {
		switch it := it.(type) {
		case string:
			b.item(it)
		case map[string]any:
			if t := str(it, "title"); t != "" {
				b.section(t)
			}
			b.item(text(it))
		}
	}
	return b.done()
}

// sections builds named sections of lines.
type sections struct{ out []extract.Section }

// section starts a group; a group left without lines gives way to it.
func (b *sections) section(name string) {
	if n := len(b.out); n > 0 && len(b.out[n-1].Items) == 0 {
		b.out = b.out[:n-1]
	}
	b.out = append(b.out, extract.Section{Name: strings.TrimSpace(name)})
}

func (b *sections) item(text string) {
	text = strings.TrimSpace(text)
	if text == "" {
		return
	}
	if len(b.out) == 0 {
		b.out = append(b.out, extract.Section{})
	}
	b.out[len(b.out)-1].Items = append(b.out[len(b.out)-1].Items, text)
}

func (b *sections) done() []extract.Section { return b.out }

// normID writes a row id the way the backup's folders name it: Mealie
// stores GUIDs as 32 hex digits in SQLite and with dashes in PostgreSQL.
func normID(s string) string {
	if u, err := uuid.Parse(s); err == nil {
		return u.String()
	}
	return strings.ToLower(strings.TrimSpace(s))
}

// mealieBackup reads database.json (the one large document of the format)
// and returns its recipes.
func (z *zipArchive) mealieBackup() (*Archive, error) {
	var dbName string
	for _, n := range z.names() {
		if path.Base(n) == "database.json" {
			dbName = n
			break
		}
	}
	b, err := z.read(z.file(dbName), z.lim.MaxDocumentBytes)
	if err != nil {
		return nil, err
	}
	tables, err := decodeObject(b)
	if err != nil {
		return nil, err
	}
	if _, ok := tables["recipes"]; !ok {
		return nil, fmt.Errorf("%w: database.json has no recipes table", ErrUnknownFormat)
	}
	root := strings.TrimSuffix(dbName, "database.json")
	db := newMealieTables(tables)
	recipes := list(tables["recipes"])
	return &Archive{Format: FormatMealieBackup, Total: len(recipes) + len(z.unsafe), each: func(yield func(Recipe) bool) {
		if !z.unsafeEntries(yield) {
			return
		}
		for i, row := range recipes {
			m := obj(row)
			id := normID(str(m, "id"))
			entry := fmt.Sprintf("database.json recipe %d", i+1)
			if s := str(m, "slug"); s != "" {
				entry = "database.json recipe " + s
			}
			if m == nil {
				if !yield(Recipe{Entry: entry, Err: fmt.Errorf("%w: the row is not an object", ErrCorrupt)}) {
					return
				}
				continue
			}
			rec := mealieRecipe(entry, m, db, id)
			if rec.Err == nil {
				z.setImage(&rec, z.mealieImage(root+"data/recipes/"+id+"/images"))
				if rec.Image == nil {
					// SQLite backups name the folder by the hyphenless id.
					z.setImage(&rec, z.mealieImage(root+"data/recipes/"+strings.ReplaceAll(id, "-", "")+"/images"))
				}
			}
			if !yield(rec) {
				return
			}
		}
	}}, nil
}

// mealieTables indexes the backup's rows by recipe.
type mealieTables struct {
	ingredients, steps, notes map[string][]map[string]any
	categories, tags          map[string][]string
	units, foods, recipes     map[string]map[string]any
	settings                  map[string]map[string]any // recipe_settings by recipe
	// unmapped names, by recipe, the fields the backup keeps in tables of
	// their own (mealieSideTables) that hold something for the recipe.
	unmapped map[string][]string
}

// mealieSideTables are the backup's tables of what a recipe holds and this
// service has no place for, with the name the recipe export gives the
// field (db/models/recipe: nutrition.py, tool.py, assets.py, comment.py,
// api_extras.py, whose column is spelled recipee_id).
var mealieSideTables = []struct{ table, field string }{
	{"recipe_nutrition", "nutrition"},
	{"recipes_to_tools", "tools"},
	{"recipe_assets", "assets"},
	{"recipe_comments", "comments"},
	{"api_extras", "extras"},
}

// mealieBookkeeping are the columns every row has that say nothing of the
// recipe: a nutrition row of nulls is no nutrition.
var mealieBookkeeping = map[string]bool{"id": true, "recipe_id": true, "recipee_id": true, "created_at": true, "update_at": true, "updated_at": true}

// sideFields lists, by recipe, the side tables with a row of values for it.
func sideFields(t map[string]any) map[string][]string {
	out := map[string][]string{}
	for _, st := range mealieSideTables {
		for _, r := range list(t[st.table]) {
			m := obj(r)
			id := normID(str(m, "recipe_id", "recipee_id"))
			if id == "" {
				continue
			}
			for k, v := range m {
				if !mealieBookkeeping[k] && hasValue(v) {
					out[id] = appendOnce(out[id], st.field)
					break
				}
			}
		}
	}
	return out
}

func newMealieTables(t map[string]any) *mealieTables {
	db := &mealieTables{
		ingredients: byRecipe(t["recipes_ingredients"]),
		steps:       byRecipe(t["recipe_instructions"]),
		notes:       byRecipe(t["notes"]),
		units:       idRows(t["ingredient_units"], "id"),
		foods:       idRows(t["ingredient_foods"], "id"),
		recipes:     idRows(t["recipes"], "id"),
		settings:    idRows(t["recipe_settings"], "recipe_id"),
		unmapped:    sideFields(t),
	}
	db.categories = joinNames(t["recipes_to_categories"], "category_id", idNames(t["categories"]))
	db.tags = joinNames(t["recipes_to_tags"], "tag_id", idNames(t["tags"]))
	return db
}

func byRecipe(rows any) map[string][]map[string]any {
	out := map[string][]map[string]any{}
	for _, r := range list(rows) {
		if m := obj(r); m != nil {
			id := normID(str(m, "recipe_id"))
			out[id] = append(out[id], m)
		}
	}
	for _, rs := range out {
		sortByPosition(rs)
	}
	return out
}

// sortByPosition orders rows by their "position" column (a stable
// insertion sort: rows are few per recipe).
func sortByPosition(rs []map[string]any) {
	pos := func(m map[string]any) float64 { p, _ := m["position"].(float64); return p }
	for i := 1; i < len(rs); i++ {
		for j := i; j > 0 && pos(rs[j]) < pos(rs[j-1]); j-- {
			rs[j], rs[j-1] = rs[j-1], rs[j]
		}
	}
}

// idRows indexes rows by the id in their column key.
func idRows(rows any, key string) map[string]map[string]any {
	out := map[string]map[string]any{}
	for _, r := range list(rows) {
		if m := obj(r); m != nil {
			out[normID(str(m, key))] = m
		}
	}
	return out
}

func idNames(rows any) map[string]string {
	out := map[string]string{}
	for _, r := range list(rows) {
		if m := obj(r); m != nil {
			out[normID(str(m, "id"))] = str(m, "name")
		}
	}
	return out
}

func joinNames(rows any, key string, names map[string]string) map[string][]string {
	out := map[string][]string{}
	for _, r := range list(rows) {
		if m := obj(r); m != nil {
			if n := names[normID(str(m, key))]; n != "" {
				id := normID(str(m, "recipe_id"))
				out[id] = append(out[id], n)
			}
		}
	}
	return out
}

func rows(ms []map[string]any) []any {
	out := make([]any, len(ms))
	for i, m := range ms {
		out[i] = m
	}
	return out
}

// mealieJSON reads recipes as Mealie's API and its "JSON" download give
// them, outside a zip: one recipe object, or a list of them (nil when the
// document is not that).
func mealieJSON(doc []byte) *Archive {
	v, err := extract.DecodeJSON(jsonText(doc))
	if err != nil {
		return nil
	}
	var objs []map[string]any
	switch v := v.(type) {
	case map[string]any:
		objs = append(objs, v)
	case []any:
		for _, e := range v {
			objs = append(objs, obj(e))
		}
	}
	for _, m := range objs {
		if !isMealieRecipe(m) {
			return nil
		}
	}
	if len(objs) == 0 {
		return nil
	}
	return &Archive{Format: FormatMealie, Total: len(objs), each: func(yield func(Recipe) bool) {
		for i, m := range objs {
			entry := fmt.Sprintf("recipe %d", i+1)
			if s := str(m, "slug"); s != "" {
				entry = s
			}
			if !yield(mealieRecipe(entry, m, nil, "")) {
				return
			}
		}
	}}
}
