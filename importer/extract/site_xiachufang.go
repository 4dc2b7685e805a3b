package extract

import (
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// xiachufang.com (下厨房) puts a dish category in the JSON-LD "name" ("焗饭",
// baked rice) where the page's h1 has the recipe's title, and glues amount
// and ingredient together in recipeIngredient ("150克鸡胸肉"). The page's
// ingredient table (div.ings, td.name and td.unit) keeps them apart.
var _ = registerSite(&siteExtractor{
	hosts: []string{"xiachufang.com"},
	why:   "JSON-LD name is the dish category, not the title; ingredient amounts are glued to the names",
	fix: func(p *page, r *Recipe) {
		doc := p.document()
		if doc == nil || len(doc.Nodes) == 0 {
			return
		}
		root := doc.Nodes[0]
		try(func() {
			if h := findFirst(root, func(n *html.Node) bool { return n.DataAtom == atom.H1 }); h != nil {
				if t := lineText(h); t != "" {
					r.Title = t
				}
			}
		})
		try(func() {
			table := findFirst(root, func(n *html.Node) bool { return hasClass(n, "ings") })
			if table == nil {
				return
			}
			var b sectionBuilder
			for _, row := range find(table, func(n *html.Node) bool { return n.DataAtom == atom.Tr }) {
				var name, unit string
				for _, td := range find(row, func(n *html.Node) bool { return n.DataAtom == atom.Td }) {
					switch {
					case hasClass(td, "name"):
						name = lineText(td)
					case hasClass(td, "unit"):
						unit = lineText(td)
					}
				}
				switch {
				case name != "" && unit != "":
					b.item(unit + " " + name)
				case name != "":
					b.item(name)
				}
			}
			if s := b.sections(); countItems(s) > 0 {
				r.IngredientSections = s
			}
		})
	},
})
