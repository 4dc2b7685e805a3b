package extract

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// A method read from the page (under its "Method" heading) can hold lines
// that are not steps but sit beside each step: the step's number shown
// apart ("3"), a tip box ("TIP Crush the peppercorns in a mortar.", "Tip:
// ..."), and the list of what the step uses ("300 g mince, 1 tbsp
// breadcrumbs, pepper, salt"). A cook would not call any of them a step.

// methodNoise reports such a line. ingredients are the recipe's own
// ingredient lines, which a step's list of what it uses repeats.
func methodNoise(line string, ingredients map[string]bool) bool {
	t := strings.TrimSpace(line)
	if t == "" {
		return true
	}
	if stepNumberOnly(t) {
		return true
	}
	if tipLine(t) {
		return true
	}
	return ingredientListLine(t, ingredients)
}

// stepNumberOnly reports a line that is only a step's number ("3", "3.",
// "3)").
func stepNumberOnly(s string) bool {
	s = strings.TrimRight(strings.TrimSpace(s), ".)")
	if s == "" || len(s) > 2 {
		return false // a method has fewer than 100 steps; "2025" is a year
	}
	return strings.TrimFunc(s, func(r rune) bool { return r >= '0' && r <= '9' }) == ""
}

// tipWords start a tip in the corpus's languages. "Tip" is also an English
// verb ("Tip the batter into the tin"), so a tip is only the word in
// capitals ("TIP Use ...") or followed by a colon ("Tip: use ...").
var tipWords = []string{"tip", "tips", "tipp", "tipps", "astuce", "consejo", "suggerimento", "dica", "wskazówka"}

func tipLine(s string) bool {
	first, _, _ := strings.Cut(s, " ")
	colon := strings.HasSuffix(first, ":")
	first = strings.TrimSuffix(first, ":")
	for _, w := range tipWords {
		if strings.EqualFold(first, w) && (colon || first == strings.ToUpper(first)) {
			return true
		}
	}
	return false
}

// ingredientListLine reports a line that is only what a step uses: the
// recipe's ingredients, separated by commas ("300 g mince, 1 tbsp
// breadcrumbs, pepper"), or one of them alone ("1 chicken"). It has no
// sentence end, short parts, and every part shares a word with the
// ingredient lines; a part alone must be made of their words only.
func ingredientListLine(s string, ingredients map[string]bool) bool {
	if len(ingredients) == 0 || strings.HasSuffix(s, ".") || strings.HasSuffix(s, "!") || strings.HasSuffix(s, ":") {
		return false
	}
	// ", " separates the parts; "0,5 lemons" is one amount.
	parts := strings.Split(s, ", ")
	for _, p := range parts {
		words := wordSet(p)
		if len(words) == 0 || len(words) > 5 {
			return false
		}
		shared, foreign := false, false
		for w := range words {
			switch {
			case strings.IndexFunc(w, unicode.IsLetter) < 0:
			case ingredientWord(w, ingredients):
				shared = true
			default:
				foreign = true
			}
		}
		if !shared || len(parts) == 1 && foreign {
			return false
		}
	}
	return true
}

// ingredientWord reports a word of the ingredient lines, also in a longer
// form (a plural: "lemons", "citroenen" for "citroen").
func ingredientWord(w string, ingredients map[string]bool) bool {
	if ingredients[w] {
		return true
	}
	for i := len(w) - 1; i >= len(w)-3 && i >= 4; i-- {
		if ingredients[w[:i]] {
			return true
		}
	}
	return false
}

// withoutMethodNoise drops the lines methodNoise reports, and the sections
// left empty.
func withoutMethodNoise(secs []Section, ingredients []Section) []Section {
	words := wordSet(strings.Join(flatten(ingredients), " "))
	var out []Section
	for _, s := range secs {
		var items []string
		for _, it := range s.Items {
			if !methodNoise(it, words) {
				items = append(items, it)
			}
		}
		if len(items) > 0 {
			out = append(out, Section{Name: s.Name, Items: items})
		}
	}
	return out
}

// stepLike reports a line that reads like a step: a sentence, with a verb
// and an end, not a short label.
func stepLike(l string) bool {
	return utf8.RuneCountInString(l) >= 20 && strings.ContainsAny(l[len(l)-1:], ".!)") ||
		utf8.RuneCountInString(l) >= 60 || strings.HasSuffix(l, "。")
}

// anyStepLike reports a method with at least one line that reads like a
// step.
func anyStepLike(secs []Section) bool {
	for _, l := range flatten(secs) {
		if stepLike(l) {
			return true
		}
	}
	return false
}

// maxCutShortSteps is the most steps a structured method can have for the
// page to be asked whether it was cut short; longer methods are trusted.
const maxCutShortSteps = 3

// completeMethod returns the method the page shows when the structured one
// is its beginning only (a site that publishes the first steps in its
// data, the rest on the page): every structured step is, in order, one of
// the page's first steps, and the page has more. Otherwise nil.
func (p *page) completeMethod(r Recipe) []Section {
	have := flatten(r.InstructionSections)
	if len(have) == 0 || len(have) > maxCutShortSteps {
		return nil
	}
	body, blocks := p.pageBlocks()
	shown := sectionUnder(blocks, instructionWords, ingredientWords, true)
	if countItems(shown) <= len(have) && body != nil {
		shown = methodByClass(body)
	}
	secs := withoutMethodNoise(shown, r.IngredientSections)
	lines := flatten(secs)
	if len(lines) <= len(have) {
		return nil
	}
	// The structured steps must be the page's first ones, in order; a
	// page step may be split differently (two structured steps in one).
	page := normKey(strings.Join(lines[:min(len(lines), len(have)+2)], " "))
	at := 0
	for _, h := range have {
		k := normKey(h)
		if k == "" {
			return nil
		}
		i := strings.Index(page[at:], k)
		if i < 0 || at == 0 && i > 0 {
			return nil
		}
		at += i + len(k)
	}
	if len(normKey(strings.Join(lines, " "))) < 2*at {
		return nil // the page adds little: not a method cut short
	}
	// What the page adds must read like steps, not like the notes, labels
	// and recipe card that follow a method ("Variations", "Print Recipe",
	// "Cuisine").
	steps := 0
	for _, l := range lines[len(have):] {
		if stepLike(l) {
			steps++
		}
	}
	if steps < 2 || steps*3 < (len(lines)-len(have))*2 {
		return nil
	}
	return secs
}
