package archivetest

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"slices"
	"strings"

	"golang.org/x/text/encoding/charmap"
)

// Variant is one shape of export a real app writes, built small by hand:
// the layout and field names follow the app's source (Source names the
// app, version and file), the recipes are our own.
type Variant struct {
	Name   string // format/variant, e.g. "mealie/v0.4 backup"
	Source string // which app and version writes it, and where that shows
	File   []byte
}

// Variants returns every variant, for the reader's tests and as fuzz seeds.
func Variants() []Variant {
	return append([]Variant{
		{"mealie/v1 export snake_case", "Mealie v1.x/v2.x services/exporter/_abc_exporter.py: recipes/<slug>/<slug>.json written by model_dump_json (field names, not aliases); images/ copied beside", mealieV1SnakeExport()},
		{"mealie/v0.5 backup", "Mealie v0.5.x services/backups/exports.py: recipes/<slug>/<slug>.json (camelCase, categories and tags as strings) and the recipe data dir images/original.webp, with users/, settings/, comments/ JSON beside", mealieV05Backup()},
		{"mealie/v0.4 backup", "Mealie v0.4.x services/backups/exports.py: recipes/<name>.json flat, images/<slug>/original.*, ingredients as strings", mealieV04Backup()},
		{"mealie/v2 backup yield quantity", "Mealie v2.x database.json: recipes rows with recipe_servings, recipe_yield_quantity and recipe_yield; ingredients with quantity/unit_id/food_id and original_text", mealieV2Backup()},
		{"mealie/v1 backup amounts setting", "Mealie v1.x database.json: recipe_settings.disable_amount per recipe (db/models/recipe/settings.py, on by default); unparsed lines are notes with quantity 1, parsed ones quantity/unit_id/food_id; the frontend's use-recipe-ingredients.ts writes them", mealieBackupAmounts()},
		{"tandoor/export pk zips", "Tandoor cookbook/integration/default.py: export.zip of <pk>.zip, each recipe.json (RecipeExportSerializer) and image<.ext> from get_filetype; amounts through CustomDecimalField, headers as is_header rows with food null", tandoorExport()},
		{"tandoor/old decimal strings", "Tandoor before CustomDecimalField: DRF DecimalField writes amounts as strings (\"0.500\")", tandoorDecimalStrings()},
		{"tandoor/unpacked recipe folders", "Tandoor's export.zip with its <pk>.zip recipes unpacked into folders and zipped again (macOS Finder's Compress: one top folder, __MACOSX/)", tandoorFolders()},
		{"paprika/photos and free-text times", "Paprika 3 .paprikarecipes: gzipped JSON per recipe; photo_data null with the photo in photos[].data, times as free text, servings as text, base64 wrapped at 76 columns", paprikaPhotos()},
		{"paprika/html export", "Paprika 3 'Export as HTML': Recipes/<name>.html with schema.org microdata (itemprop) and Recipes/Images/<uid>.jpg", paprikaHTML()},
		{"nextcloud/old recipe.json", "Nextcloud Cookbook <0.8: recipe.json without @type, recipeYield a string, durations PT0H35M, keywords a comma string, instructions strings; full.jpg, thumb.jpg, thumb16.jpg (lib/Helper/ImageService/ImageSize.php)", nextcloudOld()},
		{"nextcloud/new recipe.json", "Nextcloud Cookbook 0.10+: @type Recipe, recipeYield an integer, durations PT1H30M0S (lib/Helper/ISO8601DurationHelper.php), ingredient headers '## ' (src/components/RecipeView/RecipeIngredient.vue), image a list", nextcloudNew()},
		{"nextcloud/one folder zipped", "a Cookbook recipe folder's contents downloaded from Nextcloud Files: recipe.json and full.jpg at the top", nextcloudOneFolder()},
		{"nextcloud/windows zip", "Cookbook folders zipped by .NET's ZipFile on Windows before 4.6.1: backslash separators, names in the OEM code page (CP437) without the UTF-8 flag", nextcloudWindows()},
		{"nextcloud/macos zip", "Cookbook folders zipped by macOS Finder: one top folder, __MACOSX/ resource forks and .DS_Store", nextcloudMacOS()},
		{"schema/graph types array", "Yoast SEO and WordPress recipe plugins: @graph with WebPage and a Recipe typed [\"Recipe\",\"NewsArticle\"], ImageObject list, recipeYield [\"4\",\"4 servings\"], totalTime only, HowToSection", schemaGraph()},
		{"schema/instructions text", "sites and apps writing recipeInstructions as one string with line breaks, HowToStep with name only, nested arrays", schemaInstructionText()},
		{"schema/recipesage json-ld", "RecipeSage's JSON-LD export (recipeToJSONLD in its backend): group headings as \"[name]\" lines and as HowToSection objects with only a text, source address in isBasedOn, notes in comment[] named \"Author Notes\", creditText, labels in recipeCategory, prepTime free text when not convertible", recipeSageJSONLD()},
		{"schema/html in zip", "a saved page or app HTML export: JSON-LD in <script type=application/ld+json> inside .html files of a zip", schemaHTMLZip()},
		{"schema/json lines", "JSON Lines dumps (one schema.org Recipe per line), as scrapers and recipe-scrapers exports write them", schemaJSONLines()},
		{"schema/gzipped json", "a JSON file of recipes gzipped (.json.gz)", schemaGzip()},
		{"schema/bom relative image", "a zip of JSON files saved by Windows tools with a UTF-8 BOM, the image referenced by a relative path with an upper-case extension", schemaBOMRelativeImage()},
	}, slices.Concat(moreVariants(), gapVariants(), repackedVariants())...)
}

