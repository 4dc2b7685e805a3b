package extract

import (
	"bytes"
	"regexp"
	"slices"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// WordPress recipe plugins render ingredient and instruction groups in their
// HTML ("For the sauce", "For the dough") while many of them, or the SEO
// plugin that rewrites their JSON-LD, publish one flat list. Reading the
// plugin's HTML gets the groups back. The lines themselves still come from
// the structured data when it has them (see mergePlugin), so the HTML is
// only trusted for structure unless it is all there is.

// pluginDef names a plugin family by the classes of its two containers
// (lowercase: the page is searched in lowercase).
type pluginDef struct {
	name         string
	ingredients  string
	instructions string
	title        string // the class of the card's recipe name, where known
}

var pluginDefs = []pluginDef{
	{"WP Recipe Maker", "wprm-recipe-ingredients-container", "wprm-recipe-instructions-container", "wprm-recipe-name"},
	{"Tasty Recipes", "tasty-recipes-ingredients", "tasty-recipes-instructions", "tasty-recipes-title"},
	{"Mediavine Create", "mv-create-ingredients", "mv-create-instructions", "mv-create-title"},
	{"WPZOOM Recipe Card", "recipe-card-ingredients", "recipe-card-directions", "recipe-card-title"},
	{"EasyRecipe", "ersingredients", "ersinstructions", "ersname"},
	{"Cooked", "cooked-recipe-ingredients", "cooked-recipe-directions", ""},
	{"Delicious Recipes", "dr-ingredients-list", "dr-instructions", ""},
	{"Zip Recipes", "zrdn-ingredients", "zrdn-instructions", ""},
}

// windowBytes bounds the part of the page parsed around a plugin's card.
const windowBytes = 160 << 10

// maxCards bounds the plugin cards read on one page.
const maxCards = 8

// fromPlugins reads ingredient and instruction groups from a plugin card on
// the page. A page can have several (a recipe and the sauce it uses, or
// related recipes): the card whose ingredients share the most words with
// want, the structured recipe's lines, is the recipe's own; without
// structured lines, the first card.
func fromPlugins(p *page, want []string) (Recipe, bool) {
	var best Recipe
	bestSim, found := -1.0, false
	wantWords := wordSet(strings.Join(want, " "))
	seen := map[*pluginDef]int{} // cards of each plugin read so far
	from := 0
	for range maxCards {
		d, start, next := findCard(p.lower, from)
		if d == nil {
			break
		}
		from = next
		r, ok := p.readCard(d, start, seen[d])
		seen[d]++
		if !ok {
			continue
		}
		if len(wantWords) == 0 {
			return r, true
		}
		if sim := jaccard(wantWords, wordSet(strings.Join(flatten(r.IngredientSections), " "))); sim > bestSim {
			best, bestSim, found = r, sim, true
		}
	}
	return best, found
}

// readCard reads the card whose ingredients container starts at byte
// start, the nth card of its plugin on the page.
func (p *page) readCard(d *pluginDef, start, nth int) (Recipe, bool) {
	// Parse from the card's ingredients to a little past the start of its
	// instructions, not the whole page.
	end := start + windowBytes
	if ins := classTagStart(p.lower, d.instructions, start); ins >= 0 && ins < end {
		end = min(ins+instructionsBytes, end)
	}
	root, whole := p.window(start, end)
	if root == nil {
		return Recipe{}, false
	}
	// In the window the card's containers are the first ones; in the whole
	// page they are the nth.
	if !whole {
		nth = 0
	}
	var r Recipe
	try(func() { r.Title = p.cardTitle(d, start) })
	try(func() {
		if c := nthNode(root, nth, func(n *html.Node) bool { return hasClassFold(n, d.ingredients) }); c != nil {
			r.IngredientSections = readGroups(c, false)
		}
	})
	try(func() {
		if c := nthNode(root, nth, func(n *html.Node) bool { return hasClassFold(n, d.instructions) }); c != nil {
			r.InstructionSections = readGroups(c, true)
		}
	})
	return r, countItems(r.IngredientSections)+countItems(r.InstructionSections) > 0
}

// titleBytes bounds how far before a card's ingredients its name is
// looked for.
const titleBytes = 24 << 10

// cardTitle is the recipe name the card shows above its ingredients
// starting at byte start: the last element before them with the plugin's
// title class, read from a small parse of its own.
func (p *page) cardTitle(d *pluginDef, start int) string {
	if d.title == "" {
		return ""
	}
	at := -1
	for from := max(0, start-titleBytes); ; {
		k := classTagStart(p.lower[:start], d.title, from)
		if k < 0 {
			break
		}
		// Go on past the token: the tag starts before it.
		at, from = k, k+bytes.Index(p.lower[k:start], []byte(d.title))+len(d.title)
	}
	if at < 0 {
		return ""
	}
	root, err := html.Parse(bytes.NewReader(p.raw[at:min(at+2048, start)]))
	if err != nil {
		return ""
	}
	if n := findFirst(root, func(n *html.Node) bool { return hasClassFold(n, d.title) }); n != nil {
		return lineText(n)
	}
	return ""
}

// nthNode is the nth node (from 0) under root that matches, in document
// order, not looking inside a match.
func nthNode(root *html.Node, nth int, match func(*html.Node) bool) *html.Node {
	for i, n := range find(root, match) {
		if i == nth {
			return n
		}
	}
	return nil
}

// instructionsBytes bounds how much of a card's instructions is parsed.
const instructionsBytes = 48 << 10

// findCard finds the first plugin ingredients container on the page from
// byte from, and returns its plugin, the start of its tag and where to
// look for the next one. Every plugin's container class contains
// "ingredients", so one scan for that word, checking the class token
// around each hit, serves all plugins.
func findCard(lower []byte, from int) (*pluginDef, int, int) {
	word := []byte("ingredients")
	for i := from; ; {
		k := bytes.Index(lower[i:], word)
		if k < 0 {
			return nil, -1, len(lower)
		}
		at := i + k
		i = at + len(word)
		ts, te := at, i
		for ts > 0 && isClassChar(lower[ts-1]) {
			ts--
		}
		for te < len(lower) && isClassChar(lower[te]) {
			te++
		}
		token := string(lower[ts:te])
		for j := range pluginDefs {
			if pluginDefs[j].ingredients == token {
				if start := classTagStart(lower, token, ts); start >= 0 && start <= ts {
					return &pluginDefs[j], start, te
				}
			}
		}
	}
}

func isClassChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_'
}

