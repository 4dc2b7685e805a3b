package archivetest

import (
	"encoding/base64"
	"encoding/binary"
	"unicode/utf16"
)

// moreVariants are the second round of real shapes, each read from the
// app's source (Source names the file).
func moreVariants() []Variant {
	return []Variant{
		{"mealie/recipe zip download", "Mealie v1.x/v2.x routes/recipe/recipe_crud_routes.py get_recipe_as_zip and services/recipe/template_service.py _render_zip: <slug>.json (model_dump_json, snake_case) and the image original.webp at the top of the zip; assets and extras in the JSON", mealieRecipeZip()},
		{"mealie/backup side tables", "Mealie v1.x database.json (services/backups_v2/alchemy_exporter.py, every table): nutrition in recipe_nutrition, tools through recipes_to_tools, recipe_assets, recipe_comments, api_extras (its column is recipee_id, db/models/recipe/api_extras.py), recipeCuisine a column of recipes; zipped again by macOS Finder in one top folder with __MACOSX/ (as Mealie's own tests/data/backups/backup-version-09aba125b57a-1.zip)", mealieBackupSideTables()},
		{"tandoor/1.5 plural flags and step templates", "Tandoor 1.5 cookbook/serializer.py IngredientExportSerializer (always_use_plural_unit, always_use_plural_food; vue/src/components/IngredientComponent.vue shows the plural when set), KeywordExportSerializer with icon, nutrition with values; step instructions use the templates of docs/features/templating.md ({{ ingredients[0] }}, .food, .note, {{ scale(12) }}, cookbook/helper/template_helper.py)", tandoorPluralTemplates()},
		{"tandoor/recipesage json export", "Tandoor cookbook/integration/recipesage.py get_file_from_recipe: a JSON list of schema.org Recipes, prepTime and totalTime as bare minutes (\"20\"), recipeYield the servings, ingredient lines f'{float(amount)} {unit} {food}' with Python's None for a missing unit or food", tandoorRecipeSageJSON()},
		{"paprika/photo_data and headings", "Paprika 3 .paprikarecipes as Tandoor cookbook/integration/paprika.py and Mealie services/migrations/paprika.py read it: photo_data base64 (not wrapped) beside image_url, photos [], servings \"Makes 12\", directions numbered paragraphs, ingredient groups as lines ending ':', notes, nutritional_info and difficulty as text", paprikaPhotoData()},
		{"nextcloud/0.11 filtered recipe.json", "Nextcloud Cookbook lib/Helper/Filter/JSON/* and Output/EnsureNutritionPresentFilter.php: recipeYield null or an integer, tool [], nutrition {\"@type\":\"NutritionInformation\"} when empty, dateCreated with +0000, imageUrl and imagePlaceholderUrl; a recipe saved before FixInstructionsFilter keeps the site's HowToSection objects", nextcloudFiltered()},
		{"mealie/step summaries and markdown", "Mealie v1.x recipe export: recipe_instructions with summary (RecipePageInstructions.vue shows it as the step's title in place of 'Step n') and Markdown text (rendered by SafeMarkdown), a step of two paragraphs; ingredients with quantity null, no food, the whole line in note", mealieStepSummaries()},
		{"paprika/crlf directions with headings", "Paprika 3 on Windows: ingredients and directions with CRLF line ends, one step a line with no blank lines, group headings as lines ending ':' in both, servings '4-6 servings', times '1 hr 15 mins', categories empty", paprikaCRLF()},
		{"nextcloud/markdown steps", "Nextcloud Cookbook src/components/RecipeView/RecipeInstruction.vue and RecipeIngredient.vue render each instruction and ingredient as Markdown (VueShowdown): emphasis and links in the text, a step of two lines (white-space: pre-line)", nextcloudMarkdown()},
		{"tandoor/1.0 text steps with lists", "Tandoor 1.0 serializer.py StepExportSerializer with type (\"TEXT\"), KeywordExportSerializer with icon null, no source_url; instructions as Markdown lists (numbered and '-' bullets, rendered by template_helper.py's markdown), an ingredient with amount 0 and no unit", tandoorTextSteps()},
		{"mealie/backup abbreviations and fractions", "Mealie v1.x/v2.x database.json ingredient_units with use_abbreviation, abbreviation, plural_abbreviation and fraction; lines written by frontend/composables/recipes/use-recipe-ingredients.ts (abbreviation when use_abbreviation, plural above one, fractions with denominators up to 10 unless the unit's fraction is off) and use-fraction.ts", mealieBackupFractions()},
		{"schema/utf-16 json", "a JSON file written by Windows PowerShell 5.1 (Out-File and > write UTF-16LE with a BOM by default)", schemaUTF16()},
		{"schema/itemlist of recipes", "Google Search's recipe carousel on one page (developers.google.com structured-data recipe, 'all-in-one page'): an ItemList of ListItem whose item is a full Recipe", schemaItemList()},
		{"schema/howto steps with tips", "schema.org HowToStep with itemListElement of HowToDirection and HowToTip (schema.org/HowToStep examples), HowToSection holding plain strings, the superseded ingredients property, image an ImageObject with contentUrl, recipeYield a number", schemaHowToTips()},
	}
}

