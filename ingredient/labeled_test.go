package ingredient

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

type labeledRecipe struct {
	Ingredients []string `json:"ingredients"`
	Steps       []string `json:"steps"`
	Links       [][2]int `json:"links"`
}

func loadLabeled(t testing.TB) map[string]labeledRecipe {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "labeled", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]labeledRecipe{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var r labeledRecipe
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, l := range r.Links {
			if l[0] < 0 || l[0] >= len(r.Ingredients) || l[1] < 0 || l[1] >= len(r.Steps) {
				t.Fatalf("%s: link %v out of range", f, l)
			}
		}
		out[filepath.Base(f)] = r
	}
	return out
}

// minLabeledF1 is the regression floor for the labeled set. The matcher scores 0.99 on it today, and
// the two batches that were scored blind before joining it (37–46 and 47–52) scored 0.97 and 0.96, so
// unseen recipes are expected a little lower. One link moves F1 by about 0.0015: the floor leaves room
// for a deliberate trade-off that moves a handful of links, and fails when a general rule (synonyms,
// head nouns, plurals), which each carry dozens of links, stops working.
const minLabeledF1 = 0.95

func TestLabeledSet(t *testing.T) {
	t.Parallel()
	recipes := loadLabeled(t)
	if len(recipes) < 30 {
		t.Fatalf("labeled set has %d recipes, want at least 30", len(recipes))
	}
	var tp, fp, fn int
	for name, r := range recipes {
		want := map[[2]int]bool{}
		for _, l := range r.Links {
			want[l] = true
		}
		got := map[[2]int]bool{}
		for _, l := range Match(r.Ingredients, r.Steps) {
			got[l] = true
			if want[l] {
				tp++
			} else {
				fp++
				t.Logf("%s: extra   step %d ← %q", name, l[1], r.Ingredients[l[0]])
			}
		}
		for l := range want {
			if !got[l] {
				fn++
				t.Logf("%s: missing step %d ← %q", name, l[1], r.Ingredients[l[0]])
			}
		}
	}
	precision := float64(tp) / float64(tp+fp)
	recall := float64(tp) / float64(tp+fn)
	f1 := 2 * precision * recall / (precision + recall)
	t.Logf("labeled set: %d recipes, %d links; tp=%d fp=%d fn=%d; precision=%.3f recall=%.3f F1=%.3f",
		len(recipes), tp+fn, tp, fp, fn, precision, recall, f1)
	if f1 < minLabeledF1 {
		t.Errorf("F1 = %.3f, below the regression floor %.2f", f1, minLabeledF1)
	}
}
