package shopping

import (
	"strings"
	"unicode"

	"larder/ingredient"
)

// Line is what the list needs of an ingredient line: its amount (the
// upper end of a range: one shops for the most a recipe may use), its unit
// as the ingredient reader names it, and the food.
type Line struct {
	Quantity *float64
	Unit     string
	Food     string
}

// readLine reads an ingredient line. It is the one place this package
// calls the ingredient reader, so that a change of the reader's API (the
// amounts spans of its rewrite) is a change here only.
func readLine(text string) Line {
	p := ingredient.Parse(text)
	q := p.Quantity
	if p.QuantityMax != nil {
		q = p.QuantityMax
	}
	food := strings.TrimSpace(p.Name)
	if q != nil && *q <= 0 {
		q = nil
	}
	return Line{Quantity: q, Unit: p.Unit, Food: food}
}

// FoodKey is the name two lines must share for their amounts to add up:
// the food lower-cased, its words' plurals made singular ("Red Onions" →
// "red onion"). The whole name must match, never only its last word:
// "red onion" and "onion", or "chicken stock" and "chicken breast", are
// different things to buy.
func FoodKey(food string) string {
	words := strings.Fields(strings.ToLower(food))
	for i, w := range words {
		w = strings.Trim(w, ".,;:()")
		words[i] = singular(w)
	}
	return strings.Join(words, " ")
}

// singular undoes the regular plurals food names take: English ones, which
// also cover the -s plurals of Spanish, Portuguese, French and Dutch
// ("cebollas", "oignons"); German -n after -e, -el and -er ("Zwiebeln",
// "Tomaten", "Kartoffeln"); Portuguese -ões and -ães ("limões"); French -eaux
// and -oux ("poireaux", "choux"). Each rule only removes an ending that the
// singular never has in the same position, so two different foods never get
// one key; languages whose plurals change the stem (Polish, Czech, Italian,
// Dutch -en, Scandinavian -er) are left as written. Words that end in s in
// the singular (asparagus, hummus, couscous, molasses) are kept.
func singular(w string) string {
	for _, pl := range []string{"ões", "ães"} {
		if strings.HasSuffix(w, pl) && len(w) > len(pl) {
			return strings.TrimSuffix(w, pl) + "ão"
		}
	}
	if len(w) >= 6 && (strings.HasSuffix(w, "eaux") || strings.HasSuffix(w, "oux")) {
		return strings.TrimSuffix(w, "x")
	}
	if len(w) >= 5 && strings.HasSuffix(w, "n") && hasLetters(w) && !englishEn[w] {
		stem := strings.TrimSuffix(w, "n")
		if strings.HasSuffix(stem, "e") && !strings.HasSuffix(stem, "ee") || strings.HasSuffix(stem, "el") || strings.HasSuffix(stem, "er") {
			return stem
		}
	}
	if len(w) < 4 || !strings.HasSuffix(w, "s") {
		return w
	}
	for _, keep := range []string{"ss", "us", "is", "molasses", "brussels", "oats", "grits", "greens"} {
		if strings.HasSuffix(w, keep) {
			return w
		}
	}
	switch {
	case strings.HasSuffix(w, "ies"):
		return strings.TrimSuffix(w, "ies") + "y"
	case strings.HasSuffix(w, "oes"), strings.HasSuffix(w, "ches"), strings.HasSuffix(w, "shes"), strings.HasSuffix(w, "xes"):
		return strings.TrimSuffix(w, "es")
	case strings.HasSuffix(w, "ves") && !strings.HasSuffix(w, "olives") && !strings.HasSuffix(w, "chives") && !strings.HasSuffix(w, "cloves"):
		return strings.TrimSuffix(w, "ves") + "f" // leaves → leaf, halves → half
	}
	return strings.TrimSuffix(w, "s")
}

// englishEn are English food words ending in -en, which the German plural
// rule would cut: their keys stay as they were, so lists and aisle
// corrections saved under them still match.
var englishEn = map[string]bool{"chicken": true, "gluten": true, "ramen": true, "golden": true, "garden": true,
	"frozen": true, "dozen": true, "kitchen": true}

// hasLetters reports whether a word is letters only (no digits or marks
// such as "00"), the words the plural rules are for.
func hasLetters(w string) bool {
	for _, r := range w {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return true
}