func mealieRecipeZip() []byte {
	doc := `{"id":"7c2f9a10-3b4d-4e5f-8a9b-0c1d2e3f4a5b","user_id":"u","household_id":"h","group_id":"g","name":"Focaccia","slug":"focaccia",
"image":"a1B2","recipe_yield":"1 tray","total_time":"3 hours","prep_time":"20 minutes","cook_time":null,"perform_time":"25 minutes",
"description":"Olive oil bread.","recipe_category":[{"id":"c","name":"Bread","slug":"bread"}],"tags":[{"id":"t","name":"vegan","slug":"vegan"}],
"tools":[],"rating":null,"org_url":"https://bread.example.net/focaccia","date_added":"2024-09-01","date_updated":"2024-09-02T08:00:00","last_made":null,
"recipe_ingredient":[
 {"quantity":500.0,"unit":{"id":"g1","name":"gram","plural_name":"grams","abbreviation":"g","use_abbreviation":true},"food":{"id":"f1","name":"bread flour","plural_name":null},"note":"","is_food":true,"disable_amount":false,"display":"500 g bread flour","title":"Dough","original_text":"500 g bread flour","reference_id":"r1"},
 {"quantity":7.0,"unit":{"id":"g1","name":"gram","plural_name":"grams","abbreviation":"g","use_abbreviation":true},"food":{"id":"f2","name":"dried yeast"},"note":"","is_food":true,"disable_amount":false,"display":"7 g dried yeast","title":"","original_text":null,"reference_id":"r2"},
 {"quantity":0.0,"unit":null,"food":null,"note":"400 ml warm water","is_food":false,"disable_amount":true,"display":"400 ml warm water","title":"","original_text":null,"reference_id":"r3"},
 {"quantity":0.0,"unit":null,"food":null,"note":"flaky salt","is_food":false,"disable_amount":true,"display":"flaky salt","title":"Topping","original_text":null,"reference_id":"r4"},
 {"quantity":3.0,"unit":{"id":"t1","name":"tablespoon","plural_name":"tablespoons","abbreviation":"tbsp","use_abbreviation":false},"food":{"id":"f3","name":"olive oil"},"note":"","is_food":true,"disable_amount":false,"display":"3 tablespoons olive oil","title":"","original_text":null,"reference_id":"r5"}],
"recipe_instructions":[{"id":"s1","title":"","summary":"","text":"Mix the flour, yeast and water; rest for 2 hours.","ingredient_references":[]},
 {"id":"s2","title":"Bake","summary":"","text":"Press into an oiled tray, drizzle with the oil and scatter the salt.","ingredient_references":[]},
 {"id":"s3","title":"","summary":"","text":"Bake at 220 °C for 25 minutes.","ingredient_references":[]}],
"nutrition":{"calories":null,"carbohydrate_content":null,"fat_content":null,"protein_content":null},
"settings":{"public":true,"show_nutrition":false,"show_assets":false,"landscape_view":false,"disable_comments":false,"disable_amount":false,"locked":false},
"assets":[{"name":"Scan","icon":"mdi-file","file_name":"scan.pdf"}],"notes":[{"title":"Tip","text":"Dimple the dough deeply."}],
"extras":{"hydration":"80%"},"comments":[]}`
	return Zip(
		File{Name: "focaccia.json", Data: []byte(doc)},
		File{Name: "original.webp", Data: JPEG(31), Store: true},
	)
}

