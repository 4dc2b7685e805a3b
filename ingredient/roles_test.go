package ingredient

import (
	"slices"
	"strings"
	"testing"
)

// TestMatchRoles covers the rules of the "in hand" reading one by one (testdata/mapping/README.md),
// each on a small recipe, comparing the whole set of links.
func TestMatchRoles(t *testing.T) {
	t.Parallel()
	checkMatchCases(t, []matchCase{
		{
			name: "condition and doneness cues are not uses",
			r: recipe([]string{"1 lb broccoli", "2 tbsp oil"},
				"Heat the oil and add the broccoli.", "Cook until the broccoli is tender."),
			want: [][2]int{{0, 0}, {1, 0}},
		},
		{
			name: "a mixture names no line; flipping what is in the dish is not a use",
			r: recipe([]string{"2 tomatoes", "1 onion", "4 chicken thighs"},
				"Blend the tomatoes and onion.", "Brown the chicken.", "Flip the chicken and pour the tomato mixture over."),
			want: [][2]int{{0, 0}, {1, 0}, {2, 1}},
		},
		{
			name: "discarding is not a use; the remaining portion is",
			r: recipe([]string{"2 bay leaves", "2 cups flour"},
				"Simmer the bay leaves in the milk with half of the flour.", "Discard the bay leaves and whisk in the remaining flour."),
			want: [][2]int{{0, 0}, {1, 0}, {1, 1}},
		},
		{
			name: "bring back: a use verb links an ingredient cooked before",
			r: recipe([]string{"1 lb prawns", "1 onion"},
				"Fry the prawns and set aside.", "Fry the onion.", "Return the prawns to the pan."),
			want: [][2]int{{0, 0}, {0, 2}, {1, 1}},
		},
		{
			name: "water as a bath is not linked",
			r: recipe([]string{"1 cup water", "200 g noodles"},
				"Bring a pot of water to a boil and cook the noodles.", "Stir the water into the sauce."),
			want: [][2]int{{0, 1}, {1, 0}},
		},
		{
			name: "a heading pasted as a step links nothing",
			r:    recipe([]string{"1 cup sugar"}, "For the sugar syrup:", "Melt the sugar."),
			want: [][2]int{{0, 1}},
		},
		{
			name: "dry ingredients: linked where first used together, not where the bowl moves",
			r: recipe([]string{"2 cups flour", "1 tsp baking soda", "2 eggs", "1 cup milk"},
				"Whisk together the dry ingredients.", "Beat the eggs with the milk.", "Add the dry ingredients to the egg mixture."),
			want: [][2]int{{0, 0}, {1, 0}, {2, 1}, {3, 1}},
		},
		{
			name: "the marinade ingredients are the marinade section's lines",
			r: Recipe{
				Ingredients: []Line{{"2 tbsp soy sauce", "Marinade"}, {"1 tsp sugar", "Marinade"}, {"1 lb chicken", ""}},
				Steps:       []Line{{Text: "Whisk the marinade ingredients."}, {Text: "Marinate the chicken in the marinade."}},
			},
			want: [][2]int{{0, 0}, {1, 0}, {2, 1}},
		},
		{
			name: "same-name lines go to their own section's steps",
			r: Recipe{
				Ingredients: []Line{{"2 tbsp soy sauce", "Marinade"}, {"1 lb beef", "Marinade"}, {"1 tbsp soy sauce", "Dip"}, {"1 tsp vinegar", "Dip"}},
				Steps: []Line{{Text: "For the dip, mix the soy sauce and vinegar."},
					{Text: "Toss the beef with the soy sauce.", Section: "Marinade"}},
			},
			want: [][2]int{{0, 1}, {1, 1}, {2, 0}, {3, 0}},
		},
		{
			name: "inflected forms outside English",
			r: recipe([]string{"2 cipolle", "olio extravergine di oliva"},
				"Tritate la cipolla e fatela rosolare con l'olio.", "Girate le cipolle."),
			want: [][2]int{{0, 0}, {1, 0}},
		},
		{
			name: "German compounds and a condition clause",
			r: recipe([]string{"2 Zwiebeln", "1 Liter Gemüsebrühe"},
				"Die Zwiebeln schneiden und in der Brühe kochen, bis die Zwiebelstücke weich sind."),
			want: [][2]int{{0, 0}, {1, 0}},
		},
		{
			name: "'and mix' after a name is a verb, not a mixture",
			r: recipe([]string{"¼ green pepper", "¼ red pepper"},
				"Cut the peppers into cubes.", "Add the peppers and mix."),
			want: [][2]int{{0, 0}, {0, 1}, {1, 0}, {1, 1}},
		},
		{
			name: "an ingredient only prepared is linked where it is cooked, not where it is flipped",
			r: recipe([]string{"1 lb pork shoulder", "1 tbsp oil"},
				"Pat the pork dry.", "Heat the oil and sear the pork.", "Flip the pork."),
			want: [][2]int{{0, 0}, {0, 1}, {1, 1}},
		},
		{
			name: "a group section by its last words; a dish section is not a group",
			r: Recipe{
				Ingredients: []Line{{"1 lb ground beef", ""}, {"1 tsp cumin", "Copycat Taco Seasoning"},
					{"1 tsp paprika", "Copycat Taco Seasoning"}, {"1 cup lettuce", "Salad"}},
				Steps: []Line{{Text: "Brown the beef, then stir in the taco seasoning."}, {Text: "Serve the salad."}},
			},
			want: [][2]int{{0, 0}, {1, 0}, {2, 0}},
		},
		{
			name: "a title pasted as a step links nothing",
			r:    recipe([]string{"1/4 cup chili paste", "2 dried chiles"}, "Make the Chili Paste", "Soak the chiles and blend into a paste."),
			want: [][2]int{{1, 1}},
		},
		{
			name: "Dutch compounds and a collective of vegetables listed together",
			r: recipe([]string{"2 wortels", "2 preistengels", "1 liter kippenbouillon", "50 g boter", "50 g bloem", "1 dl room", "250 g champignons"},
				"Spoel alle groenten en doe ze in de pot.", "Voeg de bouillon toe.", "Bak de champignons."),
			want: [][2]int{{0, 0}, {1, 0}, {2, 1}, {6, 2}},
		},
		{
			name: "German: short compound ends, notes after a preposition, seasoning verbs",
			r: recipe([]string{"2 EL Sonnenblumenöl", "Butter zum Dünsten", "1 Zwiebel", "Salz", "Pfeffer aus der Mühle"},
				"Die Zwiebel in Butter andünsten.", "Öl erhitzen und die Zwiebel darin braten. Mit Salz und Pfeffer würzen."),
			want: [][2]int{{0, 1}, {1, 0}, {2, 0}, {2, 1}, {3, 1}, {4, 1}},
		},
		{
			name: "Italian: q.b. lines, elisions, food-first names, salting verbs",
			r: recipe([]string{"Olio extravergine di oliva q.b.", "Sale q.b.", "4 fette di pesce spada"},
				"Scaldate l'olio in padella.", "Cuocete il pesce spada per 3 minuti, salate e servite."),
			want: [][2]int{{0, 0}, {1, 1}, {2, 1}},
		},
		{
			name: "a line with some kept for serving is linked where it is served; 'of choice' names the food",
			r: recipe([]string{"½ cup grated Parmesan cheese, plus extra for serving", "200 g pasta of choice", "1 cup breadcrumbs"},
				"Mix the breadcrumbs with the Parmesan.", "Cook the pasta.", "Serve the pasta hot with grated Parmesan on top."),
			want: [][2]int{{0, 0}, {0, 2}, {1, 1}, {1, 2}, {2, 0}}, // the pasta, cooked apart, comes back where it is served
		},
		{
			name: "notes and parenthesized remarks pasted as steps link nothing",
			r:    recipe([]string{"1 lb pork shoulder"}, "Roast the pork.", "(Leftover pork keeps 4 days.)", "Storage: keep the pork in the fridge."),
			want: [][2]int{{0, 0}},
		},
		{
			name: "pronouns: foods prepared apart are put in by 'them'; one put back by 'it'; a mixture's 'it' is not a line",
			r: recipe([]string{"2 potatoes", "1 onion", "2 chicken breasts", "2 tbsp oil", "1 tbsp vinegar"},
				"Peel the potatoes and onion.", "Put them in a pot with water.",
				"Simmer the chicken in the pot. Remove the chicken and shred it. Return it to the pot.",
				"Whisk the oil and vinegar and pour it over."),
			want: [][2]int{{0, 0}, {0, 1}, {1, 0}, {1, 1}, {2, 2}, {3, 3}, {4, 3}},
		},
		{
			name: "pronouns on the verb and after a hyphen",
			r: recipe([]string{"500 g de batatas", "1 cebola", "1,5 l de água"},
				"Descasque as batatas e a cebola e corte-as em pedaços.", "Coloque-os numa panela com a água e deixe cozer."),
			want: [][2]int{{0, 0}, {0, 1}, {1, 0}, {1, 1}, {2, 1}},
		},
		{
			name: "a food put on a surface or a tin is in hand there: the line listed with extra",
			r: recipe([]string{"2 cups flour, plus more for dusting", "1/2 cup butter, plus extra for the tin", "1/4 cup butter"},
				"Butter a loaf tin.", "Mix the flour with the 1/4 cup butter.", "Turn the dough out onto a lightly floured surface."),
			want: [][2]int{{0, 1}, {0, 2}, {1, 0}, {2, 1}},
		},
		{
			name: "two foods side by side used together before name that mixture",
			r: recipe([]string{"4 tbsp butter", "3 garlic cloves", "1 lb steak"},
				"Melt the butter with the garlic.", "Sear the steak.", "Toss the steak in the garlic butter."),
			want: [][2]int{{0, 0}, {1, 0}, {2, 1}, {2, 2}},
		},
		{
			name: "Polish and Czech cases meet by their endings; the noun may lead the name",
			r: recipe([]string{"500 g mąki pszennej", "sól morska", "2 jajka"},
				"Mąkę przesiej do miski i dodaj jajka.", "Dopraw solą."),
			want: [][2]int{{0, 0}, {1, 1}, {2, 0}},
		},
		{
			name: "Swedish: article endings and a final s; the meat word names the meat, not its stock",
			r: recipe([]string{"500 g blandfärs", "1 gul lök", "2 dl köttbuljong"},
				"Hacka löken.", "Stek färsen.", "Häll i buljongen och lägg tillbaka köttet."),
			want: [][2]int{{0, 1}, {0, 2}, {1, 0}, {2, 2}},
		},
		{
			name: "a move verb that places into the dish is a use; onto a plate is not",
			r: recipe([]string{"2 lbs chicken breasts", "8 tortillas"},
				"Put the chicken in the slow cooker and cook.", "Spoon the chicken onto a plate and shred it.", "Spoon the chicken into the tortillas."),
			want: [][2]int{{0, 0}, {0, 2}, {1, 2}},
		},
		{
			name: "salt named by a verb is the salt of the step's part of the recipe",
			r: Recipe{Ingredients: []Line{{"200 g de farine", "Pâte"}, {"1 pincée de sel", "Pâte"}, {"3 poireaux", "Garniture"}, {"Sel, poivre", "Garniture"}},
				Steps: []Line{{Text: "Mélangez la farine et le sel."}, {Text: "Faites fondre les poireaux. Salez et poivrez."}}},
			want: [][2]int{{0, 0}, {1, 0}, {2, 1}, {3, 1}},
		},
	})
}

