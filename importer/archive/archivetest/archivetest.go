// Package archivetest builds small exports in each format the archive
// importer reads, from the formats' documented layouts, for the tests of
// the archive reader, the import job, the HTTP handler, the end-to-end test
// and the benchmark. Nothing here is a real app's file: every recipe and
// image is generated.
package archivetest

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"strings"
)

// Recipe is what a fixture recipe holds, in every format.
type Recipe struct {
	Title       string
	Description string
	Servings    int
	PrepMinutes int
	CookMinutes int
	SourceURL   string
	Categories  []string
	Tags        []string
	Notes       string
	// Ingredients and Steps are in two groups when Group is set: the first
	// half under "For the base", the rest under "For the topping".
	Ingredients []string
	Steps       []string
	Group       bool
	// Image is the photo (JPEG or PNG bytes), nil for none.
	Image []byte
}

// Sample returns the i-th recipe of a collection: distinct titles, source
// addresses and ingredients, an image when withImage.
func Sample(i int, withImage bool) Recipe {
	r := Recipe{
		Title:       fmt.Sprintf("Test soup %d", i),
		Description: fmt.Sprintf("A soup numbered %d.", i),
		Servings:    2 + i%4,
		PrepMinutes: 10,
		CookMinutes: 20 + i%30,
		SourceURL:   fmt.Sprintf("https://recipes.example.com/soup-%d", i),
		Categories:  []string{"Soup"},
		Tags:        []string{"quick", fmt.Sprintf("batch-%d", i%10)},
		Notes:       "Keeps for three days.",
		Ingredients: []string{fmt.Sprintf("%d g carrots", 100+i), "1 onion", "1 l stock", "2 tbsp cream"},
		Steps:       []string{"Chop the carrots and the onion.", "Simmer them in the stock for 20 minutes.", "Blend and stir in the cream."},
		Group:       i%2 == 1,
	}
	if withImage {
		r.Image = JPEG(i)
	}
	return r
}

// Samples returns n sample recipes.
func Samples(n int, withImages bool) []Recipe {
	out := make([]Recipe, n)
	for i := range out {
		out[i] = Sample(i+1, withImages)
	}
	return out
}

func (r Recipe) groups(lines []string) [][2]any {
	if !r.Group || len(lines) < 2 {
		return [][2]any{{"", lines}}
	}
	h := len(lines) / 2
	return [][2]any{{"For the base", lines[:h]}, {"For the topping", lines[h:]}}
}

// JPEG is a small generated photo (80x60), different for each seed.
func JPEG(seed int) []byte {
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, picture(seed), &jpeg.Options{Quality: 80}); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

