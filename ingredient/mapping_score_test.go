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

// blindBatch names the blind batch a labeled recipe belongs to, or "" for the development and
// held-out parts: recipes written and labeled after the matcher's rules, scored before any rule was
// changed for them. "blind" is the first batch (files b*.json), "blind c" the second, mostly not in
// English (files c<NN>_*.json; the corpus recipes are c_*.json and are not blind), "blind d" the
// third, also mostly not in English (files d<NN>_*.json), "blind e" the fourth (files e<NN>_*.json),
// with short methods, collectives, pronouns and names shorter than the line, "blind f" the fifth
// (files f<NN>_*.json), all English in the long styles of food blogs and of US, UK, Australian and
// Indian-English sites, and "blind g" a sixth, twelve more English recipes written after the fifth
// batch's rules, to see how those rules carry over, and "blind h" a seventh (files h<NN>_*.json), thirty
// recipes in nine languages other than English, written in the styles of their home-cooking sites, and "blind i" an
// eighth (files i<NN>_*.json), twelve English and eighteen in eleven other languages, and "blind j" a ninth
// (files j<NN>_*.json), twelve English weeknight dinners and fifteen in eight other languages. They are scored
// apart from the development and held-out parts, so their figures stay an estimate of how the matcher
// does on recipes it was not tuned on.
func blindBatch(name string) string {
	switch {
	case strings.HasPrefix(name, "b"):
		return "blind"
	case len(name) > 1 && name[0] == 'c' && name[1] >= '0' && name[1] <= '9':
		return "blind c"
	case len(name) > 1 && name[0] == 'd' && name[1] >= '0' && name[1] <= '9':
		return "blind d"
	case len(name) > 1 && name[0] == 'e' && name[1] >= '0' && name[1] <= '9':
		return "blind e"
	case len(name) > 1 && name[0] == 'f' && name[1] >= '0' && name[1] <= '9':
		return "blind f"
	case len(name) > 1 && name[0] == 'g' && name[1] >= '0' && name[1] <= '9':
		return "blind g"
	case len(name) > 1 && name[0] == 'h' && name[1] >= '0' && name[1] <= '9':
		return "blind h"
	case len(name) > 1 && name[0] == 'i' && name[1] >= '0' && name[1] <= '9':
		return "blind i"
	case len(name) > 1 && name[0] == 'j' && name[1] >= '0' && name[1] <= '9':
		return "blind j"
	}
	return ""
}

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

// languageGroups are the per-language figures a recipe counts in: its language and, unless it is in
// English, the group of all the languages other than English.
func languageGroups(lang string) []string {
	if lang == "en" {
		return []string{lang}
	}
	return []string{lang, "not en"}
}

func (s *score) add(o score) {
	s.recipes += o.recipes
	s.tp += o.tp
	s.fp += o.fp
	s.fn += o.fn
}

// Regression floors of the labeled set (testdata/mapping, rules in its README). On its 346 recipes
// the matcher reaches precision 0.964, recall 0.953, F1 0.958 (0.961, 0.947, 0.954 before the rules of
// the seventh blind batch; on the 316 before that batch 0.962, 0.950, 0.956, and 0.962, 0.951, 0.957
// with its rules; on the 304 before the sixth blind
// batch 0.961, 0.949, 0.955; 0.957, 0.943, 0.950 before the rules
// of the fifth blind batch; on the 273 before that batch 0.956, 0.943, 0.950; 0.952, 0.934, 0.943 before the rules
// of the fourth blind batch; on the 246 before that batch 0.952, 0.940, 0.946; 0.947, 0.934, 0.941 before the rules
// of the third blind batch; on the 222 before that batch 0.948, 0.936, 0.942; on the 191 before the second blind
// batch 0.942, 0.932, 0.937, where the matcher before that batch's rules reached 0.938, 0.923, 0.931;
// on the 159 before the blind batch:
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
// held-out part and on each blind batch. MAPPING_EXPLAIN=1 logs every disagreement of the development
// part and of the blind batches (whose blind figures were taken before their errors were read).
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
	var dev, held, all score
	batches := []string{"blind", "blind c", "blind d", "blind e", "blind f", "blind g", "blind h", "blind i", "blind j"}
	unseen := map[string]*score{}
	// Each blind batch is also scored per language, since the languages other than English are where
	// the matcher has had the fewest recipes to learn from.
	byLanguage := map[string]map[string]*score{}
	for _, b := range batches {
		unseen[b] = &score{}
		byLanguage[b] = map[string]*score{}
	}
	// The whole set per language too: the languages with few recipes are where the goal is missed.
	wholeByLanguage := map[string]*score{}
	for _, name := range names {
		r := set[name]
		for _, l := range languageGroups(r.Language) {
			if wholeByLanguage[l] == nil {
				wholeByLanguage[l] = &score{}
			}
			wholeByLanguage[l].add(scoreRecipe(name, r, nil))
		}
		switch batch := blindBatch(name); {
		case batch != "":
			s := scoreRecipe(name, r, explain)
			unseen[batch].add(s)
			langs := byLanguage[batch]
			for _, l := range languageGroups(r.Language) {
				if langs[l] == nil {
					langs[l] = &score{}
				}
				langs[l].add(s)
			}
		case heldOut(name):
			held.add(scoreRecipe(name, r, nil))
		default:
			dev.add(scoreRecipe(name, r, explain))
		}
	}
	all.add(dev)
	all.add(held)
	for _, b := range batches {
		all.add(*unseen[b])
	}
	logScore := func(name string, s score) {
		t.Logf("%-11s %3d recipes, %4d links: tp=%d fp=%d fn=%d precision=%.3f recall=%.3f F1=%.3f",
			name, s.recipes, s.tp+s.fn, s.tp, s.fp, s.fn, s.precision(), s.recall(), s.f1())
	}
	logScore("development", dev)
	logScore("held-out", held)
	for _, b := range batches {
		logScore(b, *unseen[b])
	}
	logScore("whole set", all)
	byLanguage["whole set"] = wholeByLanguage
	for _, batch := range append(batches, "whole set") {
		langs := make([]string, 0, len(byLanguage[batch]))
		for l := range byLanguage[batch] {
			langs = append(langs, l)
		}
		slices.Sort(langs)
		for _, l := range langs {
			logScore(batch+" "+l, *byLanguage[batch][l])
		}
	}
	if all.precision() < minMappingPrecision || all.recall() < minMappingRecall || all.f1() < minMappingF1 {
		t.Errorf("whole set precision %.3f recall %.3f F1 %.3f: below the floors %.2f / %.2f / %.2f",
			all.precision(), all.recall(), all.f1(), minMappingPrecision, minMappingRecall, minMappingF1)
	}
}
