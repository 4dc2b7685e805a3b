package extract

import (
	"reflect"
	"testing"
)

// TestJoinAmounts: amount cells are joined with their names only when the
// lines alternate name and amount; a list of whole lines stays as it is.
func TestJoinAmounts(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name     string
		in, want []string
	}{
		{"amounts after names",
			[]string{"Flour", "200 g", "Milk", "300 ml", "Salt", "Eggs", "2"},
			[]string{"200 g Flour", "300 ml Milk", "Salt", "2 Eggs"}},
		{"amounts before names",
			[]string{"200 g", "flour", "300 ml", "milk", "2", "eggs"},
			[]string{"200 g flour", "300 ml milk", "2 eggs"}},
		{"whole lines",
			[]string{"2 eggs", "1 onion", "salt", "3 carrots", "pepper", "1 l stock"},
			[]string{"2 eggs", "1 onion", "salt", "3 carrots", "pepper", "1 l stock"}},
		{"too few amounts",
			[]string{"Flour", "200 g", "Milk", "Salt", "Pepper", "Nutmeg", "Butter"},
			[]string{"Flour", "200 g", "Milk", "Salt", "Pepper", "Nutmeg", "Butter"}},
	} {
		if got := joinAmounts(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}