// zipOf builds a zip from name, content pairs; an image (by extension) is
// stored, the rest deflated.
func zipOf(pairs ...string) []byte {
	var files []File
	for i := 0; i+1 < len(pairs); i += 2 {
		files = append(files, File{Name: pairs[i], Data: []byte(pairs[i+1])})
	}
	return Zip(files...)
}

func gz(doc string) []byte {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	_, _ = w.Write([]byte(doc))
	_ = w.Close()
	return b.Bytes()
}

func mealieV1SnakeExport() []byte {
	doc := `{"id":"5b1d0d0a-1f7c-4c4e-9d0b-4c1f0a2b3c4d","user_id":"u","group_id":"g","name":"Oat Cookies","slug":"oat-cookies",
"image":"Xy12","recipe_yield":"cookies","recipe_yield_quantity":24.0,"recipe_servings":0.0,"total_time":"1 hour","prep_time":"15 minutes",
"cook_time":null,"perform_time":"12 minutes","description":"Chewy oat cookies.",
"recipe_category":[{"id":"c1","name":"Baking","slug":"baking","group_id":"g"}],"tags":[{"id":"t1","name":"Sweet","slug":"sweet","group_id":"g"}],
"tools":[{"id":"x","name":"Baking sheet","slug":"baking-sheet","on_hand":false}],"rating":4.0,"org_url":"https://cookies.example.net/oat",
"date_added":"2024-03-01","date_updated":"2024-03-02T10:00:00","created_at":"2024-03-01T10:00:00","last_made":null,
"recipe_ingredient":[
 {"quantity":2.0,"unit":{"id":"u1","name":"cup","plural_name":"cups","abbreviation":"c","use_abbreviation":false},"food":{"id":"f1","name":"rolled oats"},"note":"","is_food":true,"disable_amount":false,"display":"2 cups rolled oats","title":"","original_text":"2 cups rolled oats","reference_id":"r1"},
 {"quantity":0.5,"unit":{"id":"u1","name":"cup","plural_name":"cups","fraction":true},"food":{"id":"f2","name":"butter"},"note":"softened","is_food":true,"disable_amount":false,"display":"¹/₂ cup butter softened","title":"","original_text":null,"reference_id":"r2"},
 {"quantity":1.0,"unit":null,"food":null,"note":"1 egg","is_food":false,"disable_amount":true,"display":"1 egg","title":"","original_text":null,"reference_id":"r3"}],
"recipe_instructions":[
 {"id":"s1","title":"Dough","summary":"","text":"Cream the butter, then beat in the egg.","ingredient_references":[]},
 {"id":"s2","title":"","summary":"","text":"Fold in the oats.","ingredient_references":[]},
 {"id":"s3","title":"Bake","summary":"","text":"Bake at 180 °C for 12 minutes.","ingredient_references":[]}],
"nutrition":{"calories":"120","fat_content":null},"settings":{"public":true},"assets":[],"notes":[{"title":"","text":"They freeze well."}],
"extras":{},"comments":[]}`
	return Zip(
		File{Name: "recipes/oat-cookies/oat-cookies.json", Data: []byte(doc)},
		File{Name: "recipes/oat-cookies/images/min-original.webp", Data: PNG(3), Store: true},
		File{Name: "recipes/oat-cookies/images/original.webp", Data: JPEG(4), Store: true},
		File{Name: "recipes/oat-cookies/images/tiny-original.webp", Data: PNG(5), Store: true},
	)
}

