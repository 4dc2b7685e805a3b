package extract

import (
	"bytes"
	"html"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// JSON-LD as published is often not valid JSON: trailing commas, raw
// newlines and tabs inside strings, HTML comments or CDATA markers around the
// data, several objects in one script, a byte order mark, single quotes,
// stray quotes inside strings. encoding/json rejects all of these, so the
// reader below accepts them and always makes progress; what it cannot make
// sense of it skips.

// maxJSONDepth bounds nesting so that hostile input cannot exhaust the stack.
const maxJSONDepth = 200

// parseLenientJSON reads every JSON value in b. Objects become
// map[string]any, arrays []any, numbers float64, and strings, booleans and
// null their Go forms.
func parseLenientJSON(b []byte) []any {
	p := &jsonReader{s: b}
	var out []any
	for {
		p.skipJunk()
		if p.i >= len(p.s) {
			return out
		}
		start := p.i
		v, ok := p.value(0)
		if ok && (isMap(v) || isSlice(v)) {
			out = append(out, v)
		}
		if p.i == start {
			p.i++ // cannot read anything here: skip one byte
		}
	}
}

func isMap(v any) bool   { _, ok := v.(map[string]any); return ok }
func isSlice(v any) bool { _, ok := v.([]any); return ok }

type jsonReader struct {
	s []byte
	i int
}

// skipSpace skips white space, comments and the wrappers sites put around
// their JSON (HTML comments, CDATA markers, a BOM).
func (p *jsonReader) skipSpace() {
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			p.i++
		case c == 0xEF && bytes.HasPrefix(p.s[p.i:], []byte("\uFEFF")):
			p.i += 3
		case c == 0xC2 && p.i+1 < len(p.s) && p.s[p.i+1] == 0xA0: // no-break space
			p.i += 2
		case c == '/' && p.i+1 < len(p.s) && p.s[p.i+1] == '/':
			for p.i < len(p.s) && p.s[p.i] != '\n' {
				p.i++
			}
		case c == '/' && p.i+1 < len(p.s) && p.s[p.i+1] == '*':
			end := bytes.Index(p.s[p.i+2:], []byte("*/"))
			if end < 0 {
				p.i = len(p.s)
			} else {
				p.i += 2 + end + 2
			}
		case c == '<' && bytes.HasPrefix(p.s[p.i:], []byte("<!--")):
			p.i += 4
		case c == '-' && bytes.HasPrefix(p.s[p.i:], []byte("-->")):
			p.i += 3
		case c == '<' && bytes.HasPrefix(p.s[p.i:], []byte("<![CDATA[")):
			p.i += 9
		case c == ']' && bytes.HasPrefix(p.s[p.i:], []byte("]]>")):
			p.i += 3
		default:
			return
		}
	}
}

// skipJunk moves to the next byte that can start an object or array at the
// top level (between values there may be commas, semicolons or JavaScript).
func (p *jsonReader) skipJunk() {
	for {
		p.skipSpace()
		if p.i >= len(p.s) || p.s[p.i] == '{' || p.s[p.i] == '[' {
			return
		}
		p.i++
	}
}

func (p *jsonReader) value(depth int) (any, bool) {
	p.skipSpace()
	if p.i >= len(p.s) {
		return nil, false
	}
	if depth > maxJSONDepth {
		p.i = len(p.s)
		return nil, false
	}
	switch c := p.s[p.i]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"' || c == '\'':
		return p.str(c), true
	case c == '-' || c == '+' || c == '.' || (c >= '0' && c <= '9'):
		return p.number()
	default:
		w := p.word()
		switch w {
		case "":
			return nil, false
		case "true":
			return true, true
		case "false":
			return false, true
		case "null", "undefined", "NaN":
			return nil, true
		}
		return w, true
	}
}

