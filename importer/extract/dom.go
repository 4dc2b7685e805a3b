package extract

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Small helpers over golang.org/x/net/html nodes. goquery's selections are
// convenient but allocate per call; the walks here run over whole pages.

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func hasAttr(n *html.Node, key string) bool {
	for _, a := range n.Attr {
		if a.Key == key {
			return true
		}
	}
	return false
}

// hasClass reports whether n's class list has a class equal to c.
func hasClass(n *html.Node, c string) bool {
	for f := range strings.FieldsSeq(attr(n, "class")) {
		if f == c {
			return true
		}
	}
	return false
}

// classHas reports whether some class of n contains sub.
func classHas(n *html.Node, sub string) bool {
	return strings.Contains(strings.ToLower(attr(n, "class")), sub)
}

// walk calls fn for every element under n (n included) in document order;
// fn returns false to skip an element's children.
func walk(n *html.Node, fn func(*html.Node) bool) {
	if n == nil {
		return
	}
	if n.Type == html.ElementNode || n.Type == html.DocumentNode {
		if n.Type == html.ElementNode && !fn(n) {
			return
		}
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		walk(c, fn)
	}
}

// find returns the elements under n for which match is true (not looking
// inside a match).
func find(n *html.Node, match func(*html.Node) bool) []*html.Node {
	var out []*html.Node
	walk(n, func(e *html.Node) bool {
		if match(e) {
			out = append(out, e)
			return false
		}
		return true
	})
	return out
}

func findFirst(n *html.Node, match func(*html.Node) bool) *html.Node {
	var out *html.Node
	walk(n, func(e *html.Node) bool {
		if out != nil {
			return false
		}
		if match(e) {
			out = e
			return false
		}
		return true
	})
	return out
}

// blockAtoms end a line in nodeText.
var blockAtoms = map[atom.Atom]bool{
	atom.P: true, atom.Div: true, atom.Li: true, atom.Ul: true, atom.Ol: true, atom.Br: true,
	atom.H1: true, atom.H2: true, atom.H3: true, atom.H4: true, atom.H5: true, atom.H6: true,
	atom.Tr: true, atom.Table: true, atom.Section: true, atom.Article: true, atom.Blockquote: true,
	atom.Dd: true, atom.Dt: true, atom.Dl: true, atom.Header: true, atom.Footer: true, atom.Figure: true,
	atom.Figcaption: true, atom.Hr: true, atom.Pre: true, atom.Fieldset: true,
}

// skipAtoms never contribute visible text.
var skipAtoms = map[atom.Atom]bool{
	atom.Script: true, atom.Style: true, atom.Noscript: true, atom.Template: true,
	atom.Svg: true, atom.Button: true, atom.Select: true, atom.Iframe: true, atom.Head: true,
	atom.Input: true, atom.Textarea: true,
}

// nodeText is the text a reader sees in n: block elements separate lines,
// scripts, styles, buttons and hidden elements are left out. Table cells are
// separated by a space.
func nodeText(n *html.Node) string {
	var b strings.Builder
	var rec func(*html.Node)
	rec = func(n *html.Node) {
		switch n.Type {
		case html.TextNode:
			data := n.Data
			if n.PrevSibling != nil && n.PrevSibling.Type == html.ElementNode {
				data = layoutBeforeComma(data)
			}
			// Line breaks in the source are spaces on screen.
			b.WriteString(strings.Map(func(r rune) rune {
				if r == '\n' || r == '\r' {
					return ' '
				}
				return r
			}, data))
			return
		case html.ElementNode:
			if skipAtoms[n.DataAtom] || hiddenElement(n) {
				return
			}
		}
		block := n.Type == html.ElementNode && blockAtoms[n.DataAtom]
		if block {
			b.WriteByte('\n')
		}
		if n.DataAtom == atom.Td || n.DataAtom == atom.Th {
			b.WriteByte(' ')
		}
		var prev *html.Node
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			// Parts of a line kept in elements side by side ("<span>500</span>
			// <span>g</span><span>flour</span>", amount, unit and name in
			// separate spans) are separate words on screen (the page's
			// layout spaces them); read together they would glue.
			if prev != nil && cellLike[prev.DataAtom] && cellLike[c.DataAtom] && b.Len() > 0 {
				if last := b.String()[b.Len()-1]; last != ' ' && last != '\n' {
					b.WriteByte(' ')
				}
			}
			rec(c)
			if c.Type == html.ElementNode {
				prev = c
			} else if c.Type == html.TextNode {
				prev = nil
			}
		}
		if block {
			b.WriteByte('\n')
		}
	}
	rec(n)
	return b.String()
}

