package shopping

import (
	"fmt"
	"testing"

	"github.com/google/uuid"
)

func seqIDs() func() uuid.UUID {
	n := 0
	return func() uuid.UUID {
		n++
		return uuid.MustParse(fmt.Sprintf("00000000-0000-0000-0000-%012d", n))
	}
}

// build merges the lines, each from its own recipe, into an empty list.
func build(t *testing.T, lines []string, corrections map[string]string) []*Item {
	t.Helper()
	var items []*Item
	for _, l := range lines {
		id := uuid.New()
		touched := Merge(items, []Addition{AdditionFromLine(l, 1, &id, "r", nil)}, corrections, seqIDs())
		for _, it := range touched {
			if !contains(items, it) {
				items = append(items, it)
			}
		}
	}
	return items
}

func contains(items []*Item, it *Item) bool {
	for _, x := range items {
		if x == it {
			return true
		}
	}
	return false
}

func show(it *Item, system string) string {
	q, u, ok := Total(it.Sources, system)
	if !ok {
		return it.Text
	}
	if u == "" {
		return fmt.Sprintf("%g %s", q, it.Text)
	}
	return fmt.Sprintf("%g %s %s", q, u, it.Text)
}

func TestMerge(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		lines  []string
		system string
		want   []string // one per item, in order
	}{
		{"cup and ml, metric", []string{"1 cup milk", "200 ml milk"}, Metric, []string{"440 ml milk"}},
		{"cup and ml, US", []string{"1 cup milk", "200 ml milk"}, US, []string{"1.8 cup milk"}},
		{"cup and ml, as written: the larger share's unit", []string{"1 cup milk", "200 ml milk"}, AsWritten, []string{"1.8 cup milk"}},
		{"same unit adds up", []string{"2 cups flour", "1 1/2 cups flour"}, AsWritten, []string{"3.5 cup flour"}},
		{"mass converts, metric", []string{"1 lb ground beef", "500 g ground beef"}, Metric, []string{"950 g ground beef"}},
		{"mass into kg", []string{"800 g potatoes", "1 kg potatoes"}, Metric, []string{"1.8 kg potatoes"}},
		{"mass, US", []string{"8 oz cheddar", "1 lb cheddar"}, US, []string{"1.5 lb cheddar"}},
		{"counts and plurals", []string{"2 large eggs, beaten", "1 egg"}, AsWritten, []string{"3 eggs"}},
		{"spoons stay spoons in metric", []string{"1 tsp ground cumin", "1 tbsp ground cumin"}, Metric, []string{"1.3 tbsp ground cumin"}},
		{"teaspoons under a tablespoon", []string{"1/2 tsp salt", "1/4 tsp salt"}, Metric, []string{"0.75 tsp salt"}},
		{"large spoon amounts become cups in US", []string{"6 tbsp butter", "1/2 cup butter"}, US, []string{"0.88 cup butter"}},
		{"ranges count their upper end", []string{"2-3 cloves garlic", "2 cloves garlic"}, AsWritten, []string{"5 clove garlic"}},
		// Must not merge.
		{"different families", []string{"1 cup flour", "200 g flour"}, Metric, []string{"240 ml flour", "200 g flour"}},
		{"count and volume", []string{"2 onions", "1 cup onion"}, AsWritten, []string{"2 onions", "1 cup onion"}},
		{"no amount", []string{"salt to taste", "1 tsp salt"}, AsWritten, []string{"salt", "1 tsp salt"}},
		{"two lines without amount", []string{"salt to taste", "salt to taste"}, AsWritten, []string{"salt", "salt"}},
		{"same head noun, different foods", []string{"1 red onion", "2 onions", "1 green onion"}, AsWritten, []string{"1 red onion", "2 onions", "1 green onion"}},
		{"sugar and brown sugar", []string{"100 g sugar", "50 g brown sugar"}, Metric, []string{"100 g sugar", "50 g brown sugar"}},
		{"stock and breast", []string{"1 cup chicken stock", "2 chicken breasts"}, AsWritten, []string{"1 cup chicken stock", "2 chicken breasts"}},
		{"different non-measure units", []string{"1 can tomatoes", "400 g tomatoes"}, Metric, []string{"1 can tomatoes", "400 g tomatoes"}},
		{"line without a food kept whole", []string{"For the sauce:"}, AsWritten, []string{"For the sauce:"}},
		// Other languages: the unit and the food as Parse reads them.
		{"German spoons add up", []string{"2 EL Olivenöl", "1 EL Olivenöl"}, AsWritten, []string{"3 tbsp Olivenöl"}},
		{"Spanish cloves add up", []string{"3 dientes de ajo", "2 dientes de ajo picados"}, AsWritten, []string{"5 clove ajo"}},
		{"French soup and coffee spoons", []string{"1 c. à soupe d'huile d'olive", "1 c. à café d'huile d'olive"}, Metric, []string{"1.3 tbsp huile d'olive"}},
		{"Portuguese spoons named with their size", []string{"3 colheres (sopa) de azeite", "1 colher de sopa de azeite"}, AsWritten, []string{"4 tbsp azeite"}},
		{"German plural and singular", []string{"1 Zwiebel", "2 Zwiebeln, gewürfelt"}, AsWritten, []string{"3 Zwiebel"}},
		{"Portuguese plural and singular", []string{"1 limão", "suco de 2 limões"}, AsWritten, []string{"3 limão"}},
		{"decagrams and grams", []string{"5 dag masła", "50 g masła"}, Metric, []string{"100 g masła"}},
		{"kryddmått and teaspoon", []string{"1 krm svartpeppar", "1 tsk svartpeppar"}, Metric, []string{"6 ml svartpeppar"}},
		{"a count word is no unit", []string{"2 Stück Lauch", "1 Lauch"}, AsWritten, []string{"3 Lauch"}},
		{"different flours in Polish", []string{"1 szklanka mąki pszennej", "1 szklanka mąki żytniej"}, AsWritten, []string{"1 cup mąki pszennej", "1 cup mąki żytniej"}},
		{"cups and grams of one flour", []string{"1 xícara (chá) de farinha de trigo", "200 g de farinha de trigo"}, Metric, []string{"240 ml farinha de trigo", "200 g farinha de trigo"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			items := build(t, c.lines, nil)
			var got []string
			sources := 0
			for _, it := range items {
				got = append(got, show(it, c.system))
				sources += len(it.Sources)
			}
			if sources != len(c.lines) {
				t.Errorf("%d sources for %d lines: something was dropped or doubled", sources, len(c.lines))
			}
			if fmt.Sprint(got) != fmt.Sprint(c.want) {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

func TestMergeSkipsCheckedItems(t *testing.T) {
	t.Parallel()
	items := build(t, []string{"1 cup milk"}, nil)
	items[0].Checked = true
	touched := Merge(items, []Addition{ManualAddition("1 cup milk")}, nil, seqIDs())
	if len(touched) != 1 || touched[0] == items[0] {
		t.Fatalf("merged into a checked item: %+v", touched)
	}
}

func TestScaling(t *testing.T) {
	t.Parallel()
	a := AdditionFromLine("200 g pasta", 1.5, nil, "", nil)
	q, u, _ := Total([]Source{a.Source}, AsWritten)
	if q != 300 || u != "g" {
		t.Fatalf("got %g %s", q, u)
	}
}

func TestRemoveRecipe(t *testing.T) {
	t.Parallel()
	r1, r2 := uuid.New(), uuid.New()
	var items []*Item
	items = append(items, Merge(items, []Addition{
		AdditionFromLine("1 cup milk", 1, &r1, "Pancakes", nil),
		AdditionFromLine("2 eggs", 1, &r1, "Pancakes", nil),
	}, nil, seqIDs())...)
	Merge(items, []Addition{AdditionFromLine("200 ml milk", 1, &r2, "Sauce", nil)}, nil, seqIDs())
	changed, gone := RemoveRecipe(items, r1)
	if len(changed) != 1 || len(gone) != 1 || gone[0].Text != "eggs" {
		t.Fatalf("changed %v gone %v", changed, gone)
	}
	if q, u, _ := Total(changed[0].Sources, Metric); q != 200 || u != "ml" {
		t.Fatalf("milk left: %g %s", q, u)
	}
}

func TestAisle(t *testing.T) {
	t.Parallel()
	cases := map[string]string{
		"milk": "dairy", "egg": "dairy", "red onion": "produce", "extra-virgin olive oil": "pantry",
		"chicken thigh": "meat and fish", "ground cumin": "spices", "frozen corn": "frozen", "baguette": "bakery",
		"white wine": "drinks", "black pepper": "spices", "red pepper": "produce", "widget": "other",
		"all-purpose flour": "pantry", "sour cream": "dairy",
	}
	for food, want := range cases {
		if got := Aisle(FoodKey(food), nil); got != want {
			t.Errorf("Aisle(%q) = %q, want %q", food, got, want)
		}
	}
	if got := Aisle("milk", map[string]string{"milk": "drinks"}); got != "drinks" {
		t.Errorf("correction ignored: %q", got)
	}
}

func TestFoodKey(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"Eggs": "egg", "Red Onions": "red onion", "tomatoes": "tomato", "berries": "berry", "asparagus": "asparagus",
		"leaves": "leaf", "olives": "olive", "cloves": "clove", "peas": "pea", "hummus": "hummus", "molasses": "molasses",
		"Zwiebeln": "zwiebel", "Zwiebel": "zwiebel", "Tomaten": "tomate", "Kartoffeln": "kartoffel", "cebollas": "cebolla",
		"limões": "limão", "pães": "pão", "poireaux": "poireau", "oignons": "oignon", "green onions": "green onion",
		"farina 00": "farina 00", "chicken": "chicken", "chickens": "chicken",
	} {
		if got := FoodKey(in); got != want {
			t.Errorf("FoodKey(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestFoodKeyKeepsFoodsApart lists pairs of different foods whose names are close: they must keep
// different keys in every language's plural rule.
func TestFoodKeyKeepsFoodsApart(t *testing.T) {
	t.Parallel()
	for _, pair := range [][2]string{
		{"pâte", "pâté"}, {"mąki pszennej", "mąki żytniej"}, {"paste", "pasta"}, {"lime", "limes de"},
		{"Sahne", "Saft"}, {"tomato", "tomatillo"}, {"pepper", "peppers sauce"}, {"gree", "green"},
	} {
		if FoodKey(pair[0]) == FoodKey(pair[1]) {
			t.Errorf("FoodKey(%q) = FoodKey(%q) = %q", pair[0], pair[1], FoodKey(pair[0]))
		}
	}
}

func TestRound(t *testing.T) {
	t.Parallel()
	for in, want := range map[float64]float64{1.845: 1.8, 436.6: 440, 0.333: 0.33, 12.4: 12, 3: 3, 0.3: 0.3, 1250: 1250} {
		if got := Round(in); got != want {
			t.Errorf("Round(%g) = %g, want %g", in, got, want)
		}
	}
}

// FuzzMerge: whatever the lines, every one ends as a source of exactly one
// item, and totals are finite and positive when they exist.
func FuzzMerge(f *testing.F) {
	for _, s := range []string{"1 cup milk", "200 ml milk", "2-3 cloves garlic", "salt", "", "1/0 cup x", "1e308 kg flour"} {
		f.Add(s, "2 cups milk")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		items := build(t, []string{a, b, a}, nil)
		n := 0
		for _, it := range items {
			n += len(it.Sources)
			for _, sys := range Systems {
				if q, _, ok := Total(it.Sources, sys); ok && !(q >= 0) {
					t.Fatalf("total %g for %+v", q, it.Sources)
				}
			}
		}
		if n != 3 {
			t.Fatalf("%d sources for 3 lines", n)
		}
	})
}

// A correction saved under a food's key from before a plural rule existed
// still files that food, now keyed by its singular; a correction saved under
// the new key itself wins over it.
func TestSavedCorrectionsFollowTodaysKeys(t *testing.T) {
	if FoodKey("Tomaten") != "tomate" {
		t.Fatalf("FoodKey(Tomaten) = %q: this test needs a key that changed", FoodKey("Tomaten"))
	}
	got := SavedCorrections(map[string]string{"tomaten": "pantry", "zwiebeln": "produce", "zwiebel": "other"})
	if a := Aisle("tomate", got); a != "pantry" {
		t.Errorf("Aisle(tomate) = %q, want the correction saved under tomaten", a)
	}
	if a := Aisle("zwiebel", got); a != "other" {
		t.Errorf("Aisle(zwiebel) = %q, want the correction saved under zwiebel itself", a)
	}
	if a := Aisle("tomaten", got); a != "pantry" {
		t.Errorf("Aisle(tomaten) = %q: the key it was saved under must still find it", a)
	}
}
