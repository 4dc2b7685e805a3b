// Package extract reads a recipe out of an HTML page.
//
// Sources, each read on its own and merged field by field (see merge):
//   - site extractors keyed by host, for sites whose structured data is
//     missing or wrong (site.go and site_*.go; listed in SITES.md);
//   - schema.org Recipe data as JSON-LD (read by a tolerant JSON reader, so
//     sloppy markup still works), microdata and RDFa;
//   - the HTML of common WordPress recipe plugins (WP Recipe Maker, Tasty
//     Recipes, Mediavine Create, ...), which keeps ingredient and
//     instruction groups that the structured data flattens;
//   - a heuristic reading of headings and lists for pages with none of these.
//
// Every field is extracted under its own recover, so a malformed value (an
// object where a number was expected, say) loses that field only.
package extract

import (
	"bytes"
	"errors"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/PuerkitoBio/goquery"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
	"golang.org/x/net/html/charset"
)

// ErrNoRecipe means the page holds nothing that reads as a recipe.
var ErrNoRecipe = errors.New("this page has no recipe we can read")

// Section is a named group of ingredient lines or instruction steps. A recipe
// without groups has one section whose Name is "".
type Section struct {
	Name  string   `json:"name"`
	Items []string `json:"items"`
}

// Recipe is what FromHTML reads from a page. Times are in minutes; pointers
// are nil when the page does not say. Text is plain (no tags or entities)
// and image URLs are absolute.
type Recipe struct {
	Title               string    `json:"title"`
	Description         string    `json:"description"`
	Servings            *int      `json:"servings"`
	ServingsUnit        string    `json:"servingsUnit,omitempty"` // what Servings count when not people ("cookies"); "" is people
	PrepMinutes         *int      `json:"prepMinutes"`
	CookMinutes         *int      `json:"cookMinutes"`
	TotalMinutes        *int      `json:"totalMinutes"`
	SourceURL           string    `json:"sourceUrl"`
	ImageURL            string    `json:"imageUrl"`
	Categories          []string  `json:"categories"`
	Tags                []string  `json:"tags"`
	Cuisines            []string  `json:"cuisines"`
	Author              string    `json:"author"`
	IngredientSections  []Section `json:"ingredientSections"`
	InstructionSections []Section `json:"instructionSections"`
	// Via names how the recipe was read, for the import metrics:
	// structured_data (JSON-LD), microdata (or RDFa), plugin (a recipe
	// plugin's card) or heuristic; importer sets browser_fallback when the
	// page had to be rendered in Chromium.
	Via string `json:"-"`
}

// FromHTML extracts the recipe of page, whose address pageURL is used to
// resolve relative links and to pick a site extractor. It returns
// ErrNoRecipe when neither ingredients nor instructions can be found.
func FromHTML(page []byte, pageURL string) (Recipe, error) {
	return fromHTML(page, pageURL, true)
}

// FromHTMLGeneric is FromHTML without the site extractors: the page is read
// by the general rules only, as a site we have never seen would be. It
// measures how well those rules do on their own (admin parse --generic).
func FromHTMLGeneric(page []byte, pageURL string) (Recipe, error) {
	return fromHTML(page, pageURL, false)
}

func fromHTML(page []byte, pageURL string, sites bool) (Recipe, error) {
	p := newPage(page, pageURL)
	p.sites = sites
	r := p.extract()
	if countItems(r.IngredientSections) == 0 && countItems(r.InstructionSections) == 0 {
		return r, ErrNoRecipe
	}
	return r, nil
}

// page is one document being read, with what several sources share: the
// lowercased bytes for fast scanning, the parsed JSON-LD and, built only when
// a source needs it, the DOM.
type page struct {
	raw   []byte
	lower []byte
	url   *url.URL
	base  *url.URL
	host  string
	sites bool // whether a site extractor may correct the recipe

	ld      []any
	ldGraph *graph

	docDone bool
	doc     *goquery.Document

	blocksDone bool
	body       *html.Node
	blocks     []block

	appDone bool
	app     map[string]any // the recipe in the data of the page's scripts (appdata.go)
}

