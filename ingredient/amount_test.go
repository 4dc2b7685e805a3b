package ingredient

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf16"
)

// TestReadAmountsReasons: each number that never scales says why (the vectors check which numbers
// scale; this checks the reasons).
func TestReadAmountsReasons(t *testing.T) {
	t.Parallel()
	tests := []struct {
		line string
		want []string // each number as written, with "+" when it scales or its reason
	}{
		{"1 (28 ounce) can tomatoes", []string{"1+", "28 package-size"}},
		{"2 x 400 g tins", []string{"2+", "400 package-size"}},
		{"4 chicken breasts (5 oz each)", []string{"4+", "5 per-item"}},
		{"2 fillets (à 150 g)", []string{"2+", "150 per-item"}},
		{"1 teaspoon per kilo", []string{"1 rate"}},
		{"2 potatoes, each cut into 6 pieces", []string{"2+", "6 dimension"}},
		{"9x13 inch pan", []string{"9x13 dimension"}},
		{"9 x 13 inch pan", []string{"9 dimension", "13 dimension"}},
		{"1 x 2.5cm piece ginger", []string{"1+", "2.5 package-size"}},
		{"2 x 3 cm knobs ginger", []string{"2+", "3 package-size"}},
		{"2 x 5 cm cubes", []string{"2 dimension", "5 dimension"}},
		{"1 cup milk, warmed to 110°F", []string{"1+", "110°f temperature"}},
		{"oil heated to 180 degrees", []string{"180 temperature"}},
		{"rice, soaked for 30 minutes", []string{"30 time"}},
		{"1 cup 2% milk", []string{"1+", "2% percent"}},
		{"Milch, 3,5 %", []string{"3,5 percent"}},
		{"1 lb 90/10 beef", []string{"1+", "90/10 ratio"}},
		{"500 g 00 flour", []string{"500+", "00 name"}},
		{"1 tsp 5-spice", []string{"1+", "5 name"}},
		{"2 cups water (see note 2)", []string{"2+", "2 reference"}},
		{"1st layer: 2 eggs", []string{"1st reference", "2+"}},
		{"For 6-8 cocktails:", []string{"6-8 reference"}},
		{"3 cups spinach ($1.61)", []string{"3+", "1.61 price"}},
		{"1 cup to 1 1/2 cups milk", []string{"1+", "1 1/2+"}},
		{"1 cup warm milk - 80F (26C)", []string{"1+", "80f temperature", "26 temperature"}},
		{"1 whole salmon fillet (or 4 5-oz portions)", []string{"1+", "4+", "5 package-size"}},
		{"1 13.5 – ounce can coconut milk", []string{"1+", "13.5 package-size"}},
		{"4 portions sea bass", []string{"4+"}},
		{"Sauce (4 servings)", []string{"4 reference"}},
		{"6 medium (about 2 lb) potatoes", []string{"6+", "2+"}},
		{"16 whole (227 grams) graham crackers", []string{"16+", "227+"}},
		{"1 large (28 oz) can tomatoes", []string{"1+", "28 package-size"}},
		{"2 (6 oz) salmon fillets", []string{"2+", "6 package-size"}},
		{"1 boîte de tomates pelées (400 g)", []string{"1+", "400 package-size"}},
		{"1 opakowanie (200 g) serka", []string{"1+", "200 package-size"}},
		{"4 zalmfilets van 150 g", []string{"4+", "150 per-item"}},
		{"3 huevos de 60 g", []string{"3+", "60 per-item"}},
		{"je 1 TL Salz und Pfeffer", []string{"1+"}},
		{"4 Filets je 150 g", []string{"4+", "150 per-item"}},
		{"1 pound shrimp (16/20 count)", []string{"1+", "16/20 name"}},
		{"2 tbsp Hormel Cure 81", []string{"2+", "81 name"}},
		{"1/4 cup Heinz 57 sauce", []string{"1/4+", "57 name"}},
		{"Eggs 2", []string{"2+"}},
		{"1 Bund Suppengemüse (alternativ 2 Möhren)", []string{"1+", "2+"}},
		{"500 g mąki typ 650", []string{"500+", "650 reference"}},
		{"Lait 1/2 écrémé : 25 cl", []string{"1/2 name", "25+"}},
		{"500 ml de lait 1/2 écrémé", []string{"500+", "1/2 name"}},
		{"zest of 1/2 lemon", []string{"1/2+"}},
		{"1 cup milk plus 1/2 lemon", []string{"1+", "1/2+"}},
		{"1 pound 41/50 shrimp", []string{"1+", "41/50 name"}},
		{"2 latas de atún (de 80 g)", []string{"2+", "80 package-size"}},
		{"2 puszki pomidorów (po 400 g)", []string{"2+", "400 per-item"}},
		{"1 bustina di lievito per dolci (16 g)", []string{"1+", "16 package-size"}},
		{"80 g di pasta per persona", []string{"80 rate"}},
		{"100 g de pasta por persona", []string{"100 rate"}},
		{"100 g makaronu na osobę", []string{"100 rate"}},
		{"1 c. à café de sel par litre d'eau", []string{"1 rate"}},
		{"1 bustina di zafferano per il risotto", []string{"1+"}},
		{"1 tsp sugar per glass", []string{"1 rate"}},
		{"2 Lachsfilets von je 150 g", []string{"2+", "150 per-item"}},
		{"4 kipfilets van ca. 125 g", []string{"4+", "125 per-item"}},
		{"4 fette di pesce spada di circa 200 g l'una", []string{"4+", "200 per-item"}},
		{"600 g zalm, in vier porties van 150 g", []string{"600+", "150 per-item"}},
		{"300 g di spaghetti n. 5", []string{"300+", "5 reference"}},
		{"1 No. 2 can crushed pineapple", []string{"1+", "2 reference"}},
		{"2 #10 cans tomatoes", []string{"2+", "10 reference"}},
		{"1 plechovka rajčat (400 g)", []string{"1+", "400 package-size"}},
		{"2 sheets puff pastry (from a 17.3-ounce package)", []string{"2+", "17.3 package-size"}},
		{"2 cups frozen peas (10 oz. bag)", []string{"2+", "10 package-size"}},
		{"1 cup spinach (250 g)", []string{"1+", "250+"}},
		{"1 cup rice (1 cup = 240 ml)", []string{"1+", "1 reference", "240 reference"}},
		{"1 cup = 240 ml", []string{"1 reference", "240 reference"}},
		{"2 cups = 480 ml", []string{"2+", "480+"}},
		{"1 cup = 240 ml water", []string{"1+", "240+"}},
		{"3 cups water (3 whistles)", []string{"3+", "3 time"}},
		{"1 kleine Dose Tomatenmark (70 g)", []string{"1+", "70 package-size"}},
		{"1 caixinha de creme de leite (200 g)", []string{"1+", "200 package-size"}},
		{"4 filetes de merluza de unos 150 g", []string{"4+", "150 per-item"}},
		{"2 cups broth and a 2-inch piece of ginger", []string{"2+", "2 dimension"}},
	}
	for _, tt := range tests {
		rd := ReadAmounts(tt.line)
		var got []string
		for _, n := range rd.Numbers {
			s := strings.ToLower(tt.line[n.Start:n.End])
			if n.Scales {
				got = append(got, s+"+")
			} else {
				got = append(got, s+" "+string(n.Reason))
			}
		}
		if strings.Join(got, " | ") != strings.Join(tt.want, " | ") {
			t.Errorf("%q\n got %q\nwant %q", tt.line, got, tt.want)
		}
	}
}