func mealieV05Backup() []byte {
	doc := `{"id":3,"name":"Lentil Soup","slug":"lentil-soup","image":"lentil-soup.webp","description":"A red lentil soup.",
"recipeCategory":["Soup","Dinner"],"tags":["vegan"],"rating":null,"recipeYield":"6 servings",
"recipeIngredient":[{"title":"","note":"250 g red lentils","unit":null,"food":null,"disableAmount":true,"quantity":1},
 {"title":"","note":"1 onion, diced","unit":null,"food":null,"disableAmount":true,"quantity":1},
 {"title":"","note":"1.2 l vegetable stock","unit":null,"food":null,"disableAmount":true,"quantity":1}],
"recipeInstructions":[{"title":"","text":"Soften the onion in a little oil."},{"title":"","text":"Add the lentils and stock; simmer 25 minutes."}],
"nutrition":{"calories":null,"fatContent":null},"tools":[],"totalTime":"35 minutes","prepTime":"10 minutes","performTime":"25 minutes",
"settings":{"public":true,"showNutrition":true},"assets":[],"dateAdded":"2021-06-01","notes":[],"orgURL":null,"extras":{},"comments":[]}`
	return Zip(
		File{Name: "recipes/lentil-soup/lentil-soup.json", Data: []byte(doc)},
		File{Name: "recipes/lentil-soup/images/original.webp", Data: JPEG(6), Store: true},
		File{Name: "recipes/lentil-soup/images/min-original.webp", Data: PNG(6), Store: true},
		File{Name: "users/users.json", Data: []byte(`[{"id":1,"username":"admin","fullName":"Change Me"}]`)},
		File{Name: "settings/settings.json", Data: []byte(`[{"language":"en-US","firstDayOfWeek":0}]`)},
		File{Name: "comments/comments.json", Data: []byte(`[]`)},
	)
}

func mealieV04Backup() []byte {
	doc := `{"name":"Pancakes","description":"Thin pancakes.","image":"pancakes.jpg","recipeYield":"4 Servings",
"recipeIngredient":["200 g flour","3 eggs","500 ml milk","1 pinch salt"],
"recipeInstructions":[{"text":"Whisk everything to a smooth batter."},{"text":"Fry thin pancakes in a hot buttered pan."}],
"slug":"pancakes","tags":["breakfast"],"recipeCategory":["Breakfast"],"rating":5,"nutrition":{"calories":"180"},
"tools":["frying pan"],"totalTime":"30 minutes","prepTime":"10 minutes","performTime":"20 minutes","dateAdded":"2021-02-01",
"notes":[{"title":"Tip","text":"Rest the batter for 30 minutes."}],"orgURL":"https://crepes.example.org/basic","extras":{}}`
	return Zip(
		File{Name: "recipes/Pancakes.json", Data: []byte(doc)},
		File{Name: "images/pancakes/original.jpg", Data: JPEG(7), Store: true},
		File{Name: "settings/settings.json", Data: []byte(`[{"name":"main","language":"en"}]`)},
		File{Name: "themes/themes.json", Data: []byte(`[{"name":"default","colors":{}}]`)},
		File{Name: "templates/recipes.md/pancakes.md", Data: []byte("# Pancakes")},
	)
}

