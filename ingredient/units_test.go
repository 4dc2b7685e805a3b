package ingredient

import (
	"slices"
	"strings"
	"testing"
)

// TestUnitTable checks the one unit table: every key is a canonical unit (or the count-word key),
// and no spelling means two units, whichever languages list it.
func TestUnitTable(t *testing.T) {
	t.Parallel()
	seen := map[string]string{}
	for _, row := range unitTable {
		if row.key != countOnly && !slices.Contains(canonicalUnits, row.key) {
			t.Errorf("%s: key %q is not in canonicalUnits", row.lang, row.key)
		}
		for _, w := range strings.Fields(row.words) {
			w = strings.TrimSuffix(w, "+")
			if w != strings.ToLower(w) {
				t.Errorf("%s: spelling %q is not lower case", row.lang, w)
			}
			if k, ok := seen[w]; ok && k != row.key {
				t.Errorf("%q is both %q and %q", w, k, row.key)
			}
			seen[w] = row.key
		}
	}
}

// TestUnitsOfOtherLanguages reads each language's measures through Parse: the unit, and the food
// after the joining word.
func TestUnitsOfOtherLanguages(t *testing.T) {
	t.Parallel()
	for line, want := range map[string][2]string{
		"2 EL Olivenöl":                        {"tbsp", "Olivenöl"},
		"1 c. à soupe d'huile d'olive":         {"tbsp", "huile d'olive"},
		"1 c.à.c de sel":                       {"tsp", "sel"},
		"4 cs de parmesan":                     {"tbsp", "parmesan"},
		"1 cc d'huile":                         {"tsp", "huile"},
		"200cc milk":                           {"ml", "milk"},
		"3 colheres (sopa) de azeite":          {"tbsp", "azeite"},
		"1 colher de chá de sal":               {"tsp", "sal"},
		"1 xícara (chá) de leite":              {"cup", "leite"},
		"1 EL (gestr.) Backpulver":             {"tbsp", "Backpulver"},
		"3 cucharadas soperas de harina":       {"tbsp", "harina"},
		"1 noix de beurre":                     {"knob", "beurre"},
		"3 noix":                               {"", "noix"},
		"1 bouquet garni":                      {"", "bouquet garni"},
		"2 Stück Lauch":                        {"", "Lauch"},
		"een snufje zout":                      {"pinch", "zout"},
		"1 Msp. Muskatnuss":                    {"knife tip", "Muskatnuss"},
		"5 dag masła":                          {"dag", "masła"},
		"1 krm svartpeppar":                    {"krm", "svartpeppar"},
		"3 stroužky česneku":                   {"clove", "česneku"},
		"suco de 2 limões":                     {"", "limões"},
		"250 g de tagliatelles":                {"g", "tagliatelles"},
		"1 lb tagliatelle":                     {"lb", "tagliatelle"},
		"1 tbsp malt vinegar":                  {"tbsp", "malt vinegar"},
		"200 ml de crème liquide, très froide": {"ml", "crème liquide"},
	} {
		p := Parse(line)
		if p.Unit != want[0] || p.Name != want[1] {
			t.Errorf("Parse(%q) = unit %q name %q, want %q %q", line, p.Unit, p.Name, want[0], want[1])
		}
	}
}