// TestReadAmountsCharacterReferences: a fraction left on a line as an HTML character reference
// ("&frac12;", "&#189;", "&#x215B;", "1&frasl;2") is read as the character it stands for, alone,
// glued to a whole number, spaced from it, or at one end of a range; the line is kept as written.
func TestReadAmountsCharacterReferences(t *testing.T) {
	t.Parallel()
	tests := []struct {
		line string
		want []string // each amount as written, its value and style
	}{
		{"&frac12; cup milk", []string{"&frac12; 0.5 unicode"}},
		{"&#189; cup milk", []string{"&#189; 0.5 unicode"}},
		{"&#x215B; tsp cayenne", []string{"&#x215B; 0.125 unicode"}},
		{"1&frac12; cups flour", []string{"1&frac12; 1.5 unicode"}},
		{"2&#189; cups sugar", []string{"2&#189; 2.5 unicode"}},
		{"1 &frac12; teaspoons salt", []string{"1 &frac12; 1.5 unicode-spaced"}},
		{"1&frasl;2 cup cranberries", []string{"1&frasl;2 0.5 fraction-slash"}},
		{"1&frac12;&#8211;2 pounds steak", []string{"1&frac12;&#8211;2 1.5 unicode"}},
		{"1 pound beef, cut into &frac12;-inch cubes", []string{"1 1 integer"}},
		{"1 can (14&frac12; oz) tomatoes", []string{"1 1 integer"}},
		{"&frac12x; cup", nil},
		{"&frac;12 cup", []string{"12 12 integer"}},
	}
	for _, tt := range tests {
		var got []string
		for _, a := range ReadAmounts(tt.line).Amounts(tt.line) {
			got = append(got, fmt.Sprintf("%s %v %s", tt.line[a.Start:a.End], a.Value, a.Style))
		}
		if strings.Join(got, " | ") != strings.Join(tt.want, " | ") {
			t.Errorf("%q\n got %q\nwant %q", tt.line, got, tt.want)
		}
	}
}