func mealieV2Backup() []byte {
	db := `{"alembic_version":[{"version_num":"7788478a0338"}],
"recipes":[{"id":"0a1b2c3d4e5f40718293a4b5c6d7e8f9","slug":"flatbread","name":"Flatbread","description":"Quick yoghurt flatbread.",
 "recipe_servings":4.0,"recipe_yield_quantity":8.0,"recipe_yield":"breads","total_time":"25 minutes","prep_time":"10 minutes","cook_time":null,"perform_time":"15 minutes",
 "org_url":"https://bread.example.com/flat","rating":null,"group_id":"g","user_id":"u"}],
"recipes_ingredients":[
 {"id":1,"position":1,"recipe_id":"0a1b2c3d4e5f40718293a4b5c6d7e8f9","title":"","note":"plain","unit_id":"aa","food_id":"bb","quantity":250.0,"original_text":null,"reference_id":"r1"},
 {"id":2,"position":0,"recipe_id":"0a1b2c3d4e5f40718293a4b5c6d7e8f9","title":"","note":"","unit_id":null,"food_id":null,"quantity":0.0,"original_text":"200 g Greek yoghurt","reference_id":"r2"}],
"recipe_instructions":[{"id":"s1","position":0,"recipe_id":"0a1b2c3d4e5f40718293a4b5c6d7e8f9","title":"","summary":"","text":"Mix the flour and yoghurt into a soft dough."},
 {"id":"s2","position":1,"recipe_id":"0a1b2c3d4e5f40718293a4b5c6d7e8f9","title":"","summary":"","text":"Roll out eight rounds and dry-fry them."}],
"notes":[],"categories":[],"recipes_to_categories":[],"tags":[{"id":"t9","name":"bread","slug":"bread"}],
"recipes_to_tags":[{"recipe_id":"0a1b2c3d4e5f40718293a4b5c6d7e8f9","tag_id":"t9"}],
"ingredient_units":[{"id":"aa","name":"g","abbreviation":"g"}],"ingredient_foods":[{"id":"bb","name":"self-raising flour"}]}`
	return Zip(
		File{Name: "database.json", Data: []byte(db)},
		File{Name: "data/recipes/0a1b2c3d-4e5f-4071-8293-a4b5c6d7e8f9/images/original.webp", Data: JPEG(8), Store: true},
	)
}

func mealieBackupAmounts() []byte {
	db := `{"alembic_version":[{"version_num":"ba1e4a6cfe99"}],
"recipes":[{"id":"6a1b2c3d-4e5f-4071-8293-a4b5c6d7e801","slug":"dal","name":"Dal","recipe_yield":"4 servings","prep_time":null,"cook_time":null,"total_time":"40 min"},
 {"id":"6a1b2c3d-4e5f-4071-8293-a4b5c6d7e802","slug":"oat-bars","name":"Oat Bars","recipe_yield":"12","total_time":null}],
"recipe_settings":[{"id":1,"recipe_id":"6a1b2c3d-4e5f-4071-8293-a4b5c6d7e801","public":true,"disable_amount":true,"disable_comments":false},
 {"id":2,"recipe_id":"6a1b2c3d-4e5f-4071-8293-a4b5c6d7e802","public":true,"disable_amount":false}],
"recipes_ingredients":[
 {"id":1,"position":0,"recipe_id":"6a1b2c3d-4e5f-4071-8293-a4b5c6d7e801","title":null,"note":"250 g yellow lentils","unit_id":null,"food_id":null,"quantity":1.0,"original_text":null},
 {"id":2,"position":1,"recipe_id":"6a1b2c3d-4e5f-4071-8293-a4b5c6d7e801","title":null,"note":"1 tsp turmeric","unit_id":null,"food_id":null,"quantity":1.0,"original_text":null},
 {"id":3,"position":0,"recipe_id":"6a1b2c3d-4e5f-4071-8293-a4b5c6d7e802","title":"Base","note":"","unit_id":"c0","food_id":"f0","quantity":2.0,"original_text":null},
 {"id":4,"position":1,"recipe_id":"6a1b2c3d-4e5f-4071-8293-a4b5c6d7e802","title":null,"note":"softened","unit_id":"c0","food_id":"f1","quantity":0.5,"original_text":null},
 {"id":5,"position":2,"recipe_id":"6a1b2c3d-4e5f-4071-8293-a4b5c6d7e802","title":null,"note":"a pinch","unit_id":null,"food_id":"f2","quantity":0.0,"original_text":null}],
"recipe_instructions":[{"id":"a","position":0,"recipe_id":"6a1b2c3d-4e5f-4071-8293-a4b5c6d7e801","title":"","text":"Simmer the lentils with the turmeric until soft."},
 {"id":"b","position":0,"recipe_id":"6a1b2c3d-4e5f-4071-8293-a4b5c6d7e802","title":"","text":"Press into a tin and bake 25 minutes."}],
"ingredient_units":[{"id":"c0","name":"cup","plural_name":"cups","abbreviation":"c","use_abbreviation":false,"fraction":true}],
"ingredient_foods":[{"id":"f0","name":"oat","plural_name":"oats"},{"id":"f1","name":"butter","plural_name":null},{"id":"f2","name":"salt","plural_name":null}]}`
	return Zip(File{Name: "database.json", Data: []byte(db)}, File{Name: "data/.gitkeep", Data: nil})
}

