package ingredient

import (
	"testing"
)

// TestMatchRulesOfTheNinthBlindBatch covers the rules added with the ninth blind batch of the
// labeled set (j<NN>_*.json, twelve English weeknight dinners and fifteen recipes in eight other
// languages), each on a small recipe written for it.
func TestMatchRulesOfTheNinthBlindBatch(t *testing.T) {
	t.Parallel()
	checkMatchCases(t, []matchCase{
		{
			name: "the Polish instrumental in -iem is the noun of the line",
			r: recipe([]string{"2 jajka", "250 ml mleka", "100 ml oleju"},
				"Jajka wymieszać z mlekiem i olejem."),
			want: [][2]int{{0, 0}, {1, 0}, {2, 0}},
		},
		{
			name: "water with salt is salted water in Spanish, a use of the salt again",
			r: recipe([]string{"400 g de macarrones", "1 cebolla", "400 g de tomate triturado", "sal"},
				"Pochamos la cebolla. Añadimos el tomate triturado y una pizca de sal y dejamos que se haga.",
				"Mientras, cocemos los macarrones en abundante agua con sal el tiempo que indique el fabricante."),
			want: [][2]int{{0, 1}, {1, 0}, {2, 0}, {3, 0}, {3, 1}},
		},
		{
			name: "spreading a cooked food out into a crust puts it in the dish in Swedish",
			r: recipe([]string{"500 g nötfärs", "1 påse tacokrydda", "2 dl crème fraiche"},
				"Bryn färsen i en stekpanna och tillsätt tacokryddan.",
				"Fördela färsen i pajskalet och bred crème fraichen över."),
			want: [][2]int{{0, 0}, {0, 1}, {1, 0}, {2, 1}},
		},
		{
			name: "mashing is working on the food in Dutch",
			r: recipe([]string{"1 kg aardappelen", "100 ml melk", "zout"},
				"Kook de aardappelen in water met zout gaar en giet af.",
				"Stamp de aardappelen met de melk tot puree."),
			want: [][2]int{{0, 0}, {0, 1}, {1, 1}, {2, 0}},
		},
	})
}
