package ingredient

import (
	"fmt"
	"slices"
	"sort"
	"testing"
)

// TestMatch covers the rules of the matcher one by one, each on a small recipe, comparing the whole
// set of links so an extra link fails as well as a missing one.
func TestMatch(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		ings  []string
		steps []string
		want  [][2]int
	}{
		{
			name:  "longest match: brown sugar is not sugar",
			ings:  []string{"1 cup sugar", "1/2 cup packed brown sugar"},
			steps: []string{"Beat in the brown sugar.", "Sprinkle with the sugar."},
			want:  [][2]int{{0, 1}, {1, 0}},
		},
		{
			name:  "longest match inside a longer name",
			ings:  []string{"1 cup light brown sugar", "1/2 cup sugar"},
			steps: []string{"Cream the butter with the brown sugar and sugar."},
			want:  [][2]int{{0, 0}, {1, 0}},
		},
		{
			name:  "whole words: salt is not unsalted, oil is not boil",
			ings:  []string{"1 tsp salt", "2 tbsp olive oil", "1/2 cup unsalted butter"},
			steps: []string{"Melt the unsalted butter.", "Bring the water to a boil and add the butter.", "Stir in the salt and oil."},
			want:  [][2]int{{0, 2}, {1, 2}, {2, 0}, {2, 1}},
		},
		{
			name:  "the remaining flour links the later step too",
			ings:  []string{"2 cups flour", "2 eggs"},
			steps: []string{"Whisk the eggs with half of the flour.", "Fold in the remaining flour."},
			want:  [][2]int{{0, 0}, {0, 1}, {1, 0}},
		},
		{
			name:  "the rest of the sugar",
			ings:  []string{"1 cup sugar", "1 cup cream"},
			steps: []string{"Heat the cream with half the sugar.", "Whisk in the rest of the sugar."},
			want:  [][2]int{{0, 0}, {0, 1}, {1, 0}},
		},
		{
			name:  "synonyms both ways",
			ings:  []string{"4 scallions, sliced", "1/4 cup chopped fresh coriander", "1 cup confectioners' sugar", "1 tsp bicarbonate of soda", "1 aubergine"},
			steps: []string{"Add the green onions and cilantro.", "Stir in the powdered sugar and baking soda.", "Roast the eggplant."},
			want:  [][2]int{{0, 0}, {1, 0}, {2, 1}, {3, 1}, {4, 2}},
		},
		{
			name:  "singular and plural",
			ings:  []string{"2 tomatoes", "1 potato", "3 cherries", "1 bay leaf", "2 peaches"},
			steps: []string{"Dice the tomato and the potatoes.", "Pit the cherry and add the bay leaves with the peach."},
			want:  [][2]int{{0, 0}, {1, 0}, {2, 1}, {3, 1}, {4, 1}},
		},
		{
			name:  "head noun and the food a part belongs to",
			ings:  []string{"1 lb boneless chicken thighs", "2 tbsp extra-virgin olive oil", "3 garlic cloves", "1/2 cup grated cheddar cheese"},
			steps: []string{"Heat the oil and brown the chicken.", "Add the garlic.", "Top with the cheddar."},
			want:  [][2]int{{0, 0}, {1, 0}, {2, 1}, {3, 2}},
		},
		{
			name:  "never mentioned stays unlinked",
			ings:  []string{"1 cup flour", "1 tsp vanilla extract", "2 eggs"},
			steps: []string{"Mix the flour and eggs.", "Bake for 20 minutes."},
			want:  [][2]int{{0, 0}, {2, 0}},
		},
		{
			name:  "a kind of food: pasta, cheese, nuts, herbs",
			ings:  []string{"1 lb penne", "1 cup grated Parmigiano-Reggiano", "1/2 cup walnuts", "2 tbsp chopped parsley"},
			steps: []string{"Cook the pasta.", "Toss with the cheese, nuts and herbs."},
			want:  [][2]int{{0, 0}, {1, 1}, {2, 1}, {3, 1}},
		},
		{
			name:  "verbs that are foods",
			ings:  []string{"1 cup heavy cream", "1 cup butter", "1 lemon, zested", "1 onion"},
			steps: []string{"Cream the butter until fluffy.", "Chop the onion and zest the lemon.", "Whisk in the cream."},
			want:  [][2]int{{0, 2}, {1, 0}, {2, 1}, {3, 1}},
		},
		{
			name:  "tools are not food",
			ings:  []string{"4 garlic cloves", "1 cup rice", "2 cups chicken stock", "2 potatoes"},
			steps: []string{"Crush the cloves in a garlic press.", "Put the rice in a rice cooker.", "Put the potatoes in a stock pot and mash with a potato masher."},
			want:  [][2]int{{0, 0}, {1, 1}, {3, 2}},
		},
		{
			name:  "ingredient alternatives and shared nouns",
			ings:  []string{"Salt and freshly ground black pepper", "6 cups chicken or vegetable stock", "1 cup butter or margarine"},
			steps: []string{"Season with salt.", "Add the vegetable stock.", "Melt the margarine.", "Add a pinch of pepper."},
			want:  [][2]int{{0, 0}, {0, 3}, {1, 1}, {2, 2}},
		},
		{
			name:  "season to taste links salt and pepper",
			ings:  []string{"1 tsp kosher salt", "1/2 tsp black pepper", "1 onion"},
			steps: []string{"Cook the onion.", "Taste and adjust the seasoning.", "Season to taste."},
			want:  [][2]int{{0, 1}, {0, 2}, {1, 1}, {1, 2}, {2, 0}},
		},
		{
			name:  "greasing and dusting use the ingredient listed for them",
			ings:  []string{"1 cup butter, plus more for greasing", "2 cups flour", "Icing sugar, for dusting"},
			steps: []string{"Grease a loaf tin.", "Beat the butter into the flour.", "Dust the top before serving."},
			want:  [][2]int{{0, 0}, {0, 1}, {1, 1}, {2, 2}},
		},
		{
			name:  "salted water uses salt, a floured surface uses flour",
			ings:  []string{"1 lb spaghetti", "Kosher salt", "2 cups flour"},
			steps: []string{"Cook the spaghetti in salted water.", "Roll out on a lightly floured surface."},
			want:  [][2]int{{0, 0}, {1, 0}, {2, 1}},
		},
		{
			name:  "duplicate lines: the amount in the step decides",
			ings:  []string{"1/2 cup sugar", "1 cup butter", "2 1/2 cups sugar", "4 eggs"},
			steps: []string{"Stir 1/2 cup sugar into the butter.", "Whisk the eggs with 2 1/2 cups sugar."},
			want:  [][2]int{{0, 0}, {1, 0}, {2, 1}, {3, 1}},
		},
		{
			name:  "duplicate lines: the closest group decides",
			ings:  []string{"1 cup flour", "1/2 cup butter", "1 tsp salt", "3 eggs", "1 cup milk", "1/2 cup flour", "1 cup sugar"},
			steps: []string{"Rub the butter into the flour with the salt.", "Whisk the eggs, milk, sugar and flour."},
			want:  [][2]int{{0, 0}, {1, 0}, {2, 0}, {3, 1}, {4, 1}, {5, 1}, {6, 1}},
		},
		{
			name:  "an oil never named in full is the one a bare 'oil' means",
			ings:  []string{"2 tbsp vegetable oil", "3 eggs", "1 tsp toasted sesame oil"},
			steps: []string{"Heat the oil and scramble the eggs.", "Finish with the sesame oil."},
			want:  [][2]int{{0, 0}, {1, 0}, {2, 1}},
		},
		{
			name:  "joined and split compounds",
			ings:  []string{"1 cup panko breadcrumbs", "2 tbsp corn starch"},
			steps: []string{"Coat in the bread crumbs.", "Whisk in the cornstarch."},
			want:  [][2]int{{0, 0}, {1, 1}},
		},
		{
			name:  "sauce and juice do not link on their own",
			ings:  []string{"2 tbsp soy sauce", "1 tbsp lemon juice", "1 lb chicken"},
			steps: []string{"Cook the chicken until the juices run clear.", "Simmer until the sauce thickens.", "Add the soy sauce and lemon."},
			want:  [][2]int{{0, 2}, {1, 2}, {2, 0}},
		},
		{
			name:  "headings and empty lines link nothing",
			ings:  []string{"For the sauce:", "", "1 cup milk"},
			steps: []string{"For the sauce, warm the milk."},
			want:  [][2]int{{2, 0}},
		},
		{
			name:  "distributed adjectives in a step",
			ings:  []string{"1/2 green cabbage", "1/4 red cabbage"},
			steps: []string{"Shred the green and red cabbage."},
			want:  [][2]int{{0, 0}, {1, 0}},
		},
		{
			name:  "a plural kind means every food of that kind",
			ings:  []string{"1/2 cup shredded white cheddar cheese", "1/2 cup shredded jarlsberg cheese", "1/2 cup grated pecorino romano cheese"},
			steps: []string{"Stir in the cream, then add your cheeses."},
			want:  [][2]int{{0, 0}, {1, 0}, {2, 0}},
		},
		{
			name:  "a weak key before another form of food is that other food",
			ings:  []string{"1 tbsp curry powder", "2 tbsp chili powder", "1 tsp vanilla extract", "2 tbsp chopped chives"},
			steps: []string{"Serve with curry sauce and chili oil.", "Scrape the vanilla pod.", "Drizzle with herb oil.", "Add the curry powder, vanilla and chives."},
			want:  [][2]int{{0, 3}, {2, 3}, {3, 3}},
		},
		{
			name:  "a plural names the food, not the product named after it",
			ings:  []string{"2 tsp pistachio extract", "2 tbsp tomato paste", "1 cup milk"},
			steps: []string{"Warm the milk with the pistachio extract.", "Top with crushed pistachios and tomatoes.", "Stir in the tomato."},
			want:  [][2]int{{0, 0}, {1, 2}, {2, 0}},
		},
		{
			name:  "ground spice and plain spice are equal candidates",
			ings:  []string{"1 tsp ground cinnamon", "2 tbsp sugar", "1 cup flour", "3 eggs", "1 cup milk", "1/2 tsp cinnamon"},
			steps: []string{"Mix the sugar and flour with the cinnamon.", "Beat the eggs and milk with the cinnamon."},
			want:  [][2]int{{0, 0}, {1, 0}, {2, 0}, {3, 1}, {4, 1}, {5, 1}},
		},
		{
			name:  "seasoning blends do not name the dish",
			ings:  []string{"1 packet taco seasoning", "1 lb ground beef"},
			steps: []string{"Brown the beef with the taco seasoning.", "Fill the tacos and serve."},
			want:  [][2]int{{0, 0}, {1, 0}},
		},
		{
			name:  "accents and spellings",
			ings:  []string{"1/4 cup crème fraîche", "1 jalapeño", "2 red chillies"},
			steps: []string{"Stir in the creme fraiche and the jalapeno.", "Add the chiles."},
			want:  [][2]int{{0, 0}, {1, 0}, {2, 1}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := Match(tt.ings, tt.steps)
			if !slices.Equal(got, tt.want) {
				t.Errorf("Match\n got %s\nwant %s", describe(got, tt.ings), describe(tt.want, tt.ings))
			}
		})
	}
}

