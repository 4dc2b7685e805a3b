package archivetest

import (
	"bytes"
	"encoding/base64"
	"strings"
)

// gapVariants are the third round: shapes real exports take that the first
// two rounds did not hold (a second recipe of the same name, sub-recipes,
// files saved in the Windows code page, a damaged photo).
func gapVariants() []Variant {
	return []Variant{
		{"tandoor/2.x same names and hidden amounts", "Tandoor 2.x cookbook/integration/default.py names each recipe's zip get_valid_filename(r.name) + '.zip', so two recipes of one name give two entries of one name (Python's zipfile writes both); IngredientExportSerializer keeps the amount of a no_amount ingredient, which vue3/src/utils/model_utils.ts pluralString shows with singular names", tandoorSameNames()},
		{"paprika/gallery main photo", "Paprika 3 .paprikarecipes: photo_data null, the photos in photos[] (name, filename, hash, data), the main one named by photo (its filename) and photo_hash; Tandoor cookbook/integration/paprika.py and Mealie services/migrations/paprika.py read photo and photo_data", paprikaGalleryMain()},
		{"mealie/v3 export sub-recipe line", "Mealie v3 recipe export: a recipe_ingredient with referenced_recipe (a recipe in place of the food, shown by its name in frontend/composables/recipes/use-recipe-ingredients.ts) and a display written without it", mealieSubRecipeExport()},
		{"mealie/v3 backup sub-recipe line", "Mealie v3 database.json: recipes_ingredients.referenced_recipe_id (alembic schema of v3.2.8) naming another row of recipes", mealieSubRecipeBackup()},
		{"nextcloud/windows-1252 recipe.json", "a Cookbook recipe.json edited in Windows Notepad before 1903 (saved as ANSI, Windows-1252, CRLF line ends) and zipped with its folder", nextcloudWindows1252()},
		{"schema/windows-1252 json", "a JSON file of schema.org recipes written by a Windows tool in the ANSI code page (Windows-1252): accented letters, œ and – as single bytes", schemaWindows1252()},
		{"paprika/headings in capitals", "Paprika 3 recipes typed by hand or pasted from a book: group names as lines in capitals, with no colon, in ingredients and directions (the app shows the text as written; Tandoor's and Mealie's Paprika importers read both fields as plain lines)", paprikaCapitals()},
		{"nextcloud/damaged photo", "a Cookbook folder zip whose full.jpg was damaged in transfer (its CRC does not match), beside a sound recipe folder", nextcloudDamagedPhoto()},
	}
}

// tandoorIngredientJSON is one ingredient of Tandoor's IngredientExportSerializer.
func tandoorIngredientJSON(food, foodPlural, unit, unitPlural, amount string, noAmount bool, note string) string {
	no := "false"
	if noAmount {
		no = "true"
	}
	named := func(name, plural string) string {
		if name == "" {
			return "null"
		}
		return `{"name":"` + name + `","plural_name":"` + plural + `","description":null}`
	}
	return `{"food":` + named(food, foodPlural) + `,"unit":` + named(unit, unitPlural) + `,"amount":` + amount + `,"note":"` + note +
		`","order":0,"is_header":false,"no_amount":` + no + `,"always_use_plural_unit":false,"always_use_plural_food":false}`
}

func tandoorSameNames() []byte {
	recipe := func(instruction, ings string) []byte {
		return []byte(`{"name":"Pancakes","description":"","keywords":[],"steps":[{"name":"","instruction":"` + instruction + `","ingredients":[` + ings +
			`],"time":0,"order":0,"show_as_header":false,"show_ingredients_table":true}],"working_time":10,"waiting_time":0,"internal":true,
"nutrition":null,"servings":2,"servings_text":"","source_url":""}`)
	}
	first := recipe("Whisk and fry.", tandoorIngredientJSON("egg", "eggs", "", "", "2", false, "")+","+
		tandoorIngredientJSON("salt", "salts", "pinch", "pinches", "2", true, ""))
	second := recipe("Mash the bananas, whisk and fry.", tandoorIngredientJSON("banana", "bananas", "", "", "1", false, "ripe")+","+
		tandoorIngredientJSON("milk", "", "cup", "cups", "1", false, ""))
	return Zip(
		File{Name: "Pancakes.zip", Data: Zip(File{Name: "recipe.json", Data: first}, File{Name: "image.jpeg", Data: JPEG(40), Store: true})},
		File{Name: "Pancakes.zip", Data: Zip(File{Name: "recipe.json", Data: second}, File{Name: "image.png", Data: PNG(41), Store: true})},
	)
}

