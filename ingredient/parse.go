// Package ingredient reads ingredient lines and links ingredients to the instruction steps that use
// them. It is pure: no I/O, no database, no network, and every function is deterministic.
package ingredient

import (
	"strings"
	"unicode/utf8"
)

// Parsed is an ingredient line split into its parts. The original line is not part of it: callers
// keep the text as written and show these parts beside it.
//
// Quantity is the first amount the amounts reader scales (ReadAmounts), so it is nil when the line
// has no amount written in digits ("salt to taste", "a pinch of nutmeg", "two eggs") and a line the
// client does not scale has no quantity here. A range ("2-3", "2 to 3") sets QuantityMax too. Package
// sizes ("1 (14 oz) can") are not the quantity: Quantity is 1, Unit "can", and "14 oz" is a note.
//
// Name is the food, taken verbatim from the line (so it is always a substring of it): descriptive and
// preparation words around it go to Notes ("1 cup finely chopped onion" → "onion", notes "finely
// chopped"), including those of canned goods ("1 can diced tomatoes" → "tomatoes", notes "diced"),
// because one rule applied everywhere is easier to rely on than a list of products. Words that name a
// kind of the food stay in the name ("brown sugar", "unsalted butter", "ground cumin", "extra-virgin
// olive oil"). Notes holds the removed parts in line order, joined by "; ".
type Parsed struct {
	Quantity    *float64 `json:"quantity,omitempty"`
	QuantityMax *float64 `json:"quantityMax,omitempty"`
	Unit        string   `json:"unit,omitempty"`
	Name        string   `json:"name"`
	Notes       string   `json:"notes,omitempty"`
}

// Parse splits one ingredient line into quantity, unit, name and notes. It never fails: a line it
// cannot read comes back with only the parts it found (often just Name).
func Parse(line string) Parsed {
	p, _ := readLine(line)
	return p
}

// Described is an ingredient line as the API shows it: the text as written, its parts, and the
// amounts that scale with the servings. `admin ingredients` prints exactly this for each line.
type Described struct {
	Text    string   `json:"text"`
	Parsed  Parsed   `json:"parsed"`
	Amounts []Amount `json:"amounts"`
}

// Describe reads one ingredient line once: the amounts reader decides which numbers are
// quantities, and Parsed takes its quantity from the first of them, so the parts shown beside a
// line and the servings scaling never disagree.
func Describe(line string) Described {
	return describeIn(line, lex(line), LanguageUnknown)
}

// DescribeRecipe describes the ingredient lines of one recipe. A line is read as Describe reads
// it, except that a line whose words do not tell its language ("1 avocado", "2 limes") is in the
// language of its recipe, as the lines that tell theirs show: in a Dutch recipe "1 avocado" is
// Dutch, and its word keeps its form at any servings.
func DescribeRecipe(lines []string) []Described {
	toks := make([][]token, len(lines))
	verdicts := make([]verdict, len(lines))
	for i, l := range lines {
		toks[i] = lex(l)
		verdicts[i] = verdictOf(toks[i])
	}
	lang := recipeLanguage(verdicts)
	out := make([]Described, len(lines))
	for i, l := range lines {
		out[i] = describeIn(l, toks[i], lang)
	}
	return out
}

func describeIn(line string, toks []token, recipe Language) Described {
	parts, rd := readTokens(line, toks, recipe)
	return Described{Text: line, Parsed: parts, Amounts: rd.Amounts(line)}
}

// readLine lexes the line once for both the parts and the amounts.
func readLine(line string) (Parsed, Reading) {
	return readTokens(line, lex(line), LanguageUnknown)
}

func readTokens(line string, toks []token, recipe Language) (Parsed, Reading) {
	rd := readAmounts(line, toks, recipe)
	parts := parseParts(line, toks)
	parts.Quantity, parts.QuantityMax = nil, nil
	for _, a := range rd.amounts {
		// A length heads a line only for foods sold by the piece ("2 inch ginger"); it is not a
		// quantity in Parsed's units.
		if a.unit != nil && isDimensionKey(a.unit.Key) {
			continue
		}
		parts.Quantity, parts.QuantityMax = ptr(a.value), a.max
		break
	}
	return parts, rd
}