// checkAmounts holds for every line: the reader never panics, its numbers lie inside the line in
// order without overlapping, and the amounts the client gets slice the text as UTF-16 safely.
func checkAmounts(t *testing.T, line string) {
	t.Helper()
	rd := ReadAmounts(line)
	prevEnd := 0
	for _, n := range rd.Numbers {
		if n.Start < prevEnd || n.End <= n.Start || n.End > len(line) {
			t.Fatalf("ReadAmounts(%q): number [%d,%d) after %d", line, n.Start, n.End, prevEnd)
		}
		if !n.Scales && n.Reason == "" {
			t.Errorf("ReadAmounts(%q): number [%d,%d) does not scale and has no reason", line, n.Start, n.End)
		}
		prevEnd = n.End
	}
	// The text as the client gets it: JSON turns each invalid byte into one U+FFFD.
	b, err := json.Marshal(line)
	if err != nil {
		t.Fatal(err)
	}
	var seen string
	if err := json.Unmarshal(b, &seen); err != nil {
		t.Fatal(err)
	}
	units := len(utf16.Encode([]rune(seen)))
	as := rd.Amounts(line)
	prevEnd = 0
	inside := func(what string, s, e int) {
		if s < 0 || e > units || s >= e {
			t.Fatalf("Amounts(%q): %s [%d,%d) outside [0,%d)", line, what, s, e, units)
		}
	}
	for _, a := range as {
		inside("amount", a.Start, a.End)
		if a.Start < prevEnd {
			t.Fatalf("Amounts(%q): amount at %d overlaps the one ending at %d", line, a.Start, prevEnd)
		}
		if math.IsNaN(a.Value) || math.IsInf(a.Value, 0) || a.Value <= 0 {
			t.Errorf("Amounts(%q): value %v", line, a.Value)
		}
		if a.Max != nil {
			if !(a.Start < a.ValueEnd && a.ValueEnd <= a.MaxStart && a.MaxStart < a.End) || !(*a.Max > a.Value) || math.IsInf(*a.Max, 0) {
				t.Errorf("Amounts(%q): range %+v", line, a)
			}
		}
		for _, u := range []*UnitSpan{a.Unit, a.ValueUnit} {
			if u != nil {
				inside("unit", u.Start, u.End)
				if u.Key == "" || (u.Start < a.End && u.End > a.Start && u != a.ValueUnit) {
					t.Errorf("Amounts(%q): unit %+v of %+v", line, *u, a)
				}
			}
		}
		for _, w := range []*WordForms{a.Word, a.ValueWord} {
			if w != nil {
				inside("word", w.Start, w.End)
				if w.One == "" || w.Other == "" || w.One == w.Other {
					t.Errorf("Amounts(%q): word forms %+v", line, *w)
				}
			}
		}
		prevEnd = a.End
	}
	// Parsed takes its quantity from the reader.
	p := Describe(line).Parsed
	if p.Quantity != nil && len(as) == 0 {
		t.Errorf("Describe(%q): quantity %v without amounts", line, *p.Quantity)
	}
}