func mealieBackupSideTables() []byte {
	const soup, toast = "3e9b7c1a-5d2f-4a6b-9c8d-7e6f5a4b3c21", "3e9b7c1a-5d2f-4a6b-9c8d-7e6f5a4b3c22"
	db := `{"alembic_version":[{"version_num":"09aba125b57a"}],
"recipes":[{"id":"` + soup + `","slug":"minestrone","name":"Minestrone","description":"Vegetable soup.","recipe_yield":"6 servings",
  "prep_time":"15 minutes","perform_time":"40 minutes","cook_time":null,"total_time":null,"org_url":null,"rating":null,"recipeCuisine":"Italian",
  "is_ocr_recipe":false,"last_made":null,"name_normalized":"minestrone","description_normalized":"vegetable soup."},
 {"id":"` + toast + `","slug":"bruschetta","name":"Bruschetta","description":"","recipe_yield":"4","prep_time":"10 minutes","perform_time":null,
  "cook_time":null,"total_time":null,"org_url":"https://toast.example.org/bruschetta","rating":null,"recipeCuisine":null,"is_ocr_recipe":false}],
"recipe_settings":[{"id":1,"recipe_id":"` + soup + `","public":true,"show_nutrition":true,"show_assets":true,"landscape_view":false,"disable_comments":false,"disable_amount":true,"locked":false},
 {"id":2,"recipe_id":"` + toast + `","public":true,"disable_amount":true}],
"recipes_ingredients":[
 {"id":1,"position":0,"recipe_id":"` + soup + `","title":"","note":"2 carrots, diced","unit_id":null,"food_id":null,"quantity":1.0,"original_text":null,"reference_id":"a"},
 {"id":2,"position":1,"recipe_id":"` + soup + `","title":"","note":"1 tin cannellini beans","unit_id":null,"food_id":null,"quantity":1.0,"original_text":null,"reference_id":"b"},
 {"id":3,"position":2,"recipe_id":"` + soup + `","title":"","note":"100 g small pasta","unit_id":null,"food_id":null,"quantity":1.0,"original_text":null,"reference_id":"c"},
 {"id":4,"position":0,"recipe_id":"` + toast + `","title":"","note":"4 slices sourdough","unit_id":null,"food_id":null,"quantity":1.0,"original_text":null},
 {"id":5,"position":1,"recipe_id":"` + toast + `","title":"","note":"3 ripe tomatoes","unit_id":null,"food_id":null,"quantity":1.0,"original_text":null}],
"recipe_instructions":[
 {"id":"i1","position":0,"recipe_id":"` + soup + `","type":null,"title":"","text":"Sweat the carrots in olive oil."},
 {"id":"i2","position":1,"recipe_id":"` + soup + `","type":null,"title":"","text":"Add the beans, pasta and water; simmer 40 minutes."},
 {"id":"i3","position":0,"recipe_id":"` + toast + `","type":null,"title":"","text":"Toast the bread and pile on the chopped tomatoes."}],
"notes":[{"id":1,"recipe_id":"` + soup + `","title":"","text":"Better the next day."}],
"recipe_nutrition":[{"id":1,"recipe_id":"` + soup + `","calories":"320","fat_content":"9","protein_content":null,"carbohydrate_content":null,"fiber_content":null,"sodium_content":null,"sugar_content":null},
 {"id":2,"recipe_id":"` + toast + `","calories":null,"fat_content":null,"protein_content":null,"carbohydrate_content":null,"fiber_content":null,"sodium_content":null,"sugar_content":null}],
"tools":[{"id":"p1","name":"Soup pot","slug":"soup-pot","on_hand":false}],"recipes_to_tools":[{"recipe_id":"` + soup + `","tool_id":"p1"}],
"recipe_assets":[{"id":1,"recipe_id":"` + soup + `","name":"Card","icon":"mdi-file-image","file_name":"card.jpg"}],
"recipe_comments":[{"id":"k1","recipe_id":"` + soup + `","user_id":"u","text":"Lovely with pesto."}],
"api_extras":[{"id":"e1","recipee_id":"` + soup + `","key_name":"source_book","value":"Zuppe"}],
"categories":[{"id":"c1","name":"Soup","slug":"soup"}],"recipes_to_categories":[{"recipe_id":"` + soup + `","category_id":"c1"}],
"tags":[{"id":"t1","name":"winter","slug":"winter"}],"recipes_to_tags":[{"recipe_id":"` + soup + `","tag_id":"t1"}],
"ingredient_units":[],"ingredient_foods":[]}`
	return Zip(
		File{Name: "__MACOSX/._mealie_2024", Data: []byte("\x00\x05\x16\x07")},
		File{Name: "mealie_2024/data/.PLACEHOLDER", Data: nil},
		File{Name: "__MACOSX/mealie_2024/._database.json", Data: []byte("\x00\x05\x16\x07")},
		File{Name: "mealie_2024/database.json", Data: []byte(db)},
		File{Name: "mealie_2024/data/recipes/" + soup + "/images/original.webp", Data: JPEG(32), Store: true},
		File{Name: "mealie_2024/data/recipes/" + soup + "/assets/card.jpg", Data: JPEG(33), Store: true},
	)
}