// parseParts finds the unit, name and notes of a line from its tokens (and a provisional
// quantity, which readLine replaces with the reader's).
func parseParts(line string, toks []token) Parsed {
	trimmed := strings.TrimSpace(line)
	if trimmed == "" {
		return Parsed{}
	}
	// "For the sauce:", "To serve" or "For the topping" is a section heading pasted into the list,
	// not an ingredient. "For garnish: parsley" names one after the colon.
	if !hasNumber(toks) {
		first := strings.ToLower(strings.Fields(trimmed)[0])
		if strings.HasSuffix(trimmed, ":") || ((first == "for" || first == "to") && !strings.Contains(trimmed, ":")) {
			return Parsed{Notes: strings.TrimSpace(strings.TrimSuffix(trimmed, ":"))}
		}
	}
	if first := strings.ToLower(strings.Fields(trimmed)[0]); (first == "for" || first == "to") && strings.Contains(line, ":") {
		colon := strings.Index(line, ":")
		head := strings.TrimSpace(line[:colon])
		p := newParser(line, toks)
		// Parse the part after the colon in place, so the name stays a slice of the line.
		for k, t := range p.toks {
			if t.start > colon {
				p.i = k
				break
			}
			p.i = len(p.toks)
		}
		out := p.parse()
		if out.Notes == "" {
			out.Notes = head
		} else {
			out.Notes = head + "; " + out.Notes
		}
		return out
	}
	p := newParser(line, toks)
	return p.parse()
}

// newParser reads a line whose words are English with the English word lists, and any other line
// with the other languages' lists too (see foreignLineWords). A line whose words tell no language
// ("1 oignon émincé", "200 g geraspte kaas") may be in any of them, so it is read with their
// lists as well, but only with the words and longer beginnings: a short one such as "mal*" would
// also take English words ("malt").
func newParser(line string, toks []token) parser {
	english, told := lineLanguage(toks)
	return parser{line: line, toks: toks, foreign: !english || !told, untold: !told}
}

func hasNumber(toks []token) bool {
	for _, t := range toks {
		if t.kind == tNum {
			return true
		}
	}
	return false
}

type parser struct {
	line    string
	toks    []token
	i       int
	notes   []string
	out     Parsed
	closers []int // see closeParen
	foreign bool  // the line's words are not English, or tell no language (see newParser)
	untold  bool  // the line's words tell no language
}

func (p *parser) tok(i int) *token {
	if i < 0 || i >= len(p.toks) {
		return nil
	}
	return &p.toks[i]
}

func (p *parser) isWord(i int, words ...string) bool {
	t := p.tok(i)
	if t == nil || t.kind != tWord {
		return false
	}
	for _, w := range words {
		if t.low == w {
			return true
		}
	}
	return false
}

func (p *parser) tokLow(i int) string {
	if t := p.tok(i); t != nil {
		return t.low
	}
	return ""
}

func (p *parser) isPunct(i int, puncts ...string) bool {
	t := p.tok(i)
	if t == nil || t.kind != tPunct {
		return false
	}
	for _, s := range puncts {
		if t.text == s {
			return true
		}
	}
	return false
}

// span returns the original text of tokens [a, b).
func (p *parser) span(a, b int) string {
	if a < 0 || b > len(p.toks) || a >= b {
		return ""
	}
	return p.line[p.toks[a].start:p.toks[b-1].end]
}

// bracketRemover strips parentheses and brackets from notes. Built once:
// building a Replacer per call was a fifth of the CPU of reading a recipe.
var bracketRemover = strings.NewReplacer("(", "", ")", "", "[", "", "]", "")

// note records a removed part, without surrounding punctuation or parentheses.
func (p *parser) note(s string) {
	s = bracketRemover.Replace(s)
	s = strings.Join(strings.Fields(s), " ")
	s = strings.TrimRight(s, " ,;:-–—*.")
	s = strings.TrimLeft(s, " ,;:-–—*")
	if strings.HasPrefix(s, ".") && !(len(s) > 1 && isDigit(s[1])) {
		s = strings.TrimLeft(s, ".")
	}
	s = strings.TrimSpace(s)
	for _, c := range []string{"and", "or"} {
		s = strings.TrimSpace(strings.TrimSuffix(s, " "+c))
	}
	if s != "" {
		p.notes = append(p.notes, s)
	}
}

