package extract

import (
	"bytes"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// The heuristic reading serves pages without structured data: the title
// from the first h1 (or og:title), ingredients from the lists under a
// heading that says "Ingredients" (in several languages), instructions from
// the lists or paragraphs under "Instructions", "Method", "Directions" or
// "Steps", and, when no such heading exists, from elements whose class names
// say so. It is careful: it only takes lines that stand under such a
// heading or inside such an element.

var ingredientWords = []string{
	"ingredient", "zutaten", "ingrédient", "ingredienti", "ingrediente", "ingrediënten", "ingredienser",
	"składniki", "hozzávalók", "suroviny", "ingrediencie", "sastojci", "malzemeler", "ainekset", "ingrediënt",
	"you will need", "you'll need", "what you need", "du behöver", "du skal bruge", "du trenger", "材料", "食材", "用料",
}

var instructionWords = []string{
	"instruction", "instructies", "instrucciones", "istruzioni", "instruções", "direction", "method", "steps", "preparation", "how to make", "zubereitung", "anleitung",
	"préparation", "preparazione", "procedimento", "preparación", "elaboración", "modo de preparo", "bereiding",
	"werkwijze", "fremgangsmåde", "fremgangsmåte", "tilberedning", "gör så här", "så gör du", "przygotowanie", "step by step", "step-by-step", "étape", "schritt 1", "paso 1", "passo 1", "stap 1", "step 1", "aan de slag",
	"elkészítés", "postup", "priprema", "hazırlanışı", "yapılışı", "作り方", "做法", "步骤", "procedure",
	"instruktion", "sådan gør du", "slik gjør du", "so wird's gemacht", "so geht's", "przygotowania", "preparação",
	"elaboração", "valmistus", "ohjeet",
}

func matchesAny(s string, words []string) bool {
	s = strings.ToLower(s)
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// startsWithAny reports whether s begins with one of words (after
// punctuation or a number: "1. Ingredients", "— Zutaten").
func startsWithAny(s string, words []string) bool {
	s = strings.ToLower(strings.TrimLeftFunc(s, func(r rune) bool { return !unicode.IsLetter(r) }))
	for _, w := range words {
		if strings.HasPrefix(s, w) {
			return true
		}
	}
	return false
}

// block is one unit of the page read in order: a heading, a list item or a
// paragraph.
type block struct {
	kind  byte // 'h' heading, 'i' list item, 'p' paragraph
	level int  // heading level; 7 for a bold line acting as a heading
	text  string
	node  *html.Node
}

// pageBlocks flattens the body into blocks, skipping navigation, headers,
// footers, sidebars, comments and forms, where lists are not the recipe.
func pageBlocks(root *html.Node) []block {
	var out []block
	addText := func(t string, e *html.Node) {
		for _, line := range cleanLines(t) {
			// "Ingredients:" written as a plain paragraph is a heading.
			if len(line) <= 40 && (matchesAny(line, ingredientWords) || matchesAny(line, instructionWords)) {
				out = append(out, block{kind: 'h', level: 7, text: line, node: e})
				continue
			}
			out = append(out, block{kind: 'p', text: line, node: e})
		}
	}
	var rec func(n *html.Node)
	rec = func(n *html.Node) {
		// Text and inline elements between blocks form a paragraph of their own.
		var inline strings.Builder
		flush := func() {
			if inline.Len() > 0 {
				addText(inline.String(), n)
				inline.Reset()
			}
		}
		for e := n.FirstChild; e != nil; e = e.NextSibling {
			if e.Type == html.TextNode {
				inline.WriteString(strings.ReplaceAll(e.Data, "\n", " "))
				continue
			}
			if e.Type != html.ElementNode || skipAtoms[e.DataAtom] || hiddenElement(e) || boilerplate(e) {
				continue
			}
			if !blockAtoms[e.DataAtom] && !isHeading(e) && e.DataAtom != atom.Li && e.DataAtom != atom.Tr &&
				e.DataAtom != atom.Span && !hasBlockChild(e) {
				inline.WriteString(nodeText(e))
				continue
			}
			if e.DataAtom == atom.Br {
				inline.WriteByte('\n')
				continue
			}
			flush()
			switch {
			case isHeading(e):
				if t := lineText(e); t != "" {
					out = append(out, block{kind: 'h', level: headingLevel(e), text: t, node: e})
				}
			case e.DataAtom == atom.Li && hasDescendant(e, atom.Li) && groupLabel(ownText(e)):
				// "Seasonings" with its own list inside: a group heading
				// and its lines.
				if t := ownText(e); t != "" {
					out = append(out, block{kind: 'h', level: 7, text: strings.TrimRight(t, ": "), node: e})
				}
				for _, l := range find(e, func(n *html.Node) bool { return n != e && (n.DataAtom == atom.Ul || n.DataAtom == atom.Ol) }) {
					rec(l)
				}
			case e.DataAtom == atom.Li && headingOnly(e):
				// A list item holding only a heading names the group of
				// the items after it ("<li><h3>Für den Teig</h3></li>").
				if t := lineText(e); t != "" {
					out = append(out, block{kind: 'h', level: 7, text: strings.TrimRight(t, ": "), node: e})
				}
			case e.DataAtom == atom.Li:
				if t := itemText(e); t != "" {
					out = append(out, block{kind: 'i', text: t, node: e})
				}
			case e.DataAtom == atom.Tr:
				if t := lineText(e); t != "" {
					out = append(out, block{kind: 'i', text: t, node: e})
				}
			case (e.DataAtom == atom.P || e.DataAtom == atom.Div || e.DataAtom == atom.Span || e.DataAtom == atom.Dt || e.DataAtom == atom.Dd) && !hasBlockChild(e):
				if boldOnly(e) {
					if l := lineText(e); l != "" && len(l) <= 80 {
						out = append(out, block{kind: 'h', level: 7, text: l, node: e})
					}
					continue
				}
				addText(nodeText(e), e)
			default:
				rec(e)
			}
		}
		flush()
	}
	rec(root)
	return out
}

// headingOnly reports an element whose content is one heading element and
// nothing else.
func headingOnly(e *html.Node) bool {
	found := false
	for c := e.FirstChild; c != nil; c = c.NextSibling {
		switch {
		case c.Type == html.TextNode && strings.TrimSpace(c.Data) == "":
		case c.Type == html.ElementNode && isHeading(c) && !found:
			found = true
		default:
			return false
		}
	}
	return found
}

// groupLabel reports text that can name a group of lines ("Seasonings",
// "For the sauce:"): short and without an amount. An ingredient with a
// nested list of notes is not a group.
func groupLabel(s string) bool {
	return s != "" && len(s) <= 60 && !hasDigitOrFraction(s)
}

// ownText is the text of n outside its nested lists.
func ownText(n *html.Node) string {
	var b strings.Builder
	var rec func(*html.Node)
	rec = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch {
			case c.Type == html.TextNode:
				b.WriteString(c.Data)
			case c.Type == html.ElementNode && (c.DataAtom == atom.Ul || c.DataAtom == atom.Ol || skipAtoms[c.DataAtom]):
			case c.Type == html.ElementNode:
				rec(c)
			}
		}
	}
	rec(n)
	return collapseSpace(b.String())
}

