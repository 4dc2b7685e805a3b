package extract

import (
	"strings"

	"github.com/PuerkitoBio/goquery"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Microdata (itemscope, itemtype, itemprop) and RDFa (vocab, typeof,
// property) are read into the same map shape as JSON-LD, so fromSchema
// serves all three.

// microdataRecipes returns every item whose itemtype is a schema.org Recipe.
func microdataRecipes(doc *goquery.Document) []map[string]any {
	if doc == nil {
		return nil
	}
	var out []map[string]any
	for _, root := range doc.Nodes {
		walk(root, func(n *html.Node) bool {
			if hasAttr(n, "itemscope") && typeListHas(attr(n, "itemtype"), "Recipe") {
				out = append(out, microdataItem(n, 0))
				return false
			}
			return true
		})
	}
	return out
}

// typeListHas reports whether a space-separated list of type URLs names t.
func typeListHas(list, t string) bool {
	for f := range strings.FieldsSeq(list) {
		if typeNameIs(f, t) {
			return true
		}
	}
	return false
}

func microdataItem(n *html.Node, depth int) map[string]any {
	item := map[string]any{}
	if t := attr(n, "itemtype"); t != "" {
		item["@type"] = strings.Fields(t)[0]
	}
	if depth > 20 {
		return item
	}
	var rec func(*html.Node)
	rec = func(p *html.Node) {
		for c := p.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			props := strings.Fields(attr(c, "itemprop"))
			scoped := hasAttr(c, "itemscope")
			if len(props) > 0 {
				var v any
				if scoped {
					v = microdataItem(c, depth+1)
				} else {
					v = propValue(c)
				}
				for _, name := range props {
					addProp(item, propName(name), v)
				}
			}
			if !scoped {
				rec(c)
			}
		}
	}
	rec(n)
	return item
}

// propName drops a vocabulary from a property name
// ("http://schema.org/name", "schema:name").
func propName(s string) string {
	if i := strings.LastIndexAny(s, "/:#"); i >= 0 {
		return s[i+1:]
	}
	return s
}

func addProp(item map[string]any, name string, v any) {
	old, ok := item[name]
	if !ok {
		item[name] = v
		return
	}
	if a, ok := old.([]any); ok {
		item[name] = append(a, v)
		return
	}
	item[name] = []any{old, v}
}

// propValue is the value of a property element, by the microdata rules
// (content, src, href, datetime, value, else the text), also accepting the
// lazy-loading attributes that hide an image's real address.
func propValue(n *html.Node) any {
	if hasAttr(n, "content") {
		v := strings.TrimSpace(attr(n, "content"))
		if strings.HasPrefix(v, "[{") || strings.HasPrefix(v, "{") {
			// Some themes put JSON-LD fragments in content attributes.
			if vals := parseLenientJSON([]byte(v)); len(vals) == 1 {
				return vals[0]
			}
		}
		return v
	}
	switch n.DataAtom {
	case atom.Meta:
		return attr(n, "content")
	case atom.Img, atom.Source, atom.Video, atom.Audio, atom.Embed, atom.Iframe, atom.Track:
		for _, k := range []string{"data-lazy-src", "data-src", "src"} {
			if v := attr(n, k); v != "" && !strings.HasPrefix(v, "data:") {
				return v
			}
		}
		return ""
	case atom.A, atom.Link, atom.Area:
		if v := attr(n, "href"); v != "" {
			return v
		}
	case atom.Object:
		return attr(n, "data")
	case atom.Time:
		if v := attr(n, "datetime"); v != "" {
			return v
		}
	case atom.Data, atom.Meter:
		return attr(n, "value")
	}
	if v := attr(n, "resource"); v != "" {
		return v
	}
	return nodeText(n)
}

// rdfaRecipes returns every RDFa resource typed as a schema.org Recipe.
func rdfaRecipes(doc *goquery.Document) []map[string]any {
	if doc == nil {
		return nil
	}
	var out []map[string]any
	for _, root := range doc.Nodes {
		walk(root, func(n *html.Node) bool {
			if typeListHas(attr(n, "typeof"), "Recipe") {
				out = append(out, rdfaItem(n, 0))
				return false
			}
			return true
		})
	}
	return out
}

func rdfaItem(n *html.Node, depth int) map[string]any {
	item := map[string]any{}
	if t := attr(n, "typeof"); t != "" {
		item["@type"] = strings.Fields(t)[0]
	}
	if depth > 20 {
		return item
	}
	var rec func(*html.Node)
	rec = func(p *html.Node) {
		for c := p.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			props := strings.Fields(attr(c, "property"))
			if len(props) == 0 {
				props = strings.Fields(attr(c, "rel"))
				if c.DataAtom == atom.Link || c.DataAtom == atom.A {
					props = nil // rel="nofollow" and friends are not properties
				}
			}
			typed := hasAttr(c, "typeof")
			if len(props) > 0 {
				var v any
				if typed {
					v = rdfaItem(c, depth+1)
				} else {
					v = propValue(c)
				}
				for _, name := range props {
					addProp(item, propName(name), v)
				}
			}
			if !typed {
				rec(c)
			}
		}
	}
	rec(n)
	return item
}
