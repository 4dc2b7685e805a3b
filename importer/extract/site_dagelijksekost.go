package extract

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// dagelijksekost.vrt.be (VRT's "Dagelijkse Kost") publishes JSON-LD whose
// recipeInstructions stop after the first couple of steps, while the page
// lists every step under "Instructies", grouped by h3 headings ("De
// bouillon", "De saus"), each step in a data-testid="recipe-instruction"
// block with its text in a large body-text span (a smaller span repeats
// the ingredients of the step, and tips have their own box). After the
// last group the page repeats the first steps in a collapsed preview ("Toon
// alle instructies") before the next heading: reading stops at the first
// step that was already read.
var _ = registerSite(&siteExtractor{
	hosts: []string{"dagelijksekost.vrt.be"},
	why:   "JSON-LD lists only the first steps of the method; the page has all of them, in groups",
	fix: func(p *page, r *Recipe) {
		try(func() {
			if s := dagelijksekostSteps(p); countItems(s) > countItems(r.InstructionSections) {
				r.InstructionSections = s
			}
		})
	},
})

func dagelijksekostSteps(p *page) []Section {
	doc := p.document()
	if doc == nil || len(doc.Nodes) == 0 {
		return nil
	}
	var b sectionBuilder
	seen := map[string]bool{}
	started, done := false, false
	walk(doc.Nodes[0], func(n *html.Node) bool {
		if done {
			return false
		}
		switch {
		case n.DataAtom == atom.H2:
			if started {
				done = true // the end, or the page's second (mobile) copy
			} else if strings.EqualFold(lineText(n), "Instructies") {
				started = true
			}
			return false
		case !started:
			return true
		case n.DataAtom == atom.H3:
			b.section(lineText(n))
			return false
		case attr(n, "data-testid") == "recipe-instruction":
			for _, span := range find(n, func(e *html.Node) bool { return e.DataAtom == atom.Span && classHas(e, "bodylarge") }) {
				t := lineText(span)
				if k := normKey(t); seen[k] {
					done = true // the preview of the first steps again
					return false
				} else if k != "" {
					seen[k] = true
				}
				b.item(t)
			}
			return false
		}
		return true
	})
	return b.sections()
}