// window parses the part of the page from byte start (a tag) to end; the
// parser closes what the cut leaves open. When the whole DOM is already
// built, that is used instead, and whole says so.
func (p *page) window(start, end int) (root *html.Node, whole bool) {
	if p.docDone && p.doc != nil && len(p.doc.Nodes) > 0 {
		return p.doc.Nodes[0], true
	}
	end = min(end, len(p.raw))
	root, err := html.Parse(bytes.NewReader(p.raw[start:end]))
	if err != nil {
		return nil, false
	}
	return root, false
}

// classTagStart finds, from offset from, the first tag whose class
// attribute has the class token (in lower, the lowercased page) and returns
// the offset of its "<", or -1. Matches in stylesheets and scripts are
// skipped because they are not inside a class attribute.
func classTagStart(lower []byte, token string, from int) int {
	tok := []byte(token)
	for from < len(lower) {
		k := bytes.Index(lower[from:], tok)
		if k < 0 {
			return -1
		}
		i := from + k
		from = i + len(tok)
		if from < len(lower) && !isClassSep(lower[from]) {
			continue
		}
		if i == 0 || !isClassSep(lower[i-1]) {
			continue
		}
		// Back to the tag start; a '>' first means we are in text or CSS.
		lt := i - 1
		for lt >= 0 && i-lt < 4096 && lower[lt] != '<' && lower[lt] != '>' {
			lt--
		}
		if lt < 0 || lower[lt] != '<' {
			continue
		}
		tag := lower[lt:i]
		ci := bytes.LastIndex(tag, []byte("class="))
		if ci < 0 {
			continue
		}
		// The token must be inside that class value: no closing quote between.
		val := tag[ci+len("class="):]
		if len(val) > 0 && (val[0] == '"' || val[0] == '\'') && bytes.IndexByte(val[1:], val[0]) >= 0 {
			continue
		}
		return lt
	}
	return -1
}

func isClassSep(c byte) bool {
	return c == '"' || c == '\'' || c == ' ' || c == '\t' || c == '\n' || c == '='
}

func hasClassFold(n *html.Node, c string) bool {
	for f := range strings.FieldsSeq(attr(n, "class")) {
		if strings.EqualFold(f, c) {
			return true
		}
	}
	return false
}