func describe(links [][2]int, ings []string) string {
	s := "["
	for _, l := range links {
		s += fmt.Sprintf(" %d:%q→step %d", l[0], ings[l[0]], l[1])
	}
	return s + " ]"
}

func TestMatchEdges(t *testing.T) {
	t.Parallel()
	if got := Match(nil, nil); got == nil || len(got) != 0 {
		t.Errorf("Match(nil, nil) = %#v, want an empty non-nil slice", got)
	}
	if got := Match([]string{"1 cup flour"}, nil); got == nil || len(got) != 0 {
		t.Errorf("Match with no steps = %#v, want empty", got)
	}
	if got := MatchParsed(nil, []string{"add the flour"}); got == nil || len(got) != 0 {
		t.Errorf("MatchParsed with no ingredients = %#v, want empty", got)
	}
}

// TestMatchDeterministicAndSorted runs the labeled set repeatedly: the result must not depend on map
// iteration order, and must be sorted and free of duplicates.
func TestMatchDeterministicAndSorted(t *testing.T) {
	t.Parallel()
	for name, r := range loadMappingSet(t) {
		first := Match(r.Ingredients(), r.Steps)
		if !sort.SliceIsSorted(first, func(i, j int) bool {
			return first[i][0] < first[j][0] || first[i][0] == first[j][0] && first[i][1] < first[j][1]
		}) {
			t.Errorf("%s: links not sorted: %v", name, first)
		}
		if len(slices.Compact(slices.Clone(first))) != len(first) {
			t.Errorf("%s: duplicate links: %v", name, first)
		}
		for range 10 {
			if again := Match(r.Ingredients(), r.Steps); !slices.Equal(again, first) {
				t.Fatalf("%s: Match is not deterministic:\n%v\n%v", name, first, again)
			}
		}
	}
}