func (p *parser) parse() Parsed {
	// Bullets and list markers.
	for p.isPunct(p.i, "-", "*", "•", "·", "–", "—", ">", "◦", "▪") {
		p.i++
	}
	article := p.prefix()
	haveNumber := false
	if q, qmax, next, ok := p.amount(p.i); ok {
		if end := p.dimensionAfter(next); end > 0 {
			// "1-inch piece ginger", "2 inch piece": a size, not an amount.
			p.note(p.span(p.i, end))
			p.i = end
		} else {
			p.out.Quantity, p.out.QuantityMax = ptr(q), qmax
			p.i = next
		}
		haveNumber = true
		p.packageSizes()
		if t := p.tok(p.i); t != nil && t.kind == tWord && isCountWord(t.text) {
			// "2 Stück Lauch", "2 st ägg": the word counts the food; it is neither unit nor name.
			p.i++
			if p.isPunct(p.i, ".") && !p.toks[p.i].spaceBefore {
				p.i++
			}
		}
	}
	if !haveNumber {
		p.sizeBeforeUnit()
	}
	unitAt := p.i
	if u, next := p.unit(p.i, haveNumber, article); u != "" {
		p.out.Unit = u
		p.i = next
		p.afterUnit()
	}
	p.name()
	if p.out.Name == "" && p.out.Unit == unitClove && p.toks[unitAt].kind == tWord {
		// "3 whole cloves": the spice, not garlic cloves.
		p.out.Name, p.out.Unit = p.toks[unitAt].text, ""
	}
	p.out.Notes = strings.Join(p.notes, "; ")
	return p.out
}

func ptr(f float64) *float64 { return &f }

// prefix consumes what may come before the amount: articles ("a pinch"), approximations ("about 2
// cups") and "juice of 1 lemon" openings. It reports whether an article was seen, which lets a unit
// stand without a number ("a pinch of nutmeg").
func (p *parser) prefix() (article bool) {
	for n := 0; n < 8; n++ {
		t := p.tok(p.i)
		if t == nil {
			return article
		}
		switch {
		case t.kind == tWord && (t.low == "a" || t.low == "an"):
			article = true
			p.i++
		case t.kind == tWord && unitArticles[t.low] && p.tok(p.i+1) != nil && lookupUnit(p.toks[p.i+1].text, false) != "":
			// "een snufje zout", "une pincée de sel": the article stands for one.
			article = true
			p.i++
		case t.kind == tWord && leadArticles[t.low] && p.tok(p.i+1) != nil && leadOfWords[p.toks[p.i+1].low]:
			p.i++ // "le jus de 2 citrons": the article is neither food nor note
		case t.kind == tWord && t.low == "half" && p.isWord(p.i+1, "a", "an"):
			p.note("half")
			p.i += 2
			article = true
		case (t.kind == tWord || t.text == "~") && approxWords[t.low] && p.startsAmount(p.i+1):
			p.note(t.text)
			p.i++
		case t.kind == tWord && leadOfWords[t.low]:
			j := p.i
			for j < len(p.toks) && p.toks[j].kind == tWord && leadOfWords[p.toks[j].low] {
				j++
			}
			if !p.isWord(j, leadJoinWords...) && !(p.isWord(j, "from") && p.startsAmount(j+1)) {
				return article
			}
			p.note(p.span(p.i, j))
			p.i = j + 1
		default:
			return article
		}
	}
	return article
}

func (p *parser) startsAmount(i int) bool {
	t := p.tok(i)
	return t != nil && t.kind == tNum
}

// number reads one number at i, joining mixed numbers ("1 1/2", "1 ½", "1-1/2").
func (p *parser) number(i int) (float64, int, bool) {
	t := p.tok(i)
	if t == nil || t.kind != tNum {
		return 0, i, false
	}
	v, j := t.val, i+1
	if t.whole {
		if n := p.tok(j); n != nil && n.kind == tNum && n.frac {
			return v + n.val, j + 1, true
		}
		if n := p.tok(j + 1); n != nil && n.kind == tNum && n.frac && p.isWord(j, mixedJoinWords...) {
			// "1 and 1/2 teaspoons", "2 e 1/2 xícaras", "1 y 1/2 tazas", "1 i 1/2 szklanki"
			return v + n.val, j + 2, true
		}
		if p.isPunct(j, "-") && !p.toks[j].spaceBefore {
			if n := p.tok(j + 1); n != nil && n.kind == tNum && n.frac && !n.spaceBefore {
				return v + n.val, j + 2, true
			}
		}
	}
	return v, j, true
}