// containerTitles are the headings a card puts over its lists; they are not
// group names.
var containerTitles = map[string]bool{
	"ingredients": true, "ingredient": true, "instructions": true, "directions": true, "method": true,
	"steps": true, "preparation": true, "equipment": true, "notes": true, "instruction": true,
	"zutaten": true, "zubereitung": true, "ingrédients": true, "préparation": true, "ingredienti": true,
	"preparazione": true, "ingredientes": true, "preparación": true, "modo de preparo": true,
	"ingrediënten": true, "bereiding": true, "ingredienser": true, "fremgangsmåde": true,
	"how to make it": true, "what you'll need": true,
}

func isContainerTitle(s string) bool {
	s = strings.ToLower(strings.TrimRight(strings.TrimSpace(s), ": "))
	return containerTitles[s]
}

// readGroups reads a plugin container in document order: list items are
// lines; a heading, a group-name element or a short line standing right
// before a list starts a named group. Without list items, paragraphs are
// the lines.
func readGroups(c *html.Node, instructions bool) []Section {
	var b sectionBuilder
	hasLi := findFirst(c, func(n *html.Node) bool { return n.DataAtom == atom.Li }) != nil
	var rec func(n *html.Node)
	rec = func(n *html.Node) {
		for e := n.FirstChild; e != nil; e = e.NextSibling {
			if e.Type != html.ElementNode || skipAtoms[e.DataAtom] || hiddenElement(e) {
				continue
			}
			switch {
			case e.DataAtom == atom.Li && hasDescendant(e, atom.Li) && groupLabel(ownText(e)):
				if t := strings.TrimRight(ownText(e), ": "); t != "" && !isContainerTitle(t) {
					b.section(t)
				}
				rec(e)
			case e.DataAtom == atom.Li:
				if instructions {
					b.item(withoutStepNumber(e, itemText(e)))
				} else {
					b.item(lineText(e))
				}
			case !hasLi && !instructions && e.DataAtom == atom.Dt:
				// A definition list of ingredients: name and amount in
				// separate elements of each term, joined with a space.
				b.item(cellsText(e))
			case isGroupHeader(e):
				// A header that only numbers the step after it ("Step
				// 1") names no group: the step is numbered when shown.
				if t := strings.TrimRight(lineText(e), ": "); t != "" && !isContainerTitle(t) && !(instructions && stepLabel.MatchString(t)) {
					b.section(t)
				}
			case !hasLi && (e.DataAtom == atom.P || e.DataAtom == atom.Div && !hasBlockChild(e)):
				for _, line := range cleanLines(nodeText(e)) {
					b.item(line)
				}
			case e.DataAtom == atom.Ul || e.DataAtom == atom.Ol || hasBlockChild(e):
				rec(e)
			}
		}
	}
	rec(c)
	return b.sections()
}

// itemText is the text of list item e on one line, without a block of
// links after its text ("<h2><a>Baked chicken >>></a></h2>" closing a
// step), which points to other recipes and is not part of the item.
func itemText(e *html.Node) string {
	full := oneLine(nodeText(e))
	var b strings.Builder
	dropped := false
	for c := e.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && blockAtoms[c.DataAtom] && linksOnly(c) {
			dropped = true
			continue
		}
		b.WriteString(nodeText(c))
	}
	if !dropped {
		return full
	}
	if t := oneLine(b.String()); t != "" {
		return t
	}
	return full // an item that is only a link is the item
}

// linksOnly reports an element whose text is all inside links.
func linksOnly(n *html.Node) bool {
	hasLink := false
	var rec func(*html.Node) bool // false on text outside a link
	rec = func(n *html.Node) bool {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch {
			case c.Type == html.TextNode:
				if strings.TrimSpace(c.Data) != "" {
					return false
				}
			case c.Type == html.ElementNode && c.DataAtom == atom.A:
				hasLink = hasLink || lineText(c) != ""
			case c.Type == html.ElementNode && !skipAtoms[c.DataAtom]:
				if !rec(c) {
					return false
				}
			}
		}
		return true
	}
	return rec(n) && hasLink
}

