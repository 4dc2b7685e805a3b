package ingredient

import (
	"testing"
)

// TestStemForms checks that the forms a cook writes of one food meet after stemming, and that
// different foods stay apart: irregular forms (data/forms.txt), the mobile e of Polish and Czech, and
// Dutch diminutives and vowel spelling.
func TestStemForms(t *testing.T) {
	t.Parallel()
	tests := []struct {
		lang, a, b string
		same       bool
	}{
		{"cs", "houby", "hub", true},
		{"cs", "kroupy", "krup", true},
		{"cs", "mrkev", "mrkve", true},
		{"cs", "česnek", "česneku", true},
		{"cs", "okurek", "okurky", true},
		{"pl", "śliwek", "śliwkami", true},
		{"pl", "boczek", "boczku", true},
		{"pl", "cukier", "cukru", true},
		{"sv", "socker", "sockret", true},
		{"sv", "vatten", "vattnet", true},
		{"da", "kartoffel", "kartoflerne", true},
		{"no", "gulrot", "gulrøttene", true},
		{"it", "uovo", "uova", true},
		{"nl", "ui", "uitjes", true},
		{"nl", "wortel", "worteltjes", true},
		{"nl", "tomaat", "tomaatjes", true},
		{"nl", "tomaat", "tomaten", true},
		{"nl", "boon", "bonen", true},
		{"nl", "kip", "kippetje", true},
		{"nl", "olie", "oli", false},
		{"nl", "spek", "spekjes", true},
		{"cs", "houby", "hrášek", false},
		{"pl", "boczek", "buraki", false},
		{"sv", "socker", "salt", false},
		{"nl", "ui", "ei", false},
	}
	for _, tt := range tests {
		a, b := stemWord(foldWordIn(tt.a, tt.lang), tt.lang), stemWord(foldWordIn(tt.b, tt.lang), tt.lang)
		if (a == b) != tt.same {
			t.Errorf("%s %q → %q, %q → %q: same %v, want %v", tt.lang, tt.a, a, tt.b, b, a == b, tt.same)
		}
	}
}

// TestFoodWords checks the names of one food, the kind words and the part words of data/forms.txt on
// small recipes: a step naming the food another way links its line, and only its line.
func TestFoodWords(t *testing.T) {
	t.Parallel()
	checkMatchCases(t, []matchCase{
		{
			name: "another name of the food (Möhren for Karotten)",
			r: recipe([]string{"2 Karotten", "1 Zwiebel"},
				"Die Möhren und die Zwiebel schälen und würfeln."),
			want: [][2]int{{0, 0}, {1, 0}},
		},
		{
			name: "another name inside a compound (wortel for winterpeen)",
			r: recipe([]string{"750 g winterpeen", "1 kg aardappelen"},
				"Schil de aardappelen en doe ze in een pan.", "Leg de wortel op de aardappelen en kook alles gaar."),
			want: [][2]int{{0, 1}, {1, 0}},
		},
		{
			name: "a kind word (fisken for torsk and laks), not the fish stock",
			r: recipe([]string{"1 l fiskekraft", "400 g torskefilet", "200 g laks"},
				"Kok opp kraften.", "Skjær fisken i terninger og legg den i suppen."),
			want: [][2]int{{0, 0}, {1, 1}, {2, 1}},
		},
		{
			name: "a part of a food (i tuorli for the uova)",
			r: recipe([]string{"4 uova", "100 g di zucchero", "250 g di mascarpone"},
				"Montate i tuorli con lo zucchero.", "Aggiungete il mascarpone e mescolate bene con una spatola."),
			want: [][2]int{{0, 0}, {1, 0}, {2, 1}},
		},
	})
}

// TestLoadFormsRejects shows a malformed line of data/forms.txt is an error, not a silent skip.
func TestLoadFormsRejects(t *testing.T) {
	t.Parallel()
	for _, text := range []string{
		"cs form houby hub",       // no colon
		"cs form: houby",          // one word
		"xx kind: fisk torsk",     // no "="
		"sv kind: = torsk",        // no kind word
		"sv colour: gul grön",     // unknown class
		"sv form extra: socker s", // three words before the colon
	} {
		if err := loadFormsInto(map[string]*foodForms{}, text); err == nil {
			t.Errorf("%q: accepted", text)
		}
	}
}