func (p *jsonReader) object(depth int) (any, bool) {
	p.i++ // '{'
	m := map[string]any{}
	for {
		p.skipSpace()
		if p.i >= len(p.s) {
			return m, true
		}
		switch c := p.s[p.i]; c {
		case '}':
			p.i++
			return m, true
		case ',', ';':
			p.i++
			continue
		case ']':
			p.i++ // a stray bracket: skip it
			continue
		}
		var key string
		if c := p.s[p.i]; c == '"' || c == '\'' {
			key = p.str(c)
		} else {
			key = p.word()
			if key == "" {
				p.i++ // not a key: skip the byte and try again
				continue
			}
		}
		p.skipSpace()
		if p.i < len(p.s) && (p.s[p.i] == ':' || p.s[p.i] == '=') {
			p.i++
		}
		v, ok := p.value(depth + 1)
		if !ok {
			continue
		}
		m[key] = v
	}
}

func (p *jsonReader) array(depth int) (any, bool) {
	p.i++ // '['
	a := []any{}
	for {
		p.skipSpace()
		if p.i >= len(p.s) {
			return a, true
		}
		switch p.s[p.i] {
		case ']':
			p.i++
			return a, true
		case ',':
			p.i++
			continue
		case '}':
			p.i++
			continue
		}
		start := p.i
		v, ok := p.value(depth + 1)
		if ok && v != nil {
			a = append(a, v)
		}
		if p.i == start {
			p.i++
		}
	}
}

// str reads a string quoted with q. Raw control characters are kept; an
// unknown escape keeps its character; a quote that is not followed by
// something that can follow a string (",", ":", "}", "]" or the end) is taken
// as part of the text, which rescues `"text": "the "best" cake"`. A byte
// that is not UTF-8 becomes U+FFFD, as encoding/json reads it.
func (p *jsonReader) str(q byte) string {
	return validUTF8(p.rawStr(q))
}

// validUTF8 replaces each byte of s that is not part of valid UTF-8 with
// U+FFFD.
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b.WriteRune(utf8.RuneError)
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

func (p *jsonReader) rawStr(q byte) string {
	p.i++ // opening quote
	var b []byte
	start := p.i
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == q:
			if p.closesString() {
				if b == nil {
					s := string(p.s[start:p.i])
					p.i++
					return s
				}
				p.i++
				return string(b)
			}
			if b == nil {
				b = append([]byte{}, p.s[start:p.i]...)
			}
			b = append(b, c)
			p.i++
		case c == '\\':
			if b == nil {
				b = append([]byte{}, p.s[start:p.i]...)
			}
			b = p.escape(b)
		default:
			if b != nil {
				b = append(b, c)
			}
			p.i++
		}
	}
	if b == nil {
		return string(p.s[start:])
	}
	return string(b)
}

// closesString reports whether the quote at p.i ends the string.
func (p *jsonReader) closesString() bool {
	j := p.i + 1
	for j < len(p.s) {
		switch p.s[j] {
		case ' ', '\t', '\r', '\n':
			j++
			continue
		case ',', ':', '}', ']', ';', '<':
			return true
		case '/': // a comment after the value
			return j+1 < len(p.s) && (p.s[j+1] == '/' || p.s[j+1] == '*')
		case '-': // "-->" closing an HTML comment
			return bytes.HasPrefix(p.s[j:], []byte("-->"))
		}
		return false
	}
	return true
}

func (p *jsonReader) escape(b []byte) []byte {
	p.i++ // backslash
	if p.i >= len(p.s) {
		return b
	}
	c := p.s[p.i]
	p.i++
	switch c {
	case 'n':
		return append(b, '\n')
	case 't':
		return append(b, '\t')
	case 'r':
		return append(b, '\r')
	case 'b', 'f':
		return append(b, ' ')
	case 'u':
		r, ok := p.hex4()
		if !ok {
			return append(b, 'u')
		}
		if utf16.IsSurrogate(r) {
			if p.i+1 < len(p.s) && p.s[p.i] == '\\' && p.s[p.i+1] == 'u' {
				save := p.i
				p.i += 2
				if r2, ok := p.hex4(); ok {
					if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
						return utf8.AppendRune(b, d)
					}
				}
				p.i = save
			}
			return utf8.AppendRune(b, utf8.RuneError)
		}
		return utf8.AppendRune(b, r)
	default:
		return append(b, c) // \" \\ \/ and unknown escapes such as \'
	}
}