func tandoorRecipeJSON(amount string) string {
	return `{"name":"Potato Gratin","description":"Creamy gratin.","keywords":[{"name":"side","description":"","created_at":"2023-01-01T00:00:00+01:00","updated_at":"2023-01-01T00:00:00+01:00"},{"name":"vegetarian","description":""}],
"steps":[{"name":"","instruction":"Slice the potatoes thinly.","ingredients":[
   {"food":null,"unit":null,"amount":0,"note":"Gratin","order":0,"is_header":true,"no_amount":true},
   {"food":{"name":"potato","plural_name":"potatoes","ignore_shopping":false,"supermarket_category":null},"unit":{"name":"kg","plural_name":null,"description":null},"amount":1,"note":"waxy","order":1,"is_header":false,"no_amount":false},
   {"food":{"name":"cream","plural_name":null,"ignore_shopping":false,"supermarket_category":null},"unit":{"name":"cup","plural_name":"cups","description":null},"amount":` + amount + `,"note":"","order":2,"is_header":false,"no_amount":false},
   {"food":{"name":"salt","plural_name":null},"unit":null,"amount":0,"note":"to taste","order":3,"is_header":false,"no_amount":true}],
  "time":0,"order":0,"show_as_header":false,"show_ingredients_table":true},
 {"name":"Baking","instruction":"Layer in a dish, pour over the cream.\n\nBake for **50 minutes** at 180 °C.","ingredients":[],"time":50,"order":1,"show_as_header":true,"show_ingredients_table":true}],
"working_time":20,"waiting_time":50,"internal":true,"nutrition":null,"servings":4,"servings_text":"Portionen","source_url":""}`
}

func tandoorExport() []byte {
	inner := Zip(File{Name: "recipe.json", Data: []byte(tandoorRecipeJSON("0.5"))}, File{Name: "image.png", Data: PNG(9), Store: true})
	return Zip(File{Name: "17.zip", Data: inner})
}

func tandoorDecimalStrings() []byte {
	doc := strings.Replace(tandoorRecipeJSON(`"0.500"`), `"amount":1,`, `"amount":"1.000",`, 1)
	inner := Zip(File{Name: "recipe.json", Data: []byte(doc)}, File{Name: "image.jpeg", Data: JPEG(10), Store: true})
	return Zip(File{Name: "3.zip", Data: inner})
}

func tandoorFolders() []byte {
	return Zip(
		File{Name: "export/17/recipe.json", Data: []byte(tandoorRecipeJSON("0.5"))},
		File{Name: "export/17/image.png", Data: PNG(23), Store: true},
		File{Name: "__MACOSX/export/17/._image.png", Data: []byte("\x00\x05\x16\x07")},
		File{Name: "export/18/recipe.json", Data: []byte(strings.Replace(tandoorRecipeJSON("2"), "Potato Gratin", "Leek Gratin", 1))},
	)
}

// wrap76 writes base64 in lines of 76 characters, as MIME encoders do.
func wrap76(s string) string {
	var b strings.Builder
	for len(s) > 76 {
		b.WriteString(s[:76] + "\r\n")
		s = s[76:]
	}
	b.WriteString(s)
	return b.String()
}

func paprikaPhotos() []byte {
	photo := wrap76(base64.StdEncoding.EncodeToString(JPEG(11)))
	doc := `{"uid":"9F3A1C2B-0000-4000-8000-ABCDEF012345","name":"Beef Stew","description":"","ingredients":"1 kg stewing beef, cubed\n2 tbsp flour\n\n3 carrots\n1 bottle (750 ml) red wine",
"directions":"Toss the beef in the flour and brown it in batches.\nAdd the carrots and the wine.\nSimmer covered until tender.","notes":"Better the next day.",
"servings":"Serves 4-6","prep_time":"20 mins","cook_time":"1 hr 10 min","total_time":"","source":"Grandma","source_url":"",
"categories":["Main","Winter"],"rating":4,"difficulty":"","nutritional_info":"","photo":null,"photo_data":null,"photo_large":null,"photo_hash":null,
"photos":[{"name":"1","filename":"a.jpg","hash":"h","data":"` + strings.ReplaceAll(photo, "\r\n", `\r\n`) + `"}],
"image_url":null,"created":"2022-11-03 18:22:10","hash":"abc","scale":null,"on_favorites":false,"in_trash":false}`
	return Zip(File{Name: "Beef Stew.paprikarecipe", Data: gz(doc), Store: true})
}

