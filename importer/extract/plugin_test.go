package extract

import (
	"os"
	"reflect"
	"testing"
)

// TestPluginCardChoice: of two cards, the one whose lines are the
// structured recipe's is read, whether the card is found in a parsed
// window of the page or in the whole DOM; without structured lines, the
// first card.
func TestPluginCardChoice(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("testdata/two_plugin_cards.html")
	if err != nil {
		t.Fatal(err)
	}
	cake := []Section{
		{Name: "Cake", Items: []string{"225 g butter", "225 g sugar", "4 eggs", "225 g flour"}},
		{Name: "Drizzle", Items: []string{"2 lemons", "85 g icing sugar"}},
	}
	syrup := []Section{{Name: "Syrup", Items: []string{"1 cup sugar", "1 cup water"}}}
	want := []string{"225 g butter", "225 g sugar", "4 eggs", "225 g flour", "2 lemons", "85 g icing sugar"}
	for _, whole := range []bool{false, true} {
		p := newPage(raw, goldenPageURL)
		if whole {
			p.document()
		}
		if r, ok := fromPlugins(p, want); !ok || !reflect.DeepEqual(r.IngredientSections, cake) {
			t.Errorf("whole DOM %v: card %q, want the cake's", whole, r.IngredientSections)
		}
		if r, ok := fromPlugins(p, nil); !ok || !reflect.DeepEqual(r.IngredientSections, syrup) {
			t.Errorf("whole DOM %v, no structured lines: card %q, want the first", whole, r.IngredientSections)
		}
	}
}