// mixedJoinWords join a whole number to the fraction after it in a mixed number: the word for
// "and" in the languages of the corpus ("1 and 1/2", "2 e 1/2", "1 y 1/2", "1 et 1/2", "1 und 1/2",
// "1 i 1/2"). Only a whole number and a fraction below one are joined, so "2 eggs and 1/2 cup" stays two.
var mixedJoinWords = []string{"and", "e", "y", "et", "und", "en", "i", "och", "og"}

// amount reads a number or a range ("2-3", "2 to 3", "1 or 2") at i.
func (p *parser) amount(i int) (q float64, qmax *float64, next int, ok bool) {
	q, next, ok = p.number(i)
	if !ok {
		return 0, nil, i, false
	}
	if p.isPunct(next, "-", "–", "—") || p.isWord(next, "to", "or") {
		if v, k, ok2 := p.number(next + 1); ok2 {
			return q, ptr(v), k, true
		}
	}
	return q, nil, next, true
}

// dimensionAfter returns the end of a dimension word following an amount ("2-inch", "2 cm"), or 0.
func (p *parser) dimensionAfter(i int) int {
	j := i
	if p.isPunct(j, "-") {
		j++
	}
	if t := p.tok(j); t != nil && t.kind == tWord && t.low != "x" && (dimensionWords[t.low] || dimensionWords[strings.SplitN(t.low, "-", 2)[0]]) {
		if p.isPunct(j+1, ".") && !p.toks[j+1].spaceBefore {
			return j + 2
		}
		return j + 1
	}
	return 0
}

// packageSizes consumes sizes between the amount and the unit: "(14 oz)", "14-ounce", "15 oz"
// before a container, "x 400g", and size words before a unit ("2 heaping tbsp").
func (p *parser) packageSizes() {
	for n := 0; n < 6; n++ {
		t := p.tok(p.i)
		if t == nil {
			return
		}
		switch {
		case t.kind == tPunct && (t.text == "(" || t.text == "["):
			end := p.closeParen(p.i)
			if end < 0 {
				p.i++ // an unclosed parenthesis: drop it and read on
				continue
			}
			p.note(p.span(p.i, end))
			p.i = end
		case t.kind == tWord && (t.low == "x" || t.low == "×") && p.startsAmount(p.i+1):
			if end := p.measureAt(p.i + 1); end > 0 {
				p.note(p.span(p.i+1, end))
				p.i = end
				continue
			}
			return
		case t.kind == tNum:
			// A second measure right after the amount is the size of each: "14-ounce", "28-oz." or
			// "15 oz" before a container, "2 16 oz. packages", "2 1½-inch-thick chops".
			end := p.measureAt(p.i)
			if end == 0 {
				if _, next, ok := p.number(p.i); ok {
					end = p.dimensionAfter(next)
				}
			}
			if end == 0 {
				return
			}
			p.note(p.span(p.i, end))
			p.i = end
		case t.kind == tWord && isSizeWord(t.low):
			if !p.sizeBeforeUnit() {
				return
			}
		default:
			return
		}
	}
}

// sizeBeforeUnit notes a size word standing before a unit ("2 heaping tbsp", "small bunch
// coriander", "1 thumb-sized piece of ginger") and reports whether it did.
func (p *parser) sizeBeforeUnit() bool {
	t, after := p.tok(p.i), p.i+1
	if p.isPunct(after, ".") && !p.toks[after].spaceBefore {
		after++ // "2 gestr. TL Zimt"
	}
	next := p.tok(after)
	if t == nil || next == nil || t.kind != tWord || next.kind != tWord || !isSizeWord(t.low) ||
		lookupUnit(next.text, true) == "" {
		return false
	}
	p.note(p.span(p.i, after))
	p.i = after
	return true
}

func isSizeWord(w string) bool {
	return sizeWords[w] || strings.HasSuffix(w, "-sized") || strings.HasSuffix(w, "-size")
}

