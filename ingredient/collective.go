package ingredient

import (
	"slices"
	"strings"
)

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
	// serving are the lines listed "for serving" or "to garnish": not among "all the ingredients"
	// mixed in a step, they go on the plate at the end.
	serving []int
	words   [][]string // each line's name and notes, normalized, for a kind's qualifier
}

// forServing reports whether a line's notes set it apart for serving or garnish.
func (c *collectives) forServing(notes string) bool {
	w := normalize(notes)
	for k := range w {
		if c.lx.has(classServeGroup, w, k) || w[k] == "garnish" || w[k] == "serve" {
			return true
		}
	}
	return false
}

// withoutServing drops the lines listed for serving from an "all the ingredients" group.
func (c *collectives) withoutServing(lines []int) []int {
	if len(c.serving) == 0 {
		return lines
	}
	out := make([]int, 0, len(lines))
	for _, l := range lines {
		if !slices.Contains(c.serving, l) {
			out = append(out, l)
		}
	}
	return out
}

func newCollectives(ings []Parsed, sections []string, si *sectionIndex, lx *lexicon) *collectives {
	c := &collectives{secs: si, lx: lx, names: make([][]string, len(si.lines)), words: make([][]string, len(ings))}
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
		c.words[i] = normalize(p.Name + " " + p.Notes)
		if c.forServing(p.Notes) {
			c.serving = append(c.serving, i)
		}
		w := normalize(p.Name)
		for k, kind := range []wordClass{kindSpice, kindVegetable, kindDry, kindWet} {
			if lx.contains(kind, w) || lx != lexicons["en"] && lx.containsPrefix(kind, w) ||
				kind == kindVegetable && endsWithEntry(lx, kind, w) {
				if kind == kindVegetable && lx != lexicons["en"] && isStock(w, lx) {
					continue // "Gemüsebrühe" is a stock, not a vegetable
				}
				if kind == kindVegetable && len(w) > 1 && lx.has(classProduct, w, 0) {
					continue // "passata di pomodoro", "concentré de tomate": a product, not the vegetable
				}
				c.kinds[k] = append(c.kinds[k], i)
			}
		}
	}
	return c
}

// endsWithEntry reports, in the languages that write compounds as one word, whether a word ends with
// a one-word entry of a class of four letters or more: "Knollensellerie", "winterwortels" and
// "knolselderij" are vegetables.
func endsWithEntry(lx *lexicon, class wordClass, words []string) bool {
	compound := false
	for l := range compoundLanguages {
		compound = compound || lexicons[l] == lx
	}
	if !compound {
		return false
	}
	for _, w := range words {
		for _, e := range lx.singles[class] {
			if len(e) >= 4 && len(w) > len(e)+2 && strings.HasSuffix(w, e) {
				return true
			}
		}
	}
	return false
}