func newPage(raw []byte, pageURL string) *page {
	if !utf8.Valid(raw) {
		raw = toUTF8(raw)
	}
	p := &page{raw: raw, lower: asciiLower(raw)}
	if u, err := url.Parse(strings.TrimSpace(pageURL)); err == nil {
		p.url = u
		p.base = u
		p.host = strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.")
	}
	if b := p.baseHref(); b != nil {
		p.base = b
	}
	return p
}

// toUTF8 decodes a page that is not UTF-8 using its declared (or sniffed)
// charset. The fetcher normally decodes already; this covers saved files.
func toUTF8(raw []byte) []byte {
	enc, _, _ := charset.DetermineEncoding(raw, "text/html")
	out, err := enc.NewDecoder().Bytes(raw)
	if err != nil {
		return bytes.ToValidUTF8(raw, []byte("\uFFFD"))
	}
	return out
}

// baseHref reads <base href>, which changes how relative links resolve.
func (p *page) baseHref() *url.URL {
	i := bytes.Index(p.lower, []byte("<base "))
	if i < 0 {
		return nil
	}
	end := bytes.IndexByte(p.lower[i:], '>')
	if end < 0 {
		return nil
	}
	href := attrValue(string(p.raw[i:i+end]), "href")
	if href == "" {
		return nil
	}
	b, err := url.Parse(href)
	if err != nil {
		return nil
	}
	if p.url != nil {
		b = p.url.ResolveReference(b)
	}
	if !b.IsAbs() {
		return nil
	}
	return b
}

// document parses the page into a DOM the first time a source asks for it;
// most pages with good JSON-LD never need one.
func (p *page) document() *goquery.Document {
	if !p.docDone {
		p.docDone = true
		doc, err := goquery.NewDocumentFromReader(bytes.NewReader(p.raw))
		if err == nil {
			p.doc = doc
		}
	}
	return p.doc
}

// attrMentions reports whether some attribute written attr="..." has word
// in its value (typeof="schema:Recipe"), so that the DOM is built for RDFa
// only on pages that have a recipe in it.
func (p *page) attrMentions(attr, word string) bool {
	a, w := []byte(attr), []byte(word)
	for i := 0; ; {
		k := bytes.Index(p.lower[i:], a)
		if k < 0 {
			return false
		}
		i += k + len(a)
		end := min(i+120, len(p.lower))
		v := p.lower[i:end]
		if len(v) > 0 && (v[0] == '"' || v[0] == '\'') {
			if q := bytes.IndexByte(v[1:], v[0]); q >= 0 {
				v = v[1 : 1+q]
			}
		}
		if bytes.Contains(v, w) {
			return true
		}
	}
}