func paprikaHTML() []byte {
	page := `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Apple Crumble</title></head><body>
<div class="recipe" itemscope itemtype="http://schema.org/Recipe">
<div class="infobox"><img src="Images/5E1A2B3C.jpg" itemprop="image" class="photo"/>
<h1 itemprop="name">Apple Crumble</h1>
<p class="metadata"><b>Categories:</b> <span itemprop="recipeCategory">Dessert</span><br/>
<b>Prep Time:</b> <span itemprop="prepTime">15 mins</span><br/><b>Cook Time:</b> <span itemprop="cookTime">40 mins</span><br/>
<b>Servings:</b> <span itemprop="recipeYield">6</span><br/>
<b>Source:</b> <a itemprop="url" href="https://crumble.example.com/apple">crumble.example.com</a></p></div>
<div class="ingredientsbox"><h3>Ingredients</h3><div class="ingredients text">
<p class="line" itemprop="recipeIngredient">4 apples, sliced</p>
<p class="line" itemprop="recipeIngredient">150 g flour</p>
<p class="line" itemprop="recipeIngredient">100 g butter</p>
<p class="line" itemprop="recipeIngredient">80 g sugar</p></div></div>
<div class="directionsbox"><h3>Directions</h3><div itemprop="recipeInstructions" class="directions text">
<p class="line">Put the apples in a dish.</p><p class="line">Rub the flour, butter and sugar to crumbs and scatter them over.</p>
<p class="line">Bake at 190 °C for 40 minutes.</p></div></div>
</div></body></html>`
	return Zip(
		File{Name: "Recipes/Apple Crumble.html", Data: []byte(page)},
		File{Name: "Recipes/Images/5E1A2B3C.jpg", Data: JPEG(12), Store: true},
		File{Name: "index.html", Data: []byte(`<html><body><a href="Recipes/Apple Crumble.html">Apple Crumble</a></body></html>`)},
	)
}

func nextcloudOld() []byte {
	doc := `{"name":"Tomato Salad","description":"Summer salad","url":"https://salad.example.org/tomato","image":"https://salad.example.org/tomato.jpg",
"prepTime":"PT0H15M","cookTime":"","totalTime":"PT0H35M","recipeCategory":"Salad","keywords":"summer, quick,vegan","recipeYield":"2 plates",
"tool":[],"recipeIngredient":["4 tomatoes","1 red onion","2 tbsp olive oil"],
"recipeInstructions":["Slice the tomatoes and onion.","Dress with the oil and season."],"nutrition":[],"id":"1234"}`
	return Zip(
		File{Name: "Tomato Salad/recipe.json", Data: []byte(doc)},
		File{Name: "Tomato Salad/full.jpg", Data: JPEG(13), Store: true},
		File{Name: "Tomato Salad/thumb.jpg", Data: PNG(13), Store: true},
		File{Name: "Tomato Salad/thumb16.jpg", Data: PNG(14), Store: true},
	)
}

func nextcloudNew() []byte {
	doc := `{"@context":"http://schema.org","@type":"Recipe","id":"5678","name":"Chicken Curry","description":"Mild curry.",
"url":"https://curry.example.com/chicken","image":["https://curry.example.com/chicken.jpg"],"imageUrl":"/apps/cookbook/webapp/recipes/5678/image?size=full",
"prepTime":"PT0H20M0S","cookTime":"PT1H10M0S","totalTime":"PT1H30M0S","recipeCategory":"Main","keywords":"curry,chicken","recipeYield":4,
"tool":["Pot"],"recipeIngredient":["## Paste","2 onions","3 cloves garlic","## Curry","600 g chicken thighs","400 ml coconut milk"],
"recipeInstructions":["Blend the onions and garlic to a paste.","Fry the paste, add the chicken and the coconut milk.","Simmer for one hour."],
"nutrition":{"@type":"NutritionInformation","calories":"520 kcal"},"dateCreated":"2024-05-05T10:00:00+0000","dateModified":"2024-05-06T10:00:00+0000","printImage":true}`
	return Zip(
		File{Name: "Recipes/Chicken Curry/recipe.json", Data: []byte(doc)},
		File{Name: "Recipes/Chicken Curry/full.jpg", Data: JPEG(15), Store: true},
		File{Name: "Recipes/Chicken Curry/thumb.jpg", Data: PNG(15), Store: true},
	)
}

