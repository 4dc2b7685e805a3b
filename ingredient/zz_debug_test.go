package ingredient

import (
	"os"
	"testing"
)

func TestZZDebug(t *testing.T) {
	name := os.Getenv("DBG")
	if name == "" {
		t.Skip()
	}
	r := loadMappingSet(t)[name]
	in := mappingInput(r)
	got := MatchRecipe(in)
	ings := r.Ingredients()
	want := map[[2]int]bool{}
	for _, l := range r.Links {
		want[l] = true
	}
	g := map[[2]int]bool{}
	for _, l := range got {
		g[l] = true
	}
	for s, st := range r.Steps {
		t.Logf("STEP %d: %s", s, st)
		for i, ing := range ings {
			l := [2]int{i, s}
			mark := ""
			switch {
			case want[l] && g[l]:
				mark = "ok   "
			case want[l]:
				mark = "MISS "
			case g[l]:
				mark = "EXTRA"
			default:
				continue
			}
			t.Logf("   %s %d %s", mark, i, ing)
		}
	}
	for i, p := range ings {
		t.Logf("ING %d %q → %q [%s]", i, p, Parse(p).Name, in.Ingredients[i].Section)
	}
}