func paprikaGalleryMain() []byte {
	photo := func(name, hash string, data []byte) string {
		return `{"name":"` + name + `","filename":"` + name + `.jpg","hash":"` + hash + `","data":"` + base64.StdEncoding.EncodeToString(data) + `"}`
	}
	doc := `{"uid":"4C2D","name":"Lemon Tart","description":"","ingredients":"1 pastry case\n3 lemons\n150 g sugar\n3 eggs",
"directions":"Whisk the juice, zest, sugar and eggs.\n\nPour into the case and bake at 150 °C for 30 minutes.","notes":"","servings":"8",
"prep_time":"20 min","cook_time":"30 min","total_time":"","source":"","source_url":"","categories":["Dessert"],"rating":0,"difficulty":"",
"nutritional_info":"","photo":"B7.jpg","photo_hash":"hb7","photo_data":null,"photo_large":null,
"photos":[` + photo("A1", "ha1", JPEG(42)) + `,` + photo("B7", "hb7", JPEG(43)) + `],"image_url":null,"created":"2024-03-03 10:00:00","hash":"x"}`
	return Zip(File{Name: "Lemon Tart.paprikarecipe", Data: gz(doc), Store: true})
}

func mealieSubRecipeExport() []byte {
	doc := `{"id":"9a8b7c6d-0000-4000-8000-000000000001","name":"Margherita Pizza","slug":"margherita-pizza","recipe_servings":2.0,
"recipe_yield_quantity":0.0,"recipe_yield":"","prep_time":"15 minutes","perform_time":"10 minutes","total_time":null,"cook_time":null,
"recipe_category":[],"tags":[],"tools":[],"org_url":null,"description":"",
"recipe_ingredient":[
 {"quantity":1.0,"unit":null,"food":null,"note":"","display":"1","title":"","original_text":null,"reference_id":"r1",
  "referenced_recipe":{"id":"9a8b7c6d-0000-4000-8000-000000000002","name":"Pizza Dough","slug":"pizza-dough"}},
 {"quantity":0.5,"unit":{"id":"u","name":"cup","plural_name":"cups","abbreviation":"c","use_abbreviation":false,"fraction":true},"food":null,"note":"",
  "display":"½ cup","title":"","original_text":null,"reference_id":"r2","referenced_recipe":{"id":"9a8b7c6d-0000-4000-8000-000000000003","name":"Tomato Sauce","slug":"tomato-sauce"}},
 {"quantity":125.0,"unit":{"id":"g","name":"gram","plural_name":"grams","abbreviation":"g","use_abbreviation":true,"fraction":false},
  "food":{"id":"f","name":"mozzarella","plural_name":null},"note":"torn","display":"125 g mozzarella torn","title":"","original_text":null,"reference_id":"r3","referenced_recipe":null}],
"recipe_instructions":[{"id":"s1","title":"","summary":"","text":"Stretch the dough, spread the sauce and scatter the cheese.","ingredient_references":[]},
 {"id":"s2","title":"","summary":"","text":"Bake at 250 °C for 10 minutes.","ingredient_references":[]}],
"notes":[],"extras":{},"assets":[],"comments":[]}`
	return Zip(File{Name: "recipes/margherita-pizza/margherita-pizza.json", Data: []byte(doc)})
}