func tandoorPluralTemplates() []byte {
	plain := `"always_use_plural_unit":false,"always_use_plural_food":false`
	doc := `{"name":"Cinnamon Rolls","description":"Soft rolls.","keywords":[{"name":"baking","icon":"🥐","description":"","created_at":"2023-05-01T10:00:00+02:00","updated_at":"2023-05-01T10:00:00+02:00"}],
"steps":[{"name":"Dough","instruction":"Warm the {{ ingredients[1].food }} and stir in the {{ ingredients[2].food }}.\nKnead in {{ ingredients[0] }} and {{ ingredients[3].note }} for 10 minutes.","ingredients":[
   {"food":{"name":"flour","plural_name":"","ignore_shopping":false,"supermarket_category":null},"unit":{"name":"g","plural_name":"","description":null},"amount":"500.000","note":"","order":0,"is_header":false,"no_amount":false,` + plain + `},
   {"food":{"name":"milk","plural_name":null,"ignore_shopping":false,"supermarket_category":null},"unit":{"name":"ml","plural_name":null,"description":null},"amount":"250.000","note":"","order":1,"is_header":false,"no_amount":false,` + plain + `},
   {"food":{"name":"yeast","plural_name":null,"ignore_shopping":false,"supermarket_category":null},"unit":{"name":"sachet","plural_name":"sachets","description":null},"amount":"1.000","note":"","order":2,"is_header":false,"no_amount":false,` + plain + `},
   {"food":null,"unit":null,"amount":"0.000","note":"a pinch of salt","order":3,"is_header":false,"no_amount":true,` + plain + `}],
  "time":10,"order":0,"show_as_header":true},
 {"name":"Filling","instruction":"Spread {{ ingredients[0] }} over the dough and scatter over the raisins.\n\nRoll up, cut {{ scale(12) }} rolls and bake for 25 minutes.","ingredients":[
   {"food":{"name":"butter","plural_name":null,"ignore_shopping":false,"supermarket_category":null},"unit":{"name":"g","plural_name":"","description":null},"amount":"50.000","note":"softened","order":0,"is_header":false,"no_amount":false,` + plain + `},
   {"food":{"name":"raisin","plural_name":"raisins","ignore_shopping":false,"supermarket_category":null},"unit":{"name":"cup","plural_name":"cups","description":null},"amount":"1.000","note":"","order":1,"is_header":false,"no_amount":false,"always_use_plural_unit":false,"always_use_plural_food":true}],
  "time":25,"order":1,"show_as_header":true}],
"working_time":30,"waiting_time":85,"internal":true,"nutrition":{"id":3,"carbohydrates":"40.0000","fats":"12.0000","proteins":"6.0000","calories":"310.0000","source":""},
"servings":12,"servings_text":"rolls"}`
	inner := Zip(File{Name: "recipe.json", Data: []byte(doc)}, File{Name: "image.jpg", Data: JPEG(34), Store: true})
	return Zip(File{Name: "41.zip", Data: inner})
}

