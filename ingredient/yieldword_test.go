package ingredient

import "testing"

// The word of a servings unit that agrees with the number is the head of the phrase, from the one
// table of English word forms; other units have none.
func TestYieldWord(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		unit, one, other string
		start, end       int
	}{
		{"cookies", "cookie", "cookies", 0, 7},
		{"loaf", "loaf", "loaves", 0, 4},
		{"small Loaves", "Loaf", "Loaves", 6, 12},
		{"9-inch pie", "pie", "pies", 7, 10},
		{"chocolate chip muffins", "muffin", "muffins", 15, 22},
		{"jars", "jar", "jars", 0, 4},
		{"crème brûlée tarts", "tart", "tarts", 13, 18}, // offsets in UTF-16 code units
	} {
		w := YieldWord(c.unit)
		if w == nil || w.One != c.one || w.Other != c.other || w.Start != c.start || w.End != c.end {
			t.Errorf("YieldWord(%q) = %+v, want %s/%s at [%d,%d)", c.unit, w, c.one, c.other, c.start, c.end)
		}
	}
	for _, unit := range []string{"", "Stück", "Gläser", "portions", "9x13 pan of fudge"} {
		if w := YieldWord(unit); w != nil {
			t.Errorf("YieldWord(%q) = %+v, want none", unit, w)
		}
	}
}
