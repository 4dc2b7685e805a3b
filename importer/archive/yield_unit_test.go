package archive

import (
	"testing"

	"larder/importer/extract"
)

// Each app's yield keeps its unit where the app writes one: Mealie's yield
// text (with or without its separate quantity), Tandoor's servings_text
// beside its count, Paprika's servings text. A count of servings is people.
func TestYieldUnits(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		read     func() extract.Recipe
		servings int
		unit     string
	}{
		{"mealie 1 yield text", func() extract.Recipe {
			return mealieRecipe("r.json", map[string]any{"name": "Muffins", "recipe_yield": "Makes 24 muffins"}, nil, "").Recipe
		}, 24, "muffins"},
		{"mealie 2 quantity and unit", func() extract.Recipe {
			return mealieRecipe("r.json", map[string]any{"name": "Cookies", "recipeServings": 0.0, "recipeYieldQuantity": 12.0, "recipeYield": "cookies"}, nil, "").Recipe
		}, 12, "cookies"},
		{"mealie servings are people", func() extract.Recipe {
			return mealieRecipe("r.json", map[string]any{"name": "Stew", "recipeServings": 4.0, "recipeYieldQuantity": 2.0, "recipeYield": "pots"}, nil, "").Recipe
		}, 4, ""},
		{"mealie servings text", func() extract.Recipe {
			return mealieRecipe("r.json", map[string]any{"name": "Stew", "recipe_yield": "4 servings"}, nil, "").Recipe
		}, 4, ""},
		{"tandoor unit beside the count", func() extract.Recipe {
			return tandoorRecipe("r.json", map[string]any{"name": "Bread", "servings": 2.0, "servings_text": "loaves"}).Recipe
		}, 2, "loaves"},
		{"tandoor people", func() extract.Recipe {
			return tandoorRecipe("r.json", map[string]any{"name": "Soup", "servings": 4.0, "servings_text": "Portionen"}).Recipe
		}, 4, ""},
		{"tandoor yield in the text alone", func() extract.Recipe {
			return tandoorRecipe("r.json", map[string]any{"name": "Jam", "servings_text": "Makes 6 jars"}).Recipe
		}, 6, "jars"},
		{"paprika servings text", func() extract.Recipe {
			return paprikaRecipe("r.paprikarecipe", map[string]any{"name": "Pie", "servings": "1 9-inch pie", "ingredients": "flour", "directions": "Bake."}, 0).Recipe
		}, 1, "9-inch pie"},
		{"paprika people", func() extract.Recipe {
			return paprikaRecipe("r.paprikarecipe", map[string]any{"name": "Pie", "servings": "Serves 8", "ingredients": "flour", "directions": "Bake."}, 0).Recipe
		}, 8, ""},
	}
	for _, tt := range tests {
		r := tt.read()
		if r.Servings == nil || *r.Servings != tt.servings || r.ServingsUnit != tt.unit {
			t.Errorf("%s: servings %v unit %q, want %d %q", tt.name, r.Servings, r.ServingsUnit, tt.servings, tt.unit)
		}
	}
}