// measureAt reads "14 oz", "14-ounce", "400g", "28-oz." or "6 to 8-ounce" at i and returns its end,
// or 0.
func (p *parser) measureAt(i int) int {
	_, _, j, ok := p.amount(i)
	if !ok {
		return 0
	}
	if p.isPunct(j, "-") && !p.toks[j].spaceBefore {
		j++
	}
	t := p.tok(j)
	if t == nil || t.kind != tWord {
		return 0
	}
	u := lookupUnit(t.text, true)
	if t.low == "fl" || t.low == "fluid" {
		if end := p.flOz(j); end > 0 {
			return end
		}
	}
	if !measureUnits[u] {
		return 0
	}
	if p.isPunct(j+1, ".") && !p.toks[j+1].spaceBefore {
		return j + 2
	}
	return j + 1
}

// flOz reads "fl oz", "fl. oz.", "fluid ounces" at i and returns its end, or 0.
func (p *parser) flOz(i int) int {
	if !p.isWord(i, "fl", "fluid") {
		return 0
	}
	j := i + 1
	if p.isPunct(j, ".") {
		j++
	}
	if !p.isWord(j, "oz", "ounce", "ounces", "ozs") {
		return 0
	}
	if p.isPunct(j+1, ".") && !p.toks[j+1].spaceBefore {
		return j + 2
	}
	return j + 1
}

// closeParen returns the index after the parenthesis that closes the one at i, or -1 when it is
// never closed. The pairs are found once per line, so a line full of "(" stays linear.
func (p *parser) closeParen(i int) int {
	if p.closers == nil {
		p.closers = make([]int, len(p.toks))
		var round, square []int
		for j, t := range p.toks {
			p.closers[j] = -1
			if t.kind != tPunct {
				continue
			}
			switch t.text {
			case "(":
				round = append(round, j)
			case "[":
				square = append(square, j)
			case ")":
				if n := len(round); n > 0 {
					p.closers[round[n-1]] = j + 1
					round = round[:n-1]
				}
			case "]":
				if n := len(square); n > 0 {
					p.closers[square[n-1]] = j + 1
					square = square[:n-1]
				}
			}
		}
	}
	if i < 0 || i >= len(p.closers) {
		return -1
	}
	return p.closers[i]
}

// unit reads a unit at i and returns it with the index after it (past a trailing "." and "of").
// Without a number before it, a unit counts only in "a pinch", "pinch of": otherwise a line such as
// "Head of lettuce" or "Can opener" would lose its first word.
func (p *parser) unit(i int, afterNumber, article bool) (string, int) {
	t := p.tok(i)
	if t == nil || t.kind != tWord {
		return "", i
	}
	u, end := "", i+1
	if su, e := p.spoon(i); su != "" {
		u, end = su, e
	} else if e := p.flOz(i); e > 0 {
		u, end = unitFlOz, e
	} else {
		u = lookupUnit(t.text, afterNumber)
		if (t.low == "rib" || t.low == "ribs") && (p.isWord(i+1, "celery") || p.isWord(i+1, "of") && p.isWord(i+2, "celery")) {
			u = unitStalk // "2 ribs celery"; "pork ribs" stay a food
		}
		if u == "" {
			return "", i
		}
		if p.isPunct(end, ".") && !p.toks[end].spaceBefore {
			end++
		}
	}
	end = p.unitQualifier(end)
	hasOf := p.joinsAt(end)
	if joinedUnits[t.low] && !hasOf && !elided(p.tokLow(end)) {
		return "", i // "3 noix", "1 bouquet garni": the food, not a measure
	}
	if !afterNumber && !article && !hasOf && !vagueUnits[u] {
		return "", i
	}
	// A unit must leave something to name, or the word was the food ("1 can" is fine, but "2 heads"
	// alone is too, so only refuse when the unit word is the last token and no number came before).
	if !afterNumber && p.tok(end) == nil {
		return "", i
	}
	if hasOf {
		end++
	}
	return u, end
}

// joinsAt reports whether a joining word between a measure and its food stands at i ("of", "de",
// "di", "van"). It belongs to neither. "van" joins only a food ("1 blik van 400 g" is a size).
func (p *parser) joinsAt(i int) bool {
	if !p.isWord(i, joinWordList...) {
		return false
	}
	n := p.tok(i + 1)
	return n != nil && (n.kind == tWord || p.toks[i].low != "van")
}