func FuzzReadAmounts(f *testing.F) {
	for _, s := range []string{
		"1 cup (240 ml) milk", "1 (28 ounce) can tomatoes", "6 1/2-inch thick lamb chops", "½–1 tsp salt",
		"1 cup to 1 1/2 cups milk", "2 x 400 g tins", "9x13 inch pan", "350°F", "Basilico ½", "Optional topping: 2–3 tbsp",
		"1 inch fresh ginger, (grated (2.5cm))", "玉ねぎ 1/4個(50g)", "میدہ۔۔۔۔۔1کپ", "🥚 2 eggs", "\xff1\xfe/2 cup",
		"1 (", "((((1", "1-", "1 - - 2", "1/0", "0/0 cups", "1 or", "1 to 2 to 3", "2 ½ - 3 ¼", "1,5 %", "1:1:1",
		"$1.99", "1 1/2-inch (4 cm) piece", "1 jar (8 ounce size)", "4 steaks, about 4-5 oz each", "For 6-8:",
		strings.Repeat("1 (", 200), strings.Repeat("2 x ", 100), "99999999999999999999999999999999999999999 cups",
		"1 No. 2 can", "2 #10 cans", "4 fette di circa 200 g l'una", "in vier porties van 150 g", "1 avocado",
		"1&nbsp;cup", "&amp;&#160;&#xA0;&nbsp&;1&frac12;", "2&#189;&frac12;&#x215B;", "1&frasl;2&frasl;&frac14;", "1 &frac12;&ndash;2", "120–130°F", "1 Dose (Abtropfgewicht 285 g)",
		"2x400g tins", "2×.5g", "1x", "3 ×× 4", "20cm/8in loose-bottomed cake tin", "25cm (10in", "fan/gas 4", "1 (12-count",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		start := time.Now()
		checkAmounts(t, line)
		// The recipe's language changes at most which words have English forms.
		alone, inDutch := Describe(line), DescribeRecipe([]string{"2 el olijfolie", line})[1]
		if len(alone.Amounts) != len(inDutch.Amounts) || inDutch.Text != line {
			t.Fatalf("%q: %+v alone, %+v in a Dutch recipe", line, alone, inDutch)
		}
		for i, a := range inDutch.Amounts {
			a.Word, a.ValueWord = alone.Amounts[i].Word, alone.Amounts[i].ValueWord
			if !reflect.DeepEqual(a, alone.Amounts[i]) {
				t.Fatalf("%q: amount %+v alone, %+v in a Dutch recipe", line, alone.Amounts[i], inDutch.Amounts[i])
			}
		}
		// Not a performance assertion: a line that takes this long has hit a blow-up, not a slow machine.
		if d := time.Since(start); d > 5*time.Second {
			t.Fatalf("%d bytes took %v", len(line), d)
		}
	})
}

// vectorLines are the lines of the shared scaling vectors: real lines, most with second amounts.
func vectorLines(b *testing.B) []string {
	raw, err := os.ReadFile(filepath.Join("testdata", "scaling", "vectors.json"))
	if err != nil {
		b.Fatal(err)
	}
	var vs scalingVectors
	if err := json.Unmarshal(raw, &vs); err != nil {
		b.Fatal(err)
	}
	lines := make([]string, len(vs.Vectors))
	for i, v := range vs.Vectors {
		lines[i] = v.Line
	}
	return lines
}

// BenchmarkDescribe reads a line from scratch: what a recipe read costs when the memo misses.
func BenchmarkDescribe(b *testing.B) {
	lines := vectorLines(b)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		Describe(lines[i%len(lines)])
	}
}

// BenchmarkMemoDescribe is the GET /api/recipes/:id path once the lines were seen.
func BenchmarkMemoDescribe(b *testing.B) {
	lines := vectorLines(b)
	m := NewMemo(50_000)
	for _, l := range lines {
		m.Describe(l)
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		m.Describe(lines[i%len(lines)])
	}
}

