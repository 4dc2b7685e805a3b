package shopping

import (
	_ "embed"
	"strings"
)

// Aisles, in the order a list is walked through a shop.
var Aisles = []string{"produce", "bakery", "meat and fish", "dairy", "frozen", "pantry", "spices", "drinks", "other"}

// OtherAisle is where a food the table does not know goes.
const OtherAisle = "other"

//go:embed aisles.txt
var aislesTable string

// aisleOf maps a food key (or one word of it) to its aisle.
var aisleOf = parseAisles(aislesTable)

func parseAisles(table string) map[string]string {
	out := map[string]string{}
	for _, line := range strings.Split(table, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		aisle, words, ok := strings.Cut(line, ":")
		if !ok {
			panic("shopping: aisles.txt: no colon in " + line)
		}
		aisle = strings.TrimSpace(aisle)
		if !IsAisle(aisle) {
			panic("shopping: aisles.txt: unknown aisle " + aisle)
		}
		for _, w := range strings.Split(words, ",") {
			w = FoodKey(w)
			if _, seen := out[w]; !seen && w != "" {
				out[w] = aisle
			}
		}
	}
	return out
}

// IsAisle reports whether a is one of Aisles.
func IsAisle(a string) bool {
	for _, x := range Aisles {
		if x == a {
			return true
		}
	}
	return false
}

// SavedCorrections turns a user's aisle corrections, as stored by the food
// key each was saved under, into the map Aisle and Merge read. Each is
// also filed under the key FoodKey gives its food today, so that a
// correction saved before a plural rule was added (under "tomaten") still
// applies to the food now keyed "tomate"; where two land on one key, the
// one saved under that very key wins.
func SavedCorrections(saved map[string]string) map[string]string {
	out := make(map[string]string, len(saved))
	for key, aisle := range saved {
		if now := FoodKey(key); now != key {
			if _, exact := saved[now]; !exact {
				out[now] = aisle
			}
		}
	}
	for key, aisle := range saved {
		out[key] = aisle
	}
	return out
}

// Aisle returns the built-in aisle of a food key: the whole name, then its
// endings (the head noun: "red onion" is an onion), then any other word
// ("chicken thigh"). A food named frozen is in the freezer whatever it is.
// corrections, a user's remembered choices by food key, come first.
func Aisle(food string, corrections map[string]string) string {
	if a, ok := corrections[food]; ok {
		return a
	}
	if a, ok := aisleOf[food]; ok {
		return a
	}
	words := strings.Fields(food)
	for _, w := range words {
		if w == "frozen" {
			return "frozen"
		}
	}
	for i := 1; i < len(words); i++ { // "extra-virgin olive oil" is olive oil
		if a, ok := aisleOf[strings.Join(words[i:], " ")]; ok {
			return a
		}
	}
	for i := len(words) - 1; i >= 0; i-- {
		if a, ok := aisleOf[words[i]]; ok {
			return a
		}
	}
	return OtherAisle
}