// withoutStepNumber is text, the text of the step e, without the step's
// number when e shows it in an element of its own before the text
// ("<li><span class="number">1</span>Mix the flour"): the number is the
// step's place, not its words, and read with them it glues ("1Mix").
func withoutStepNumber(e *html.Node, text string) string {
	for c := e.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.TextNode && strings.TrimSpace(c.Data) == "" {
			continue
		}
		if c.Type != html.ElementNode {
			return text
		}
		if n := lineText(c); stepNumberOnly(n) {
			if rest, ok := strings.CutPrefix(text, n); ok && strings.TrimSpace(rest) != "" {
				return strings.TrimSpace(rest)
			}
		}
		return text
	}
	return text
}

// cellsText is the text of an element whose parts (amount, name) sit in
// separate child elements with nothing between them ("<b>sugar</b><u>45
// g</u>"): each part is read on its own and the parts are joined with a
// space, so no name is glued to its amount.
func cellsText(n *html.Node) string {
	var parts []string
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		var t string
		switch c.Type {
		case html.TextNode:
			t = cleanText(c.Data)
		case html.ElementNode:
			if skipAtoms[c.DataAtom] || hiddenElement(c) {
				continue
			}
			if hasBlockChild(c) || c.DataAtom == atom.A && c.FirstChild != nil && c.FirstChild.Type == html.ElementNode {
				t = cellsText(c)
			} else {
				t = lineText(c)
			}
		}
		if t != "" {
			parts = append(parts, t)
		}
	}
	return strings.Join(parts, " ")
}

// isGroupHeader recognizes the title of an ingredient or instruction group.
func isGroupHeader(e *html.Node) bool {
	if isHeading(e) {
		return true
	}
	cls := strings.ToLower(attr(e, "class"))
	if strings.Contains(cls, "group-name") || strings.Contains(cls, "subtitle") || strings.Contains(cls, "separator") ||
		strings.Contains(cls, "cooked-heading") || strings.Contains(cls, "section-title") {
		return !hasDescendant(e, atom.Li)
	}
	// A short line right before a list ("for the fish:", <p><strong>Sauce</strong></p>).
	if e.DataAtom == atom.P || e.DataAtom == atom.Strong || e.DataAtom == atom.B || e.DataAtom == atom.Span ||
		e.DataAtom == atom.Div && !hasBlockChild(e) {
		next := nextElement(e)
		if next != nil && (next.DataAtom == atom.Ul || next.DataAtom == atom.Ol) {
			t := lineText(e)
			return t != "" && len(t) <= 100
		}
	}
	return false
}

func nextElement(n *html.Node) *html.Node {
	for s := n.NextSibling; s != nil; s = s.NextSibling {
		if s.Type == html.ElementNode {
			return s
		}
		if s.Type == html.TextNode && strings.TrimSpace(s.Data) != "" {
			return nil
		}
	}
	return nil
}

func hasDescendant(n *html.Node, a atom.Atom) bool {
	return findFirst(n, func(e *html.Node) bool { return e != n && e.DataAtom == a }) != nil
}

// hasBlockChild reports whether n contains block-level elements (so its
// children, not n, are the lines).
func hasBlockChild(n *html.Node) bool {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode || skipAtoms[c.DataAtom] || hiddenElement(c) {
			continue
		}
		if blockAtoms[c.DataAtom] && c.DataAtom != atom.Br || hasBlockChild(c) {
			return true
		}
	}
	return false
}

func hasNamedSection(ss []Section) bool {
	for _, s := range ss {
		if s.Name != "" {
			return true
		}
	}
	return false
}

// mergePlugin adds what a plugin card knows to the structured-data recipe:
// the structured lines are kept and put into the card's groups. When the
// structured data has nothing (or one undivided block of instructions), the
// card's lines are used.
func mergePlugin(r, plug Recipe) Recipe {
	switch {
	case countItems(r.IngredientSections) == 0:
		r.IngredientSections = plug.IngredientSections
	case resplit(linesAndNames(r.IngredientSections), flatten(plug.IngredientSections)):
		r.IngredientSections = plug.IngredientSections
	case hasNamedSection(plug.IngredientSections) && !hasNamedSection(r.IngredientSections):
		if g := regroup(flatten(r.IngredientSections), plug.IngredientSections); g != nil {
			r.IngredientSections = g
		}
	default:
		if g := numbersRegained(r.IngredientSections, flatten(plug.IngredientSections)); g != nil {
			r.IngredientSections = g
		}
	}
	switch {
	case countItems(r.InstructionSections) == 0:
		r.InstructionSections = plug.InstructionSections
	case hasNamedSection(plug.InstructionSections) && !hasNamedSection(r.InstructionSections):
		if g := regroup(flatten(r.InstructionSections), plug.InstructionSections); g != nil {
			r.InstructionSections = g
		}
	default:
		r.InstructionSections = betterInstructions(r.InstructionSections, plug.InstructionSections)
	}
	return r
}