// extract runs the sources and merges them. Structured data is trusted
// first (JSON-LD, then microdata, then RDFa: mergeRecipes takes each field
// from the first that has it); the plugin card adds groups; the page's own
// lines replace structured ingredient lines that are evidently broken; the
// heuristic fills what is still missing; a site extractor has the last
// word.
func (p *page) extract() Recipe {
	var cands []Recipe
	p.ld = ldNodes(p.raw, p.lower)
	p.ldGraph = newGraph(p.ld)
	fromLD := false
	if n := p.bestNode(findTyped(p.ld, "Recipe")); n != nil {
		cands = append(cands, fromSchema(n, p.ldGraph, p.base))
		fromLD = true
	}
	// The DOM is built for microdata and RDFa only when the page names a
	// Recipe type in them.
	if bytes.Contains(p.lower, []byte("schema.org/recipe")) || bytes.Contains(p.lower, []byte("vocabulary.org/recipe")) {
		if n := p.bestNode(microdataRecipes(p.document())); n != nil {
			cands = append(cands, fromSchema(n, nil, p.base))
		}
	}
	if p.attrMentions("typeof=", "recipe") {
		if n := p.bestNode(rdfaRecipes(p.document())); n != nil {
			cands = append(cands, fromSchema(n, nil, p.base))
		}
	}

	// hRecipe, the microformat of older recipe blogs, ranks after
	// schema.org data. The DOM is built for it only when a tag has the
	// class: the bare words are in many addresses ("fresh-recipe").
	if classTagStart(p.lower, "hrecipe", 0) >= 0 || classTagStart(p.lower, "h-recipe", 0) >= 0 {
		if n := p.bestNode(hRecipes(p.document())); n != nil {
			cands = append(cands, fromSchema(n, nil, p.base))
		}
	}

	r := mergeRecipes(cands)
	via := "heuristic"
	switch {
	case fromLD:
		via = "structured_data"
	case len(cands) > 0:
		via = "microdata"
	}
	plug, hasPlug := fromPlugins(p, flatten(r.IngredientSections))
	if hasPlug {
		if r.Title == "" {
			r.Title = plug.Title // the card's name, before the heuristic's h1
		}
		r = mergePlugin(r, plug)
		if len(cands) == 0 {
			via = "plugin"
		}
	}
	p.repairIngredients(&r, plug)
	structuredMethod := countItems(r.InstructionSections) > 0
	if needsHeuristic(r) {
		r = mergeRecipes([]Recipe{r, heuristic(p)})
		via = "heuristic"
	}
	if !structuredMethod && !anyStepLike(r.InstructionSections) {
		// The method may be in the data of the page's scripts only
		// (appdata.go), the HTML holding nothing or a placeholder
		// ("Loading…"); the HTML's ingredients stay when it has them,
		// unless they are only part of the data's list.
		try(func() {
			if ing, steps := p.appData(); countItems(steps) > 0 {
				r.InstructionSections = steps
				if appListWins(ing, r.IngredientSections) {
					r.IngredientSections = ing
				}
			}
		})
	}
	if !needsHeuristic(r) {
		try(func() {
			if m := p.completeMethod(r); m != nil {
				r.InstructionSections = m
			}
		})
	}
	r.Via = via
	if r.ImageURL == "" {
		try(func() { r.ImageURL = p.metaImage() })
	}
	if r.ImageURL == "" {
		// No image in any source nor in the share tags: the article's
		// first sizeable picture, as the heuristic reads it.
		try(func() {
			if body, _ := p.pageBlocks(); body != nil {
				r.ImageURL = contentImage(body, p.base)
			}
		})
	}
	if r.Servings == nil {
		try(func() { r.Servings = p.servingsFromText() })
	}
	// Categories: structured recipeCategory (already in r) wins; then the
	// article's sections; then the category links of the article itself.
	if len(r.Categories) == 0 {
		try(func() { r.Categories = p.articleSections() })
	}
	if len(r.Categories) == 0 {
		try(func() { r.Categories = p.categoryLinks() })
	}
	if r.Title == "" {
		try(func() { r.Title = p.metaTitle() })
	}
	if s := siteFor(p.host); s != nil && p.sites {
		try(func() { s.fix(p, &r) })
	}
	finish(&r, p)
	return r
}