// TestCountedWordOnlyInEnglish: the table of word forms is English, so only a line that reads as
// English gives the word a number counts, with its forms; "½ a lemon" agrees with its article, not
// its number. The head of the noun is its last word with two forms, unless a portion word leads.
func TestCountedWordOnlyInEnglish(t *testing.T) {
	t.Parallel()
	tests := []struct {
		line, word, forms string
	}{
		{"1 orange, zested", "orange", "orange/oranges"},
		{"2 large eggs", "eggs", "egg/eggs"},
		{"1 orange sanguine", "", ""},
		{"1 Avocado, reif", "", ""},
		{"Succo di 1 lime", "", ""},
		{"1 rijpe avocado", "", ""},
		{"1 lime, saften", "", ""},
		{"1 banana madura", "", ""},
		{"½ a lemon, juiced", "", ""},
		{"2 bananas (I like them spotty)", "bananas", "banana/bananas"},
		{"2 med onions", "onions", "onion/onions"},
		{"2 petite sirloin steaks", "steaks", "steak/steaks"},
		{"1 avocado, in blokjes", "", ""},
		{"1 red bell pepper", "pepper", "pepper/peppers"},
		{"1 large loaf brioche bread", "loaf", "loaf/loaves"},
		{"2 Chicken Breasts", "Breasts", "Breast/Breasts"},
		{"2 LIMES", "LIMES", "LIME/LIMES"},
		{"1 litre milk", "litre", "litre/litres"},
		{"1 litre de lait", "", ""},
		{"0,5 liter groentebouillon", "", ""},
		{"1 liter water", "liter", "liter/liters"},
		{"2 tsp salt", "", ""},
		{"1 15-ounce can beans", "can", "can/cans"},
		{"2 tablespoon(s) oil", "", ""},
	}
	for _, tt := range tests {
		var got, forms string
		for _, a := range Describe(tt.line).Amounts {
			if w := a.Word; w != nil {
				got = string(utf16.Decode(utf16.Encode([]rune(tt.line))[w.Start:w.End]))
				forms = w.One + "/" + w.Other
			}
		}
		if got != tt.word || forms != tt.forms && tt.forms != "" {
			t.Errorf("%q: word %q (%s), want %q (%s)", tt.line, got, forms, tt.word, tt.forms)
		}
	}
}

// A can graded by number between the count and the can ("1 No. 2 can") is what the count counts.
func TestReadAmountsCanGrade(t *testing.T) {
	for _, line := range []string{"1 No. 2 can crushed pineapple", "2 #10 cans tomatoes"} {
		as := ReadAmounts(line).Amounts(line)
		if len(as) != 1 || as[0].Unit == nil || as[0].Unit.Key != unitCan {
			t.Errorf("%q: amounts %+v, want one counting cans", line, as)
		}
	}
}

// A line whose words do not tell its language is in its recipe's: its counted noun's English forms
// are given in an English recipe or on its own, not in a Dutch one; a line whose words tell keeps its
// own language in any recipe.
func TestDescribeRecipeLanguage(t *testing.T) {
	noun := func(d Described) bool { return len(d.Amounts) == 1 && d.Amounts[0].Word != nil }
	if !noun(Describe("1 avocado")) {
		t.Error(`"1 avocado" on its own: no counted noun`)
	}
	if got := DescribeRecipe([]string{"1 cup rice", "1 avocado"}); !noun(got[1]) {
		t.Errorf("English recipe: %+v, want a counted noun", got[1])
	}
	dutch := []string{"2 el olijfolie", "1 rode ui, gesnipperd", "1 avocado", "1 ripe avocado, diced"}
	got := DescribeRecipe(dutch)
	if noun(got[2]) {
		t.Errorf("Dutch recipe: %+v, want no counted noun", got[2])
	}
	if !noun(got[3]) {
		t.Errorf("English line in a Dutch recipe: %+v, want a counted noun", got[3])
	}
	for i, l := range dutch {
		if got[i].Text != l {
			t.Errorf("line %d: text %q", i, got[i].Text)
		}
	}
}