// layoutBeforeComma drops the source's layout (a line break or tab, with
// the indentation around it) between an element and the comma of the text
// after it ("<span>Tortillas</span>\n\t\t, (wheat)"): the author wrote
// "Tortillas, (wheat)" and indented the markup.
func layoutBeforeComma(s string) string {
	t := strings.TrimLeft(s, " \t\r\n")
	if strings.HasPrefix(t, ",") && strings.ContainsAny(s[:len(s)-len(t)], "\t\r\n") {
		return t
	}
	return s
}

// cellLike are the inline elements pages use as cells of a line (amount,
// unit, name); sup and sub are left out, as "1<sup>1</sup>" must not split.
var cellLike = map[atom.Atom]bool{
	atom.Span: true, atom.A: true, atom.Strong: true, atom.B: true, atom.Em: true, atom.I: true, atom.Label: true,
	atom.Data: true, atom.Small: true, atom.Output: true, atom.Abbr: true,
}

// lineText is nodeText on one line, cleaned.
func lineText(n *html.Node) string {
	return collapseSpace(nodeText(n))
}

// hiddenElement reports markup a reader does not see: the hidden attribute,
// display:none, and screen-reader-only helper classes.
func hiddenElement(n *html.Node) bool {
	if hasAttr(n, "hidden") {
		return true
	}
	if st := attr(n, "style"); st != "" {
		st = strings.ReplaceAll(strings.ToLower(st), " ", "")
		if strings.Contains(st, "display:none") || strings.Contains(st, "visibility:hidden") {
			return true
		}
	}
	if iconLigature(n) {
		return true
	}
	for f := range strings.FieldsSeq(attr(n, "class")) {
		switch f {
		case "sr-only", "screen-reader-text", "visually-hidden", "wprm-screen-reader-text", "hidden", "d-none":
			return true
		}
	}
	return false
}

// iconLigature reports an icon drawn by an icon font from a word
// ("lightbulb_outline", "schedule"): an element hidden from screen readers
// (aria-hidden="true") whose whole text is one lowercase identifier. The
// word is the glyph's name, not text a reader sees.
func iconLigature(n *html.Node) bool {
	if !strings.EqualFold(attr(n, "aria-hidden"), "true") {
		return false
	}
	c := n.FirstChild
	if c == nil || c.Type != html.TextNode || c.NextSibling != nil {
		return false
	}
	t := strings.TrimSpace(c.Data)
	if t == "" || len(t) > 40 {
		return false
	}
	for _, r := range t {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_') {
			return false
		}
	}
	return true
}

// attrValue reads one attribute out of the raw text of a start tag.
func attrValue(tag, key string) string {
	lower := strings.ToLower(tag)
	for from := 0; ; {
		i := strings.Index(lower[from:], key)
		if i < 0 {
			return ""
		}
		i += from
		from = i + len(key)
		if i > 0 && lower[i-1] != ' ' && lower[i-1] != '\t' && lower[i-1] != '\n' {
			continue
		}
		rest := strings.TrimLeft(tag[i+len(key):], " \t\n")
		if !strings.HasPrefix(rest, "=") {
			continue
		}
		rest = strings.TrimLeft(rest[1:], " \t\n")
		if rest == "" {
			return ""
		}
		if q := rest[0]; q == '"' || q == '\'' {
			if end := strings.IndexByte(rest[1:], q); end >= 0 {
				return htmlUnescapeRepeated(rest[1 : 1+end])
			}
			return ""
		}
		end := strings.IndexAny(rest, " \t\n>")
		if end < 0 {
			end = len(rest)
		}
		return htmlUnescapeRepeated(rest[:end])
	}
}

// isHeading reports h1-h6.
func isHeading(n *html.Node) bool {
	switch n.DataAtom {
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		return true
	}
	return false
}

func headingLevel(n *html.Node) int {
	switch n.DataAtom {
	case atom.H1:
		return 1
	case atom.H2:
		return 2
	case atom.H3:
		return 3
	case atom.H4:
		return 4
	case atom.H5:
		return 5
	case atom.H6:
		return 6
	}
	return 0
}
