package extract

import (
	"net/url"
	"regexp"
	"strconv"
	"strings"
)

// imageCandidate is one image a source offers, with its size when known.
type imageCandidate struct {
	url           string
	width, height int
}

// collectImages flattens an image value: a URL string, an ImageObject
// (url, contentUrl, width, height), a reference to one, or an array of any of
// these.
func collectImages(v any, g *graph, depth int) []imageCandidate {
	if depth > 5 {
		return nil
	}
	v = g.deref(v)
	switch v := v.(type) {
	case string:
		s := strings.TrimSpace(v)
		if s == "" {
			return nil
		}
		return []imageCandidate{sizedFromURL(s)}
	case []any:
		var out []imageCandidate
		for _, e := range v {
			out = append(out, collectImages(e, g, depth+1)...)
		}
		return out
	case map[string]any:
		u := get(v, "url", "contentUrl", "contentURL", "src")
		if u == nil {
			// An @id names the node; it is an address only when it has
			// no fragment ("https://x/#primaryimage" is a name).
			if id, ok := v["@id"].(string); ok && !strings.Contains(id, "#") {
				u = id
			}
		}
		s, ok := g.deref(u).(string)
		if !ok {
			return collectImages(u, g, depth+1)
		}
		c := sizedFromURL(strings.TrimSpace(s))
		if w := dimension(get(v, "width")); w > 0 {
			c.width = w
		}
		if h := dimension(get(v, "height")); h > 0 {
			c.height = h
		}
		if c.url == "" {
			return nil
		}
		return []imageCandidate{c}
	}
	return nil
}

// dimension reads a width or height: 1200, "1200", "1200px" or
// {"@type": "QuantitativeValue", "value": 1200}.
func dimension(v any) int {
	switch v := v.(type) {
	case float64:
		if v > 0 && v < 1e6 {
			return int(v)
		}
	case string:
		s := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "px"))
		n, err := strconv.Atoi(s)
		if err == nil && n > 0 && n < 1e6 {
			return n
		}
	case map[string]any:
		return dimension(get(v, "value", "@value"))
	}
	return 0
}

// sizeSuffix is the "-1200x800" that WordPress and CDNs add to resized copies.
var sizeSuffix = regexp.MustCompile(`[-_](\d{2,5})x(\d{2,5})(\.[a-zA-Z]{3,4})?(?:$|[?#])`)

func sizedFromURL(u string) imageCandidate {
	c := imageCandidate{url: u}
	if m := sizeSuffix.FindStringSubmatch(u); m != nil {
		c.width, _ = strconv.Atoi(m[1])
		c.height, _ = strconv.Atoi(m[2])
	}
	return c
}

// area ranks an image by size. With only its width (or height) known, as
// many ImageObjects give, it counts as a square: a wider image of the same
// list still ranks higher.
func (c imageCandidate) area() int {
	switch {
	case c.width > 0 && c.height > 0:
		return c.width * c.height
	case c.width > 0:
		return c.width * c.width
	}
	return c.height * c.height
}

// pickImage chooses the largest image that resolves to an absolute http(s)
// URL. An image whose size is unknown is preferred over its own resized
// copies (it is the original) and otherwise ranks by position: the first
// wins among images of unknown size.
func pickImage(cands []imageCandidate, base *url.URL) string {
	var resolved []imageCandidate
	for _, c := range cands {
		if u := absURL(c.url, base); u != "" {
			c.url = u
			resolved = append(resolved, c)
		}
	}
	if len(resolved) == 0 {
		return ""
	}
	best := -1
	bestArea := -1
	for i, c := range resolved {
		area := c.area()
		if area == 0 {
			if isOriginalOf(c.url, resolved) {
				return c.url
			}
			continue
		}
		if area > bestArea {
			best, bestArea = i, area
		}
	}
	if best < 0 {
		return resolved[0].url
	}
	return resolved[best].url
}

// isOriginalOf reports whether some other candidate is a resized copy of u
// ("photo.jpg" and "photo-1200x800.jpg").
func isOriginalOf(u string, all []imageCandidate) bool {
	dot := strings.LastIndexByte(u, '.')
	if dot < 0 || strings.ContainsAny(u[dot:], "/?#") {
		return false
	}
	stem := u[:dot]
	for _, c := range all {
		if c.url != u && strings.HasPrefix(c.url, stem) && sizeSuffix.MatchString(c.url[len(stem):]) {
			return true
		}
	}
	return false
}

// absURL resolves ref against base and keeps it only if it is an http(s)
// URL (no data:, javascript: or relative leftovers).
func absURL(ref string, base *url.URL) string {
	ref = strings.TrimSpace(cleanURLText(ref))
	if ref == "" || strings.HasPrefix(ref, "data:") || strings.HasPrefix(ref, "#") {
		return ""
	}
	u, err := url.Parse(ref)
	if err != nil {
		// Spaces and other raw characters: escape what url.Parse refuses.
		u, err = url.Parse(strings.ReplaceAll(ref, " ", "%20"))
		if err != nil {
			return ""
		}
	}
	if !u.IsAbs() {
		if base == nil {
			if strings.HasPrefix(ref, "//") {
				u.Scheme = "https"
			} else {
				return ""
			}
		} else {
			u = base.ResolveReference(u)
		}
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return ""
	}
	return u.String()
}

// cleanURLText decodes entities in a URL taken from HTML or JSON
// ("&amp;" between query parameters) without the tag stripping of cleanText.
func cleanURLText(s string) string {
	if strings.IndexByte(s, '&') >= 0 {
		s = htmlUnescapeRepeated(s)
	}
	return s
}