// boilerplate reports page furniture that never holds the recipe.
func boilerplate(e *html.Node) bool {
	switch e.DataAtom {
	case atom.Nav, atom.Footer, atom.Aside:
		return true
	}
	for tok := range strings.FieldsSeq(strings.ToLower(attr(e, "id") + " " + attr(e, "class"))) {
		if strings.Contains(tok, "recipe") || strings.Contains(tok, "ingredient") {
			return false
		}
		for _, w := range boilerplateWords {
			if strings.HasPrefix(tok, w) {
				return true
			}
		}
	}
	return false
}

// boilerplateWords start the class or id of page furniture ("comments-area",
// "sidebar-primary", "widget_text", "related-posts").
var boilerplateWords = []string{"comment", "sidebar", "widget", "related", "footer", "navigation", "menu", "cookie", "newsletter", "breadcrumb", "respond"}

// boldOnly reports an element whose whole text is bold (a paragraph used as
// a sub-heading).
func boldOnly(e *html.Node) bool {
	hasBold := false
	for c := e.FirstChild; c != nil; c = c.NextSibling {
		switch c.Type {
		case html.TextNode:
			if strings.TrimSpace(c.Data) != "" {
				return false
			}
		case html.ElementNode:
			if c.DataAtom == atom.Strong || c.DataAtom == atom.B {
				hasBold = true
			} else if c.DataAtom != atom.Br {
				return false
			}
		}
	}
	return hasBold
}