func recipe(ings []string, steps ...string) Recipe {
	var r Recipe
	for _, l := range ings {
		r.Ingredients = append(r.Ingredients, Line{Text: l})
	}
	for _, s := range steps {
		r.Steps = append(r.Steps, Line{Text: s})
	}
	return r
}

// FuzzMatchRecipe feeds the matcher arbitrary lines, sections and steps: it must not panic, and
// every link must be in range, sorted, unique and the same on a second run.
func FuzzMatchRecipe(f *testing.F) {
	f.Add("2 cups flour\n1 tsp salt", "Dry\nDry", "Whisk the dry ingredients.\nAdd the remaining flour.", "de")
	f.Add("1 kg di melanzane\nOlio extravergine di oliva q.b.", "\n", "Tagliate le melanzane.\nFriggetele nell'olio finché dorate.", "it")
	f.Add("4 Zwiebeln\n1 l Gemüsebrühe", "Für die Suppe\nFür die Suppe", "Für die Suppe: Zwiebeln schneiden.\nBrühe zugeben, bis alles kocht.", "de")
	f.Add("", "", "", "")
	f.Add("For the sauce:\n’’’", ":\n", "until\n\u00a0(((", "x")
	f.Add("500 g de batatas\n1 kg mąki", "\n", "Coloque-os numa panela.\nEscúrrelas. Stek färsen-", "pt")
	f.Fuzz(func(t *testing.T, ings, secs, steps, _ string) {
		var r Recipe
		secNames := strings.Split(secs, "\n")
		for i, l := range strings.Split(ings, "\n") {
			sec := ""
			if i < len(secNames) {
				sec = secNames[i]
			}
			r.Ingredients = append(r.Ingredients, Line{Text: l, Section: sec})
		}
		for _, s := range strings.Split(steps, "\n") {
			r.Steps = append(r.Steps, Line{Text: s})
		}
		got := MatchRecipe(r)
		for i, l := range got {
			if l[0] < 0 || l[0] >= len(r.Ingredients) || l[1] < 0 || l[1] >= len(r.Steps) {
				t.Fatalf("link %v out of range", l)
			}
			if i > 0 && (got[i-1][0] > l[0] || got[i-1][0] == l[0] && got[i-1][1] >= l[1]) {
				t.Fatalf("links not sorted and unique: %v", got)
			}
		}
		if again := MatchRecipe(r); !slices.Equal(again, got) {
			t.Fatalf("not deterministic: %v then %v", got, again)
		}
	})
}