// elided reports whether a word starts with an elided joining word ("d'huile", "d’aglio").
func elided(low string) bool {
	for _, e := range []string{"d'", "d’"} {
		if len(low) > len(e) && strings.HasPrefix(low, e) {
			return true
		}
	}
	return false
}

// spoon reads a spoon named with its size at i: French "c. à s.", "c.à.c", "cuillère à soupe",
// Portuguese "colher (sopa)", "colheres de chá". It returns the unit and the index after it, or "".
func (p *parser) spoon(i int) (string, int) {
	if w := p.tokLow(i); (w == "cs" || w == "cc") && (p.joinsAt(i+1) || elided(p.tokLow(i+1))) {
		// "4 cs de parmesan", "1 cc d'huile": the French spoons. A "cc" before no joining word is
		// the cubic centimetre ("牛乳 200cc").
		return spoonSizes[w[1:]], i + 1
	}
	if !spoonWords[p.tokLow(i)] {
		return "", i
	}
	j := i + 1
	dot := func() {
		if p.isPunct(j, ".") {
			j++
		}
	}
	dot()
	switch {
	case p.isWord(j, "à", "a"):
		j++
		dot()
		if u := spoonSizes[p.tokLow(j)]; u != "" {
			j++
			if p.isPunct(j, ".") && !p.toks[j].spaceBefore {
				j++
			}
			return u, j
		}
	case p.isPunct(j, "(") && p.isPunct(j+2, ")"):
		if u := spoonSizes[p.tokLow(j+1)]; u != "" {
			return u, j + 3
		}
	case p.isWord(j, "de"):
		if u := spoonSizes[p.tokLow(j+1)]; u != "" && p.tokLow(j+1) != "c" && p.tokLow(j+1) != "s" {
			return u, j + 2
		}
	}
	return "", i
}

// unitQualifier consumes what qualifies the measure itself after its word: "(sopa)", "(chá)" after
// "xícara", "(gestr.)", "soperas" after "cucharadas". It belongs to the unit, not to the notes.
func (p *parser) unitQualifier(i int) int {
	if p.isWord(i, "sopera", "soperas") {
		return i + 1
	}
	if !p.isPunct(i, "(") {
		return i
	}
	end := p.closeParen(i)
	if end < 0 || end == i+2 {
		return i
	}
	for k := i + 1; k < end-1; k++ {
		t := p.toks[k]
		if !(t.kind == tWord && (unitQualifiers[t.low] || spoonSizes[t.low] != "") || t.kind == tPunct && t.text == ".") {
			return i
		}
	}
	return end
}

// afterUnit consumes what may follow a unit before the name: "(2 sticks)", "/ 1 lb 2 oz", a container
// after a measure ("400 g can"), and the other end of a range written with units ("1 cup to 1 1/2 cups").
func (p *parser) afterUnit() {
	for n := 0; n < 6; n++ {
		t := p.tok(p.i)
		if t == nil {
			return
		}
		switch {
		case t.kind == tPunct && (t.text == "(" || t.text == "["):
			end := p.closeParen(p.i)
			if end < 0 {
				p.i++ // an unclosed parenthesis: drop it and read on
				continue
			}
			p.note(p.span(p.i, end))
			p.i = end
		case t.kind == tPunct && t.text == "/" && p.startsAmount(p.i+1):
			j := p.i + 1
			for j < len(p.toks) {
				end := p.measureAt(j)
				if end == 0 {
					break
				}
				j = end
			}
			if j == p.i+1 {
				return
			}
			p.note(p.span(p.i+1, j))
			p.i = j
		case t.kind == tWord && unitQualifiers[t.low]:
			// "2 cucchiai rasi di zucchero": a level word after the spoon is a note, as "heaping" is.
			p.note(t.text)
			p.i++
			if p.joinsAt(p.i) {
				p.i++
			}
		case t.kind == tWord && measureUnits[p.out.Unit] && containerUnits[lookupUnit(t.text, true)]:
			p.note(t.text)
			p.i++
			if p.isWord(p.i, "of") {
				p.i++
			}
		case p.out.QuantityMax == nil && p.out.Quantity != nil &&
			(p.isPunct(p.i, "-", "–") || p.isWord(p.i, "to", "or")) && p.startsAmount(p.i+1):
			v, j, _ := p.number(p.i + 1)
			u, end := p.unit(j, true, false)
			if u != p.out.Unit {
				return
			}
			p.out.QuantityMax = ptr(v)
			p.i = end
		default:
			return
		}
	}
}

