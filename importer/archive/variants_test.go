package archive_test

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"larder/importer/archive"
	"larder/importer/archive/archivetest"
	"larder/importer/extract"
)

// expect is what a cook reading the app's own screen would say the recipe
// holds: set by hand for each variant, never by running the reader.
// Ingredients and Steps list the lines in order, a group's name written
// "## name" before its lines. A number 0 means "not given" (the reader must
// leave it empty), -1 that the export's value is open to reading (a yield
// like "1 loaf") and is not checked. A total the export leaves out is the
// preparation and cooking time together, as the service writes it for
// every imported recipe.
type expect struct {
	Title              string
	Ingredients, Steps []string
	Servings           int
	Prep, Cook, Total  int
	Categories, Tags   []string
	Image              []byte // the photo's bytes, nil for none in the file
	ImageURL           string
	SourceURL          string
	DescriptionHas     string
	Unmapped           []string // must be reported (others may be too)
	NotUnmapped        []string // must not be reported: the export holds no value for them
	EntryHas           string
	// ImageErrHas is in the reason a photo the archive holds was not read;
	// empty: every photo it holds for the recipe was read.
	ImageErrHas string
}

// variantExpect holds the expectations of archivetest.Variants by name:
// the format detected and each recipe in order.
var variantExpect = map[string]struct {
	format  string
	recipes []expect
}{
	"mealie/v1 export snake_case": {archive.FormatMealie, []expect{{
		Title:       "Oat Cookies",
		Ingredients: []string{"2 cups rolled oats", "1/2 cup butter softened", "1 egg"},
		Steps:       []string{"## Dough", "Cream the butter, then beat in the egg.", "Fold in the oats.", "## Bake", "Bake at 180 °C for 12 minutes."},
		Servings:    24, Prep: 15, Cook: 12, Total: 60,
		Categories: []string{"Baking"}, Tags: []string{"Sweet"},
		Image: archivetest.JPEG(4), SourceURL: "https://cookies.example.net/oat", DescriptionHas: "They freeze well.",
		Unmapped: []string{"nutrition", "tools", "rating"},
	}}},
	"mealie/v0.5 backup": {archive.FormatMealie, []expect{{
		Title:       "Lentil Soup",
		Ingredients: []string{"250 g red lentils", "1 onion, diced", "1.2 l vegetable stock"},
		Steps:       []string{"Soften the onion in a little oil.", "Add the lentils and stock; simmer 25 minutes."},
		Servings:    6, Prep: 10, Cook: 25, Total: 35,
		Categories: []string{"Soup", "Dinner"}, Tags: []string{"vegan"}, Image: archivetest.JPEG(6),
	}}},
	"mealie/v0.4 backup": {archive.FormatMealie, []expect{{
		Title:       "Pancakes",
		Ingredients: []string{"200 g flour", "3 eggs", "500 ml milk", "1 pinch salt"},
		Steps:       []string{"Whisk everything to a smooth batter.", "Fry thin pancakes in a hot buttered pan."},
		Servings:    4, Prep: 10, Cook: 20, Total: 30,
		Categories: []string{"Breakfast"}, Tags: []string{"breakfast"}, Image: archivetest.JPEG(7),
		SourceURL: "https://crepes.example.org/basic", DescriptionHas: "Rest the batter for 30 minutes.",
		Unmapped: []string{"nutrition", "tools", "rating"},
	}}},
	"mealie/v2 backup yield quantity": {archive.FormatMealieBackup, []expect{{
		Title:       "Flatbread",
		Ingredients: []string{"200 g Greek yoghurt", "250 g self-raising flour plain"},
		Steps:       []string{"Mix the flour and yoghurt into a soft dough.", "Roll out eight rounds and dry-fry them."},
		Servings:    4, Prep: 10, Cook: 15, Total: 25,
		Tags: []string{"bread"}, Image: archivetest.JPEG(8), SourceURL: "https://bread.example.com/flat",
	}}},
	"mealie/v1 backup amounts setting": {archive.FormatMealieBackup, []expect{{
		Title: "Dal", Ingredients: []string{"250 g yellow lentils", "1 tsp turmeric"}, Steps: []string{"Simmer the lentils with the turmeric until soft."},
		Servings: 4, Total: 40,
	}, {
		Title: "Oat Bars", Ingredients: []string{"## Base", "2 cups oats", "1/2 cup butter softened", "salt a pinch"}, Steps: []string{"Press into a tin and bake 25 minutes."},
		Servings: 12,
	}}},
	"tandoor/export pk zips": {archive.FormatTandoor, []expect{{
		Title:       "Potato Gratin",
		Ingredients: []string{"## Gratin", "1 kg potato, waxy", "0.5 cup cream", "salt, to taste"},
		Steps:       []string{"Slice the potatoes thinly.", "## Baking", "Layer in a dish, pour over the cream.", "Bake for 50 minutes at 180 °C."},
		Servings:    4, Prep: 20, Total: 70,
		Tags: []string{"side", "vegetarian"}, Image: archivetest.PNG(9), Unmapped: []string{"step time"},
	}}},
	"tandoor/old decimal strings": {archive.FormatTandoor, []expect{{
		Title:       "Potato Gratin",
		Ingredients: []string{"## Gratin", "1 kg potato, waxy", "0.5 cup cream", "salt, to taste"},
		Steps:       []string{"Slice the potatoes thinly.", "## Baking", "Layer in a dish, pour over the cream.", "Bake for 50 minutes at 180 °C."},
		Servings:    4, Prep: 20, Total: 70,
		Tags: []string{"side", "vegetarian"}, Image: archivetest.JPEG(10),
	}}},
	"tandoor/unpacked recipe folders": {archive.FormatTandoor, []expect{{
		Title:       "Potato Gratin",
		Ingredients: []string{"## Gratin", "1 kg potato, waxy", "0.5 cup cream", "salt, to taste"},
		Steps:       []string{"Slice the potatoes thinly.", "## Baking", "Layer in a dish, pour over the cream.", "Bake for 50 minutes at 180 °C."},
		Servings:    4, Prep: 20, Total: 70, Tags: []string{"side", "vegetarian"}, Image: archivetest.PNG(23),
	}, {
		Title:       "Leek Gratin",
		Ingredients: []string{"## Gratin", "1 kg potato, waxy", "2 cups cream", "salt, to taste"},
		Steps:       []string{"Slice the potatoes thinly.", "## Baking", "Layer in a dish, pour over the cream.", "Bake for 50 minutes at 180 °C."},
		Servings:    4, Prep: 20, Total: 70, Tags: []string{"side", "vegetarian"},
	}}},
	"paprika/photos and free-text times": {archive.FormatPaprika, []expect{{
		Title:       "Beef Stew",
		Ingredients: []string{"1 kg stewing beef, cubed", "2 tbsp flour", "3 carrots", "1 bottle (750 ml) red wine"},
		Steps:       []string{"Toss the beef in the flour and brown it in batches.", "Add the carrots and the wine.", "Simmer covered until tender."},
		Servings:    6, Prep: 20, Cook: 70, Total: 90,
		Categories: []string{"Main", "Winter"}, Image: archivetest.JPEG(11), DescriptionHas: "Better the next day.",
		Unmapped: []string{"rating", "source"},
	}}},
	"paprika/html export": {archive.FormatSchemaOrg, []expect{{
		Title:       "Apple Crumble",
		Ingredients: []string{"4 apples, sliced", "150 g flour", "100 g butter", "80 g sugar"},
		Steps:       []string{"Put the apples in a dish.", "Rub the flour, butter and sugar to crumbs and scatter them over.", "Bake at 190 °C for 40 minutes."},
		Servings:    6, Prep: 15, Cook: 40, Total: 55,
		Categories: []string{"Dessert"}, Image: archivetest.JPEG(12),
		SourceURL: "https://crumble.example.com/apple",
	}}},
	"nextcloud/old recipe.json": {archive.FormatNextcloud, []expect{{
		Title:       "Tomato Salad",
		Ingredients: []string{"4 tomatoes", "1 red onion", "2 tbsp olive oil"},
		Steps:       []string{"Slice the tomatoes and onion.", "Dress with the oil and season."},
		Servings:    2, Prep: 15, Total: 35,
		Categories: []string{"Salad"}, Tags: []string{"summer", "quick", "vegan"}, Image: archivetest.JPEG(13),
		SourceURL: "https://salad.example.org/tomato",
	}}},
	"nextcloud/new recipe.json": {archive.FormatNextcloud, []expect{{
		Title:       "Chicken Curry",
		Ingredients: []string{"## Paste", "2 onions", "3 cloves garlic", "## Curry", "600 g chicken thighs", "400 ml coconut milk"},
		Steps:       []string{"Blend the onions and garlic to a paste.", "Fry the paste, add the chicken and the coconut milk.", "Simmer for one hour."},
		Servings:    4, Prep: 20, Cook: 70, Total: 90,
		Categories: []string{"Main"}, Tags: []string{"curry", "chicken"}, Image: archivetest.JPEG(15),
		SourceURL: "https://curry.example.com/chicken", Unmapped: []string{"nutrition", "tool"},
	}}},
	"nextcloud/one folder zipped": {archive.FormatNextcloud, []expect{{
		Title:       "Hummus",
		Ingredients: []string{"400 g chickpeas", "3 tbsp tahini", "1 lemon"},
		Steps:       []string{"Blend everything smooth."},
		Servings:    4, Prep: 10, Total: 10, Categories: []string{"Dip"}, Image: archivetest.JPEG(16),
	}}},
	"nextcloud/windows zip": {archive.FormatNextcloud, []expect{{
		Title:       "Crème brûlée",
		Ingredients: []string{"500 ml cream", "5 egg yolks", "100 g sugar"},
		Steps:       []string{"Heat the cream.", "Whisk into the yolks and sugar, bake in a water bath.", "Caramelise sugar on top."},
		Servings:    6, Cook: 45, Total: 45, Image: archivetest.JPEG(18), EntryHas: "Recipes/Crème brûlée/recipe.json",
	}}},
	"nextcloud/macos zip": {archive.FormatNextcloud, []expect{{
		Title:       "Pesto",
		Ingredients: []string{"50 g basil", "30 g parmesan", "2 tbsp pine nuts", "100 ml olive oil"},
		Steps:       []string{"Pound the basil and nuts.", "Work in the cheese and the oil."},
		Servings:    4, Categories: []string{"Sauce"}, Tags: []string{"sauce"}, Image: archivetest.JPEG(19),
	}}},
	"schema/graph types array": {archive.FormatSchemaOrg, []expect{{
		Title:       "Mushroom Risotto",
		Ingredients: []string{"300 g arborio rice", "250 g mushrooms", "1 l hot stock", "50 g parmesan"},
		Steps:       []string{"## Mushrooms", "Fry the mushrooms until golden.", "## Rice", "Toast the rice, then add the stock a ladle at a time.", "Stir in the mushrooms and parmesan."},
		Servings:    4, Total: 45, Categories: []string{"Main course"}, Tags: []string{"risotto", "mushrooms"},
		ImageURL: "https://blog.example.com/risotto-1x1.jpg", Unmapped: []string{"recipeCuisine", "aggregateRating", "author"},
	}}},
	"schema/instructions text": {archive.FormatSchemaOrg, []expect{{
		Title:       "Lemonade",
		Ingredients: []string{"4 lemons", "100 g sugar", "1 l water"},
		Steps:       []string{"Squeeze the lemons.", "Stir the juice with the sugar until it dissolves.", "Top up with the water and chill."},
		Servings:    -1, Prep: 10, Total: 10,
	}, {
		Title:       "Iced Tea",
		Ingredients: []string{"4 tea bags", "1 l water", "2 tbsp honey"},
		Steps:       []string{"Brew the tea for 5 minutes.", "Stir in the honey and chill."},
		Servings:    4,
	}}},
	"schema/recipesage json-ld": {archive.FormatSchemaOrg, []expect{{
		Title:       "Sesame Noodles",
		Ingredients: []string{"## Sauce", "3 tbsp tahini", "2 tbsp soy sauce", "## Noodles", "250 g wheat noodles", "2 spring onions"},
		Steps:       []string{"## Sauce", "Whisk the tahini and soy sauce with a little hot water.", "## Noodles", "Boil the noodles, drain and toss with the sauce."},
		Servings:    2, Prep: 10, Total: 25, Categories: []string{"dinner", "quick"},
		ImageURL: "https://cdn.recipesage.example/abc.jpg", SourceURL: "https://noodles.example.org/sesame",
		DescriptionHas: "Add chilli oil to taste.", Unmapped: []string{"aggregateRating", "creditText"},
	}}},
	"schema/html in zip": {archive.FormatSchemaOrg, []expect{{
		Title:       "Shakshuka",
		Ingredients: []string{"4 eggs", "400 g tinned tomatoes", "1 red pepper", "1 tsp cumin"},
		Steps:       []string{"Soften the pepper with the cumin.", "Add the tomatoes, make wells and crack in the eggs.", "Cover until the whites set."},
		Servings:    2, Cook: 25, Total: 25, Categories: []string{"Breakfast"}, Image: archivetest.PNG(20), Unmapped: []string{"nutrition"},
	}}},
	"schema/json lines": {archive.FormatSchemaOrg, []expect{{
		Title: "Granola", Ingredients: []string{"300 g oats", "100 ml maple syrup"}, Steps: []string{"Mix and bake at 160 °C for 30 minutes."},
		Servings: 8, Total: 40,
	}, {
		Title: "Porridge", Ingredients: []string{"50 g oats", "250 ml milk"}, Steps: []string{"Simmer for 5 minutes, stirring."},
		Servings: 1, Total: 5,
	}}},
	"schema/gzipped json": {archive.FormatSchemaOrg, []expect{{
		Title:       "Coleslaw",
		Ingredients: []string{"1/2 white cabbage", "2 carrots", "4 tbsp mayonnaise"},
		Steps:       []string{"Shred the cabbage and carrots.", "Mix with the mayonnaise."},
		Servings:    6, Prep: 15, Total: 15, Tags: []string{"salad", "side"}, ImageURL: "https://slaw.example.com/slaw.jpg",
	}}},
	"schema/bom relative image": {archive.FormatSchemaOrg, []expect{{
		Title:       "Banana Bread",
		Ingredients: []string{"3 ripe bananas", "250 g flour", "100 g sugar", "2 eggs"},
		Steps:       []string{"Mash the bananas and mix in the rest.", "Bake in a loaf tin for an hour."},
		Servings:    -1, Prep: 15, Cook: 60, Total: 75, Image: archivetest.JPEG(21),
	}}},
	"mealie/recipe zip download": {archive.FormatMealie, []expect{{
		Title:       "Focaccia",
		Ingredients: []string{"## Dough", "500 g bread flour", "7 g dried yeast", "400 ml warm water", "## Topping", "flaky salt", "3 tablespoons olive oil"},
		Steps:       []string{"Mix the flour, yeast and water; rest for 2 hours.", "## Bake", "Press into an oiled tray, drizzle with the oil and scatter the salt.", "Bake at 220 °C for 25 minutes."},
		Servings:    -1, Prep: 20, Cook: 25, Total: 180,
		Categories: []string{"Bread"}, Tags: []string{"vegan"}, Image: archivetest.JPEG(31),
		SourceURL: "https://bread.example.net/focaccia", DescriptionHas: "Dimple the dough deeply.",
		Unmapped: []string{"assets", "extras"}, NotUnmapped: []string{"nutrition", "tools", "comments"},
	}}},
	"mealie/backup side tables": {archive.FormatMealieBackup, []expect{{
		Title:       "Minestrone",
		Ingredients: []string{"2 carrots, diced", "1 tin cannellini beans", "100 g small pasta"},
		Steps:       []string{"Sweat the carrots in olive oil.", "Add the beans, pasta and water; simmer 40 minutes."},
		Servings:    6, Prep: 15, Cook: 40, Total: 55,
		Categories: []string{"Soup"}, Tags: []string{"winter"}, Image: archivetest.JPEG(32), DescriptionHas: "Better the next day.",
		Unmapped: []string{"nutrition", "tools", "assets", "comments", "extras", "recipeCuisine"},
	}, {
		Title:       "Bruschetta",
		Ingredients: []string{"4 slices sourdough", "3 ripe tomatoes"},
		Steps:       []string{"Toast the bread and pile on the chopped tomatoes."},
		Servings:    4, Prep: 10, Total: 10, SourceURL: "https://toast.example.org/bruschetta",
		NotUnmapped: []string{"nutrition", "tools", "assets", "comments", "extras", "recipeCuisine"},
	}}},
	"tandoor/1.5 plural flags and step templates": {archive.FormatTandoor, []expect{{
		Title:       "Cinnamon Rolls",
		Ingredients: []string{"## Dough", "500 g flour", "250 ml milk", "1 sachet yeast", "a pinch of salt", "## Filling", "50 g butter, softened", "1 cup raisins"},
		Steps: []string{"## Dough", "Warm the milk and stir in the yeast.", "Knead in 500 g flour and a pinch of salt for 10 minutes.",
			"## Filling", "Spread 50 g butter over the dough and scatter over the raisins.", "Roll up, cut 12 rolls and bake for 25 minutes."},
		Servings: 12, Prep: 30, Total: 115, Tags: []string{"baking"}, Image: archivetest.JPEG(34), Unmapped: []string{"nutrition"},
	}}},
	"tandoor/recipesage json export": {archive.FormatSchemaOrg, []expect{{
		Title:       "Shepherd's Pie",
		Ingredients: []string{"500 g lamb mince", "1 onion", "salt", "800 g potatoes"},
		Steps:       []string{"Brown the lamb with the onion and season.", "Top with mashed potatoes and bake for 50 minutes."},
		Servings:    4, Prep: 20, Total: 70,
	}}},
	"paprika/photo_data and headings": {archive.FormatPaprika, []expect{{
		Title:       "Blueberry Muffins",
		Ingredients: []string{"## For the batter", "250 g flour", "2 tsp baking powder", "150 ml milk", "## For the topping", "2 tbsp sugar", "100 g blueberries"},
		Steps:       []string{"Heat the oven to 200 °C.", "Whisk the batter together and fold in the blueberries.", "Fill the cases, sprinkle with the sugar and bake for 20 minutes."},
		Servings:    12, Prep: 15, Cook: 20, Total: 35,
		Categories: []string{"Baking", "Breakfast"}, Image: archivetest.JPEG(35), SourceURL: "https://muffins.example.com/blueberry",
		DescriptionHas: "Frozen berries work too.", Unmapped: []string{"nutritional_info", "difficulty"}, NotUnmapped: []string{"rating", "photos"},
	}}},
	"nextcloud/0.11 filtered recipe.json": {archive.FormatNextcloud, []expect{{
		Title:       "Panna Cotta",
		Ingredients: []string{"500 ml cream", "60 g sugar", "3 leaves gelatine"},
		Steps:       []string{"Soak the gelatine in cold water.", "Warm the cream with the sugar and dissolve the gelatine in it.", "Pour into glasses and chill for 4 hours."},
		Servings:    6, Prep: 20, Total: 260, Categories: []string{"Dessert"}, Image: archivetest.JPEG(36),
		NotUnmapped: []string{"nutrition", "tool"},
	}, {
		Title:       "Gazpacho",
		Ingredients: []string{"1 kg tomatoes", "1 cucumber", "1 clove garlic"},
		Steps:       []string{"## Soup", "Blend everything smooth.", "Chill for an hour.", "## To serve", "Top with croutons."},
		Categories:  []string{"Soup"}, Tags: []string{"cold", "summer"}, SourceURL: "https://soup.example.net/gazpacho",
		Unmapped: []string{"tool"}, NotUnmapped: []string{"nutrition"},
	}}},
	"mealie/step summaries and markdown": {archive.FormatMealie, []expect{{
		Title:       "Pizza Dough",
		Ingredients: []string{"300 g strong flour", "200 ml water", "1 tsp salt"},
		Steps: []string{"Mix: Stir the flour, water and salt to a shaggy dough.", "Knead for 10 minutes until smooth. Cover and leave to rise for 2 hours.",
			"Shape: Divide in two and stretch each into a round (see the video)."},
		Servings: 2, Prep: 20, Total: 140,
	}}},
	"paprika/crlf directions with headings": {archive.FormatPaprika, []expect{{
		Title:       "Chicken Pie",
		Ingredients: []string{"## Filling", "500 g chicken thighs", "2 leeks", "300 ml stock", "## Pastry", "1 sheet puff pastry", "1 egg, beaten"},
		Steps:       []string{"## Filling", "Brown the chicken.", "Add the leeks and stock and simmer 30 minutes.", "## Pastry", "Cover with the pastry and brush with the egg.", "Bake at 200 °C for 30 minutes."},
		Servings:    -1, Prep: 15, Cook: 75, Total: 90, DescriptionHas: "Family pie.",
		NotUnmapped: []string{"rating", "photos", "difficulty", "nutritional_info", "source"},
	}}},
	"nextcloud/markdown steps": {archive.FormatNextcloud, []expect{{
		Title:       "Chocolate Mousse",
		Ingredients: []string{"200 g dark chocolate", "4 eggs", "2 tbsp sugar"},
		Steps: []string{"Melt the chocolate gently over hot water.", "Whisk the whites with the sugar to soft peaks and fold them into the chocolate and yolks (how to fold).",
			"Chill for at least 3 hours."},
		Servings: 4, Prep: 20, Total: 20, Categories: []string{"Dessert"}, Image: archivetest.JPEG(38), NotUnmapped: []string{"nutrition", "tool"},
	}}},
	"tandoor/1.0 text steps with lists": {archive.FormatTandoor, []expect{{
		Title:       "Potato Salad",
		Ingredients: []string{"1 kg potato", "chives", "## Dressing", "4 tbsp oil", "2 tbsp vinegar", "1 tsp mustard"},
		Steps:       []string{"Boil the potatoes for 20 minutes.", "Peel and slice them while warm.", "## Dressing", "Whisk the oil, vinegar and mustard.", "Pour over the potatoes and scatter the chives."},
		Servings:    4, Prep: 25, Total: 25, Tags: []string{"salad"}, Unmapped: []string{"step time"},
	}}},
	"mealie/backup abbreviations and fractions": {archive.FormatMealieBackup, []expect{{
		Title:       "Pancake Stack",
		Ingredients: []string{"1 1/2 cups flour", "1/3 tsp salt", "2 tbsp sugar", "1 tbsp butter melted", "0.25 l milk", "2 eggs"},
		Steps:       []string{"Whisk everything together and fry in a hot pan."},
		Servings:    4, Total: 20,
	}}},
	"schema/utf-16 json": {archive.FormatSchemaOrg, []expect{{
		Title:       "Crêpes Suzette",
		Ingredients: []string{"125 g flour", "2 eggs", "250 ml milk", "2 oranges"},
		Steps:       []string{"Whisk the batter and rest it.", "Fry the crêpes.", "Warm them in the orange juice."},
		Servings:    4, Prep: 10, Cook: 20, Total: 30,
	}}},
	"schema/itemlist of recipes": {archive.FormatSchemaOrg, []expect{{
		Title:       "Guacamole",
		Ingredients: []string{"2 avocados", "1 lime", "1 small onion"},
		Steps:       []string{"Mash the avocados with the lime juice.", "Stir in the chopped onion."},
		Servings:    4, Prep: 10, Total: 10, Categories: []string{"Dip"}, SourceURL: "https://dips.example.com/#guacamole",
	}, {
		Title:       "Salsa",
		Ingredients: []string{"4 tomatoes", "1 chilli"},
		Steps:       []string{"Chop everything finely and mix."},
		Servings:    6, SourceURL: "https://dips.example.com/#salsa",
	}}},
	"schema/howto steps with tips": {archive.FormatSchemaOrg, []expect{{
		Title:       "Roast Chicken",
		Ingredients: []string{"1 chicken (1.8 kg)", "1 lemon", "4 tbsp butter"},
		Steps: []string{"## Prepare", "Heat the oven to 200 °C.", "Stuff the lemon into the chicken.",
			"## Roast", "Rub the skin with the butter.", "Dry the skin first for crispness.", "Roast for 1 hour 30 minutes, then rest for 15 minutes."},
		Servings: 6, Total: 105, ImageURL: "https://roast.example.org/chicken.jpg",
	}}},
	"tandoor/2.x same names and hidden amounts": {archive.FormatTandoor, []expect{{
		Title: "Pancakes", Ingredients: []string{"2 eggs", "pinch salt"}, Steps: []string{"Whisk and fry."},
		Servings: 2, Prep: 10, Total: 10, Image: archivetest.JPEG(40),
	}, {
		Title: "Pancakes", Ingredients: []string{"1 banana, ripe", "1 cup milk"}, Steps: []string{"Mash the bananas, whisk and fry."},
		Servings: 2, Prep: 10, Total: 10, Image: archivetest.PNG(41),
	}}},
	"paprika/gallery main photo": {archive.FormatPaprika, []expect{{
		Title:       "Lemon Tart",
		Ingredients: []string{"1 pastry case", "3 lemons", "150 g sugar", "3 eggs"},
		Steps:       []string{"Whisk the juice, zest, sugar and eggs.", "Pour into the case and bake at 150 °C for 30 minutes."},
		Servings:    8, Prep: 20, Cook: 30, Total: 50, Categories: []string{"Dessert"}, Image: archivetest.JPEG(43),
		Unmapped: []string{"photos"},
	}}},
	"mealie/v3 export sub-recipe line": {archive.FormatMealie, []expect{{
		Title:       "Margherita Pizza",
		Ingredients: []string{"1 Pizza Dough", "1/2 cup Tomato Sauce", "125 g mozzarella torn"},
		Steps:       []string{"Stretch the dough, spread the sauce and scatter the cheese.", "Bake at 250 °C for 10 minutes."},
		Servings:    2, Prep: 15, Cook: 10, Total: 25,
	}}},
	"mealie/v3 backup sub-recipe line": {archive.FormatMealieBackup, []expect{{
		Title: "Calzone", Ingredients: []string{"2 Pizza Dough", "100 g ham"}, Steps: []string{"Fill the dough with the ham, fold and bake."},
		Servings: 2, Cook: 15, Total: 15,
	}, {
		Title: "Pizza Dough", Ingredients: []string{"500 g flour"}, Steps: []string{"Knead and rest for an hour."},
		Servings: 4, Prep: 10, Total: 10,
	}}},
	"nextcloud/windows-1252 recipe.json": {archive.FormatNextcloud, []expect{{
		Title:       "Crème brûlée",
		Ingredients: []string{"500 ml crème fraîche", "5 jaunes d'œufs", "100 g sucre"},
		Steps:       []string{"Chauffer la crème – sans bouillir.", "Cuire au bain-marie."},
		Servings:    4, Categories: []string{"Dessert"}, Tags: []string{"français", "crème"}, Image: archivetest.JPEG(44),
	}}},
	"schema/windows-1252 json": {archive.FormatSchemaOrg, []expect{{
		Title:       "Gâteau basque",
		Ingredients: []string{"250 g farine", "2 œufs", "150 g crème pâtissière"},
		Steps:       []string{"Préparer la pâte.", "Garnir de crème – puis cuire 40 minutes."},
		Servings:    8,
	}}},
	"paprika/headings in capitals": {archive.FormatPaprika, []expect{{
		Title: "Lasagne",
		Ingredients: []string{"## MEAT SAUCE", "500 g beef mince", "1 onion", "400 g passata", "## BÉCHAMEL", "50 g butter", "50 g flour", "500 ml milk",
			"## TO FINISH", "12 lasagne sheets", "100 g parmesan"},
		Steps: []string{"## MEAT SAUCE", "Brown the mince with the onion, add the passata and simmer 45 minutes.", "## BÉCHAMEL",
			"Cook the butter and flour, whisk in the milk until thick.", "## TO FINISH", "Layer sauce, sheets and béchamel; top with parmesan and bake 40 minutes."},
		Servings: 6, Prep: 30, Cook: 85, Total: 115,
	}}},
	"nextcloud/damaged photo": {archive.FormatNextcloud, []expect{{
		Title: "Lentil Salad", Ingredients: []string{"200 g lentils", "1 shallot"}, Steps: []string{"Cook the lentils.", "Dress with the shallot."},
		Servings: 2, ImageErrHas: "Lentil Salad/full.jpg",
	}, {
		Title: "Green Salad", Ingredients: []string{"1 lettuce"}, Steps: []string{"Wash and dress."},
		Servings: 2, Image: archivetest.JPEG(46),
	}}},
}