// repairIngredients replaces structured ingredient lines that are evidently
// broken with the lines the page shows, when those are the same
// ingredients: amounts glued to the names (spacing.go), names without
// amounts, a whole list glued into one or two lines, a tag list ("Cheese,
// Pasta") in place of the ingredients, or amounts written after the names
// ("milk, 500 ml").
func (p *page) repairIngredients(r *Recipe, plug Recipe) {
	lines := flatten(r.IngredientSections)
	if gluedLines(lines) {
		try(func() {
			if g, ok := respaced(r.IngredientSections, flatten(p.pageIngredients())); ok {
				r.IngredientSections = g
				lines = flatten(g)
			}
		})
	}
	switch {
	case quantitiesMissing(lines):
		try(func() {
			if g := withQuantities(lines, plug.IngredientSections); g != nil {
				r.IngredientSections = g
			} else if g := withQuantities(lines, p.pageIngredients()); g != nil {
				r.IngredientSections = g
			}
		})
	case len(lines) > 0 && len(lines) <= 2:
		try(func() {
			g := p.pageIngredients()
			switch {
			case countItems(g) < 3:
			case resplit(lines, flatten(g)):
				r.IngredientSections = g
			case !hasDigitOrFraction(strings.Join(lines, " ")) && !quantitiesMissing(flatten(g)):
				r.IngredientSections = g
			}
		})
	case amountsLast(lines):
		try(func() {
			if g := reordered(lines, p.pageIngredients()); g != nil {
				r.IngredientSections = g
			}
		})
	case len(lines) > 0 && p.listGoesOn(lines[len(lines)-1]):
		try(func() {
			if g := p.pageIngredients(); completes(lines, flatten(g)) {
				r.IngredientSections = g
			}
		})
	}
}

// listGoesOn is a cheap look, without building the DOM, for a list on the
// page that goes on after the line last: the line is the whole text of a
// list item (only tags and spaces around it) and the next item follows.
// Matching the line anywhere (inside a step, a note or script data) would
// build the DOM for half the pages only to find no such list.
func (p *page) listGoesOn(last string) bool {
	w := []byte(last)
	if len(w) < 3 {
		return false
	}
	for i := 0; ; {
		k := bytes.Index(p.raw[i:], w)
		if k < 0 {
			return false
		}
		start := i + k
		i = start + len(w)
		if itemOpens(p.lower[max(0, start-600):start]) && nextItemFollows(p.lower[i:min(i+600, len(p.lower))]) {
			return true
		}
	}
}

// itemOpens reports whether before, the page right before a line's text,
// opens a list item with nothing but opening tags and spaces after it.
func itemOpens(before []byte) bool {
	for {
		before = bytes.TrimRight(before, " \t\r\n")
		if len(before) == 0 || before[len(before)-1] != '>' {
			return false
		}
		lt := bytes.LastIndexByte(before, '<')
		if lt < 0 {
			return false
		}
		tag := before[lt:]
		switch {
		case bytes.HasPrefix(tag, []byte("<li")) && (len(tag) == 3 || !isLetter(tag[3])):
			return true
		case bytes.HasPrefix(tag, []byte("</")):
			return false
		}
		before = before[:lt]
	}
}

// nextItemFollows reports whether after, the page right after a line's
// text, closes the list item the text stands in and opens the next one,
// with nothing but closing tags and spaces in between.
func nextItemFollows(after []byte) bool {
	closed := false
	for {
		after = bytes.TrimLeft(after, " \t\r\n")
		switch {
		case bytes.HasPrefix(after, []byte("</li")):
			closed = true
		case bytes.HasPrefix(after, []byte("<li")) && len(after) > 3 && !isLetter(after[3]):
			return closed
		case !bytes.HasPrefix(after, []byte("</")):
			return false
		}
		end := bytes.IndexByte(after, '>')
		if end < 0 {
			return false
		}
		after = after[end+1:]
	}
}

// completes reports whether the page's ingredient list is the structured
// list continued: the structured lines are its first lines, in order, and
// it goes on with at least two more lines that read like ingredients. The
// structured data stopped part-way; the page shows what the cook needs.
func completes(lines, page []string) bool {
	if len(page) < len(lines)+2 {
		return false
	}
	for i, l := range lines {
		if k := normKey(l); k == "" || k != normKey(page[i]) {
			return false
		}
	}
	return mostlyIngredients(page[len(lines):])
}