// TestMatchRolesAcrossLanguages covers the rules added with the second blind batch of the labeled
// set, each on a small recipe.
func TestMatchRolesAcrossLanguages(t *testing.T) {
	t.Parallel()
	checkMatchCases(t, []matchCase{
		{
			name: "foods only cut so far are first used together where the vegetables are added",
			r: recipe([]string{"1 onion", "2 carrots", "2 celery stalks", "2 tbsp oil"},
				"Chop the onion, carrots and celery.", "Heat the oil and add the vegetables."),
			want: [][2]int{{0, 0}, {0, 1}, {1, 0}, {1, 1}, {2, 0}, {2, 1}, {3, 1}},
		},
		{
			name: "a mixture named before its food is the mixture (la crema di mascarpone)",
			r: recipe([]string{"4 uova", "500 g di mascarpone", "100 g di zucchero"},
				"Montate le uova con lo zucchero.", "Aggiungete il mascarpone e mescolate bene.",
				"Versate la crema di mascarpone in una pirofila."),
			want: [][2]int{{0, 0}, {1, 1}, {2, 0}},
		},
		{
			name: "the title a step opens with names nothing",
			r: recipe([]string{"1 cup cashews", "2 tomatoes", "2 tbsp butter"},
				"Tomato and butter curry: soak the cashews in warm water.", "Chop the tomatoes and melt the butter."),
			want: [][2]int{{0, 0}, {1, 1}, {2, 1}},
		},
		{
			name: "a plural pronoun opening a step stands for the foods named in the plural",
			r: recipe([]string{"2 aubergines", "3 courgettes", "10 cl d'huile d'olive", "4 tomates"},
				"Faites dorer les aubergines puis les courgettes dans l'huile.", "Ajoutez-les dans la cocotte avec les tomates."),
			want: [][2]int{{0, 0}, {0, 1}, {1, 0}, {1, 1}, {2, 0}, {3, 1}},
		},
		{
			name: "a German mention takes the verb of its own clause; a floured cloth uses the flour",
			r: recipe([]string{"250 g Mehl", "120 g Butter"},
				"Die Butter schmelzen.", "Den Teig auf einem bemehlten Tuch ausziehen und mit der flüssigen Butter bestreichen."),
			want: [][2]int{{0, 1}, {1, 0}, {1, 1}},
		},
	})
}

// matchCase is a small recipe and the links a cook expects the matcher to
// make in it: [ingredient line, step] pairs, in order.
type matchCase struct {
	name string
	r    Recipe
	want [][2]int
}

// checkMatchCases runs MatchRecipe on each case, in parallel subtests.
func checkMatchCases(t *testing.T, cases []matchCase) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := MatchRecipe(tt.r); !slices.Equal(got, tt.want) {
				t.Errorf("links %v, want %v", got, tt.want)
			}
		})
	}
}