func tandoorRecipeSageJSON() []byte {
	return []byte(`[{"@context": "http://schema.org", "@type": "Recipe", "creditText": "", "isBasedOn": "", "name": "Shepherd's Pie", "description": "Lamb and mash.",
"prepTime": "20", "totalTime": "70", "recipeYield": "4", "image": [], "recipeCategory": [], "comment": [],
"recipeIngredient": ["0.0 None None", "500.0 g lamb mince", "1.0 None onion", "0.0 None salt", "800.0 g potatoes"],
"recipeInstructions": [{"@type": "HowToStep", "text": "Brown the lamb with the onion and season."}, {"@type": "HowToStep", "text": "Top with mashed potatoes and bake for 50 minutes."}]}]`)
}

func paprikaPhotoData() []byte {
	doc := `{"uid":"0B7E4D2C-1111-4222-8333-444455556666","name":"Blueberry Muffins","description":"",
"ingredients":"For the batter:\n250 g flour\n2 tsp baking powder\n150 ml milk\n\nFor the topping:\n2 tbsp sugar\n100 g blueberries",
"directions":"1. Heat the oven to 200 °C.\n\n2. Whisk the batter together and fold in the blueberries.\n\n3. Fill the cases, sprinkle with the sugar and bake for 20 minutes.",
"notes":"Frozen berries work too.","servings":"Makes 12","prep_time":"15 mins","cook_time":"20 min","total_time":"35 minutes",
"source":"muffins.example.com","source_url":"https://muffins.example.com/blueberry","categories":["Baking","Breakfast"],"rating":0,"difficulty":"Easy",
"nutritional_info":"210 kcal per muffin","photo":"5D1C.jpg","photo_data":"` + base64.StdEncoding.EncodeToString(JPEG(35)) + `","photo_large":null,"photo_hash":"ab12",
"photos":[],"image_url":"https://muffins.example.com/blueberry.jpg","created":"2023-02-01 09:00:00","hash":"cd34","scale":null,"on_favorites":false,"in_trash":false}`
	return Zip(File{Name: "Blueberry Muffins.paprikarecipe", Data: gz(doc), Store: true})
}

func nextcloudFiltered() []byte {
	pannaCotta := `{"@context":"http://schema.org","@type":"Recipe","id":"9012","name":"Panna Cotta","description":"","url":"","image":"",
"imageUrl":"/apps/cookbook/webapp/recipes/9012/image?size=full","imagePlaceholderUrl":"/apps/cookbook/assets/recipe-placeholder.png",
"prepTime":"PT0H20M0S","cookTime":null,"totalTime":"PT4H20M0S","recipeCategory":"Dessert","keywords":"","recipeYield":6,"tool":[],
"recipeIngredient":["500 ml cream","60 g sugar","3 leaves gelatine"],
"recipeInstructions":["Soak the gelatine in cold water.","Warm the cream with the sugar and dissolve the gelatine in it.","Pour into glasses and chill for 4 hours."],
"nutrition":{"@type":"NutritionInformation"},"dateCreated":"2024-01-01T10:00:00+0000","dateModified":null,"printImage":true}`
	gazpacho := `{"@context":"http://schema.org","@type":"Recipe","id":"9013","name":"Gazpacho","url":"https://soup.example.net/gazpacho",
"recipeYield":null,"recipeCategory":"Soup","keywords":"cold,summer","tool":"Blender",
"recipeIngredient":["1 kg tomatoes","1 cucumber","1 clove garlic"],
"recipeInstructions":[{"@type":"HowToSection","name":"Soup","itemListElement":[{"@type":"HowToStep","text":"Blend everything smooth."},{"@type":"HowToStep","text":"Chill for an hour."}]},
 {"@type":"HowToSection","name":"To serve","itemListElement":[{"@type":"HowToStep","text":"Top with croutons."}]}],
"dateCreated":"2021-07-01 12:00:00"}`
	return Zip(
		File{Name: "Recipes/Panna Cotta/recipe.json", Data: []byte(pannaCotta)},
		File{Name: "Recipes/Panna Cotta/full.jpg", Data: JPEG(36), Store: true},
		File{Name: "Recipes/Panna Cotta/thumb.jpg", Data: PNG(36), Store: true},
		File{Name: "Recipes/Panna Cotta/thumb16.jpg", Data: PNG(37), Store: true},
		File{Name: "Recipes/Gazpacho/recipe.json", Data: []byte(gazpacho)},
	)
}

