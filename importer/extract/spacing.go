package extract

import (
	"strings"
	"unicode"
)

// Ingredient lines whose amount is glued to the name ("150克鸡胸肉", half a
// carrot written "半根胡萝卜") lose the break the page shows between them:
// sites that keep amount and name in separate cells often join them without
// a space in their structured data. In scripts written without spaces
// between words the break cannot be guessed from the line alone, but the
// page tells it: a page line whose parts, joined without spaces in some
// rotation, are the structured line gives the break back. The structured
// line's order wins (the data says "150克鸡胸肉", amount first; the page's
// cells may put the name first), and lines the page does not show stay as
// they are.

// gluedLines reports lines worth comparing with the page: at least half of
// them hold no space at all, and some of those hold a digit or a letter
// of a script written without spaces. Most pages never get here, so their
// DOM is not built for this.
func gluedLines(lines []string) bool {
	if len(lines) < 2 {
		return false
	}
	spaceless, telling := 0, 0
	for _, l := range lines {
		if strings.IndexFunc(l, unicode.IsSpace) >= 0 {
			continue
		}
		spaceless++
		if strings.IndexFunc(l, func(r rune) bool { return unicode.IsDigit(r) || unspacedScript(r) }) >= 0 {
			telling++
		}
	}
	return spaceless*2 >= len(lines) && telling > 0
}

// unspacedScript reports a letter of a script written without spaces
// between words (Han, Hiragana, Katakana, Thai, Lao, Khmer, Myanmar).
func unspacedScript(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar)
}

// respaced returns the sections with each line that the page shows in
// parts written with those parts apart, and whether any line changed.
func respaced(secs []Section, page []string) ([]Section, bool) {
	byGlued := map[string][]string{}
	for _, pl := range page {
		parts := strings.Fields(pl)
		if len(parts) < 2 {
			continue
		}
		// Every rotation: "鸡胸肉 150克" can be read as "150克 鸡胸肉".
		for k := range parts {
			rot := append(append([]string{}, parts[k:]...), parts[:k]...)
			key := strings.Join(rot, "")
			if _, ok := byGlued[key]; !ok {
				byGlued[key] = rot
			}
		}
	}
	changed := false
	out := make([]Section, len(secs))
	for i, s := range secs {
		out[i] = Section{Name: s.Name, Items: make([]string, len(s.Items))}
		for j, l := range s.Items {
			out[i].Items[j] = l
			if strings.IndexFunc(l, unicode.IsSpace) >= 0 {
				continue
			}
			if parts, ok := byGlued[l]; ok {
				out[i].Items[j] = strings.Join(parts, " ")
				changed = true
			}
		}
	}
	return out, changed
}