// name finds the food in the rest of the line. Descriptors before it and after it become notes, as
// does everything from the first separator after it (a comma, a parenthesis, "to taste", "for
// serving"). Descriptors between two food words stay in the name, so the name is one piece of the
// line ("salt and freshly ground black pepper").
func (p *parser) name() {
	nameStart, nameEnd, tail := -1, -1, len(p.toks)
	leadStart, leadEnd := -1, -1
	// lastLead is the last run of describing words noted, and lastLeadNote its index in the notes:
	// a line with nothing else names its food with it (see below).
	lastLead, lastLeadNote := [2]int{-1, -1}, -1
	flushLead := func() {
		if leadStart >= 0 {
			lastLead, lastLeadNote = [2]int{leadStart, leadEnd}, len(p.notes)
			p.note(p.span(leadStart, leadEnd+1))
			leadStart, leadEnd = -1, -1
		}
	}
scan:
	for k := p.i; k < len(p.toks); k++ {
		t := &p.toks[k]
		switch t.kind {
		case tPunct:
			switch t.text {
			case ",", ";":
				if nameStart >= 0 {
					tail = k
					break scan
				}
			case "(", "[":
				if nameStart >= 0 {
					tail = k
					break scan
				}
				end := p.closeParen(k)
				if end < 0 {
					continue
				}
				flushLead()
				p.note(p.span(k, end))
				k = end - 1
			case "-", "–", "—", ":":
				if nameStart >= 0 && (t.spaceBefore || t.text == ":") {
					tail = k
					break scan
				}
			}
		case tNum:
			if nameStart >= 0 {
				tail = k
				break scan
			}
			if leadStart < 0 {
				leadStart = k
			}
			leadEnd = k
			// A size before the name ("9-inch pie crust") is a note as a whole.
			if _, next, ok := p.number(k); ok {
				if end := p.dimensionAfter(next); end > 0 {
					leadEnd = end - 1
					k = end - 1
				}
			}
		case tWord:
			switch {
			case nameStart >= 0 && p.isTail(k):
				tail = k
				break scan
			case nameStart < 0 && leadStart >= 0 && t.low == "to" && descriptors[p.tokLow(k+1)]:
				leadEnd = k // "medium to large"
			case p.isDescriptor(t) && !(t.low == "minced" && p.isWord(k+1, meatWordList...)):
				if nameStart < 0 {
					if leadStart < 0 {
						leadStart = k
					}
					leadEnd = k
				}
			case connectors[t.low] || t.low == "of" || t.low == "the" || t.low == "a" || t.low == "an":
				// Part of the name when between food words, otherwise noise.
			default:
				if nameStart < 0 {
					flushLead()
					nameStart = k
				}
				nameEnd = k
			}
		}
	}
	flushLead()
	if nameStart < 0 && lastLeadNote >= 0 && lastLeadNote == len(p.notes)-1 && p.foreignOnly(lastLead[0], lastLead[1]+1) {
		// Every word was read as describing one, but a line names a food: "tagliatelle" begins as
		// the Italian "tagliato" does. The words of another language's list are the name here.
		p.notes = p.notes[:lastLeadNote]
		nameStart, nameEnd = lastLead[0], lastLead[1]
	}
	if nameStart < 0 {
		if p.i < tail {
			p.note(p.span(p.i, tail))
		}
		return
	}
	wordsEnd := nameEnd
	nameEnd = p.unitAfterName(nameStart, nameEnd)
	p.out.Name = p.span(nameStart, nameEnd+1)
	if first := p.toks[nameStart].low; elided(first) {
		// "d'huile d'olive": the elided "de" joins measure and food and belongs to neither.
		_, size := utf8.DecodeRuneInString(first[1:])
		p.out.Name = p.out.Name[1+size:]
	}
	if wordsEnd+1 < tail {
		p.note(p.span(wordsEnd+1, tail))
	}
	if tail < len(p.toks) {
		p.noteTail(p.trailingAmount(tail))
	}
}