// heuristic reads a page without structured data.
func heuristic(p *page) Recipe {
	var r Recipe
	body, blocks := p.pageBlocks()
	if body == nil {
		return r
	}
	try(func() { r.Title = headingTitle(blocks, p.metaTitle()) })
	try(func() { r.IngredientSections, r.InstructionSections = orphanProps(body) })
	ingAt, ingEnd := -1, -1
	try(func() {
		var secs []Section
		secs, ingAt, ingEnd = sectionUnderAt(blocks, ingredientWords, instructionWords, false)
		if countItems(r.IngredientSections) == 0 {
			r.IngredientSections = secs
		}
	})
	var cells []Section // the ingredient lines before amount cells are joined
	try(func() {
		if tab := tabIngredients(blocks); countItems(tab) > countItems(r.IngredientSections) {
			r.IngredientSections = tab
		}
		cells = r.IngredientSections
		r.IngredientSections = joinAmountLines(r.IngredientSections)
	})
	try(func() {
		if countItems(r.InstructionSections) == 0 {
			r.InstructionSections = sectionUnder(blocks, instructionWords, ingredientWords, true)
			// Under tab labels the method's label stands over the
			// ingredients panel (tabs.go).
			if tabLabels(blocks) >= 0 && sameLines(r.InstructionSections, cells) {
				r.InstructionSections = nil
			}
		}
		if countItems(r.InstructionSections) == 0 {
			r.InstructionSections = instructionsAfter(blocks, ingAt, ingEnd)
		}
	})
	try(func() {
		if countItems(r.IngredientSections) == 0 {
			r.IngredientSections = byClass(body, "ingredient", false)
		}
	})
	try(func() {
		if countItems(r.InstructionSections) == 0 {
			r.InstructionSections = methodByClass(body)
		}
	})
	try(func() {
		if countItems(r.IngredientSections) == 0 {
			r.IngredientSections, r.InstructionSections = ingredientLikeList(blocks, r.InstructionSections)
		}
	})
	try(func() { r.Servings = p.servingsFromText() })
	try(func() { r.ImageURL = p.metaImage() })
	try(func() {
		if r.ImageURL == "" {
			r.ImageURL = contentImage(body, p.base)
		}
	})
	return r
}

// contentImage is the first sizeable picture of the article (inside
// <article> or <main> when the page has one), skipping logos, icons, avatars
// and lazy-loading placeholders. AMP pages write <amp-img>. Of the sizes a
// srcset offers, the largest is taken.
func contentImage(body *html.Node, base *url.URL) string {
	scope := findFirst(body, func(n *html.Node) bool { return n.DataAtom == atom.Article || n.DataAtom == atom.Main })
	if scope == nil {
		scope = body
	}
	var found string
	walk(scope, func(n *html.Node) bool {
		if found != "" || boilerplate(n) || hiddenElement(n) {
			return false
		}
		if n.DataAtom != atom.Img && n.Data != "amp-img" {
			return true
		}
		if w := dimension(attr(n, "width")); w > 0 && w < 200 {
			return false
		}
		var srcs []string
		for _, k := range []string{"data-lazy-srcset", "data-srcset", "srcset"} {
			if u := largestInSrcset(attr(n, k)); u != "" {
				srcs = append(srcs, u)
				break
			}
		}
		for _, k := range []string{"data-lazy-src", "data-src", "data-original", "src"} {
			srcs = append(srcs, attr(n, k))
		}
		for _, src := range srcs {
			if src == "" || strings.HasPrefix(src, "data:") {
				continue
			}
			if notAPhoto(src) {
				break
			}
			if u := absURL(src, base); u != "" {
				found = u
			}
			break
		}
		return false
	})
	return found
}

// notAPhoto reports image addresses that are page furniture, not the
// dish: logos, icons, avatars, sprites, tracking pixels, vector art and
// animations.
func notAPhoto(src string) bool {
	low := strings.ToLower(src)
	for _, w := range []string{"logo", "icon", "avatar", "sprite", "pixel", "gravatar"} {
		if strings.Contains(low, w) {
			return true
		}
	}
	return strings.HasSuffix(low, ".svg") || strings.HasSuffix(low, ".gif")
}

// largestInSrcset returns the candidate of a srcset with the largest width
// ("a.jpg 300w, b.jpg 1024w") or density ("a.jpg 1x, b.jpg 2x"); the first
// when none says.
func largestInSrcset(set string) string {
	best, bestSize := "", -1.0
	for i := 0; i < len(set); {
		for i < len(set) && (set[i] == ',' || set[i] == ' ' || set[i] == '\t' || set[i] == '\n') {
			i++
		}
		start := i
		for i < len(set) && set[i] != ' ' && set[i] != '\t' && set[i] != '\n' {
			i++
		}
		u := strings.TrimRight(set[start:i], ",")
		dstart := i
		for i < len(set) && set[i] != ',' {
			i++
		}
		if u == "" {
			continue
		}
		size := 0.0
		if d := strings.TrimSpace(set[dstart:i]); len(d) > 1 {
			if f, err := strconv.ParseFloat(d[:len(d)-1], 64); err == nil {
				size = f
			}
		}
		if size > bestSize {
			best, bestSize = u, size
		}
	}
	return best
}