func mealieSubRecipeBackup() []byte {
	const pizza, dough = "9a8b7c6d00004000800000000000000a", "9a8b7c6d00004000800000000000000b"
	db := `{"alembic_version":[{"version_num":"v328"}],
"recipes":[{"id":"` + pizza + `","slug":"calzone","name":"Calzone","recipe_servings":2.0,"recipe_yield":null,"prep_time":null,"perform_time":"15 minutes"},
 {"id":"` + dough + `","slug":"pizza-dough","name":"Pizza Dough","recipe_servings":4.0,"prep_time":"10 minutes"}],
"recipes_ingredients":[
 {"id":1,"position":0,"recipe_id":"` + pizza + `","title":"","note":"","unit_id":null,"food_id":null,"quantity":2.0,"original_text":null,"referenced_recipe_id":"` + dough + `"},
 {"id":2,"position":1,"recipe_id":"` + pizza + `","title":"","note":"","unit_id":"g","food_id":"ham","quantity":100.0,"original_text":null,"referenced_recipe_id":null},
 {"id":3,"position":0,"recipe_id":"` + dough + `","title":"","note":"","unit_id":"g","food_id":"flour","quantity":500.0,"original_text":null,"referenced_recipe_id":null}],
"recipe_instructions":[{"id":"i1","position":0,"recipe_id":"` + pizza + `","title":"","text":"Fill the dough with the ham, fold and bake."},
 {"id":"i2","position":0,"recipe_id":"` + dough + `","title":"","text":"Knead and rest for an hour."}],
"ingredient_units":[{"id":"g","name":"gram","plural_name":"grams","abbreviation":"g","use_abbreviation":true,"fraction":false}],
"ingredient_foods":[{"id":"ham","name":"ham","plural_name":null},{"id":"flour","name":"flour","plural_name":null}]}`
	return Zip(File{Name: "database.json", Data: []byte(db)}, File{Name: "data/.PLACEHOLDER", Data: nil})
}

// windows1252 writes s in the Windows code page for the few letters used
// here.
func windows1252(s string) []byte {
	return []byte(strings.NewReplacer("è", "\xe8", "é", "\xe9", "û", "\xfb", "î", "\xee", "œ", "\x9c", "–", "\x96", "ç", "\xe7", "â", "\xe2").Replace(s))
}

func nextcloudWindows1252() []byte {
	doc := strings.ReplaceAll(`{"@type":"Recipe","name":"Crème brûlée",
"recipeYield":4,"keywords":"français,crème","recipeCategory":"Dessert",
"recipeIngredient":["500 ml crème fraîche","5 jaunes d'œufs","100 g sucre"],
"recipeInstructions":["Chauffer la crème – sans bouillir.","Cuire au bain-marie."]}`, "\n", "\r\n")
	return Zip(
		File{Name: "Recettes/Crème brûlée/recipe.json", Data: windows1252(doc)},
		File{Name: "Recettes/Crème brûlée/full.jpg", Data: JPEG(44), Store: true},
	)
}

func schemaWindows1252() []byte {
	return windows1252(`[{"@context":"https://schema.org","@type":"Recipe","name":"Gâteau basque","recipeYield":"8",
"recipeIngredient":["250 g farine","2 œufs","150 g crème pâtissière"],
"recipeInstructions":"Préparer la pâte.\nGarnir de crème – puis cuire 40 minutes."}]`)
}

func nextcloudDamagedPhoto() []byte {
	photo := JPEG(45)
	doc := `{"@type":"Recipe","name":"Lentil Salad","recipeYield":2,"recipeIngredient":["200 g lentils","1 shallot"],"recipeInstructions":["Cook the lentils.","Dress with the shallot."]}`
	good := `{"@type":"Recipe","name":"Green Salad","recipeYield":2,"recipeIngredient":["1 lettuce"],"recipeInstructions":["Wash and dress."]}`
	z := Zip(
		File{Name: "Lentil Salad/recipe.json", Data: []byte(doc)},
		File{Name: "Lentil Salad/full.jpg", Data: photo, Store: true},
		File{Name: "Green Salad/recipe.json", Data: []byte(good)},
		File{Name: "Green Salad/full.jpg", Data: JPEG(46), Store: true},
	)
	// Flip one byte in the middle of the stored photo: its CRC no longer
	// matches, as after a transfer that damaged it.
	at := bytes.Index(z, photo) + len(photo)/2
	z[at] ^= 0xFF
	return z
}

func paprikaCapitals() []byte {
	doc := `{"uid":"7A1B","name":"Lasagne","ingredients":"MEAT SAUCE\n500 g beef mince\n1 onion\n400 g passata\nBÉCHAMEL\n50 g butter\n50 g flour\n500 ml milk\nTO FINISH\n12 lasagne sheets\n100 g parmesan",
"directions":"MEAT SAUCE\nBrown the mince with the onion, add the passata and simmer 45 minutes.\nBÉCHAMEL\nCook the butter and flour, whisk in the milk until thick.\nTO FINISH\nLayer sauce, sheets and béchamel; top with parmesan and bake 40 minutes.",
"servings":"6","prep_time":"30 min","cook_time":"1 hr 25 min","categories":[],"photo_data":null,"photos":[]}`
	return Zip(File{Name: "Lasagne.paprikarecipe", Data: gz(doc), Store: true})
}
