package ingredient

import "testing"

// The words that tell a line's language: pantry foods English never writes, German and Dutch
// compounds ending in one, and French and Italian elisions; English words and names stay English.
func TestLineLanguage(t *testing.T) {
	for _, c := range []struct {
		line          string
		english, told bool
	}{
		{"½ Liter Milch", false, true},
		{"1 Liter Gemüsebrühe", false, true},
		{"2 el zonnebloemolie", false, true},
		{"1 filet d'huile d'olive", false, true},
		{"1 cucchiaio dell'olio", false, true},
		{"2 d'Anjou pears", true, false},
		{"2 large eggs, room temperature", true, true},
		{"1 cup crème fraîche", true, true},
		{"1 liter water", true, false},
		{"1 avocado", true, false},
	} {
		english, told := lineLanguage(lex(c.line))
		if english != c.english || told != c.told {
			t.Errorf("%q: english=%v told=%v, want %v %v", c.line, english, told, c.english, c.told)
		}
	}
}