// utf16LE writes s in UTF-16, little-endian, after a byte order mark.
func utf16LE(s string) []byte {
	out := []byte{0xFF, 0xFE}
	for _, u := range utf16.Encode([]rune(s)) {
		out = binary.LittleEndian.AppendUint16(out, u)
	}
	return out
}

func schemaUTF16() []byte {
	return utf16LE(`{
    "@context":  "https://schema.org",
    "@type":  "Recipe",
    "name":  "Crêpes Suzette",
    "recipeYield":  "4",
    "prepTime":  "PT10M",
    "cookTime":  "PT20M",
    "recipeIngredient":  [
                             "125 g flour",
                             "2 eggs",
                             "250 ml milk",
                             "2 oranges"
                         ],
    "recipeInstructions":  "Whisk the batter and rest it.\r\nFry the crêpes.\r\nWarm them in the orange juice."
}`)
}

func schemaItemList() []byte {
	return []byte(`{"@context":"https://schema.org","@type":"ItemList","itemListElement":[
{"@type":"ListItem","position":1,"item":{"@type":"Recipe","name":"Guacamole","recipeYield":"4 servings","prepTime":"PT10M","recipeCategory":"Dip",
 "recipeIngredient":["2 avocados","1 lime","1 small onion"],"recipeInstructions":[{"@type":"HowToStep","text":"Mash the avocados with the lime juice."},{"@type":"HowToStep","text":"Stir in the chopped onion."}],
 "url":"https://dips.example.com/#guacamole"}},
{"@type":"ListItem","position":2,"item":{"@type":"Recipe","name":"Salsa","recipeYield":"6","recipeIngredient":["4 tomatoes","1 chilli"],
 "recipeInstructions":[{"@type":"HowToStep","text":"Chop everything finely and mix."}],"url":"https://dips.example.com/#salsa"}}]}`)
}

func schemaHowToTips() []byte {
	return []byte(`{"@context":"https://schema.org","@type":"Recipe","name":"Roast Chicken","recipeYield":6,"totalTime":"PT1H45M",
"image":{"@type":"ImageObject","contentUrl":"https://roast.example.org/chicken.jpg","width":1200,"height":800},
"ingredients":["1 chicken (1.8 kg)","1 lemon","4 tbsp butter"],
"recipeInstructions":[
 {"@type":"HowToSection","name":"Prepare","itemListElement":["Heat the oven to 200 °C.","Stuff the lemon into the chicken."]},
 {"@type":"HowToSection","name":"Roast","itemListElement":[
   {"@type":"HowToStep","itemListElement":[{"@type":"HowToDirection","text":"Rub the skin with the butter."},{"@type":"HowToTip","text":"Dry the skin first for crispness."}]},
   {"@type":"HowToStep","text":"Roast for 1 hour 30 minutes, then rest for 15 minutes."}]}]}`)
}