// sectionUnder finds the heading that names the part (ingredients or
// instructions) and reads what follows it: list items, or paragraphs when
// there are no lists; smaller headings inside become group names. Reading
// stops at a heading of the same or a higher level, or one that names the
// other part.
func sectionUnder(blocks []block, words, stopWords []string, instructions bool) []Section {
	secs, _, _ := sectionUnderAt(blocks, words, stopWords, instructions)
	return secs
}

// sectionUnderAt is sectionUnder that also returns the index of the
// heading it read under and of the block where reading stopped.
func sectionUnderAt(blocks []block, words, stopWords []string, instructions bool) ([]Section, int, int) {
	var best []Section
	bestAt, bestEnd := -1, -1
	tried := 0
	for i, h := range blocks {
		if h.kind != 'h' || len(h.text) > 60 || !matchesAny(h.text, words) {
			continue
		}
		if tried++; tried > maxHeadingCandidates {
			break
		}
		from := i + 1
		if instructions && stepLabel.MatchString(h.text) {
			from = i // "Step 1" names the method by numbering its first step
		}
		secs, n := readUnder(blocks[from:], h.level, words, stopWords, instructions)
		if candidateWeight(secs, instructions) > candidateWeight(best, instructions) {
			best, bestAt, bestEnd = secs, i, from+n
		}
	}
	return best, bestAt, bestEnd
}

// candidateWeight ranks what was read under headings that name the part.
// Ingredients count lines. Steps count the lines that read like a step (a
// sentence, not a label): "Tiempo de elaboración" over a box of times
// ("35 m", "Cocinado") loses to "Elaboración" over the method.
func candidateWeight(secs []Section, instructions bool) int {
	if !instructions {
		return countItems(secs)
	}
	w := 0
	for _, l := range flatten(secs) {
		if utf8.RuneCountInString(l) >= 20 {
			w += 2
		} else {
			w++
		}
	}
	return w
}

// notInstructionWords name the parts that can sit between the ingredients
// and the method without being either.
var notInstructionWords = []string{"equipment", "utensil", "ustensile", "tools", "nutrition", "notes", "video", "utensilien", "utstyr", "udstyr"}

// instructionsAfter reads the part that follows the ingredients when its
// heading does not say "method" ("Recipe", "La recette"): the next heading
// at the ingredients' level or above, past equipment and the like. The
// lines must read like steps (sentences, not short labels).
func instructionsAfter(blocks []block, ingAt, ingEnd int) []Section {
	if ingAt < 0 || ingEnd >= len(blocks) {
		return nil
	}
	level := blocks[ingAt].level
	for i := ingEnd; i < len(blocks); i++ {
		h := blocks[i]
		if h.kind != 'h' || h.level > level || matchesAny(h.text, notInstructionWords) {
			continue
		}
		secs, _ := readUnder(blocks[i+1:], h.level, nil, ingredientWords, true)
		lines := flatten(secs)
		total := 0
		for _, l := range lines {
			total += len(l)
		}
		if len(lines) > 0 && total/len(lines) >= 25 {
			return secs
		}
		return nil
	}
	return nil
}

// maxHeadingCandidates and maxBlocksUnder bound the heuristic's work on
// pages that repeat a keyword thousands of times.
const (
	maxHeadingCandidates = 24
	maxBlocksUnder       = 600
	// maxParasUnder bounds the paragraphs read as one part: a long method
	// with a tip or the step's ingredients beside each step reaches 80.
	maxParasUnder = 100
)