// numbersRegained returns the structured ingredient lines with the amounts
// the card shows where the structured data lost their first part: a plugin
// that splits its data at every "1." turns "1.5 tsp salt" into "5 tsp
// salt", while its card shows the line whole. Every structured line must
// be, in order, a card line or such a cut copy of one (the card may hold
// more, such as its "Scale" buttons' label); otherwise nil.
func numbersRegained(secs []Section, card []string) []Section {
	fixed := make(map[int]string)
	i, j := 0, 0
	for _, s := range secs {
		for _, l := range s.Items {
			k := normKey(l)
			for ; j < len(card); j++ {
				if c := card[j]; normKey(c) == k {
					break
				} else if startsWithDigit(l) && strings.HasSuffix(c, l) && cutAmountStart.MatchString(c[:len(c)-len(l)]) {
					fixed[i] = c
					break
				}
			}
			if j == len(card) {
				return nil
			}
			i, j = i+1, j+1
		}
	}
	if len(fixed) == 0 {
		return nil
	}
	out := make([]Section, len(secs))
	i = 0
	for k, s := range secs {
		out[k] = Section{Name: s.Name, Items: slices.Clone(s.Items)}
		for n := range s.Items {
			if c, ok := fixed[i]; ok {
				out[k].Items[n] = c
			}
			i++
		}
	}
	return out
}

// cutAmountStart is what such a split leaves out of an amount: its whole
// part and the decimal point ("1." of "1.5").
var cutAmountStart = regexp.MustCompile(`^\d+[.,]$`)

func startsWithDigit(s string) bool { return s != "" && s[0] >= '0' && s[0] <= '9' }

// linesAndNames lists the group names among the lines, where a card shows
// them as lines of their own.
func linesAndNames(ss []Section) []string {
	var out []string
	for _, s := range ss {
		if s.Name != "" {
			out = append(out, s.Name)
		}
		out = append(out, s.Items...)
	}
	return out
}

// resplit reports whether the card holds the same words as the structured
// lines but cut into more lines: the structured data joined or split lines
// wrongly (one plugin splits its JSON-LD at every "1."), and the card shows
// them as the cook should read them.
func resplit(lines, card []string) bool {
	if len(card) <= len(lines) {
		return false
	}
	a, b := wordSet(strings.Join(lines, " ")), wordSet(strings.Join(card, " "))
	if jaccard(a, b) >= 0.85 {
		return true
	}
	// Lines glued without spaces ("sesame oil2 small onions") share no
	// words with the card but all of its letters.
	ka, kb := normKey(strings.Join(lines, "")), normKey(strings.Join(card, ""))
	if len(ka) > len(kb) {
		ka, kb = kb, ka
	}
	return len(ka)*10 >= len(kb)*9 && strings.Contains(kb, ka)
}

func jaccard(a, b map[string]bool) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	n := 0
	for w := range a {
		if b[w] {
			n++
		}
	}
	return float64(n) / float64(len(a)+len(b)-n)
}

// quantitiesMissing reports an ingredient list in which (almost) no line
// has an amount: some sites publish only the ingredient names in their
// structured data and show the amounts beside them on the page.
func quantitiesMissing(lines []string) bool {
	if len(lines) < 3 {
		return false
	}
	with := 0
	for _, l := range lines {
		if strings.IndexFunc(l, func(r rune) bool { return r >= '0' && r <= '9' || fractionValue(r) > 0 }) >= 0 {
			with++
		}
	}
	return with*5 < len(lines)
}