// link adds to found the members of the collective references of a step not combined before it
// (members only cut or rinsed so far are still apart: this step is where they come together).
func (c *collectives) link(v stepView, hits []hit, st *dishState, found []bool, stepSec int) {
	used := st.used
	inHit := make([]bool, len(v.toks))
	for _, h := range hits {
		if onlyKinds(h) {
			continue // "the spices" may also be "the rub spices" of a section
		}
		for k := h.pos; k < h.end; k++ {
			inHit[k] = true
		}
	}
	for k := 0; k < len(v.toks); k++ {
		var members []int
		n := 0
		if !inHit[k] {
			members, n = c.at(v, k, stepSec)
		}
		if n == 0 {
			// A section's name may start with a food ("chipotle crema").
			members, n = c.unmadeSectionAt(v, k, used)
		}
		if n == 0 {
			continue
		}
		if c.blocked(v, k, k+n) || v.excepted(k) || spelledOut(v, k+n, hits) {
			k += n - 1
			continue
		}
		left := c.exceptAfter(v, k+n, stepSec)
		// The group is first used together here unless most of it is already in the dish: then the
		// step moves a bowl ("add the dry ingredients to the butter mixture"). "The remaining
		// ingredients" are by definition those not used yet.
		remaining := false
		for j := max(0, k-3); j < k+n; j++ {
			remaining = remaining || (v.lx.has(classAll, v.toks, j) && v.toks[j] != "all" && v.lx.has(classPortion, v.toks, j))
		}
		// Members only cut so far ("chop the onion, carrot and celery", then "add the vegetables")
		// are not a bowl yet: with none of the group combined, this step is their first use together.
		usedBefore, combinedBefore := 0, 0
		for _, m := range members {
			if used[m] {
				usedBefore++
			}
			if st.combined[m] {
				combinedBefore++
			}
		}
		if remaining || 2*usedBefore < len(members) || combinedBefore == 0 {
			for _, m := range members {
				if excluded(v, hits, m) || slices.Contains(left, m) {
					continue
				}
				// "Everything else", "the remaining ingredients": those not used yet, or the rest
				// of those only a portion of was used ("half of the onions", then "the rest of the
				// vegetables").
				switch {
				case remaining && st.portioned[m]:
				case st.combined[m] || remaining && used[m]:
					continue
				}
				found[m] = true
				st.cutOnly[m] = false // together from here on
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
	for i := start; i < k && v.lx.has(classIngredients, v.toks, end-1); i++ {
		if v.lx.has(classGather, v.toks, i) && !v.lx.has(classArticle, v.toks, max(0, i-1)) {
			return true
		}
	}
	// "Für das Gemüse die Zwiebeln schälen", "for the vegetables, dice the onion": the part of the
	// recipe the step makes, named before its foods, not the foods in hand.
	p := k - 1
	for p >= 0 && v.lx.has(classArticle, v.toks, p) {
		p--
	}
	if p >= 0 && p < k-1 && v.lx.has(classPurpose, v.toks, p) && v.toks[p] != "of" && !v.lx.has(classFrom, v.toks, p) {
		return true
	}
	verb, at, ok := v.verbBefore(k)
	// "Remove the whole spices" takes a group out of the pot; it is never their first use together.
	return ok && (verb == classDiscard || verb == classMove && removeVerbs[v.toks[at]])
}

// at reads a collective reference at toks[k]: its members and its length in words. A reference is
// "ingredients" with its qualifier before it ("the marinade ingredients", "all the ingredients for
// the sauce"), a kind ("all the spices", "the vegetables", "the rub spices"), or the name of an
// ingredient section that is not a mixture ("add the toppings", "stir in the taco seasoning").
func (c *collectives) at(v stepView, k, stepSec int) ([]int, int) {
	lx := v.lx
	toks := v.toks
	if n := lx.at(classIngredients, toks, k); n > 0 {
		q := k
		// The qualifier stops at the verb and its particle ("stir in", "fold in").
		particle := func(i int) bool { return i > 0 && v.isVerbAnyAt(i-1) && lx.isFunctionWord(toks[i]) }
		for q > 0 && k-q < 3 && toks[q-1] != sep && !v.inVerb(q-1) && !particle(q-1) && !lx.has(classInto, toks, q-1) {
			q--
		}
		// "the ingredients for the sauce", "los ingredientes de la salsa"
		var after []string
		for i := k + n; i < len(toks) && i < k+n+4 && toks[i] != sep; i++ {
			after = append(after, toks[i])
		}
		qual := toks[q:k]
		if lx.has(classAll, toks, k) {
			qual = toks[q : k+1] // "everything else" says "all" itself
		}
		return c.resolve(v, qual, after, stepSec), n
	}
	if sec, n := c.sectionAt(v, k); n > 0 {
		if n == 1 && lx.has(classVegRef, toks, k) {
			// "das Gemüse" with a section "Für das Gemüse" that also lists the oil and the sesame:
			// the vegetables of that section.
			if veg := intersect(c.secs.lines[sec], c.kinds[1]); len(veg) > 0 {
				return veg, n
			}
		}
		return c.secs.lines[sec], n
	}
	if toks[k] == "everything" && k+1 < len(toks) && lx.has(classExcept, toks, k+1) {
		// "Add everything except the toppings": every line but those it names (link leaves them out).
		return c.all, 1
	}
	collective := v.isPlural(k) || lx != lexicons["en"] || k > 0 && lx.has(classAll, toks, k-1) ||
		k > 1 && lx.has(classArticle, toks, k-1) && lx.has(classAll, toks, k-2)
	if collective && k > 0 && (lx.has(classSpiceRef, toks, k) || lx.has(classVegRef, toks, k)) {
		// "the rub spices", "the salad vegetables": the kind of one section.
		for sec, name := range c.names {
			if len(name) > 0 && slices.Contains(name, toks[k-1]) {
				return c.secs.lines[sec], 1
			}
		}
	}
	switch {
	case lx.has(classSpiceRef, toks, k) && collective:
		return c.qualified(v, k, c.kinds[0]), 1
	case (lx.has(classVegRef, toks, k) || c.compoundRef(toks[k], classVegRef)) && collective:
		return c.qualified(v, k, c.kinds[1]), 1
	}
	return nil, 0
}

// compoundRef reports whether, in a language that compounds words, t is a compound ending with a
// word of the class: "rotgrønnsakene" (the root vegetables) are vegetables.
func (c *collectives) compoundRef(t string, ref wordClass) bool {
	for lang := range compoundLanguages {
		if lexicons[lang] != c.lx {
			continue
		}
		for _, w := range c.lx.singles[ref] {
			if len(t) >= len(w)+3 && strings.HasSuffix(t, w) {
				return true
			}
		}
	}
	return false
}

// qualified returns the lines of a kind a reference at toks[k] names: those its qualifier names when
// some line carries it ("the frozen vegetables" for "peas and carrots, frozen", "the dried spices"),
// else the lines of the kind listed together (densestRun).
func (c *collectives) qualified(v stepView, k int, kind []int) []int {
	if k > 0 {
		if q := v.toks[k-1]; q != sep && !v.lx.isFunctionWord(q) && !v.lx.has(classAll, v.toks, k-1) {
			var out []int
			for _, l := range kind {
				if slices.Contains(c.words[l], q) {
					out = append(out, l)
				}
			}
			if len(out) > 0 {
				return out
			}
		}
	}
	return c.densestRun(kind)
}

// unmadeSectionAt matches the whole name of an ingredient section none of whose lines a step has
// used yet, named where the plate is finished ("top with the slaw, avocado and chipotle crema", with
// a section "For the chipotle crema" that no step makes): the step is where those lines are first
// used together. A step that opens making the part ("For the tadka, heat the ghee") is not.
func (c *collectives) unmadeSectionAt(v stepView, k int, used []bool) ([]int, int) {
	for sec, name := range c.names {
		lines := c.secs.lines[sec]
		if len(name) == 0 || len(lines) < 2 || k+len(name) > len(v.toks) || !equalWords(v.toks[k:k+len(name)], name) {
			continue
		}
		if slices.ContainsFunc(lines, func(l int) bool { return used[l] }) {
			continue
		}
		_, at, ok := v.verbBefore(k)
		if !ok || at > k || !(v.lx.has(classServe, v.toks, at) || v.lx.has(classServeGroup, v.toks, at) || v.toks[at] == "top") {
			return nil, 0
		}
		return lines, len(name)
	}
	return nil, 0
}

// densestRun keeps, of the lines of a kind, the run listed together: recipes list ingredients in
// the order they are used, so "all the vegetables" of a soup are the vegetables listed with each
// other, not the mushrooms listed with the sauce. Lines more than three apart start a new run; the
// run with the most lines wins, the earliest on a tie.
func (c *collectives) densestRun(lines []int) []int {
	if len(lines) < 2 {
		return lines
	}
	best, start := lines[:1], 0
	for i := 1; i <= len(lines); i++ {
		// A new part of the recipe starts a new run too: the fish's garlic is not among the
		// vegetables of the stew.
		if i == len(lines) || lines[i]-lines[i-1] > 3 || c.secs.secOfLine[lines[i]] != c.secs.secOfLine[lines[i-1]] {
			if i-start > len(best) {
				best = lines[start:i]
			}
			start = i
		}
	}
	return best
}

// sectionAt matches the significant words of a section's name at toks[k] ("taco seasoning",
// "toppings") when the name is a group of separate items. A mixture ("the marinade", "the sauce")
// or the dish ("the salad") is not: its lines are not in hand where it is poured or served.
func (c *collectives) sectionAt(v stepView, k int) (int, int) {
	toks := v.toks
	for sec, name := range c.names {
		if len(name) == 0 || !c.lx.has(classGroup, name, len(name)-1) {
			continue
		}
		// "the toppings" for a section "For serving": both name what goes on the plate at the end.
		if c.lx.has(classServeGroup, name, len(name)-1) && c.lx.has(classServeGroup, toks, k) && v.isPlural(k) {
			return sec, 1
		}
		// The name's last words: "taco seasoning" for "Copycat Taco Bell Taco Seasoning". One word
		// alone only for a one-word name or a plural ("the toppings"), so "adjust the seasoning" is
		// not the seasoning mix.
		if k > 0 && c.lx.has(classPurpose, toks, k-1) {
			continue // "a bowl for serving" names a use, not the section
		}
		for m := len(name); m >= 1; m-- {
			if m == 1 && !v.isPlural(k) && (len(name) > 1 || k == 0 || !c.lx.has(classArticle, toks, k-1)) {
				break
			}
			if k+m <= len(toks) && equalWords(toks[k:k+m], name[len(name)-m:]) {
				return sec, m
			}
		}
	}
	return -1, 0
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
			return c.wet(stepSec)
		case !lx.has(classAll, qual, i) && !lx.has(classArticle, qual, i) && !lx.has(classFiller, qual, i) &&
			!lx.has(classPortion, qual, i) && w != "of" && !isNumberWord(w):
			named = true
		}
	}
	// "the remaining ingredients for the marinade": a part named after a preposition.
	if len(after) > 1 && lx.has(classPurpose, after, 0) {
		for i := 1; i < len(after); i++ {
			if !lx.has(classArticle, after, i) && !lx.has(classFiller, after, i) {
				named = true
				break
			}
		}
	}
	if named {
		// A part the ingredient list does not name as a section: its lines are named one by one.
		return nil
	}
	explicit := false // "all", "remaining", "todos": the whole group, not what is in the bowl
	for i := range qual {
		explicit = explicit || lx.has(classAll, qual, i)
	}
	if !explicit && stepSec < 0 {
		return nil // "process the ingredients": those already in the bowl
	}
	if stepSec < 0 {
		stepSec = c.sectionNamedIn(v)
	}
	if stepSec >= 0 {
		return c.withoutServing(c.secs.lines[stepSec])
	}
	return c.withoutServing(c.all)
}

// sectionNamedIn returns the one section whose name shares the most words with a step ("Prepare
// the spicy ranch. Add all ingredients…" for "Jalapeno Ranch Sauce"), or -1 when none or a tie.
func (c *collectives) sectionNamedIn(v stepView) int {
	best, bestN, tie := -1, 0, false
	for sec, name := range c.names {
		n := overlap(name, v.toks)
		switch {
		case n > bestN:
			best, bestN, tie = sec, n, false
		case n == bestN && n > 0:
			tie = true
		}
	}
	if tie {
		return -1
	}
	return best
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
	return c.secs.inSection(c.kinds[kind], c.bakingSection())
}

// bakingSection is the section the dry and wet ingredients of a batter or dough come from: the one
// with the most dry lines (a cake's, not its glaze's).
func (c *collectives) bakingSection() int {
	count := make([]int, len(c.secs.lines))
	best := 0
	for _, l := range c.kinds[2] {
		sec := c.secs.secOfLine[l]
		count[sec]++
		if count[sec] > count[best] {
			best = sec
		}
	}
	return best
}

// wet returns the wet ingredients: a section named for them, else the lines of the step's section
// (or the recipe) that are not dry ones (eggs, milk, butter, sweeteners, extracts, zest).
func (c *collectives) wet(stepSec int) []int {
	for sec, name := range c.names {
		for i := range name {
			if c.lx.has(classWetRef, name, i) {
				return c.secs.lines[sec]
			}
		}
	}
	if stepSec < 0 && len(c.secs.lines) > 0 {
		stepSec = c.bakingSection()
	}
	lines := c.all
	if stepSec >= 0 {
		lines = c.secs.lines[stepSec]
	}
	var out []int
	for _, l := range lines {
		if !slices.Contains(c.kinds[2], l) {
			out = append(out, l)
		}
	}
	return out
}

// spelledOut reports whether the foods a collective reference ending at end means are listed right
// after it behind a dash, colon or bracket ("all the spice powders – turmeric, chilli powder and
// coriander"): those mentions are the members, and link by themselves.
func spelledOut(v stepView, end int, hits []hit) bool {
	if end < len(v.toks) && v.toks[end] != sep {
		end++ // "the spice powders"
	}
	if end >= len(v.toks) || !v.lists[end] {
		return false
	}
	for _, h := range hits {
		if h.pos == end+1 {
			return true
		}
	}
	return false
}

// exceptAfter returns the lines of a section or kind named after "except" right after a collective
// reference ending at end ("everything except the toppings"): the reference leaves them out.
func (c *collectives) exceptAfter(v stepView, end, stepSec int) []int {
	if end >= len(v.toks) || !v.lx.has(classExcept, v.toks, end) {
		return nil
	}
	k := end + 1
	for k < len(v.toks) && v.lx.has(classArticle, v.toks, k) {
		k++
	}
	if k >= len(v.toks) {
		return nil
	}
	members, _ := c.at(v, k, stepSec)
	return members
}

// excluded reports whether a step leaves line m out by name ("except the feta").
func excluded(v stepView, hits []hit, m int) bool {
	for _, h := range hits {
		if !v.excepted(h.pos) {
			continue
		}
		for _, c := range h.cands {
			if c.ing == m {
				return true
			}
		}
	}
	return false
}

// onlyKinds reports whether a mention names foods only by their kind ("the spices", "the herbs").
func onlyKinds(h hit) bool {
	for _, c := range h.cands {
		if c.kind != kindHypernym {
			return false
		}
	}
	return true
}

// intersect returns the lines of a that are also in b, in a's order.
func intersect(a, b []int) []int {
	var out []int
	for _, x := range a {
		if slices.Contains(b, x) {
			out = append(out, x)
		}
	}
	return out
}