// PNG is a small generated picture (80x60).
func PNG(seed int) []byte {
	var buf bytes.Buffer
	if err := png.Encode(&buf, picture(seed)); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

func picture(seed int) image.Image {
	img := image.NewRGBA(image.Rect(0, 0, 80, 60))
	for y := range 60 {
		for x := range 80 {
			img.Set(x, y, color.RGBA{uint8(x*3 + seed), uint8(y*4 + seed*7), uint8(seed * 13), 255})
		}
	}
	return img
}

// Zip builds a zip of the named files, in order.
func Zip(files ...File) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range files {
		method := zip.Deflate
		if f.Store {
			method = zip.Store
		}
		w, err := zw.CreateHeader(&zip.FileHeader{Name: f.Name, Method: method})
		if err != nil {
			panic(err)
		}
		if _, err := w.Write(f.Data); err != nil {
			panic(err)
		}
	}
	if err := zw.Close(); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

// File is one entry of a zip.
type File struct {
	Name  string
	Data  []byte
	Store bool // no compression (images are stored so in most exports)
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

func slug(r Recipe) string {
	return strings.ReplaceAll(strings.ToLower(r.Title), " ", "-")
}

func named(names []string) []any {
	out := []any{}
	for _, n := range names {
		out = append(out, map[string]any{"name": n, "slug": strings.ToLower(n)})
	}
	return out
}

// MealieExport is Mealie's recipe export: recipes/<slug>/<slug>.json and
// recipes/<slug>/images/original.webp (here a JPEG under that name: the
// importer decides by content).
func MealieExport(recipes []Recipe) []byte {
	var files []File
	for i, r := range recipes {
		s := slug(r)
		files = append(files, File{Name: "recipes/" + s + "/" + s + ".json", Data: mustJSON(mealieDoc(i, r))})
		if r.Image != nil {
			files = append(files, File{Name: "recipes/" + s + "/images/original.webp", Data: r.Image, Store: true})
		}
	}
	return Zip(files...)
}

// MealieJSON is a list of recipes as Mealie's API gives them, outside a zip.
func MealieJSON(recipes []Recipe) []byte {
	var out []any
	for i, r := range recipes {
		out = append(out, mealieDoc(i, r))
	}
	return mustJSON(out)
}

func mealieDoc(n int, r Recipe) map[string]any {
	s := slug(r)
	var ings, steps []any
	for _, g := range r.groups(r.Ingredients) {
		for i, l := range g[1].([]string) {
			title := ""
			if i == 0 {
				title = g[0].(string)
			}
			ings = append(ings, map[string]any{"title": title, "note": l, "display": l, "quantity": 0, "unit": nil, "food": nil,
				"disableAmount": true, "originalText": l})
		}
	}
	for _, g := range r.groups(r.Steps) {
		for i, l := range g[1].([]string) {
			title := ""
			if i == 0 {
				title = g[0].(string)
			}
			steps = append(steps, map[string]any{"id": fmt.Sprintf("%s-%d", s, i), "title": title, "text": l, "ingredientReferences": []any{}})
		}
	}
	doc := map[string]any{
		"id": fmt.Sprintf("00000000-0000-4000-8000-%012d", n), "name": r.Title, "slug": s, "description": r.Description,
		"recipeYield": fmt.Sprintf("%d servings", r.Servings), "recipeServings": r.Servings,
		"prepTime": fmt.Sprintf("%d minutes", r.PrepMinutes), "cookTime": fmt.Sprintf("%d minutes", r.CookMinutes),
		"totalTime": fmt.Sprintf("%d minutes", r.PrepMinutes+r.CookMinutes), "performTime": nil,
		"recipeCategory": named(r.Categories), "tags": named(r.Tags), "tools": []any{map[string]any{"name": "Blender"}},
		"rating": 4, "orgURL": r.SourceURL, "recipeIngredient": ings, "recipeInstructions": steps,
		"nutrition": map[string]any{"calories": "250"}, "notes": []any{map[string]any{"title": "Storage", "text": r.Notes}},
		"settings": map[string]any{"public": true}, "extras": map[string]any{},
	}
	return doc
}

// MealieBackup is Mealie's backup: database.json with the recipe tables and
// data/recipes/<id>/images/original.webp.
func MealieBackup(recipes []Recipe) []byte {
	var rows, ingRows, stepRows, noteRows, catLinks, tagLinks []any
	cats, tags := map[string]string{}, map[string]string{}
	var catRows, tagRows []any
	files := []File{}
	unitID, foodID := "11111111-1111-4111-8111-111111111111", "22222222-2222-4222-8222-222222222222"
	for i, r := range recipes {
		id := fmt.Sprintf("%08x-0000-4000-8000-%012x", i+1, i+1)
		rows = append(rows, map[string]any{"id": id, "slug": slug(r), "name": r.Title, "description": r.Description,
			"recipe_yield": fmt.Sprintf("%d servings", r.Servings), "prep_time": fmt.Sprintf("%d minutes", r.PrepMinutes),
			"cook_time": fmt.Sprintf("%d minutes", r.CookMinutes), "total_time": nil, "org_url": r.SourceURL, "rating": 5,
			"group_id": "g1", "user_id": "u1"})
		pos := 0
		for _, g := range r.groups(r.Ingredients) {
			for k, l := range g[1].([]string) {
				title := ""
				if k == 0 {
					title = g[0].(string)
				}
				ingRows = append(ingRows, map[string]any{"id": fmt.Sprintf("i%d-%d", i, pos), "recipe_id": id, "position": pos,
					"title": title, "note": l, "quantity": 0, "unit_id": nil, "food_id": nil, "original_text": nil})
				pos++
			}
		}
		// One structured ingredient, written from its unit and food rows.
		ingRows = append(ingRows, map[string]any{"id": fmt.Sprintf("i%d-x", i), "recipe_id": id, "position": pos,
			"title": "", "note": "finely chopped", "quantity": 2.0, "unit_id": unitID, "food_id": foodID})
		pos = 0
		for _, g := range r.groups(r.Steps) {
			for k, l := range g[1].([]string) {
				title := ""
				if k == 0 {
					title = g[0].(string)
				}
				// Written out of order: the position column decides.
				stepRows = append([]any{map[string]any{"id": fmt.Sprintf("s%d-%d", i, pos), "recipe_id": id, "position": pos, "title": title, "text": l}}, stepRows...)
				pos++
			}
		}
		noteRows = append(noteRows, map[string]any{"id": fmt.Sprintf("n%d", i), "recipe_id": id, "title": "", "text": r.Notes})
		for _, c := range r.Categories {
			if cats[c] == "" {
				cats[c] = fmt.Sprintf("c%d", len(cats))
				catRows = append(catRows, map[string]any{"id": cats[c], "name": c, "slug": strings.ToLower(c)})
			}
			catLinks = append(catLinks, map[string]any{"recipe_id": id, "category_id": cats[c]})
		}
		for _, t := range r.Tags {
			if tags[t] == "" {
				tags[t] = fmt.Sprintf("t%d", len(tags))
				tagRows = append(tagRows, map[string]any{"id": tags[t], "name": t, "slug": strings.ToLower(t)})
			}
			tagLinks = append(tagLinks, map[string]any{"recipe_id": id, "tag_id": tags[t]})
		}
		if r.Image != nil {
			files = append(files, File{Name: "data/recipes/" + id + "/images/original.webp", Data: r.Image, Store: true})
		}
	}
	db := map[string]any{
		"alembic_version": []any{map[string]any{"version_num": "3897397b4631"}},
		"recipes":         rows, "recipes_ingredients": ingRows, "recipe_instructions": stepRows, "notes": noteRows,
		"categories": catRows, "recipes_to_categories": catLinks, "tags": tagRows, "recipes_to_tags": tagLinks,
		"ingredient_units": []any{map[string]any{"id": unitID, "name": "tablespoon", "abbreviation": "tbsp"}},
		"ingredient_foods": []any{map[string]any{"id": foodID, "name": "parsley"}},
		"users":            []any{map[string]any{"id": "u1", "username": "someone"}},
	}
	files = append([]File{{Name: "database.json", Data: mustJSON(db)}}, files...)
	files = append(files, File{Name: ".temp/readme.txt", Data: []byte("x")})
	return Zip(files...)
}

// Tandoor is Tandoor's export: a zip of <name>.zip, each with recipe.json
// and image.jpg.
func Tandoor(recipes []Recipe) []byte {
	var files []File
	for _, r := range recipes {
		files = append(files, File{Name: strings.ReplaceAll(r.Title, " ", "_") + ".zip", Data: TandoorRecipe(r)})
	}
	return Zip(files...)
}

// TandoorRecipe is one recipe as Tandoor exports it alone: a zip of
// recipe.json and image.jpg.
func TandoorRecipe(r Recipe) []byte {
	var steps []any
	groups := r.groups(r.Ingredients)
	stepGroups := r.groups(r.Steps)
	for gi, g := range stepGroups {
		var ings []any
		if gi < len(groups) {
			for k, l := range groups[gi][1].([]string) {
				ings = append(ings, map[string]any{"food": map[string]any{"name": l, "plural_name": nil}, "unit": nil,
					"amount": 0, "note": "", "order": k, "is_header": false, "no_amount": true})
			}
		}
		steps = append(steps, map[string]any{"name": g[0], "instruction": strings.Join(g[1].([]string), "\n"),
			"ingredients": ings, "time": 5, "order": gi, "show_as_header": g[0] != ""})
	}
	// One measured ingredient written from its parts.
	steps[0].(map[string]any)["ingredients"] = append(steps[0].(map[string]any)["ingredients"].([]any),
		map[string]any{"food": map[string]any{"name": "bay leaf", "plural_name": "bay leaves"}, "unit": nil, "amount": 2,
			"note": "dried", "is_header": false, "no_amount": false})
	doc := map[string]any{"name": r.Title, "description": r.Description, "keywords": named(append(append([]string{}, r.Categories...), r.Tags...)),
		"steps": steps, "working_time": r.PrepMinutes, "waiting_time": r.CookMinutes, "internal": true,
		"nutrition": map[string]any{"calories": 250}, "servings": r.Servings, "servings_text": "bowls", "source_url": r.SourceURL}
	inner := []File{{Name: "recipe.json", Data: mustJSON(doc)}}
	if r.Image != nil {
		inner = append(inner, File{Name: "image.jpg", Data: r.Image, Store: true})
	}
	return Zip(inner...)
}

// Paprika is a .paprikarecipes export: a zip of <name>.paprikarecipe, each a
// gzipped JSON object with the photo base64-encoded in photo_data.
func Paprika(recipes []Recipe) []byte {
	var files []File
	for _, r := range recipes {
		files = append(files, File{Name: r.Title + ".paprikarecipe", Data: PaprikaRecipe(r), Store: true})
	}
	return Zip(files...)
}

// PaprikaRecipe is one recipe as Paprika exports it alone (.paprikarecipe):
// gzipped JSON.
func PaprikaRecipe(r Recipe) []byte {
	var ing, dir []string
	for _, g := range r.groups(r.Ingredients) {
		if g[0] != "" {
			ing = append(ing, g[0].(string)+":")
		}
		ing = append(ing, g[1].([]string)...)
	}
	for _, g := range r.groups(r.Steps) {
		dir = append(dir, g[1].([]string)...)
	}
	doc := map[string]any{"uid": slug(r), "name": r.Title, "description": r.Description, "ingredients": strings.Join(ing, "\n"),
		"directions": strings.Join(dir, "\n\n"), "notes": r.Notes, "servings": fmt.Sprintf("%d", r.Servings),
		"prep_time": fmt.Sprintf("%d mins", r.PrepMinutes), "cook_time": fmt.Sprintf("%d mins", r.CookMinutes), "total_time": "",
		"source": "Example Recipes", "source_url": r.SourceURL, "categories": append(append([]string{}, r.Categories...), r.Tags...),
		"rating": 5, "difficulty": "Easy", "nutritional_info": "250 kcal", "photos": []any{}, "image_url": nil, "photo": "x.jpg",
		"created": "2024-01-02 10:00:00", "hash": "abc"}
	if r.Image != nil {
		doc["photo_data"] = base64.StdEncoding.EncodeToString(r.Image)
	}
	return GzipJSON(doc)
}

// GzipJSON is v as gzipped JSON.
func GzipJSON(v any) []byte {
	var gz bytes.Buffer
	w := gzip.NewWriter(&gz)
	if _, err := w.Write(mustJSON(v)); err != nil {
		panic(err)
	}
	if err := w.Close(); err != nil {
		panic(err)
	}
	return gz.Bytes()
}

// schemaObject is a recipe as a schema.org object, the way Nextcloud
// Cookbook and recipe sites write it.
func schemaObject(r Recipe, image string) map[string]any {
	var steps []any
	for _, g := range r.groups(r.Steps) {
		var items []any
		for _, l := range g[1].([]string) {
			items = append(items, map[string]any{"@type": "HowToStep", "text": l})
		}
		if g[0] == "" {
			steps = append(steps, items...)
		} else {
			steps = append(steps, map[string]any{"@type": "HowToSection", "name": g[0], "itemListElement": items})
		}
	}
	o := map[string]any{"@context": "http://schema.org", "@type": "Recipe", "name": r.Title, "description": r.Description,
		"url": r.SourceURL, "prepTime": fmt.Sprintf("PT0H%dM0S", r.PrepMinutes), "cookTime": fmt.Sprintf("PT0H%dM0S", r.CookMinutes),
		"recipeCategory": strings.Join(r.Categories, ","), "keywords": strings.Join(r.Tags, ","), "recipeYield": r.Servings,
		"tool": []any{"Blender"}, "recipeIngredient": r.Ingredients, "recipeInstructions": steps,
		"nutrition": map[string]any{"@type": "NutritionInformation", "calories": "250 kcal"}, "dateCreated": "2024-01-02T10:00:00+0000"}
	if image != "" {
		o["image"] = image
	}
	return o
}

// Nextcloud is a Nextcloud Cookbook folder export: <title>/recipe.json,
// <title>/full.jpg and its thumbnails.
func Nextcloud(recipes []Recipe) []byte {
	var files []File
	for _, r := range recipes {
		dir := "Recipes/" + r.Title + "/"
		files = append(files, File{Name: dir + "recipe.json", Data: mustJSON(schemaObject(r, "https://cloud.example.org/index.php/apps/cookbook/recipes/1/image?size=full"))})
		if r.Image != nil {
			files = append(files, File{Name: dir + "full.jpg", Data: r.Image, Store: true},
				File{Name: dir + "thumb.jpg", Data: r.Image, Store: true})
		}
	}
	return Zip(files...)
}

// SchemaOrgZip is a zip of <slug>.json schema.org files with <slug>.png
// beside them.
func SchemaOrgZip(recipes []Recipe) []byte {
	var files []File
	for _, r := range recipes {
		files = append(files, File{Name: slug(r) + ".json", Data: mustJSON(schemaObject(r, ""))})
		if r.Image != nil {
			files = append(files, File{Name: slug(r) + ".png", Data: r.Image, Store: true})
		}
	}
	return Zip(files...)
}

// SchemaOrgJSON is one JSON file with an array of schema.org recipes whose
// images are addresses (imageBase + slug + ".jpg"; none when imageBase is "").
func SchemaOrgJSON(recipes []Recipe, imageBase string) []byte {
	var out []any
	for _, r := range recipes {
		img := ""
		if imageBase != "" {
			img = imageBase + slug(r) + ".jpg"
		}
		out = append(out, schemaObject(r, img))
	}
	return mustJSON(out)
}

// Bomb is a zip with one entry of n zero bytes, which deflate packs about
// 1000 to 1.
func Bomb(n int) []byte {
	return Zip(File{Name: "recipes/a/a.json", Data: make([]byte, n)})
}

// Unzip returns the entries of a zip, to build a variant of an export.
func Unzip(b []byte) ([]File, error) {
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return nil, err
	}
	var out []File
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			return nil, err
		}
		var buf bytes.Buffer
		_, err = buf.ReadFrom(rc)
		rc.Close()
		if err != nil {
			return nil, err
		}
		out = append(out, File{Name: f.Name, Data: buf.Bytes(), Store: f.Method == zip.Store})
	}
	return out, nil
}

// Photo is a generated photo of w×h pixels with enough detail to compress
// like a real one (about 30 kB at 640×480).
func Photo(seed, w, h int) []byte {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	x0 := uint32(seed*2654435761) | 1
	for y := range h {
		for x := range w {
			// A gradient with a little pseudo-random grain.
			x0 ^= x0 << 13
			x0 ^= x0 >> 17
			x0 ^= x0 << 5
			g := uint8(x0 & 15)
			img.Set(x, y, color.RGBA{uint8(x*255/w) + g, uint8(y*255/h) + g, uint8(seed*37) + g, 255})
		}
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 80}); err != nil {
		panic(err)
	}
	return buf.Bytes()
}