// oemExpect is what a cook reads in the two Cookbook folders that
// oemNextcloud zips under the names first and second.
func oemExpect(first, second string) []expect {
	return []expect{{
		Title: first, Ingredients: []string{"1 kg potatoes"}, Steps: []string{"Cook it."}, Servings: 4,
		Image: archivetest.JPEG(53), EntryHas: "Recipes/" + first + "/recipe.json",
	}, {
		Title: second, Ingredients: []string{"500 g cabbage"}, Steps: []string{"Cook it."}, Servings: 4,
		EntryHas: "Recipes/" + second + "/recipe.json",
	}}
}

func init() {
	// An export zipped again, alone or in its folder, holds the same
	// recipes a cook reads in the export itself.
	for wrapped, export := range map[string]string{
		"mealie/export zipped again":        "mealie/v1 export snake_case",
		"paprika/export in a folder zipped": "paprika/photos and free-text times",
		"tandoor/export zipped twice":       "tandoor/2.x same names and hidden amounts",
	} {
		variantExpect[wrapped] = variantExpect[export]
	}
	// One recipe of an export taken out of it reads as in the export.
	alone := variantExpect["tandoor/export pk zips"]
	alone.recipes = []expect{alone.recipes[0]}
	alone.recipes[0].Image = nil // the image stays in the recipe's zip
	variantExpect["tandoor/recipe.json alone"] = alone
	variantExpect["paprika/recipe json not gzipped"] = variantExpect["paprika/photos and free-text times"]
	variantExpect["schema/saved pages mhtml"] = struct {
		format  string
		recipes []expect
	}{archive.FormatSchemaOrg, []expect{{
		Title:       "Minestrone",
		Ingredients: []string{"2 carrots, diced", "1 leek, sliced", "100 g small pasta", "1 l vegetable stock"},
		Steps:       []string{"Sweat the carrots and leek for 10 minutes.", "Add the stock and simmer 20 minutes.", "Cook the pasta in the soup until tender."},
		Servings:    6, Prep: 20, Cook: 40, Total: 60, Image: archivetest.JPEG(56),
		// The page was saved from there: it is where the recipe came from.
		SourceURL: "https://soup.example.com/recipes/minestrone",
	}}}
	variantExpect["nextcloud/thumbnails only"] = struct {
		format  string
		recipes []expect
	}{archive.FormatNextcloud, []expect{{
		Title: "Muesli", Ingredients: []string{"100 g oats"}, Steps: []string{"Mix and serve."}, Servings: 2, Image: archivetest.JPEG(50),
	}, {
		// thumb16.jpg is an icon: the server's address of the photo stays.
		Title: "Lassi", Ingredients: []string{"200 ml yoghurt"}, Steps: []string{"Mix and serve."}, Servings: 2,
		ImageURL: "https://cloud.example.org/index.php/apps/cookbook/webapp/recipes/32/image?size=full",
	}}}
	variantExpect["schema/json-ld files"] = struct {
		format  string
		recipes []expect
	}{archive.FormatSchemaOrg, []expect{{
		Title: "Porridge", Ingredients: []string{"80 g oats"}, Steps: []string{"Cook it."}, Servings: 2, Image: archivetest.JPEG(54),
	}, {
		Title: "Omelette", Ingredients: []string{"3 eggs"}, Steps: []string{"Cook it."}, Servings: 2,
	}}}
	variantExpect["schema/macos zip decomposed names"] = struct {
		format  string
		recipes []expect
	}{archive.FormatSchemaOrg, []expect{{
		Title: "Crème brûlée", Ingredients: []string{"500 ml cream", "5 egg yolks"}, Steps: []string{"Bake in a water bath."}, Servings: 6,
		Image: archivetest.JPEG(55), EntryHas: "Desserts/Crème brûlée.json",
	}}}
	for name, folders := range map[string][2]string{
		"nextcloud/windows zip japanese": {"肉じゃが", "ソース焼きそば"},
		"nextcloud/windows zip chinese":  {"番茄炒蛋", "红烧肉"},
		"nextcloud/windows zip russian":  {"Борщ", "Щи"},
		"nextcloud/windows zip polish":   {"Żurek", "Gołąbki"},
		"nextcloud/windows zip danish":   {"Smørrebrød", "Æbleskiver"},
		"nextcloud/windows zip french":   {"Gâteau basque", "Crêpes"},
	} {
		variantExpect[name] = struct {
			format  string
			recipes []expect
		}{archive.FormatNextcloud, oemExpect(folders[0], folders[1])}
	}
}

