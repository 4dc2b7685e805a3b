package ingredient

import "strings"

// Pronouns that stand for ingredients: "Peel the potatoes. Put them in a pot", "Remove the chicken
// and shred it. Return it to the slow cooker", "Coloque-os numa panela", "Escúrrelas". A pronoun is
// a mention of the foods it stands for, and its role decides, as for a name: "return it", "put them
// in" bring the foods back; "let it rest", "until it thickens" do not.
//
// What a pronoun stands for is the last run of foods named together ("the potatoes, onion and
// garlic") before it in the step, or, when the step opens with it, the last run of the step before. A singular pronoun stands for a run of one food only: "whisk the oil, vinegar and mustard
// and pour it over" pours the dressing, a mixture, not the lines.

// pronoun is a pronoun of a step: where it is, whether it is plural, and whether it is written on
// its verb ("escúrrelas"), which then governs it.
type pronoun struct {
	pos    int
	plural bool
	onVerb bool
	lx     *lexicon // the step's language
}

// pronounsOf finds the pronouns of a step.
func pronounsOf(v stepView, hitEnd []int) []pronoun {
	var out []pronoun
	for k, t := range v.toks {
		if t == sep || hitEnd[k] > k {
			continue
		}
		if v.lx != lexicons["en"] && !v.hyphen[k] && v.lx.singles[classItEnd] == nil {
			continue // outside English only hyphenated pronouns and pronouns on verbs
		}
		it, them := v.lx.has(classIt, v.toks, k), v.lx.has(classThem, v.toks, k)
		if it || them {
			// Outside English the object pronouns are also articles ("os", "les"): a pronoun is joined
			// to its verb by a hyphen ("Coloque-os", "émincez-les").
			if v.lx != lexicons["en"] && (k == 0 || !v.hyphen[k] || !v.isVerbAnyAt(k-1)) {
				continue
			}
			out = append(out, pronoun{pos: k, plural: them, lx: v.lx})
			continue
		}
		for _, c := range []struct {
			class  wordClass
			plural bool
		}{{classThemEnd, true}, {classItEnd, false}} {
			if endsWithAnyOf(t, v.lx.singles[c.class]) && v.isVerbAnyAt(k) {
				out = append(out, pronoun{pos: k, plural: c.plural, onVerb: true, lx: v.lx})
				break
			}
		}
	}
	return out
}

func endsWithAnyOf(t string, endings []string) bool {
	for _, e := range endings {
		if len(t) > len(e)+3 && strings.HasSuffix(t, e) {
			return true
		}
	}
	return false
}

// foodRuns groups a step's mentions into runs named together: mentions with nothing between them
// but commas, conjunctions and articles. Each run holds the lines its mentions resolved to.
type foodRun struct {
	end    int // the word after the run's last mention
	ings   []int
	n      int  // mentions in the run
	plural bool // a mention was written in the plural
}

// foodRuns reads the runs of a step's mentions; a mention that is no use (in a condition, a
// mixture's name, discarded: skip) names nothing a pronoun can stand for and ends a run.
func foodRuns(v stepView, hits []hit, hitIngs [][]int, skip []bool) []foodRun {
	var runs []foodRun
	for i, h := range hits {
		if skip[i] {
			runs = append(runs, foodRun{end: h.end})
			continue
		}
		joined := false
		if len(runs) > 0 {
			last := &runs[len(runs)-1]
			joined = h.pos-last.end <= 3
			for k := last.end; k < h.pos && joined; k++ {
				t := v.toks[k]
				joined = t == sep && !v.stop[k] || v.lx.has(classConj, v.toks, k) || connectors[t] || v.lx.has(classArticle, v.toks, k)
			}
		}
		if !joined {
			runs = append(runs, foodRun{})
		}
		last := &runs[len(runs)-1]
		last.end = h.end
		last.n++
		last.plural = last.plural || h.plural
		for _, ing := range hitIngs[i] {
			if !containsInt(last.ings, ing) {
				last.ings = append(last.ings, ing)
			}
		}
	}
	return runs
}

func containsInt(s []int, x int) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

// referents returns the lines a pronoun at p stands for: the last run before it in the step
// (sameStep), else the last run of the step before (prev), or nothing when a singular pronoun meets
// a run of several.
func referents(p pronoun, runs, prev []foodRun) (ings []int, sameStep bool) {
	var run *foodRun
	for i := range runs {
		if runs[i].end <= p.pos {
			run = &runs[i]
			sameStep = true
		}
	}
	if run == nil && len(prev) > 0 && p.pos <= 3 {
		// Only a pronoun opening the step looks back to the step before ("Drain them", "Coloque-os
		// numa panela"); further on it stands for something the step named, listed or not. A
		// plural one stands for the last foods named in the plural ("dorez les aubergines puis les
		// courgettes dans le reste de l'huile. Ajoutez-les"), not a singular named after them.
		run = &prev[len(prev)-1]
		if p.plural && !run.plural && run.n == 1 {
			for i := len(prev) - 2; i >= 0; i-- {
				if prev[i].plural || prev[i].n > 1 {
					run = &prev[i]
					break
				}
			}
		}
	}
	if run == nil || !p.plural && (run.n > 1 || len(run.ings) > 1) {
		return nil, false
	}
	if p.plural && !run.plural && run.n == 1 && !sameStep && pluralInS(p.lx) {
		// "Aqueça o óleo e frite os bolinhos. Escorra-os": in a language whose plurals end in s, a
		// plural pronoun does not stand for one food named in the singular.
		return nil, false
	}
	return run.ings, sameStep
}

// pluralInS reports whether the lexicon's language marks its plural nouns with a final s, so a
// mention's plural flag (normText.plural) can be trusted: English, Spanish, Portuguese and French.
func pluralInS(lx *lexicon) bool {
	for _, l := range []string{"en", "es", "pt", "fr"} {
		if lexicons[l] == lx {
			return true
		}
	}
	return false
}

// pronounLinks reports whether a pronoun with role r links line ing it stands for. A food already in
// the dish is in hand again only where the step took it out and puts it back ("Remove the chicken
// and shred it. Return it to the pot"); what was only prepared or cooked apart is in hand wherever a
// pronoun puts it in ("Peel the potatoes. Put them in a pot").
func pronounLinks(v stepView, p pronoun, r mentionRole, ing int, sameStep bool, st *dishState) bool {
	if !r.linked(ing, st) {
		return false
	}
	if !st.inDish[ing] {
		return true
	}
	if !sameStep || !r.reuse {
		return false
	}
	start := v.sentenceStart(p.pos)
	for k := p.pos - 1; k >= start; k-- {
		if v.lx.has(classReturn, v.toks, k) {
			return true
		}
	}
	return false
}

// pronounRole reads the role of a pronoun as that of a mention at its place. A pronoun written on
// its verb is governed by that verb.
func pronounRole(v stepView, p pronoun, hitEnd []int) mentionRole {
	if !p.onVerb {
		return readRole(v, hit{pos: p.pos, end: p.pos + 1}, hitEnd)
	}
	var r mentionRole
	if v.inCondition(p.pos) {
		r.blocked = true
		return r
	}
	c, _ := v.verbAt(p.pos, p.pos+1)
	switch c {
	case classUse, classPrep, classMixVerb:
		r.reuse = !v.movedOut(p.pos)
	case classDiscard:
		r.blocked = true
	}
	r.prep = c == classPrep || c == classCook
	r.cut = c == classPrep && !v.joinedLater(p.pos+1)
	r.cook = c == classCook
	r.move = c == classMove
	return r
}