func (p *jsonReader) hex4() (rune, bool) {
	if p.i+4 > len(p.s) {
		return 0, false
	}
	n, err := strconv.ParseUint(string(p.s[p.i:p.i+4]), 16, 32)
	if err != nil {
		return 0, false
	}
	p.i += 4
	return rune(n), true
}

func (p *jsonReader) number() (any, bool) {
	start := p.i
	for p.i < len(p.s) {
		c := p.s[p.i]
		if (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E' {
			p.i++
			continue
		}
		break
	}
	text := string(p.s[start:p.i])
	f, err := strconv.ParseFloat(text, 64)
	if err != nil {
		return text, true // "1-2" and the like: keep the text
	}
	return f, true
}

// word reads a bare identifier (an unquoted key or literal).
func (p *jsonReader) word() string {
	start := p.i
	for p.i < len(p.s) {
		c := p.s[p.i]
		if c == '_' || c == '$' || c == '@' || c == '-' || c == '.' ||
			(c >= '0' && c <= '9') || (c|0x20 >= 'a' && c|0x20 <= 'z') || c >= 0x80 {
			p.i++
			continue
		}
		break
	}
	return string(p.s[start:p.i])
}

// ldScripts returns the contents of every <script type="application/ld+json">
// element, found by scanning the bytes rather than building a DOM.
func ldScripts(page, lower []byte) [][]byte {
	var out [][]byte
	for _, sc := range inlineScripts(page, lower) {
		if bytes.Contains(sc.attrs, []byte("ld+json")) {
			out = append(out, sc.body)
		}
	}
	return out
}

// inlineScript is one <script> element of a page: its attributes, lower-cased,
// and its contents as the page has them.
type inlineScript struct{ attrs, body []byte }

// inlineScripts returns every <script> element of page (lower is page
// lower-cased), found by scanning the bytes rather than building a DOM; an
// element the page leaves open runs to its end.
func inlineScripts(page, lower []byte) []inlineScript {
	var out []inlineScript
	for i := 0; ; {
		k := bytes.Index(lower[i:], []byte("<script"))
		if k < 0 {
			return out
		}
		i += k + len("<script")
		end := bytes.IndexByte(lower[i:], '>')
		if end < 0 {
			return out
		}
		attrs := lower[i : i+end]
		i += end + 1
		close := bytes.Index(lower[i:], []byte("</script"))
		if close < 0 {
			close = len(lower) - i
		}
		out = append(out, inlineScript{attrs: attrs, body: page[i : i+close]})
		i += close
	}
}

// ldNodes parses every JSON-LD script of the page.
func ldNodes(page, lower []byte) []any {
	var out []any
	for _, s := range ldScripts(page, lower) {
		// Some templates escape the whole script as HTML text
		// ({&quot;@type&quot;: ...}); without a raw quote it cannot be
		// JSON, so the entities are decoded once first.
		if bytes.IndexByte(s, '"') < 0 && bytes.Contains(s, []byte("&quot;")) {
			s = []byte(html.UnescapeString(string(s)))
		}
		out = append(out, parseLenientJSON(s)...)
	}
	return out
}

// typeMatches reports whether a node's @type (a string or an array) names
// want, ignoring case and any vocabulary prefix ("schema:Recipe",
// "http://schema.org/Recipe").
func typeMatches(node map[string]any, want string) bool {
	t, ok := lookup(node, "@type")
	if !ok {
		t, ok = lookup(node, "type")
		if !ok {
			return false
		}
	}
	switch t := t.(type) {
	case string:
		return typeNameIs(t, want)
	case []any:
		for _, e := range t {
			if s, ok := e.(string); ok && typeNameIs(s, want) {
				return true
			}
		}
	}
	return false
}