func readUnder(blocks []block, level int, words, stopWords []string, instructions bool) ([]Section, int) {
	var items, paras sectionBuilder
	nItems, nParas := 0, 0
	n := 0
	if len(blocks) > maxBlocksUnder {
		blocks = blocks[:maxBlocksUnder]
	}
	groupsAtLevel := false // group headings as high as the part's own
	// Under a heading that only numbers a step ("Step 1"), the
	// paragraphs up to the next such heading are one step.
	inStep, stepStarted := false, false
	// A method never repeats a step: a step read twice is the start of a
	// second copy of the method (a print or mobile copy, a collapsed
	// preview), and reading stops there. Only steps long enough to be
	// one of a kind count ("Serve." can be two steps).
	seen := map[string]bool{}
loop:
	for i, b := range blocks {
		if instructions && b.kind != 'h' && utf8.RuneCountInString(b.text) >= 30 {
			k := string(b.kind) + normKey(b.text)
			if seen[k] {
				break loop
			}
			seen[k] = true
		}
		switch b.kind {
		case 'h':
			// A heading that only numbers the next step ("Step 1",
			// "2.") is the step's number: it neither ends the method
			// nor names a group of it.
			if instructions && stepLabel.MatchString(b.text) {
				inStep, stepStarted = true, false
				break
			}
			// A bold line inside a numbered step is its first words.
			if inStep && b.level == 7 {
				paras.stepText(b.text, &stepStarted)
				break
			}
			// The other part's heading ends this one. Below the part's own
			// level only a heading that starts with the other part's word
			// does ("Ingredients for the sauce"): "Preparar los
			// ingredientes:" inside the method is one of its groups.
			if matchesAny(b.text, stopWords) && len(b.text) <= 60 && (b.level <= level || startsWithAny(b.text, stopWords)) {
				break loop
			}
			// A heading as high as the part's own ends it, unless nothing
			// has been read yet ("Ingredients", then "For the cake"), or
			// groups are written that way and ingredient lines follow.
			if b.level <= level && b.level < 7 {
				switch {
				case nItems+nParas == 0:
					groupsAtLevel = true
				case groupsAtLevel && !instructions && ingredientsFollow(blocks[i+1:]):
				case len(b.text) <= 60 && matchesAny(b.text, words):
					// "Ingredients for the topping" after "Ingredients"
				default:
					break loop
				}
			}
			name := strings.TrimRight(b.text, ": ")
			items.section(name)
			paras.section(name)
		case 'i':
			items.item(b.text)
			nItems++
		case 'p':
			// A step's number shown apart from its text ("3") is not a
			// step, and does not count toward the paragraphs read.
			if instructions && stepNumberOnly(b.text) {
				break
			}
			switch {
			case inStep && stepStarted:
				paras.stepText(b.text, &stepStarted)
			case nParas < maxParasUnder:
				if inStep {
					paras.stepText(b.text, &stepStarted)
				} else {
					paras.item(b.text)
				}
				nParas++
			}
		}
		n++
	}
	// Lists are the usual form; a unit switch ("US", "Metric") can be the
	// only list above ingredients written as paragraphs.
	if nItems >= 3 || nItems > 0 && nItems >= nParas {
		return items.sections(), n
	}
	if nParas > 0 {
		return paras.sections(), n
	}
	return items.sections(), n
}

// methodClassWords name a method in the classes pages give its list.
var methodClassWords = []string{"instruction", "direction", "method", "preparation", "steps"}

// methodByClass reads the method from the first element whose class names
// it (see methodClassWords), for pages whose method heading is not one the
// heuristic knows ("So wird es gemacht:").
func methodByClass(body *html.Node) []Section {
	for _, w := range methodClassWords {
		if s := byClass(body, w, true); countItems(s) > 0 {
			return s
		}
	}
	return nil
}

// laterParts reads the elements after n, under the same parent and with
// the same class, as further parts of the same list: a recipe in parts
// (the dish, its sauce, its topping) writes one list of each kind per
// part, the parts' lists alternating.
func laterParts(n *html.Node, instructions bool) []Section {
	cls := attr(n, "class")
	var out []Section
	for s := n.NextSibling; s != nil; s = s.NextSibling {
		if s.Type == html.ElementNode && s.DataAtom == n.DataAtom && attr(s, "class") == cls && !hiddenElement(s) {
			out = append(out, readGroups(s, instructions)...)
		}
	}
	return out
}

// ingredientsFollow reports whether the lines after a heading read like
// ingredients (so the heading names a group of them).
func ingredientsFollow(blocks []block) bool {
	n, like := 0, 0
	for _, b := range blocks {
		if b.kind == 'h' || n == 5 {
			break
		}
		n++
		if looksLikeIngredient(b.text) {
			like++
		}
	}
	return n > 0 && like*2 > n
}

// byClass reads the first element whose class mentions word and holds list
// items (or, for instructions, paragraphs).
func byClass(body *html.Node, word string, instructions bool) []Section {
	var out []Section
	walk(body, func(n *html.Node) bool {
		if out != nil {
			return false
		}
		if boilerplate(n) {
			return false
		}
		if !classHas(n, word) {
			return true
		}
		lists := hasDescendant(n, atom.Li) || !instructions && hasDescendant(n, atom.Dt)
		if lists || hasDescendant(n, atom.P) {
			// Ingredients written as paragraphs must read like
			// ingredient lines: an "ingredients-intro" of prose is not
			// the list.
			if s := readGroups(n, instructions); countItems(s) > 0 && (lists || instructions || mostlyIngredients(flatten(s))) {
				out = append(s, laterParts(n, instructions)...)
				return false
			}
		}
		return true
	})
	return out
}

