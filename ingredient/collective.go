package ingredient

// Collective references name several lines at once: "the dry ingredients", "the marinade
// ingredients", "all the spices", "the remaining ingredients", "todos los ingredientes". They link
// every member in the step where the members are first used together; a later reference to the
// same group moves a bowl, not the lines, and links nothing.

type collectives struct {
	kinds [4][]int // lines of each kind: spice, vegetable, dry, wet
	secs  *sectionIndex
	names [][]string // significant words of each section's name, by section number
	all   []int
	lx    *lexicon
}

func newCollectives(ings []Parsed, sections []string, si *sectionIndex, lx *lexicon) *collectives {
	c := &collectives{secs: si, lx: lx, names: make([][]string, len(si.lines))}
	for sec, lines := range si.lines {
		if len(lines) > 0 {
			c.names[sec] = si.ingWords[lines[0]]
		}
	}
	for i, p := range ings {
		if p.Name == "" {
			continue
		}
		c.all = append(c.all, i)
		w := normalize(p.Name)
		for k, kind := range []wordClass{kindSpice, kindVegetable, kindDry, kindWet} {
			if lx.contains(kind, w) {
				c.kinds[k] = append(c.kinds[k], i)
			}
		}
	}
	return c
}

// link adds to found the members of the collective references of a step not used before it.
func (c *collectives) link(v stepView, hits []hit, used, found []bool, stepSec int) {
	inHit := make([]bool, len(v.toks))
	for _, h := range hits {
		for k := h.pos; k < h.end; k++ {
			inHit[k] = true
		}
	}
	for k := 0; k < len(v.toks); k++ {
		if inHit[k] {
			continue
		}
		members, n := c.at(v, k, stepSec)
		if n == 0 {
			continue
		}
		if c.blocked(v, k, k+n) {
			k += n - 1
			continue
		}
		// The group is first used together here unless most of it is already in the dish: then the
		// step moves a bowl ("add the dry ingredients to the butter mixture"). "The remaining
		// ingredients" are by definition those not used yet.
		remaining := false
		for j := max(0, k-3); j < k+n; j++ {
			remaining = remaining || (v.lx.has(classAll, v.toks, j) && v.toks[j] != "all" && v.lx.has(classPortion, v.toks, j))
		}
		usedBefore := 0
		for _, m := range members {
			if used[m] {
				usedBefore++
			}
		}
		if remaining || 2*usedBefore < len(members) {
			for _, m := range members {
				if !used[m] {
					found[m] = true
				}
			}
		}
		k += n - 1
	}
}

// blocked reports whether a collective reference at [k, end) is not a use: in a condition, part of a
// mixture's name ("the dry ingredient mixture"), discarded, or mise en place ("gather all the
// ingredients").
func (c *collectives) blocked(v stepView, k, end int) bool {
	if v.inCondition(k) || v.mixtureAfter(end, func(i int) int { return i }) {
		return true
	}
	start := v.sentenceStart(k)
	for i := start; i < k; i++ {
		if v.lx.has(classGather, v.toks, i) && !v.lx.has(classArticle, v.toks, max(0, i-1)) {
			return true
		}
	}
	verb, _, ok := v.verbBefore(k)
	return ok && verb == classDiscard
}

// at reads a collective reference starting at toks[k]: its members and its length in words.
func (c *collectives) at(v stepView, k, stepSec int) ([]int, int) {
	lx := v.lx
	toks := v.toks
	switch {
	case lx.has(classSpiceRef, toks, k) && (v.isPlural(k) || lx != lexicons["en"] || k > 0 && lx.has(classAll, toks, k-1)):
		return c.kinds[0], 1
	case lx.has(classVegRef, toks, k) && (v.isPlural(k) || lx != lexicons["en"] || k > 0 && lx.has(classAll, toks, k-1)):
		return c.kinds[1], 1
	}
	// "<qualifier> ingredients": find the word "ingredients" within the next three words.
	for j := k; j < len(toks) && j <= k+3; j++ {
		if toks[j] == sep {
			return nil, 0
		}
		n := lx.at(classIngredients, toks, j)
		if n == 0 {
			continue
		}
		end := j + n
		qual := toks[k:j]
		// "the ingredients for the sauce", "los ingredientes de la salsa"
		var after []string
		for i := end; i < len(toks) && i < end+4 && toks[i] != sep; i++ {
			after = append(after, toks[i])
		}
		return c.resolve(v, qual, after, stepSec), end - k
	}
	return nil, 0
}

// resolve returns the members a qualifier of "ingredients" names: a section by its name ("the
// marinade ingredients"), the dry or wet kind, or every line of the step's section ("all the
// ingredients", "the remaining ingredients").
func (c *collectives) resolve(v stepView, qual, after []string, stepSec int) []int {
	lx := v.lx
	for sec, name := range c.names {
		if len(name) > 0 && (overlap(name, qual) > 0 || overlap(name, after) > 0) {
			return c.secs.lines[sec]
		}
	}
	named := false // the qualifier names a part of the recipe ("the salad ingredients")
	for i, w := range qual {
		switch {
		case lx.has(classDryRef, qual, i):
			return c.kindOrSection(2, classDryRef)
		case lx.has(classWetRef, qual, i):
			return c.kindOrSection(3, classWetRef)
		case !lx.has(classAll, qual, i) && !lx.has(classArticle, qual, i) && !lx.has(classFiller, qual, i) &&
			!lx.has(classPortion, qual, i) && w != "of" && !isNumberWord(w):
			named = true
		}
	}
	if stepSec < 0 {
		stepSec = c.sectionNamedIn(v)
	}
	switch {
	case stepSec >= 0:
		return c.secs.lines[stepSec]
	case named:
		// A part the ingredient list does not name as a section: its lines are named one by one.
		return nil
	}
	return c.all
}

// sectionNamedIn returns the section whose whole significant name a step uses ("Prepare the spicy
// ranch. Add all ingredients…"), or -1.
func (c *collectives) sectionNamedIn(v stepView) int {
	for sec, name := range c.names {
		if len(name) == 0 {
			continue
		}
		for k := 0; k+len(name) <= len(v.toks); k++ {
			if equalWords(v.toks[k:k+len(name)], name) {
				return sec
			}
		}
	}
	return -1
}

// kindOrSection returns the section named by the kind's word ("Dry ingredients") when the recipe has
// one, else the lines of the kind.
func (c *collectives) kindOrSection(kind int, ref wordClass) []int {
	for sec, name := range c.names {
		for i := range name {
			if c.lx.has(ref, name, i) {
				return c.secs.lines[sec]
			}
		}
	}
	return c.kinds[kind]
}