func TestMatchParsedAgreesWithMatch(t *testing.T) {
	t.Parallel()
	for name, r := range loadMappingSet(t) {
		ings := r.Ingredients()
		parsed := make([]Parsed, len(ings))
		for i, l := range ings {
			parsed[i] = Parse(l)
		}
		if a, b := Match(ings, r.Steps), MatchParsed(parsed, r.Steps); !slices.Equal(a, b) {
			t.Errorf("%s: Match %v != MatchParsed %v", name, a, b)
		}
	}
}

// BenchmarkMatch reports the time to link one labeled recipe (testdata/mapping, sections included)
// from its raw lines, parsing included: the figure the "under 1 ms for a typical recipe"
// is read from (ns/op is the mean over the set's recipes).
func BenchmarkMatch(b *testing.B) {
	var recipes []Recipe
	for _, r := range loadMappingSet(b) {
		recipes = append(recipes, mappingInput(r))
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		MatchRecipe(recipes[i%len(recipes)])
	}
}

// BenchmarkMatchParsed is BenchmarkMatch without parsing, as MatchParsed is called on stored parts.
func BenchmarkMatchParsed(b *testing.B) {
	type recipe struct {
		parsed []Parsed
		steps  []string
	}
	var recipes []recipe
	for _, r := range loadMappingSet(b) {
		ings := r.Ingredients()
		p := make([]Parsed, len(ings))
		for i, l := range ings {
			p[i] = Parse(l)
		}
		recipes = append(recipes, recipe{p, r.Steps})
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		r := recipes[i%len(recipes)]
		MatchParsed(r.parsed, r.steps)
	}
}

func BenchmarkParse(b *testing.B) {
	var lines []string
	for _, r := range loadMappingSet(b) {
		lines = append(lines, r.Ingredients()...)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		Parse(lines[i%len(lines)])
	}
}