// Servings written on the page, in the corpus's languages. servingsBefore
// matches a label before the number ("Serves: 4", "Yield 4-6", "Ración
// para: 1", "Portionen: 2", "Počet porcí: 4"); servingsAfter matches the
// number before its noun ("4 servings", "4 porce", "Até 4 porções", "8 os.",
// "4人份"); servingsLabel is a label standing alone, whose number is the next
// line or the value of the form field beside it.
//
// A range ("4-6 servings", "10 to 12") gives its upper bound everywhere,
// in structured data and in page text alike (yieldFromText): the recipe's
// amounts are written for at most that many.
const (
	pieceNouns         = `pieces|pcs|stuks|stück|stücke|kusů|kusov|cookies|muffins|cupcakes|bars|biscuits|koekjes|plätzchen`
	servingsLabelWords = `serves|servings?|serving for|yields?|makes|portions?|portionen|porties|porzioni|porciones|porções|` +
		`personnes|personen|personer|porcje|porce|porcie|počet porcí|adag|raci[oó]n(?:es)?(?: para)?|rinde|rendimiento|rendimento|` +
		`rendement|pour|für|voor|para|per|persone|pessoas|personas|comensales|opbrengst|aantal personen|porsjoner|portioner|` +
		`annoksia|kişilik|udbytte`
	servingsNounWords = `servings?|serves|portions?|portioner|portionen|porties|porzioni|porciones|porções|personnes|personen|` +
		`persons|people|personer|personas|persone|pessoas|comensales|raciones|porcje|porcji|porce|porcí|porcií|porcie|osoby|osób|os\.|` +
		`adag|pers\.|porsjoner|annosta|henkilölle|hengelle|kişilik|人份|人分`
)

var (
	servingsBefore = regexp.MustCompile(`(?i)(?:^|[^\pL])(?:` + servingsLabelWords + `)(?:[^\pL\d]|$)\s*:?\s*(\d+(?:\s*(?:-|–|to|a|à|bis|tot|til)\s*\d+)?)(?:\s*(?:` + servingsNounWords + `))?`)
	servingsAfter  = regexp.MustCompile(`(?i)(\d+(?:\s*(?:-|–|to|a|à|bis|tot|til)\s*\d+)?)\s*(?:\([^)]{0,20}\)\s*)?(?:` + servingsNounWords + `)`)
	servingsWord   = regexp.MustCompile(`(?i)(?:^|[^\pL])(?:serves|yields?|makes|` + servingsNounWords + `)(?:[^\pL]|$)`)
	servingsLabel  = regexp.MustCompile(`(?i)^\s*(?:` + servingsLabelWords + `)\s*:?\s*$`)
	// piecesFirst is a line that starts with a count of pieces ("10 pieces
	// — 20 minutes", "12 cookies"): a yield only at the start of a line,
	// where an ingredient's "cut into 4 pieces" cannot be.
	piecesFirst = regexp.MustCompile(`(?i)^\s*(\d+(?:\s*(?:-|–|to)\s*\d+)?)\s*(?:` + pieceNouns + `)(?:[^\pL]|$)`)
	// piecesNext is a count of pieces after a preposition ("Zutaten für 12
	// Stücke", "pour 24 biscuits").
	piecesNext = regexp.MustCompile(`(?i)^\s*(?:` + pieceNouns + `)(?:[^\pL]|$)`)
)