// noteTail notes the tokens from i to the end, one note per parenthesis and one per run of text
// between them: "diced (about 1 cup)" → "diced", "about 1 cup".
func (p *parser) noteTail(i int) {
	start := i
	for k := i; k < len(p.toks); k++ {
		if !p.isPunct(k, "(", "[") {
			continue
		}
		end := p.closeParen(k)
		if end < 0 {
			continue
		}
		p.note(p.span(start, k))
		p.note(p.span(k, end))
		start = end
		k = end - 1
	}
	p.note(p.span(start, len(p.toks)))
}

// trailingAmount reads the amount of lines written "water: 320 ml" or "salt - 1 tsp" when none came
// before the name, and returns where the remaining notes start.
func (p *parser) trailingAmount(tail int) int {
	if p.out.Quantity != nil || !p.isPunct(tail, ":", "-", "–", "—") {
		return tail
	}
	q, qmax, next, ok := p.amount(tail + 1)
	if !ok || p.dimensionAfter(next) > 0 {
		return tail
	}
	u, end := p.unit(next, true, false)
	if p.out.Unit != "" && u != "" {
		return tail
	}
	p.out.Quantity, p.out.QuantityMax = ptr(q), qmax
	if u != "" {
		p.out.Unit = u
		return end
	}
	return next
}

// foreignOnly reports whether a word of tokens [a, b) is a describing word only by the lists of
// languages other than English.
func (p *parser) foreignOnly(a, b int) bool {
	for k := a; k < b; k++ {
		if t := &p.toks[k]; t.kind == tWord && !descriptors[t.low] && p.isDescriptor(t) {
			return true
		}
	}
	return false
}

// isDescriptor reports whether a word describes the food's state, size or cut (see descriptors),
// in English or, in a line that is not English, in the language lists of data/.
func (p *parser) isDescriptor(t *token) bool {
	return descriptors[t.low] || p.foreign && foreignLineWords[classDescriptor].has(foldEnding(t.low), p.untold)
}

// isTail reports whether the word at k starts the part after the name.
func (p *parser) isTail(k int) bool {
	t := p.toks[k]
	if p.tasteAt(k) || p.foreign && len(t.low) > 1 && foreignLineWords[classCut].has(foldEnding(t.low), p.untold) {
		// "sal al gusto", "sale q.b.", "Öl zum Braten"; not the one-letter "i" and "a", which
		// also join two foods ("sól i pieprz").
		return true
	}
	if t.low == "or" {
		// "butter or margarine" is one name; "1 cup, or more to taste" is not.
		n := p.tok(k + 1)
		return n == nil || n.kind == tNum || (n.kind == tWord && (n.low == "more" || n.low == "less" ||
			n.low == "to" || n.low == "as" || n.low == "other" || n.low == "so" || n.low == "a"))
	}
	if !tailWords[t.low] {
		return false
	}
	// "cut" and "about" are descriptors before the name and separators after it.
	return true
}

// tasteAt reports whether a "to taste" phrase of another language starts at token k.
func (p *parser) tasteAt(k int) bool {
	rest := strings.ToLower(p.line[p.toks[k].start:])
	for _, ph := range tastePhrases {
		if strings.HasPrefix(rest, ph) {
			if r, _ := utf8.DecodeRuneInString(rest[len(ph):]); !isWordRune(r) {
				return true
			}
		}
	}
	return false
}

// unitAfterName moves a unit written after the food ("3 garlic cloves", "2 celery stalks", "4 thyme
// sprigs") out of the name when no unit came before it, and returns the new end of the name.
func (p *parser) unitAfterName(start, end int) int {
	if p.out.Unit != "" || end <= start {
		return end
	}
	prev := end - 1
	for prev > start && p.toks[prev].kind != tWord {
		prev--
	}
	last, before := p.toks[end].low, p.toks[prev].low
	u := ""
	switch {
	case (last == "clove" || last == "cloves") && before == "garlic":
		u = unitClove
	case (last == "stalk" || last == "stalks" || last == "rib" || last == "ribs") && (before == "celery" || before == "lemongrass"):
		u = unitStalk
	case last == "sprig" || last == "sprigs":
		u = unitSprig
	}
	if u == "" {
		return end
	}
	p.out.Unit = u
	return prev
}