// bestNode picks among several recipe nodes the one that looks most
// complete; a page about one recipe sometimes also lists related ones. The
// page's own recipe is the one its title names, or whose url is the page.
func (p *page) bestNode(nodes []map[string]any) map[string]any {
	switch len(nodes) {
	case 0:
		return nil
	case 1:
		return nodes[0]
	}
	var best map[string]any
	bestScore := -1
	title := wordSet(withoutSiteName(p.metaTitle()))
	for _, n := range nodes {
		s := 0
		if get(n, ingredientKeys...) != nil {
			s += 4
		}
		if get(n, instructionKeys...) != nil {
			s += 4
		}
		if get(n, "name") != nil {
			s += 2
		}
		if get(n, "image") != nil {
			s++
		}
		if p.url != nil {
			if u, ok := get(n, "url", "@id", "mainEntityOfPage").(string); ok && samePage(u, p.url) {
				s += 3
			}
		}
		if len(title) > 0 {
			if name, ok := get(n, "name", "headline").(string); ok && jaccard(wordSet(cleanText(name)), title) >= 0.5 {
				s += 3
			}
		}
		if s > bestScore {
			best, bestScore = n, s
		}
	}
	return best
}

func samePage(a string, u *url.URL) bool {
	pa, err := url.Parse(a)
	if err != nil {
		return false
	}
	return strings.TrimSuffix(pa.Path, "/") == strings.TrimSuffix(u.Path, "/") && pa.Path != ""
}

// pageAddress is the address the caller read the page from, when it is a
// real one. It wins over the recipe's own url (schema.org url, microdata
// itemprop="url"): it is the page the user asked for, while a page's url is
// often a canonical or AMP variant of it, and sometimes a template's
// placeholder or the site's home page. The recipe's url is the source link
// only when the caller gives no address (a saved file, an app's HTML
// export such as Paprika's) or one that cannot name a page: not http(s),
// or under the reserved .invalid domain (RFC 2606), which readers of
// archives use to resolve links between their entries.
func (p *page) pageAddress() string {
	if p.url == nil || p.url.Scheme != "http" && p.url.Scheme != "https" || p.url.Host == "" {
		return ""
	}
	if h := strings.TrimSuffix(strings.ToLower(p.url.Hostname()), "."); h == "invalid" || strings.HasSuffix(h, ".invalid") {
		return ""
	}
	return p.url.String()
}

// try runs one field's extraction; a panic loses that field only.
func try(fn func()) {
	defer func() { _ = recover() }()
	fn()
}

func countItems(ss []Section) int {
	n := 0
	for _, s := range ss {
		n += len(s.Items)
	}
	return n
}

// needsHeuristic reports whether the structured sources left out the core of
// the recipe.
func needsHeuristic(r Recipe) bool {
	return r.Title == "" || countItems(r.IngredientSections) == 0 || countItems(r.InstructionSections) == 0
}

// finish normalizes the merged recipe: no nil slices, no empty sections, no
// duplicate categories or tags, absolute links.
func finish(r *Recipe, p *page) {
	r.Title = cleanText(r.Title)
	r.Description = cleanText(r.Description)
	r.Author = cleanText(r.Author)
	r.IngredientSections = tidySections(r.IngredientSections)
	r.InstructionSections = dropTrailingServes(stripSectionNumbers(tidySections(r.InstructionSections)))
	r.Categories = tidyList(r.Categories)
	r.Tags = tidyList(r.Tags)
	r.Cuisines = tidyList(r.Cuisines)
	if r.ImageURL != "" {
		r.ImageURL = absURL(r.ImageURL, p.base)
	}
	if u := p.pageAddress(); u != "" {
		r.SourceURL = u
	}
	for _, m := range []**int{&r.Servings, &r.PrepMinutes, &r.CookMinutes, &r.TotalMinutes} {
		if *m != nil && **m <= 0 {
			*m = nil
		}
	}
	if r.TotalMinutes == nil && (r.PrepMinutes != nil || r.CookMinutes != nil) {
		t := 0
		if r.PrepMinutes != nil {
			t += *r.PrepMinutes
		}
		if r.CookMinutes != nil {
			t += *r.CookMinutes
		}
		r.TotalMinutes = &t
	}
}