// servingsHint is a cheap test before the regular expressions.
func servingsHint(s string) bool {
	s = strings.ToLower(s)
	for _, w := range []string{"serv", "yield", "make", "portion", "pers", "peop", "porz", "porc", "porç", "porties", "adag",
		"osob", "osób", "os.", "raci", "rind", "rend", "pour", "für", "voor", "para", "per", "pessoa", "comensal",
		"opbrengst", "porsjon", "annos", "henkil", "hengel", "kişi", "udbytte", "人", "份",
		"piece", "pcs", "stuk", "stück", "kus", "cookie", "muffin", "cupcake", "bars", "biscuit", "koekje", "plätzchen"} {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// servingsInText finds a number of servings written in a short line, or a
// label line ("Makes:") whose number is the next line ("24 - 30").
func servingsInText(blocks []block) *int {
	if len(blocks) > 4000 {
		blocks = blocks[:4000]
	}
	for i, b := range blocks {
		if len(b.text) > 120 || !servingsHint(b.text) {
			continue
		}
		if servingsLabel.MatchString(b.text) && i+1 < len(blocks) && !strings.EqualFold(strings.TrimSpace(strings.TrimRight(b.text, ": ")), "per") {
			if next := strings.TrimSpace(blocks[i+1].text); len(next) <= 24 && next != "" && next[0] >= '0' && next[0] <= '9' {
				// The same bound as below: "Makes:" over "700" is a counter.
				if n := yieldFromText(next); n != nil && *n <= maxTextServings {
					return n
				}
			}
		}
		if !hasDigitOrFraction(b.text) {
			continue
		}
		var m []string
		if m = servingsBefore.FindStringSubmatch(b.text); m == nil || !labelledNumberOK(m, b.text) {
			if m = servingsAfter.FindStringSubmatch(b.text); m == nil {
				m = piecesFirst.FindStringSubmatch(b.text)
			}
		}
		// A count in the hundreds is a site's counter ("4492 os." who saved
		// it), not the servings of a recipe.
		if n := yieldFromTextMatch(m); n != nil && *n <= maxTextServings {
			return n
		}
	}
	return nil
}

const maxTextServings = 200

func yieldFromTextMatch(m []string) *int {
	if m == nil {
		return nil
	}
	return yieldFromText(m[1])
}

// labelledNumberOK refuses the prepositions among the labels ("pour",
// "für", "para", "per", "voor") unless a servings noun, or a count of
// pieces, follows the number in line: "pour 4 personnes" and "für 12
// Stücke" are yields, "pour 200 g de farine" is not.
func labelledNumberOK(m []string, line string) bool {
	label := strings.ToLower(strings.TrimSpace(strings.TrimRight(strings.Split(m[0], m[1])[0], ": ")))
	label = strings.TrimLeftFunc(label, func(r rune) bool { return !unicode.IsLetter(r) })
	switch label {
	case "pour", "für", "voor", "para", "per":
		if servingsAfter.MatchString(m[0]) {
			return true
		}
		at := strings.Index(line, m[0])
		return at >= 0 && piecesNext.MatchString(line[at+len(m[0]):])
	}
	return true
}

// servingsFromControls reads a yield that a page shows as a form field
// beside its label, for readers to change: <label>Serves: <input
// value="12"></label>, or a <select> of servings with one option selected
// next to "personnes".
func servingsFromControls(body *html.Node) *int {
	var found *int
	walk(body, func(n *html.Node) bool {
		if found != nil {
			return false
		}
		var v string
		switch n.DataAtom {
		case atom.Input:
			v = attr(n, "value")
		case atom.Select:
			for _, o := range find(n, func(e *html.Node) bool { return e.DataAtom == atom.Option }) {
				if hasAttr(o, "selected") {
					v = attr(o, "value")
					if v == "" {
						v = nodeText(o)
					}
				}
			}
		default:
			return true
		}
		v = strings.TrimSpace(v)
		if v == "" || v[0] < '0' || v[0] > '9' || len(v) > 6 {
			return false
		}
		// The label is the text of the field's nearest ancestors.
		for a, depth := n.Parent, 0; a != nil && depth < 2; a, depth = a.Parent, depth+1 {
			t := nodeText(a)
			if len(t) > 200 {
				break
			}
			if fieldIsServings(t) {
				found = yieldFromText(v)
				break
			}
		}
		return false
	})
	return found
}

// fieldIsServings reports a short label that names servings ("Serves:",
// "Pour … personnes"); the prepositions alone do not.
func fieldIsServings(label string) bool {
	label = oneLine(label)
	return len(label) <= 60 && servingsWord.MatchString(label)
}

// metaTags reads the <meta> tags of the head without a DOM.
func (p *page) metaContent(keys ...string) string {
	headEnd := bytes.Index(p.lower, []byte("</head"))
	if headEnd < 0 {
		headEnd = len(p.lower)
	}
	found := map[string]string{}
	for i := 0; i < headEnd; {
		k := bytes.Index(p.lower[i:headEnd], []byte("<meta"))
		if k < 0 {
			break
		}
		i += k
		end := bytes.IndexByte(p.lower[i:], '>')
		if end < 0 {
			break
		}
		tag := string(p.raw[i : i+end])
		i += end
		name := strings.ToLower(attrValue(tag, "property"))
		if name == "" {
			name = strings.ToLower(attrValue(tag, "name"))
		}
		if name == "" {
			name = strings.ToLower(attrValue(tag, "itemprop"))
		}
		if _, ok := found[name]; !ok {
			found[name] = attrValue(tag, "content")
		}
	}
	for _, k := range keys {
		if v := strings.TrimSpace(found[k]); v != "" {
			return v
		}
	}
	return ""
}

// metaImage is the page's share image (og:image and friends).
func (p *page) metaImage() string {
	v := p.metaContent("og:image:secure_url", "og:image", "og:image:url", "twitter:image", "twitter:image:src", "image", "thumbnail")
	return absURL(v, p.base)
}

// metaTitle is og:title, else the <title> text without a " | Site" suffix.
func (p *page) metaTitle() string {
	if t := cleanText(p.metaContent("og:title", "twitter:title")); t != "" {
		return t
	}
	i := bytes.Index(p.lower, []byte("<title"))
	if i < 0 {
		return ""
	}
	j := bytes.IndexByte(p.lower[i:], '>')
	k := bytes.Index(p.lower[i:], []byte("</title"))
	if j < 0 || k < j {
		return ""
	}
	return withoutSiteName(cleanText(string(p.raw[i+j+1 : i+k])))
}

// headingTitle picks the h1 that names the page: of several, the one most
// like the meta title (sites put a hidden "Navigation" h1 first); with no
// h1, the meta title.
func headingTitle(blocks []block, meta string) string {
	var h1s []string
	for _, b := range blocks {
		if b.kind == 'h' && b.level == 1 && !classHas(b.node, "site-title") && !classHas(b.node, "logo") {
			h1s = append(h1s, b.text)
		}
	}
	if len(h1s) == 0 {
		return meta
	}
	if meta == "" {
		return h1s[0]
	}
	mw := wordSet(withoutSiteName(meta))
	best, bestSim := "", 0.0
	for _, h := range h1s {
		if s := jaccard(wordSet(h), mw); s > bestSim {
			best, bestSim = h, s
		}
	}
	if bestSim >= 0.5 {
		return best
	}
	if len(h1s) == 1 {
		return h1s[0]
	}
	return meta
}

// withoutSiteName drops a " - Site Name" or " | Site Name" suffix.
func withoutSiteName(t string) string {
	for _, sep := range []string{" | ", " - ", " – ", " — ", " :: "} {
		if x := strings.LastIndex(t, sep); x > 0 {
			return t[:x]
		}
	}
	return t
}

// orphanProps reads itemprop="recipeIngredient" / "ingredients" /
// "recipeInstructions" elements that sit outside any Recipe item, which
// older themes emit.
func orphanProps(body *html.Node) (ing, ins []Section) {
	var ib, sb sectionBuilder
	walk(body, func(n *html.Node) bool {
		for prop := range strings.FieldsSeq(attr(n, "itemprop")) {
			switch propName(prop) {
			case "recipeIngredient", "ingredients":
				for _, line := range cleanLines(nodeText(n)) {
					ib.item(line)
				}
				return false
			case "recipeInstructions":
				for _, s := range splitSteps(nodeText(n)) {
					sb.item(s)
				}
				return false
			}
		}
		return true
	})
	return ib.sections(), sb.sections()
}

// ingredientLikeList is the last resort: the run of list items that reads
// most like ingredient lines (quantities and units), with the instructions
// taken from what follows it when none were found.
func ingredientLikeList(blocks []block, ins []Section) ([]Section, []Section) {
	bestStart, bestEnd, bestScore := -1, -1, 0.0
	for i := 0; i < len(blocks); {
		if blocks[i].kind != 'i' {
			i++
			continue
		}
		j := i
		like := 0
		for j < len(blocks) && blocks[j].kind == 'i' {
			if looksLikeIngredient(blocks[j].text) {
				like++
			}
			j++
		}
		n := j - i
		if n >= 3 && like*2 >= n {
			if score := float64(like); score > bestScore {
				bestStart, bestEnd, bestScore = i, j, score
			}
		}
		i = j
	}
	if bestStart < 0 {
		return nil, ins
	}
	var b sectionBuilder
	for _, bl := range blocks[bestStart:bestEnd] {
		b.item(bl.text)
	}
	if countItems(ins) == 0 {
		var s sectionBuilder
		for _, bl := range blocks[bestEnd:] {
			if bl.kind == 'h' && bl.level < 7 {
				break
			}
			if bl.kind == 'p' || bl.kind == 'i' {
				s.item(bl.text)
			}
			if countItems(s.out) >= 30 {
				break
			}
		}
		ins = s.sections()
	}
	return b.sections(), ins
}

var quantityRe = regexp.MustCompile(`(?i)^\s*(?:[\d½¼¾⅓⅔⅛]|a |an |one |two |three |pinch|handful|salt|pepper)|\b(?:cups?|tbsp|tsp|tablespoons?|teaspoons?|oz|ounces?|lbs?|pounds?|g|kg|grams?|ml|l|cl|dl|el|tl|cloves?|pinch|cans?)\b`)

// mostlyIngredients reports at least two lines, most of which read like
// ingredient lines.
func mostlyIngredients(lines []string) bool {
	like := 0
	for _, l := range lines {
		if looksLikeIngredient(l) {
			like++
		}
	}
	return len(lines) >= 2 && like*2 > len(lines)
}

func looksLikeIngredient(s string) bool {
	return len(s) <= 150 && quantityRe.MatchString(s)
}
