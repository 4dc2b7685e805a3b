package extract

import (
	"reflect"
	"testing"
)

func TestMethodParts(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want []methodPart
	}{
		{"Prepare: Mix it. Bake: Bake it.", []methodPart{{"Prepare", "Mix it."}, {"Bake", "Bake it."}}},
		{"Für den Teig: Mehl sieben.Für die Füllung: Äpfel schälen.", []methodPart{{"Für den Teig", "Mehl sieben."}, {"Für die Füllung", "Äpfel schälen."}}},
		// Not opening with a label: one part, labels inside stay text.
		{"Mix it. Bake: 20 minutes.", []methodPart{{"", "Mix it. Bake: 20 minutes."}}},
		// A tip or a note names no part.
		{"Tip: use cold butter. Mix: all of it.", []methodPart{{"", "Tip: use cold butter. Mix: all of it."}}},
		{"Prepare: Mix it. Note: it keeps.", []methodPart{{"", "Prepare: Mix it. Note: it keeps."}}},
		// Several lines: splitSteps reads them.
		{"Prepare: Mix it.\nBake it.", []methodPart{{"", "Prepare: Mix it.\nBake it."}}},
		// Four words before the colon are a sentence, not a label.
		{"Mix the flour well: then bake.", []methodPart{{"", "Mix the flour well: then bake."}}},
	}
	for _, tt := range tests {
		if got := methodParts(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("methodParts(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestJoinLines(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   []string
		want string
	}{
		{[]string{"搅拌", "均匀"}, "搅拌均匀"},
		{[]string{"混ぜて", "焼く"}, "混ぜて焼く"},
		{[]string{"冷藏 four", "hours 以上"}, "冷藏 four hours 以上"},
		{[]string{"Mix.", "Bake."}, "Mix. Bake."},
		{[]string{"加入", "3 eggs"}, "加入 3 eggs"},
		{nil, ""},
	}
	for _, tt := range tests {
		if got := joinLines(tt.in); got != tt.want {
			t.Errorf("joinLines(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestLayoutBeforeComma(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"\n\t\t, warmed", ", warmed"},
		{"\r\n , drained", ", drained"},
		{" , typed", " , typed"}, // one typed space is the author's
		{"\n and more", "\n and more"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := layoutBeforeComma(tt.in); got != tt.want {
			t.Errorf("layoutBeforeComma(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestNumbersRegained(t *testing.T) {
	t.Parallel()
	secs := []Section{{Name: "Soup", Items: []string{"5 tsp cumin", "1 onion"}}, {Name: "Top", Items: []string{"25 g cream"}}}
	card := []string{"Scale", "1.5 tsp cumin", "1 onion", "1.25 g cream", "Cook Mode"}
	want := []Section{{Name: "Soup", Items: []string{"1.5 tsp cumin", "1 onion"}}, {Name: "Top", Items: []string{"1.25 g cream"}}}
	if got := numbersRegained(secs, card); !reflect.DeepEqual(got, want) {
		t.Errorf("numbersRegained = %q, want %q", got, want)
	}
	if secs[0].Items[0] != "5 tsp cumin" {
		t.Error("numbersRegained changed its input")
	}
	for _, card := range [][]string{
		{"1.5 tsp cumin", "2 onions", "1.25 g cream"}, // another line differs: not the same list
		{"5 tsp cumin", "1 onion", "25 g cream"},      // nothing was cut
		{"1 onion", "1.5 tsp cumin", "1.25 g cream"},  // another order
		{"15 tsp cumin", "1 onion", "1.25 g cream"},   // "1" glued to the number is not a cut "1."
		{"1.5 tsp cumin", "1 onion"},                  // a line missing
	} {
		if got := numbersRegained(secs, card); got != nil {
			t.Errorf("numbersRegained(card %q) = %q, want nil", card, got)
		}
	}
}