func mealieStepSummaries() []byte {
	doc := `{"id":"8d3e4f50-6a7b-4c8d-9e0f-1a2b3c4d5e6f","name":"Pizza Dough","slug":"pizza-dough","recipe_yield":"2 pizzas","prep_time":"20 minutes",
"total_time":"2 hours 20 minutes","description":"","recipe_category":[],"tags":[],"tools":[],"org_url":null,
"recipe_ingredient":[{"quantity":null,"unit":null,"food":null,"note":"300 g strong flour","title":"","original_text":null,"reference_id":"a"},
 {"quantity":null,"unit":null,"food":null,"note":"200 ml water","title":"","original_text":null,"reference_id":"b"},
 {"quantity":null,"unit":null,"food":null,"note":"1 tsp salt","title":"","original_text":null,"reference_id":"c"}],
"recipe_instructions":[{"id":"s1","title":"","summary":"Mix","text":"Stir the flour, water and salt to a **shaggy** dough.","ingredient_references":[]},
 {"id":"s2","title":"","summary":"","text":"Knead for 10 minutes until smooth.\n\nCover and leave to rise for *2 hours*.","ingredient_references":[]},
 {"id":"s3","title":"","summary":"Shape","text":"Divide in two and stretch each into a round ([see the video](https://pizza.example.com/video)).","ingredient_references":[]}],
"settings":{"disable_amount":true},"notes":[],"assets":[],"extras":{},"nutrition":{}}`
	return Zip(File{Name: "recipes/pizza-dough/pizza-dough.json", Data: []byte(doc)})
}

func paprikaCRLF() []byte {
	doc := `{"uid":"7A2B","name":"Chicken Pie","description":"Family pie.",
"ingredients":"Filling:\r\n500 g chicken thighs\r\n2 leeks\r\n300 ml stock\r\nPastry:\r\n1 sheet puff pastry\r\n1 egg, beaten",
"directions":"Filling:\r\nBrown the chicken.\r\nAdd the leeks and stock and simmer 30 minutes.\r\nPastry:\r\nCover with the pastry and brush with the egg.\r\nBake at 200 °C for 30 minutes.",
"notes":"","servings":"4-6 servings","prep_time":"15 mins","cook_time":"1 hr 15 mins","total_time":"","source":"","source_url":"","categories":[],
"rating":0,"difficulty":"","nutritional_info":"","photo":null,"photo_data":null,"photo_large":null,"photos":[],"image_url":"","on_favorites":false,"in_trash":false}`
	return Zip(File{Name: "Chicken Pie.paprikarecipe", Data: gz(doc), Store: true})
}

func nextcloudMarkdown() []byte {
	doc := `{"@context":"http://schema.org","@type":"Recipe","id":"9020","name":"Chocolate Mousse","description":"","url":"","image":"",
"prepTime":"PT0H20M0S","cookTime":null,"totalTime":null,"recipeCategory":"Dessert","keywords":"","recipeYield":4,"tool":[],
"recipeIngredient":["200 g *dark* chocolate","4 eggs","2 tbsp sugar"],
"recipeInstructions":["Melt the chocolate **gently** over hot water.","Whisk the whites with the sugar to soft peaks\nand fold them into the chocolate and yolks ([how to fold](https://mousse.example.com/fold)).","Chill for __at least 3 hours__."],
"nutrition":{"@type":"NutritionInformation"},"dateCreated":"2025-02-01T08:00:00+0000"}`
	return Zip(
		File{Name: "Recipes/Chocolate Mousse/recipe.json", Data: []byte(doc)},
		File{Name: "Recipes/Chocolate Mousse/full.jpg", Data: JPEG(38), Store: true},
	)
}