// TestVariants reads each real app's export shape (archivetest.Variants,
// each citing where the app writes it) and compares every recipe with what
// its expectation says a cook would read.
func TestVariants(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for _, v := range archivetest.Variants() {
		seen[v.Name] = true
		want, ok := variantExpect[v.Name]
		if !ok {
			t.Errorf("variant %q has no expectation", v.Name)
			continue
		}
		t.Run(v.Name, func(t *testing.T) {
			t.Parallel()
			a, err := open(t, v.File)
			if err != nil {
				t.Fatalf("open: %v", err)
			}
			if a.Format != want.format || a.Total != len(want.recipes) {
				t.Errorf("format %q total %d, want %q %d", a.Format, a.Total, want.format, len(want.recipes))
			}
			i := 0
			for r := range a.Recipes() {
				if i >= len(want.recipes) {
					t.Errorf("extra recipe %q (%v)", r.Entry, r.Err)
					continue
				}
				checkRecipe(t, r, want.recipes[i])
				i++
			}
			if i < len(want.recipes) {
				t.Errorf("read %d recipes, want %d", i, len(want.recipes))
			}
		})
	}
	for name := range variantExpect {
		if !seen[name] {
			t.Errorf("expectation %q has no variant", name)
		}
	}
}

func checkRecipe(t *testing.T, r archive.Recipe, w expect) {
	t.Helper()
	if r.Err != nil {
		t.Errorf("%s: %v", r.Entry, r.Err)
		return
	}
	got := r.Recipe
	diff := func(field string, g, w any) {
		t.Errorf("%s %s:\n got  %v\n want %v", w2s(got.Title), field, g, w)
	}
	if got.Title != w.Title {
		diff("title", got.Title, w.Title)
	}
	if g := lines(got.IngredientSections); !slices.Equal(g, w.Ingredients) {
		diff("ingredients", strings.Join(g, " | "), strings.Join(w.Ingredients, " | "))
	}
	if g := lines(got.InstructionSections); !slices.Equal(g, w.Steps) {
		diff("steps", strings.Join(g, " | "), strings.Join(w.Steps, " | "))
	}
	for _, n := range []struct {
		name string
		got  *int
		want int
	}{{"servings", got.Servings, w.Servings}, {"prep", got.PrepMinutes, w.Prep}, {"cook", got.CookMinutes, w.Cook}, {"total", got.TotalMinutes, w.Total}} {
		if n.want >= 0 && intOr0(n.got) != n.want {
			diff(n.name, intOr0(n.got), n.want)
		}
	}
	if !slices.Equal(got.Categories, w.Categories) {
		diff("categories", got.Categories, w.Categories)
	}
	if !slices.Equal(got.Tags, w.Tags) {
		diff("tags", got.Tags, w.Tags)
	}
	if !bytes.Equal(r.Image, w.Image) {
		diff("image", fmt.Sprintf("%d bytes", len(r.Image)), fmt.Sprintf("%d bytes", len(w.Image)))
	}
	if got.ImageURL != w.ImageURL {
		diff("image URL", got.ImageURL, w.ImageURL)
	}
	if got.SourceURL != w.SourceURL {
		diff("source URL", got.SourceURL, w.SourceURL)
	}
	if !strings.Contains(got.Description, w.DescriptionHas) {
		diff("description", got.Description, "containing "+w.DescriptionHas)
	}
	for _, u := range w.Unmapped {
		if !slices.Contains(r.Unmapped, u) {
			diff("unmapped", r.Unmapped, "with "+u)
		}
	}
	for _, u := range w.NotUnmapped {
		if slices.Contains(r.Unmapped, u) {
			diff("unmapped", r.Unmapped, "without "+u)
		}
	}
	if !strings.Contains(r.Entry, w.EntryHas) {
		diff("entry", r.Entry, "containing "+w.EntryHas)
	}
	switch {
	case w.ImageErrHas == "" && r.ImageErr != nil:
		diff("image error", r.ImageErr, "none")
	case w.ImageErrHas != "" && (r.ImageErr == nil || !strings.Contains(r.ImageErr.Error(), w.ImageErrHas)):
		diff("image error", r.ImageErr, "naming "+w.ImageErrHas)
	}
}

func w2s(s string) string { return fmt.Sprintf("%q", s) }

// lines flattens sections as the expectations write them.
func lines(ss []extract.Section) []string {
	var out []string
	for _, s := range ss {
		if s.Name != "" {
			out = append(out, "## "+s.Name)
		}
		out = append(out, s.Items...)
	}
	return out
}

func intOr0(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}