// withQuantities returns the page's own ingredient lines when they are the
// structured lines with amounts added (same count, each structured line's
// words found in the page line), else nil.
func withQuantities(lines []string, page []Section) []Section {
	pl := flatten(page)
	if len(pl) != len(lines) {
		if joined := joinAmountCells(lines, pl); joined != nil {
			return []Section{{Items: joined}}
		}
		return nil
	}
	if quantitiesMissing(pl) {
		return nil
	}
	ok := 0
	for i := range lines {
		if similarity(wordSet(lines[i]), wordSet(pl[i])) >= 0.8 || strings.Contains(normKey(pl[i]), normKey(lines[i])) {
			ok++
		}
	}
	if ok*10 < len(lines)*8 {
		return nil
	}
	out := make([]Section, len(page))
	k := 0
	for i, s := range page {
		out[i] = Section{Name: s.Name, Items: make([]string, len(s.Items))}
		for j, it := range s.Items {
			out[i].Items[j] = unglue(it, lines[k])
			k++
		}
	}
	return out
}

// unglue puts a space between an amount and a name that the page's markup
// set side by side in two elements ("1 kg" + "Kartoffeln" read as
// "1 kgKartoffeln"), using the structured line to know where the name is.
func unglue(line, name string) string {
	n := len(name)
	if n == 0 || len(line) <= n {
		return line
	}
	if head := line[:len(line)-n]; strings.EqualFold(line[len(line)-n:], name) && !strings.HasSuffix(head, " ") {
		return head + " " + line[len(line)-n:]
	}
	if tail := line[n:]; strings.EqualFold(line[:n], name) && !strings.HasPrefix(tail, " ") {
		return line[:n] + " " + tail
	}
	return line
}

// joinAmountCells handles pages that show amount and name in separate
// cells ("½ cup" | "popping corn"): each structured line is found among the
// page lines and joined with the amount cell next to it, on the side where
// the page puts amounts.
func joinAmountCells(lines, pl []string) []string {
	// Besides an amount per line the page's list may hold group labels,
	// a portions counter and the nutrition facts that follow; the
	// matching below is sequential, with a short window, so a longer list
	// cannot pair a name with a far-away number.
	if len(pl) < len(lines)*2 || len(pl) > len(lines)*3+6 {
		return nil
	}
	match := make([]int, len(lines)) // index in pl of each structured line
	j := 0
	for i, l := range lines {
		w := wordSet(l)
		match[i] = -1
		for k := j; k < len(pl) && k <= j+3; k++ {
			if similarity(w, wordSet(pl[k])) >= 0.8 && len(wordSet(pl[k])) <= len(w)+1 {
				match[i] = k
				j = k + 1
				break
			}
		}
		if match[i] < 0 {
			return nil
		}
	}
	// Amounts before names when the cell before the first name holds a number.
	before := match[0] > 0 && hasDigitOrFraction(pl[match[0]-1])
	out := make([]string, len(lines))
	for i, k := range match {
		amount := ""
		if before && k > 0 && (i == 0 || match[i-1] < k-1) {
			amount = pl[k-1]
		} else if !before && k+1 < len(pl) && (i+1 == len(match) || match[i+1] > k+1) {
			amount = pl[k+1]
		}
		switch {
		case amount == "":
			out[i] = pl[k]
		case before:
			out[i] = amount + " " + pl[k]
		default:
			out[i] = pl[k] + " " + amount
		}
	}
	return out
}

func hasDigitOrFraction(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return r >= '0' && r <= '9' || fractionValue(r) > 0 }) >= 0
}

// amountLast matches an ingredient written name first, amount after a
// comma ("mlieko, 500 ml"), as some sites publish their JSON-LD.
var amountLast = regexp.MustCompile(`(?:, (?:[\d½¼¾⅓⅔]|štipka|pinch)[^,]*| \d[\d.,/]*\s*\pL{0,6}\.?)$`)

// amountsLast reports a list mostly written that way.
func amountsLast(lines []string) bool {
	if len(lines) < 3 {
		return false
	}
	n := 0
	for _, l := range lines {
		if amountLast.MatchString(l) {
			n++
		}
	}
	return n*10 >= len(lines)*6
}

// reordered returns the page's lines when they are the structured lines
// with the same words in another order ("500 ml mlieko"): the page is what
// the reader sees.
func reordered(lines []string, page []Section) []Section {
	pl := flatten(page)
	if len(pl) == 0 {
		return nil
	}
	// Walk both lists in order; a line of either may be missing from the
	// other (the JSON-LD may add the baking tin).
	matched, j := 0, 0
	for _, l := range pl {
		for k := j; k < len(lines) && k <= j+2; k++ {
			if sameWords(lines[k], l) {
				matched++
				j = k + 1
				break
			}
		}
	}
	if matched*100 < len(pl)*85 || matched*100 < len(lines)*85 {
		return nil
	}
	return page
}