func tidySections(in []Section) []Section {
	out := []Section{}
	for _, s := range in {
		items := []string{}
		for _, it := range s.Items {
			if it = tidyLine(cleanText(it)); it != "" {
				items = append(items, it)
			}
		}
		name := strings.TrimSpace(cleanText(s.Name))
		if len(items) == 0 {
			continue
		}
		// Two sections in a row with the same name are one.
		if n := len(out); n > 0 && out[n-1].Name == name {
			out[n-1].Items = append(out[n-1].Items, items...)
			continue
		}
		out = append(out, Section{Name: name, Items: items})
	}
	return out
}

func tidyList(in []string) []string {
	out := []string{}
	seen := map[string]bool{}
	for _, s := range in {
		s = cleanText(s)
		k := strings.ToLower(s)
		if s == "" || seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, s)
	}
	return out
}

// mergeRecipes takes each field from the first candidate that has it; the
// candidates come in order of trust.
func mergeRecipes(cands []Recipe) Recipe {
	var r Recipe
	for _, c := range cands {
		if r.Title == "" {
			r.Title = c.Title
		}
		if r.Description == "" {
			r.Description = c.Description
		}
		if r.Servings == nil {
			r.Servings, r.ServingsUnit = c.Servings, c.ServingsUnit
		}
		if r.PrepMinutes == nil {
			r.PrepMinutes = c.PrepMinutes
		}
		if r.CookMinutes == nil {
			r.CookMinutes = c.CookMinutes
		}
		if r.TotalMinutes == nil {
			r.TotalMinutes = c.TotalMinutes
		}
		if r.SourceURL == "" {
			r.SourceURL = c.SourceURL
		}
		if r.ImageURL == "" {
			r.ImageURL = c.ImageURL
		}
		if len(r.Categories) == 0 {
			r.Categories = c.Categories
		}
		if len(r.Tags) == 0 {
			r.Tags = c.Tags
		}
		if len(r.Cuisines) == 0 {
			r.Cuisines = c.Cuisines
		}
		if r.Author == "" {
			r.Author = c.Author
		}
		r.IngredientSections = betterIngredients(r.IngredientSections, c.IngredientSections)
		r.InstructionSections = betterInstructions(r.InstructionSections, c.InstructionSections)
	}
	return r
}

// betterIngredients keeps the trusted ingredient lines unless they are
// missing, or they list the ingredients without amounts while the other
// source has the same ingredients with them: when two sources disagree,
// the one whose lines carry amounts wins.
func betterIngredients(have, other []Section) []Section {
	if countItems(have) == 0 {
		return other
	}
	if lines := flatten(have); quantitiesMissing(lines) {
		if o := flatten(other); len(o) >= len(lines) && !quantitiesMissing(o) && len(o) <= len(lines)+len(lines)/4+1 &&
			jaccard(wordSet(strings.Join(lines, " ")), wordSet(strings.Join(o, " "))) >= 0.5 {
			return other
		}
	}
	return have
}

// betterInstructions keeps the trusted instructions unless they are missing
// or are one undivided block where the other source has the same text in
// steps.
func betterInstructions(have, other []Section) []Section {
	nh, no := countItems(have), countItems(other)
	if nh == 0 {
		return other
	}
	if nh == 1 && no > 1 {
		a, b := normKey(strings.Join(flatten(have), " ")), normKey(strings.Join(flatten(other), " "))
		if len(b) > 0 && len(a) > 0 && similarLength(len(a), len(b)) {
			return other
		}
	}
	return have
}

func similarLength(a, b int) bool {
	return a*10 >= b*7 && b*10 >= a*7
}

func flatten(ss []Section) []string {
	var out []string
	for _, s := range ss {
		out = append(out, s.Items...)
	}
	return out
}