func nextcloudOneFolder() []byte {
	doc := `{"@type":"Recipe","name":"Hummus","recipeYield":"4","recipeIngredient":["400 g chickpeas","3 tbsp tahini","1 lemon"],
"recipeInstructions":["Blend everything smooth."],"keywords":"","recipeCategory":"Dip","image":"","prepTime":"PT0H10M"}`
	return Zip(
		File{Name: "recipe.json", Data: []byte(doc)},
		File{Name: "full.jpg", Data: JPEG(16), Store: true},
		File{Name: "thumb.jpg", Data: PNG(16), Store: true},
		File{Name: "thumb16.jpg", Data: PNG(17), Store: true},
	)
}

func nextcloudWindows() []byte {
	doc := `{"@type":"Recipe","name":"Crème brûlée","recipeYield":6,"recipeIngredient":["500 ml cream","5 egg yolks","100 g sugar"],
"recipeInstructions":["Heat the cream.","Whisk into the yolks and sugar, bake in a water bath.","Caramelise sugar on top."],"cookTime":"PT0H45M"}`
	return OEMZip(charmap.CodePage437,
		File{Name: `Recipes\Crème brûlée\recipe.json`, Data: []byte(doc)},
		File{Name: `Recipes\Crème brûlée\full.jpg`, Data: JPEG(18), Store: true},
		File{Name: `Recipes\Crème brûlée\thumb.jpg`, Data: PNG(18), Store: true},
	)
}

func nextcloudMacOS() []byte {
	doc := `{"@type":"Recipe","name":"Pesto","recipeYield":"4","recipeIngredient":["50 g basil","30 g parmesan","2 tbsp pine nuts","100 ml olive oil"],
"recipeInstructions":"Pound the basil and nuts.\nWork in the cheese and the oil.","keywords":"sauce","recipeCategory":"Sauce"}`
	return Zip(
		File{Name: "Rezepte/.DS_Store", Data: []byte("\x00\x00\x00\x01Bud1")},
		File{Name: "Rezepte/Pesto/recipe.json", Data: []byte(doc)},
		File{Name: "Rezepte/Pesto/full.JPG", Data: JPEG(19), Store: true},
		File{Name: "__MACOSX/Rezepte/Pesto/._recipe.json", Data: []byte("\x00\x05\x16\x07resource fork")},
		File{Name: "__MACOSX/Rezepte/Pesto/._full.JPG", Data: []byte("\x00\x05\x16\x07")},
	)
}

func schemaGraph() []byte {
	doc := `{"@context":"https://schema.org","@graph":[
{"@type":"WebPage","@id":"https://blog.example.com/risotto/","name":"Risotto - My Blog"},
{"@type":["Recipe","NewsArticle"],"@id":"https://blog.example.com/risotto/#recipe","name":"Mushroom Risotto","headline":"Mushroom Risotto",
 "image":[{"@type":"ImageObject","url":"https://blog.example.com/risotto-1x1.jpg","width":1200},{"@type":"ImageObject","url":"https://blog.example.com/risotto-4x3.jpg"}],
 "recipeYield":["4","4 servings"],"totalTime":"PT45M","recipeCategory":["Main course"],"recipeCuisine":["Italian"],"keywords":"risotto, mushrooms",
 "recipeIngredient":["300 g arborio rice","250 g mushrooms","1 l hot stock","50 g parmesan"],
 "recipeInstructions":[{"@type":"HowToSection","name":"Mushrooms","itemListElement":[{"@type":"HowToStep","text":"Fry the mushrooms until golden."}]},
  {"@type":"HowToSection","name":"Rice","itemListElement":[{"@type":"HowToStep","text":"Toast the rice, then add the stock a ladle at a time."},{"@type":"HowToStep","text":"Stir in the mushrooms and parmesan."}]}],
 "author":{"@type":"Person","name":"Ana"},"aggregateRating":{"@type":"AggregateRating","ratingValue":"4.8"}}]}`
	return []byte(doc)
}

func schemaInstructionText() []byte {
	doc := `[[{"@context":"https://schema.org","@type":"Recipe","name":"Lemonade","recipeYield":"1 litre","prepTime":"PT10M",
"recipeIngredient":[["4 lemons"],"100 g sugar","1 l water"],
"recipeInstructions":"Squeeze the lemons.\nStir the juice with the sugar until it dissolves.\nTop up with the water and chill."},
{"@context":"https://schema.org","@type":"Recipe","name":"Iced Tea","recipeYield":4,
"recipeIngredient":["4 tea bags","1 l water","2 tbsp honey"],
"recipeInstructions":[{"@type":"HowToStep","name":"Brew the tea for 5 minutes."},{"@type":"HowToStep","name":"Stir in the honey and chill."}]}]]`
	return []byte(doc)
}