// sameWords reports two lines with the same words or letters, in any
// order; a note in brackets that only one of them carries ("500 gr verse
// ravioli (bijvoorbeeld met ricotta)") does not make them different.
func sameWords(a, b string) bool {
	if jaccard(wordSet(a), wordSet(b)) >= 0.7 || sortedRunes(normKey(a)) == sortedRunes(normKey(b)) {
		return true
	}
	na, nb := withoutBrackets(a), withoutBrackets(b)
	return (na != a || nb != b) && na != "" && nb != "" && sortedRunes(normKey(na)) == sortedRunes(normKey(nb))
}

var bracketNote = regexp.MustCompile(`\s*\([^()]*\)`)

// withoutBrackets is s without its notes in brackets.
func withoutBrackets(s string) string {
	return strings.TrimSpace(bracketNote.ReplaceAllString(s, ""))
}

// sortedRunes is s with its characters sorted: equal for two texts that
// hold the same letters in another order ("bloem 200gr", "200 gr bloem").
func sortedRunes(s string) string {
	r := []rune(s)
	slices.Sort(r)
	return string(r)
}

// regroup puts the structured-data lines into the groups of the HTML card.
// With as many lines as the card, they are cut by the card's group sizes;
// otherwise each line joins the group of the card line most like it,
// groups never going backwards. It gives nil when too few lines match for
// the card to be the same recipe.
func regroup(lines []string, groups []Section) []Section {
	total := countItems(groups)
	if total == 0 || len(lines) == 0 {
		return nil
	}
	type cardLine struct {
		group int
		words map[string]bool
	}
	var card []cardLine
	for gi, g := range groups {
		for _, it := range g.Items {
			card = append(card, cardLine{gi, wordSet(it)})
		}
	}
	names := map[string][]int{} // group name -> indexes, to spot header lines
	for gi, g := range groups {
		if k := normKey(g.Name); k != "" {
			names[k] = append(names[k], gi)
		}
	}
	assign := make([]int, len(lines)) // group of each line; -1 for a header line
	matched := 0
	if len(lines) == total {
		for i := range lines {
			assign[i] = card[i].group
			if similarity(wordSet(lines[i]), card[i].words) >= 0.5 {
				matched++
			}
		}
	} else {
		cur, pos := 0, 0
		for i, line := range lines {
			// A line that is a group's name (plugins that flatten groups
			// into the list keep their names as lines) starts that group.
			if gi := nextGroup(names[normKey(line)], cur); gi >= 0 {
				cur = gi
				for pos < len(card) && card[pos].group < gi {
					pos++
				}
				assign[i] = -1
				matched++
				continue
			}
			w := wordSet(line)
			best, bestSim := -1, 0.5
			// Look a few card lines ahead only: a loose match far ahead
			// would skip the lines in between.
			for j := pos; j < len(card) && j < pos+6; j++ {
				if s := similarity(w, card[j].words); s > bestSim {
					best, bestSim = j, s
				}
			}
			if best >= 0 {
				matched++
				pos = best + 1
				cur = max(cur, card[best].group)
			}
			assign[i] = cur
		}
	}
	if matched*10 < len(lines)*7 {
		return nil
	}
	var out []Section
	for i, line := range lines {
		g := assign[i]
		if g < 0 {
			continue
		}
		if len(out) == 0 || out[len(out)-1].Name != groups[g].Name {
			out = append(out, Section{Name: groups[g].Name})
		}
		out[len(out)-1].Items = append(out[len(out)-1].Items, line)
	}
	return out
}

// nextGroup is the first of the group indexes at or after cur, or -1.
func nextGroup(idx []int, cur int) int {
	for _, gi := range idx {
		if gi >= cur {
			return gi
		}
	}
	return -1
}

// wordSet is the set of a line's words, lowercased, letters and digits only.
func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for w := range strings.FieldsSeq(strings.ToLower(s)) {
		if k := normKey(w); k != "" {
			m[k] = true
		}
	}
	return m
}

// similarity is the share of the smaller word set found in the larger.
func similarity(a, b map[string]bool) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	if len(a) > len(b) {
		a, b = b, a
	}
	n := 0
	for w := range a {
		if b[w] {
			n++
		}
	}
	return float64(n) / float64(len(a))
}