// stripSectionNumbers removes step numbers written into the text of every
// step ("1. Preheat", "2. Mix"): the steps are numbered when shown. Numbers
// are stripped only when each section counts 1, 2, 3... on its own or all
// steps count on across sections.
func stripSectionNumbers(ss []Section) []Section {
	all := flatten(ss)
	if len(all) < 2 {
		return ss
	}
	if stripped := stripStepNumbers(all); &stripped[0] != &all[0] || len(ss) == 1 {
		k := 0
		for i := range ss {
			for j := range ss[i].Items {
				ss[i].Items[j] = stripped[k]
				k++
			}
		}
		return ss
	}
	for i := range ss {
		ss[i].Items = stripStepNumbers(ss[i].Items)
	}
	return ss
}

// servingsFromText reads a yield written on the page ("Serves 4", "4
// portioner") when no source gave one.
func (p *page) servingsFromText() *int {
	body, blocks := p.pageBlocks()
	if body == nil {
		return nil
	}
	// A field the reader can change is the recipe's own; a "Serves: 10"
	// in the text may belong to a related recipe further down.
	if n := servingsFromControls(body); n != nil {
		return n
	}
	return servingsInText(blocks)
}

// pageBlocks returns the body and its blocks, computed once per page.
func (p *page) pageBlocks() (*html.Node, []block) {
	if !p.blocksDone {
		p.blocksDone = true
		if doc := p.document(); doc != nil && len(doc.Nodes) > 0 {
			p.body = findFirst(doc.Nodes[0], func(n *html.Node) bool { return n.DataAtom == atom.Body })
			if p.body == nil {
				p.body = doc.Nodes[0]
			}
			p.blocks = pageBlocks(p.body)
		}
	}
	return p.body, p.blocks
}

// articleSections are the sections of the article that carries the recipe
// (JSON-LD articleSection), the site's own categories for the page, used
// when the recipe has no recipeCategory.
func (p *page) articleSections() []string {
	for _, t := range []string{"Article", "BlogPosting", "NewsArticle", "WebPage"} {
		for _, n := range findTyped(p.ld, t) {
			if v := get(n, "articleSection"); v != nil {
				var out []string
				for _, c := range textList(v, p.ldGraph) {
					if !strings.EqualFold(c, "uncategorized") {
						out = append(out, c)
					}
				}
				if len(out) > 0 {
					return out
				}
			}
		}
	}
	return nil
}

// categoryLinks are the links a blog marks rel="category" (WordPress
// writes rel="category tag" in a post's meta line, often in the article's
// header), outside navigation, sidebars and footers, where category links
// list the whole site.
func (p *page) categoryLinks() []string {
	if !bytes.Contains(p.lower, []byte("category")) {
		return nil
	}
	body, _ := p.pageBlocks()
	if body == nil {
		return nil
	}
	var out []string
	var rec func(n *html.Node)
	rec = func(n *html.Node) {
		for e := n.FirstChild; e != nil; e = e.NextSibling {
			if e.Type != html.ElementNode || boilerplate(e) {
				continue
			}
			if e.DataAtom == atom.A {
				for _, rel := range strings.Fields(strings.ToLower(attr(e, "rel"))) {
					if rel == "category" {
						if t := lineText(e); t != "" && !strings.EqualFold(t, "uncategorized") {
							out = append(out, t)
						}
						break
					}
				}
				continue
			}
			rec(e)
		}
	}
	rec(body)
	return out
}

// pageIngredients reads the ingredient list shown on the page, by the
// heuristic's rules.
func (p *page) pageIngredients() []Section {
	body, blocks := p.pageBlocks()
	if body == nil {
		return nil
	}
	if s := sectionUnder(blocks, ingredientWords, instructionWords, false); countItems(s) > 0 {
		return s
	}
	return byClass(body, "ingredient", false)
}
