package extract

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Tabbed recipes: a page may show "Ingredients" and "Method" as the labels
// of two tabs, side by side with nothing between them, and the panels
// after both labels, in the same order. Read as headings, the method's
// label then stands over the ingredients panel. The rules here: labels of
// both parts side by side are tabs, and the ingredients are read after the
// last label; a method made of the lines read as the ingredients is not a
// method (the method's panel may be missing from the HTML, filled in by a
// script).

// tabLabels returns the index of the last of an ingredients heading and a
// method heading that follow each other with nothing between them, or -1.
func tabLabels(blocks []block) int {
	for i := 0; i+1 < len(blocks); i++ {
		a, b := blocks[i], blocks[i+1]
		if a.kind != 'h' || b.kind != 'h' || len(a.text) > 40 || len(b.text) > 40 {
			continue
		}
		ing := func(s string) bool { return matchesAny(s, ingredientWords) && !matchesAny(s, instructionWords) }
		ins := func(s string) bool { return matchesAny(s, instructionWords) && !matchesAny(s, ingredientWords) }
		if ing(a.text) && ins(b.text) || ins(a.text) && ing(b.text) {
			return i + 1
		}
	}
	return -1
}

// tabIngredients reads the ingredients panel of tabbed labels.
func tabIngredients(blocks []block) []Section {
	i := tabLabels(blocks)
	if i < 0 {
		return nil
	}
	level := min(blocks[i].level, blocks[i-1].level)
	secs, _ := readUnder(blocks[i+1:], level, ingredientWords, instructionWords, false)
	if countItems(secs) < 2 {
		return nil
	}
	// The panel must read like ingredients, not like the method.
	like := 0
	lines := flatten(joinAmountLines(secs))
	for _, l := range lines {
		if looksLikeIngredient(l) {
			like++
		}
	}
	if like*2 < len(lines) {
		return nil
	}
	return secs
}

// sameLines reports a method whose lines are the ingredient lines.
func sameLines(method, ingredients []Section) bool {
	m, g := flatten(method), flatten(ingredients)
	if len(m) == 0 || len(g) == 0 {
		return false
	}
	in := map[string]bool{}
	for _, l := range g {
		in[normKey(l)] = true
	}
	shared := 0
	for _, l := range m {
		if in[normKey(l)] {
			shared++
		}
	}
	return shared*2 > len(m)
}

// A page may show each ingredient's name and amount in cells of their own
// ("Pak choi" | "3 pcs"), which read as lines of their own. joinAmounts
// joins each amount line with its name, amount first ("3 pcs Pak choi"),
// when the lines alternate that way: no two amount lines in a row (a list
// of whole lines has "2 eggs", "1 onion" one after another), at least
// three pairs, and amounts on at least a third of the lines. The side of
// the name is the page's: amounts after the names unless the first line
// is an amount. A name without an amount stays alone.
func joinAmountLines(secs []Section) []Section {
	out := make([]Section, 0, len(secs))
	for _, s := range secs {
		out = append(out, Section{Name: s.Name, Items: joinAmounts(s.Items)})
	}
	return out
}

func joinAmounts(lines []string) []string {
	if len(lines) < 6 {
		return lines
	}
	amounts := 0
	for i, l := range lines {
		if !amountOnly(l) {
			continue
		}
		if i > 0 && amountOnly(lines[i-1]) {
			return lines
		}
		amounts++
	}
	if amounts < 3 || amounts*3 < len(lines) {
		return lines
	}
	before := amountOnly(lines[0])
	var out []string
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		switch {
		case before && amountOnly(l) && i+1 < len(lines):
			out = append(out, l+" "+lines[i+1])
			i++
		case !before && i+1 < len(lines) && amountOnly(lines[i+1]):
			out = append(out, lines[i+1]+" "+l)
			i++
		default:
			out = append(out, l)
		}
	}
	return out
}

// amountOnly reports a line that is only an amount: a number, then at most
// two short unit words ("3", "0.5 bunch", "2 pck.", "300 g", "1 EL").
func amountOnly(l string) bool {
	f := strings.Fields(l)
	if len(f) == 0 || len(f) > 3 {
		return false
	}
	r, _ := utf8.DecodeRuneInString(f[0])
	if !unicode.IsDigit(r) && fractionValue(r) == 0 {
		return false
	}
	if strings.IndexFunc(f[0], unicode.IsLetter) >= 0 && len(f) > 1 {
		return false // "2cm pieces of ginger"
	}
	for _, w := range f[1:] {
		if utf8.RuneCountInString(strings.TrimSuffix(w, ".")) > 8 || strings.IndexFunc(w, unicode.IsDigit) >= 0 {
			return false
		}
	}
	return true
}
