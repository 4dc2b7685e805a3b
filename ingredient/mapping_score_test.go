package ingredient

import (
	"hash/fnv"
	"os"
	"slices"
	"strings"
	"testing"
)

// heldOut reports whether a labeled recipe belongs to the held-out part of the set: about one in
// five, chosen by a hash of the file name so the split never depends on the order files arrive in.
// Rules are written while looking at the other part only; the held-out part shows how they carry
// over to recipes they were not written from.
func heldOut(name string) bool {
	h := fnv.New32a()
	h.Write([]byte(name))
	return h.Sum32()%5 == 0
}

// blind reports whether a labeled recipe belongs to the blind batch: recipes written and labeled
// after the matcher's rules, scored before any rule was changed for them (files b*.json). They are
// scored apart from the development and held-out parts, so their figure stays an estimate of how the
// matcher does on recipes nobody tuned it on.
func blind(name string) bool { return strings.HasPrefix(name, "b") }

// score is the outcome of the matcher on part of the labeled set.
type score struct {
	recipes, tp, fp, fn int
}

func (s score) precision() float64 { return ratio(s.tp, s.tp+s.fp) }
func (s score) recall() float64    { return ratio(s.tp, s.tp+s.fn) }
func (s score) f1() float64 {
	p, r := s.precision(), s.recall()
	if p+r == 0 {
		return 0
	}
	return 2 * p * r / (p + r)
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// scoreRecipe compares the matcher's links of one labeled recipe with the labels; explain, when not
// nil, receives each disagreement.
func scoreRecipe(name string, r mappingRecipe, explain func(format string, args ...any)) score {
	ings := r.Ingredients()
	want := map[[2]int]bool{}
	for _, l := range r.Links {
		want[l] = true
	}
	got := MatchRecipe(mappingInput(r))
	s := score{recipes: 1}
	for _, l := range got {
		if want[l] {
			s.tp++
			continue
		}
		s.fp++
		if explain != nil {
			explain("%s: extra   step %d ← %q\n\t%s", name, l[1], ings[l[0]], r.Steps[l[1]])
		}
	}
	for _, l := range r.Links {
		if slices.Contains(got, l) {
			continue
		}
		s.fn++
		if explain != nil {
			explain("%s: missing step %d ← %q\n\t%s", name, l[1], ings[l[0]], r.Steps[l[1]])
		}
	}
	return s
}

// mappingInput turns a labeled recipe into the matcher's input, sections included.
func mappingInput(r mappingRecipe) Recipe {
	var in Recipe
	for _, s := range r.IngredientSections {
		for _, l := range s.Ingredients {
			in.Ingredients = append(in.Ingredients, Line{Text: l, Section: s.Name})
		}
	}
	for i, s := range r.Steps {
		sec := ""
		for _, ss := range r.StepSections {
			if ss.Start <= i {
				sec = ss.Name
			}
		}
		in.Steps = append(in.Steps, Line{Text: s, Section: sec})
	}
	return in
}

func (s *score) add(o score) {
	s.recipes += o.recipes
	s.tp += o.tp
	s.fp += o.fp
	s.fn += o.fn
}

// Regression floors of the labeled set (testdata/mapping, rules in its README). On its 191 recipes
// the matcher reaches precision 0.938, recall 0.923, F1 0.931 (on the 159 before the blind batch:
// 0.924, 0.903, 0.913 before the pronoun, stem and language rules; the matcher before it read roles,
// sections and collectives: 0.854, 0.800, 0.826). The floors sit a little under, so a deliberate
// trade-off moving a handful of links passes and a broken general rule (roles, synonyms, collectives,
// languages, which each carry dozens of links) fails.
const (
	minMappingPrecision = 0.90
	minMappingRecall    = 0.87
	minMappingF1        = 0.89
)

// TestMappingSet scores the matcher on the labeled set: on the part rules were written from, on the
// held-out part and on the blind batch. MAPPING_EXPLAIN=1 logs every disagreement of the development
// part and of the blind batch (whose blind figure was taken before its errors were read).
func TestMappingSet(t *testing.T) {
	t.Parallel()
	set := loadMappingSet(t)
	names := make([]string, 0, len(set))
	for name := range set {
		names = append(names, name)
	}
	slices.Sort(names)
	var explain func(string, ...any)
	if os.Getenv("MAPPING_EXPLAIN") != "" {
		explain = t.Logf
	}
	var dev, held, unseen, all score
	for _, name := range names {
		if blind(name) {
			unseen.add(scoreRecipe(name, set[name], explain))
		} else if heldOut(name) {
			held.add(scoreRecipe(name, set[name], nil))
		} else {
			dev.add(scoreRecipe(name, set[name], explain))
		}
	}
	all.add(dev)
	all.add(held)
	all.add(unseen)
	for _, p := range []struct {
		name string
		s    score
	}{{"development", dev}, {"held-out", held}, {"blind", unseen}, {"whole set", all}} {
		t.Logf("%-11s %3d recipes, %4d links: tp=%d fp=%d fn=%d precision=%.3f recall=%.3f F1=%.3f",
			p.name, p.s.recipes, p.s.tp+p.s.fn, p.s.tp, p.s.fp, p.s.fn, p.s.precision(), p.s.recall(), p.s.f1())
	}
	if all.precision() < minMappingPrecision || all.recall() < minMappingRecall || all.f1() < minMappingF1 {
		t.Errorf("whole set precision %.3f recall %.3f F1 %.3f: below the floors %.2f / %.2f / %.2f",
			all.precision(), all.recall(), all.f1(), minMappingPrecision, minMappingRecall, minMappingF1)
	}
}
