package ingredient

import "strings"

// Sections tie same-name lines to their part of the recipe: the marinade's soy sauce to the
// marinating step, the dipping sauce's soy sauce to the step that makes the dipping sauce.

// sectionIndex knows the significant words of each ingredient line's section and of each step's
// section (the step's own, or the last heading pasted as a step before it).
type sectionIndex struct {
	ingWords  [][]string // per ingredient line
	ingSecOf  []int      // per step: the ingredient section its section names, or -1
	explicit  []bool     // per step: the section comes from the step's own section, not a heading before it
	secOfLine []int      // per ingredient line: its section's number
	lines     [][]int    // per section number: its lines
}

func newSectionIndex(sections []string, steps []Line, texts []normText, headings []bool, lx *lexicon) *sectionIndex {
	si := &sectionIndex{ingWords: make([][]string, len(sections)), secOfLine: make([]int, len(sections))}
	var names [][]string
	sec := -1
	for i, name := range sections {
		if i == 0 || name != sections[i-1] {
			sec++
			names = append(names, sectionWords(name, lx))
			si.lines = append(si.lines, nil)
		}
		si.secOfLine[i] = sec
		si.lines[sec] = append(si.lines[sec], i)
		si.ingWords[i] = names[sec]
	}
	current := ""
	for s, st := range steps {
		name := st.Section
		si.explicit = append(si.explicit, name != "")
		best := -1
		if name == "" {
			if headings[s] {
				current = st.Text
			}
			// "Für die Streusel Mehl, Zucker … verkneten" under an earlier "Für den Teig:": the part a
			// step opens with is its own, over the heading pasted before it.
			if !headings[s] {
				best = namedSection(names, leadingPurpose(st.Text, texts[s].words, lx), lx)
			}
			name = current
		}
		if best < 0 {
			best = namedSection(names, name, lx)
		}
		si.ingSecOf = append(si.ingSecOf, best)
	}
	return si
}

// namedSection returns the ingredient section whose name shares the most words with name, or -1.
func namedSection(names [][]string, name string, lx *lexicon) int {
	w := sectionWords(name, lx)
	best, bestN := -1, 0
	for k, sn := range names {
		if n := overlap(sn, w); n > bestN {
			best, bestN = k, n
		}
	}
	return best
}

// sectionWords are the words of a section name that tell its part of the recipe apart.
func sectionWords(name string, lx *lexicon) []string {
	if name == "" {
		return nil
	}
	toks := normalize(name)
	var out []string
	for k, t := range toks {
		if t == sep || lx.has(classFiller, toks, k) || isNumberWord(t) {
			continue
		}
		out = append(out, t)
	}
	return out
}

func overlap(a, b []string) int {
	n := 0
	for _, x := range a {
		for _, y := range b {
			if x == y {
				n++
				break
			}
		}
	}
	return n
}

// stepSection returns the ingredient section step s belongs to, or -1.
func (si *sectionIndex) stepSection(s int) int { return si.ingSecOf[s] }

// pick keeps, of several same-name lines, those whose section the step belongs to, or whose section
// the step names in words outside its mentions ("whisk the soy sauce for the dip"). Without such a
// sign it keeps them all.
func (si *sectionIndex) pick(ings []int, s int, v stepView, hits []hit, anchors []int) []int {
	if si.explicit[s] {
		if out := si.inSection(ings, si.ingSecOf[s]); len(out) > 0 {
			return out
		}
	}
	// The section most of the step's other ingredients come from.
	if len(anchors) > 0 {
		count := map[int]int{}
		best, bestN := -1, 0
		for _, a := range anchors {
			sec := si.secOfLine[a]
			count[sec]++
			if count[sec] > bestN || count[sec] == bestN && sec < best {
				best, bestN = sec, count[sec]
			}
		}
		if out := si.inSection(ings, best); len(out) > 0 && 2*bestN > len(anchors) {
			return out
		}
	}
	if sec := si.ingSecOf[s]; sec >= 0 {
		var out []int
		for _, ing := range ings {
			if si.secOfLine[ing] == sec {
				out = append(out, ing)
			}
		}
		if len(out) > 0 {
			return out
		}
	}
	inHit := make([]bool, len(v.toks))
	for _, h := range hits {
		for k := h.pos; k < h.end; k++ {
			inHit[k] = true
		}
	}
	free := make([]string, 0, len(v.toks))
	for k, t := range v.toks {
		if !inHit[k] && t != sep {
			free = append(free, t)
		}
	}
	best, bestN := []int(nil), 0
	for _, ing := range ings {
		n := overlap(si.ingWords[ing], free)
		switch {
		case n > bestN:
			best, bestN = []int{ing}, n
		case n == bestN && n > 0:
			best = append(best, ing)
		}
	}
	if bestN == 0 {
		return ings
	}
	return best
}

// leadingPurpose returns the purpose a step opens with ("For the marinade, whisk …", "Für die
// Marinade Knoblauch schälen …"): the heading word and up to three words after it, or "".
func leadingPurpose(text string, toks []string, lx *lexicon) string {
	// "Make the glaze: whisk …", "Assemble the Salad: toss …": a title before a colon.
	if i := strings.IndexByte(text, ':'); i > 0 && len(strings.Fields(text[:i])) <= 8 {
		return text[:i]
	}
	if len(toks) > 6 {
		toks = toks[:6]
	}
	if len(toks) >= 3 && toks[0] == "to" && (toks[1] == "make" || toks[1] == "prepare") {
		toks = toks[1:]
	} else if len(toks) < 3 || !lx.has(classHeading, toks, 0) || toks[0] == "to" {
		return ""
	}
	end := 1
	for end < len(toks) && end < 4 && toks[end] != sep {
		end++
	}
	return strings.Join(toks[:end], " ")
}

// inSection returns the lines of ings listed in section sec.
func (si *sectionIndex) inSection(ings []int, sec int) []int {
	var out []int
	for _, ing := range ings {
		if si.secOfLine[ing] == sec {
			out = append(out, ing)
		}
	}
	return out
}

// spansSections reports whether lines come from more than one ingredient section.
func (si *sectionIndex) spansSections(lines []int) bool {
	for _, l := range lines[1:] {
		if si.secOfLine[l] != si.secOfLine[lines[0]] {
			return true
		}
	}
	return false
}