func typeNameIs(t, want string) bool {
	t = strings.TrimSpace(t)
	if i := strings.LastIndexAny(t, "/:#"); i >= 0 {
		t = t[i+1:]
	}
	return strings.EqualFold(t, want)
}

// lookup reads a property of a node: the exact key first, then any key that
// equals it ignoring case and a vocabulary prefix ("schema:name",
// "RecipeInstructions").
func lookup(node map[string]any, key string) (any, bool) {
	if v, ok := node[key]; ok {
		return v, true
	}
	for k, v := range node {
		kk := k
		if i := strings.LastIndexAny(kk, "/:#"); i >= 0 && !strings.HasPrefix(kk, "@") {
			kk = kk[i+1:]
		}
		if strings.EqualFold(kk, key) {
			return v, true
		}
	}
	return nil, false
}

// get is lookup for the first of several keys that has a non-empty value.
func get(node map[string]any, keys ...string) any {
	for _, k := range keys {
		if v, ok := lookup(node, k); ok && !emptyValue(v) {
			return v
		}
	}
	return nil
}

func emptyValue(v any) bool {
	switch v := v.(type) {
	case nil:
		return true
	case string:
		return strings.TrimSpace(v) == ""
	case []any:
		return len(v) == 0
	case map[string]any:
		return len(v) == 0
	}
	return false
}

// graph indexes every node with an @id so that references ({"@id": "#x"})
// can be followed, as Yoast's @graph uses them for images and authors.
type graph struct {
	byID map[string]map[string]any
}

func newGraph(roots []any) *graph {
	g := &graph{byID: map[string]map[string]any{}}
	walkJSON(roots, func(v any) bool {
		if m, ok := v.(map[string]any); ok {
			if id, ok := m["@id"].(string); ok && len(m) > 1 {
				if old, seen := g.byID[id]; !seen || len(m) > len(old) {
					g.byID[id] = m
				}
			}
		}
		return true
	})
	return g
}

// deref follows a bare reference to the node it names, when known.
func (g *graph) deref(v any) any {
	if g == nil {
		return v
	}
	if m, ok := v.(map[string]any); ok && len(m) == 1 {
		if id, ok := m["@id"].(string); ok {
			if n, ok := g.byID[id]; ok {
				return n
			}
		}
	}
	return v
}

// findTyped returns every node (at any depth, including inside @graph,
// mainEntity, ItemList elements and arrays) whose @type names want.
func findTyped(roots []any, want string) []map[string]any {
	return findObjects(roots, func(m map[string]any) bool { return typeMatches(m, want) })
}

// findObjects returns the objects, at any depth, that match; it does not
// look inside a matched object (a recipe's own parts are not other
// recipes).
func findObjects(roots []any, match func(map[string]any) bool) []map[string]any {
	var out []map[string]any
	walkJSON(roots, func(v any) bool {
		if m, ok := v.(map[string]any); ok && match(m) {
			out = append(out, m)
			return false
		}
		return true
	})
	return out
}

// walkJSON is the one walk over parsed JSON: it visits every value under
// roots, depth first and object keys in sorted order (so that walks are
// deterministic), and goes inside an object or array only when visit
// returns true. The depth is bounded: hostile input can nest deeply.
func walkJSON(roots []any, visit func(v any) bool) {
	var rec func(v any, depth int)
	rec = func(v any, depth int) {
		if depth > maxJSONDepth || !visit(v) {
			return
		}
		switch v := v.(type) {
		case map[string]any:
			for _, k := range sortedKeys(v) {
				rec(v[k], depth+1)
			}
		case []any:
			for _, e := range v {
				rec(e, depth+1)
			}
		}
	}
	for _, r := range roots {
		rec(r, 0)
	}
}

// sortedKeys makes walks over parsed objects deterministic.
func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