func recipeSageJSONLD() []byte {
	return []byte(`[{"@context":"http://schema.org","@type":"Recipe","identifier":"3f1c","datePublished":"2023-04-01T12:00:00.000Z",
"description":"Weeknight noodles","image":["https://cdn.recipesage.example/abc.jpg"],"name":"Sesame Noodles","prepTime":"10 minutes",
"recipeIngredient":["[Sauce]","3 tbsp tahini","2 tbsp soy sauce","[Noodles]","250 g wheat noodles","2 spring onions"],
"recipeInstructions":[{"@type":"HowToSection","text":"[Sauce]"},{"@type":"HowToStep","text":"Whisk the tahini and soy sauce with a little hot water."},
 {"@type":"HowToSection","text":"[Noodles]"},{"@type":"HowToStep","text":"Boil the noodles, drain and toss with the sauce."}],
"recipeYield":"2 bowls","totalTime":"PT25M","recipeCategory":["dinner","quick"],"creditText":"Auntie May","isBasedOn":"https://noodles.example.org/sesame",
"comment":[{"@type":"Comment","name":"Author Notes","text":"Add chilli oil to taste."}],
"aggregateRating":{"@type":"AggregateRating","ratingValue":"4","bestRating":"5"}}]`)
}

func schemaHTMLZip() []byte {
	page := `<!doctype html><html><head><title>Shakshuka</title>
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Recipe","name":"Shakshuka","image":"shakshuka.webp",
"recipeYield":"2","cookTime":"PT25M","recipeIngredient":["4 eggs","400 g tinned tomatoes","1 red pepper","1 tsp cumin"],
"recipeInstructions":[{"@type":"HowToStep","text":"Soften the pepper with the cumin."},{"@type":"HowToStep","text":"Add the tomatoes, make wells and crack in the eggs."},{"@type":"HowToStep","text":"Cover until the whites set."}],
"recipeCategory":"Breakfast","nutrition":{"@type":"NutritionInformation","calories":"310 kcal"}}</script></head><body><h1>Shakshuka</h1></body></html>`
	return Zip(
		File{Name: "saved/Shakshuka.html", Data: []byte(page)},
		File{Name: "saved/shakshuka.webp", Data: PNG(20), Store: true},
		File{Name: "saved/style.css", Data: []byte("body{}")},
	)
}

func schemaJSONLines() []byte {
	return []byte(`{"@type":"Recipe","name":"Granola","recipeYield":"8","recipeIngredient":["300 g oats","100 ml maple syrup"],"recipeInstructions":"Mix and bake at 160 °C for 30 minutes.","totalTime":"PT40M"}
{"@type":"Recipe","name":"Porridge","recipeYield":"1","recipeIngredient":["50 g oats","250 ml milk"],"recipeInstructions":"Simmer for 5 minutes, stirring.","totalTime":"PT5M"}
`)
}

func schemaGzip() []byte {
	return gz(`[{"@context":"https://schema.org","@type":"Recipe","name":"Coleslaw","recipeYield":"6 servings","prepTime":"PT15M",
"recipeIngredient":["1/2 white cabbage","2 carrots","4 tbsp mayonnaise"],"recipeInstructions":["Shred the cabbage and carrots.","Mix with the mayonnaise."],
"keywords":["salad","side"],"image":{"@type":"ImageObject","url":"https://slaw.example.com/slaw.jpg"}}]`)
}

func schemaBOMRelativeImage() []byte {
	doc := "\xEF\xBB\xBF" + `{"@context":"https://schema.org","@type":"Recipe","name":"Banana Bread","image":"images/banana-bread.JPG","recipeYield":"1 loaf (10 slices)",
"prepTime":"PT15M","cookTime":"PT1H","recipeIngredient":["3 ripe bananas","250 g flour","100 g sugar","2 eggs"],
"recipeInstructions":[{"@type":"HowToStep","text":"Mash the bananas and mix in the rest."},{"@type":"HowToStep","text":"Bake in a loaf tin for an hour."}]}`
	return Zip(
		File{Name: "export/banana.json", Data: []byte(doc)},
		File{Name: "export/images/banana-bread.JPG", Data: JPEG(21), Store: true},
		File{Name: "export/images/other.jpg", Data: JPEG(22), Store: true},
	)
}
