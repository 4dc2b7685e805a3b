package ingredient

import (
	"testing"
)

// sectionedRecipe builds a recipe from its ingredient sections, each a name and its lines, and steps.
func sectionedRecipe(sections [][2]any, steps ...string) Recipe {
	var r Recipe
	for _, s := range sections {
		for _, l := range s[1].([]string) {
			r.Ingredients = append(r.Ingredients, Line{Text: l, Section: s[0].(string)})
		}
	}
	for _, s := range steps {
		r.Steps = append(r.Steps, Line{Text: s})
	}
	return r
}

// TestMatchRulesOfTheFifthBlindBatch covers the rules added with the fifth blind batch of the
// labeled set (f<NN>_*.json, English recipes in the styles of food blogs and of US, UK, Australian
// and Indian-English sites), each on a small recipe written for it.
func TestMatchRulesOfTheFifthBlindBatch(t *testing.T) {
	t.Parallel()
	checkMatchCases(t, []matchCase{
		{
			name: "a sentence ends after a bracket: moving out in the next one leaves the add a use",
			r: recipe([]string{"2 chicken breasts", "1 tbsp olive oil"},
				"Pat the chicken dry.", "Heat the oil. Add the chicken and sear until browned (about 4 minutes). Transfer to a plate."),
			want: [][2]int{{0, 0}, {0, 1}, {1, 1}},
		},
		{
			name: "seasoning with no food before it is salt and pepper; a blend's seasoning is not",
			r: recipe([]string{"1 lb stewing beef", "2 tbsp flour", "salt and pepper", "1 tbsp Cajun seasoning"},
				"Toss the beef in the flour with a little seasoning.", "Brown the beef, then stir in the Cajun seasoning."),
			want: [][2]int{{0, 0}, {0, 1}, {1, 0}, {2, 0}, {3, 1}},
		},
		{
			name: "gms is grams, and the name after it is the food",
			r:    recipe([]string{"500 gms boneless mutton", "2 onions, sliced"}, "Fry the onions.", "Add the mutton and cook."),
			want: [][2]int{{0, 1}, {1, 0}},
		},
		{
			name: "the piece a food comes in drops for its name",
			r:    recipe([]string{"1 cinnamon stick", "3 celery ribs, diced", "1 onion"}, "Fry the onion, celery and cinnamon."),
			want: [][2]int{{0, 0}, {1, 0}, {2, 0}},
		},
		{
			name: "a tip inside a step links nothing, in brackets or to the end",
			r: recipe([]string{"200 g cheddar, grated", "4 slices bread", "2 tbsp butter"},
				"Butter the bread (Tip: soft butter spreads easily.) and top with the cheddar.",
				"Grill until bubbling. Tip: gruyère or more cheddar works too."),
			want: [][2]int{{0, 0}, {1, 0}, {2, 0}},
		},
		{
			name: "greasing a tin with a food puts none in the dish, and the pronoun after it is the tin",
			r: recipe([]string{"1/2 cup butter, plus more for the pan", "4 oz dark chocolate"},
				"Grease a loaf pan with butter and line it with parchment.", "Melt the butter and chocolate together."),
			want: [][2]int{{0, 0}, {0, 1}, {1, 1}},
		},
		{
			name: "removing the whole spices takes them out, not in",
			r: recipe([]string{"1 cinnamon stick", "4 green cardamom pods", "1 tsp garam masala", "2 tomatoes, chopped"},
				"Fry the cinnamon and cardamom in the ghee.", "Add the tomatoes and cook, then remove the whole spices.",
				"Stir in the garam masala."),
			want: [][2]int{{0, 0}, {1, 0}, {2, 2}, {3, 1}},
		},
		{
			name: "everything except the toppings",
			r: sectionedRecipe([][2]any{{"", []string{"1 cup oats", "1 cup milk"}}, {"Toppings", []string{"berries", "honey"}}},
				"Stir everything except the toppings together and chill overnight.", "Serve with the toppings."),
			want: [][2]int{{0, 0}, {1, 0}, {2, 1}, {3, 1}},
		},
		{
			name: "how much of the name a step writes does not choose between two sections' lines",
			r: sectionedRecipe([][2]any{
				{"For the cake", []string{"1 cup flour", "1/2 cup unsweetened cocoa powder", "1 cup sugar"}},
				{"For the frosting", []string{"1 cup butter", "1/3 cup cocoa powder", "2 cups powdered sugar"}}},
				"Whisk the flour, cocoa and sugar.", "Beat the butter, then the cocoa and powdered sugar."),
			want: [][2]int{{0, 0}, {1, 0}, {2, 0}, {3, 1}, {4, 1}, {5, 1}},
		},
		{
			name: "a line cut into wedges is the wedges",
			r: recipe([]string{"4 potatoes, cut into wedges", "2 tbsp oil"},
				"Toss the wedges with the oil.", "Roast until crisp."),
			want: [][2]int{{0, 0}, {1, 0}},
		},
		{
			name: "a food coated in flour is prepared apart; frying it puts it in",
			r: recipe([]string{"4 chicken thighs", "1/2 cup flour", "oil, for frying"},
				"Roll the chicken in the flour.", "Heat the oil and fry the chicken until golden."),
			want: [][2]int{{0, 0}, {0, 1}, {1, 0}, {2, 1}},
		},
		{
			name: "a food put in a pan of water cooks apart; a pronoun bringing it out puts it in",
			r: recipe([]string{"1 kg floury potatoes", "50 g butter"},
				"Put the potatoes in a pan of cold water and boil for 15 minutes.", "Drain them and mash them with the butter."),
			want: [][2]int{{0, 0}, {0, 1}, {1, 1}},
		},
		{
			name: "dusting takes the line listed for dusting, whatever the step's other foods",
			r: sectionedRecipe([][2]any{
				{"For the filling", []string{"100 g icing sugar", "200 g raspberries"}},
				{"To decorate", []string{"icing sugar, for dusting"}}},
				"Beat the icing sugar with a little water.", "Spread it on the cake, top with the raspberries and dust with icing sugar."),
			want: [][2]int{{0, 0}, {1, 1}, {2, 1}},
		},
		{
			name: "a collective spelled out behind a dash means the foods listed",
			r: recipe([]string{"1 tsp ground cumin", "1 tsp ground coriander", "1 tsp smoked paprika", "1 onion"},
				"Fry the onion, then add the spices – cumin and coriander.", "Sprinkle with the paprika."),
			want: [][2]int{{0, 0}, {1, 0}, {2, 1}, {3, 0}},
		},
		{
			name: "a part noun after a food's name is that food's part",
			r: recipe([]string{"1 bunch basil", "2 bay leaves", "1 can tomatoes"},
				"Simmer the tomatoes with the bay leaves.", "Scatter over the basil leaves."),
			want: [][2]int{{0, 1}, {1, 0}, {2, 0}},
		},
		{
			name: "a base cooked apart joins the dish where the sauce is laid over it",
			r: recipe([]string{"400 g linguine", "1 jar pesto"},
				"Cook the linguine and drain.", "Spoon the pesto over the linguine."),
			want: [][2]int{{0, 0}, {0, 1}, {1, 1}},
		},
		{
			name: "what a dish is served with is put on the table again",
			r: recipe([]string{"1 cup flour", "2 tbsp butter, melted", "1 cup milk"},
				"Whisk the flour, butter and milk.", "Cook the crepes and serve with butter."),
			want: [][2]int{{0, 0}, {1, 0}, {1, 1}, {2, 0}},
		},
	})
}