func tandoorTextSteps() []byte {
	doc := `{"name":"Potato Salad","description":"","keywords":[{"name":"salad","icon":null,"description":"","created_at":"2021-09-01T10:00:00+02:00","updated_at":"2021-09-01T10:00:00+02:00"}],
"steps":[{"name":"","type":"TEXT","instruction":"1. Boil the potatoes for 20 minutes.\n2. Peel and slice them while warm.","ingredients":[
   {"food":{"name":"potato","plural_name":null,"ignore_shopping":false,"supermarket_category":null},"unit":{"name":"kg","description":null},"amount":1.0,"note":"","order":0,"is_header":false,"no_amount":false},
   {"food":{"name":"chives","plural_name":null,"ignore_shopping":false,"supermarket_category":null},"unit":null,"amount":0,"note":"","order":1,"is_header":false,"no_amount":false}],
  "time":20,"order":0,"show_as_header":false},
 {"name":"Dressing","type":"TEXT","instruction":"- Whisk the oil, vinegar and mustard.\n- Pour over the potatoes and scatter the chives.","ingredients":[
   {"food":{"name":"oil","plural_name":null},"unit":{"name":"tbsp","description":null},"amount":4.0,"note":"","order":0,"is_header":false,"no_amount":false},
   {"food":{"name":"vinegar","plural_name":null},"unit":{"name":"tbsp","description":null},"amount":2.0,"note":"","order":1,"is_header":false,"no_amount":false},
   {"food":{"name":"mustard","plural_name":null},"unit":{"name":"tsp","description":null},"amount":1.0,"note":"","order":2,"is_header":false,"no_amount":false}],
  "time":0,"order":1,"show_as_header":true}],
"working_time":25,"waiting_time":0,"internal":true,"nutrition":null,"servings":4,"servings_text":""}`
	return Zip(File{Name: "12.zip", Data: Zip(File{Name: "recipe.json", Data: []byte(doc)})})
}

func mealieBackupFractions() []byte {
	const id = "5f0e1d2c-3b4a-4958-8776-655443322110"
	db := `{"alembic_version":[{"version_num":"feecc8ffb956"}],
"recipes":[{"id":"` + id + `","slug":"pancake-stack","name":"Pancake Stack","recipe_yield":"4 servings","recipe_servings":4.0,"recipe_yield_quantity":0.0,"total_time":"20 minutes"}],
"recipe_settings":[{"id":1,"recipe_id":"` + id + `","disable_amount":false}],
"recipes_ingredients":[
 {"id":1,"position":0,"recipe_id":"` + id + `","title":"","note":"","unit_id":"cup","food_id":"flour","quantity":1.5,"original_text":null},
 {"id":2,"position":1,"recipe_id":"` + id + `","title":"","note":"","unit_id":"tsp","food_id":"salt","quantity":0.333,"original_text":null},
 {"id":3,"position":2,"recipe_id":"` + id + `","title":"","note":"","unit_id":"tbsp","food_id":"sugar","quantity":2.0,"original_text":null},
 {"id":4,"position":3,"recipe_id":"` + id + `","title":"","note":"melted","unit_id":"tbsp","food_id":"butter","quantity":1.0,"original_text":null},
 {"id":5,"position":4,"recipe_id":"` + id + `","title":"","note":"","unit_id":"l","food_id":"milk","quantity":0.25,"original_text":null},
 {"id":6,"position":5,"recipe_id":"` + id + `","title":"","note":"","unit_id":null,"food_id":"egg","quantity":2.0,"original_text":null}],
"recipe_instructions":[{"id":"a","position":0,"recipe_id":"` + id + `","title":"","summary":"","text":"Whisk everything together and fry in a hot pan."}],
"ingredient_units":[{"id":"cup","name":"cup","plural_name":"cups","abbreviation":"c","plural_abbreviation":"","use_abbreviation":false,"fraction":true},
 {"id":"tsp","name":"teaspoon","plural_name":"teaspoons","abbreviation":"tsp","plural_abbreviation":"tsp","use_abbreviation":true,"fraction":true},
 {"id":"tbsp","name":"tablespoon","plural_name":"tablespoons","abbreviation":"tbsp","plural_abbreviation":"tbsp","use_abbreviation":true,"fraction":true},
 {"id":"l","name":"liter","plural_name":"liters","abbreviation":"l","plural_abbreviation":"","use_abbreviation":true,"fraction":false}],
"ingredient_foods":[{"id":"flour","name":"flour","plural_name":null},{"id":"salt","name":"salt","plural_name":null},{"id":"sugar","name":"sugar","plural_name":null},
 {"id":"butter","name":"butter","plural_name":null},{"id":"milk","name":"milk","plural_name":null},{"id":"egg","name":"egg","plural_name":"eggs"}]}`
	return Zip(File{Name: "database.json", Data: []byte(db)}, File{Name: "data/.PLACEHOLDER", Data: nil})
}
