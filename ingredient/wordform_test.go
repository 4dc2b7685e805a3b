package ingredient

import (
	"strings"
	"testing"
)

// TestCountedWord: the head of an English noun phrase is its last word with two forms; a word that
// portions the food after it counts when it leads; words outside the table are not counted.
func TestCountedWord(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ name, want string }{
		{"large loaf brioche bread", "loaf"},
		{"cube chicken bouillon", "cube"},
		{"chicken stock cube", "cube"},
		{"rotisserie chicken", "chicken"},
		{"salmon steak", "steak"},
		{"red bell peppers, sliced", "peppers"},
		{"small kohlrabi", ""},
		{"jalapeños", "jalapeños"},
	} {
		got := ""
		if s, e, ok := CountedWord(tt.name, 0, len(tt.name)); ok {
			got = tt.name[s:e]
		}
		if got != tt.want {
			t.Errorf("CountedWord(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestEnglishForms: both forms in the case written; a word other languages spell the same only in an
// English line; abbreviations and unknown words have none, but for a plural abbreviation ("lbs").
func TestEnglishForms(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		word    string
		english bool
		want    string
	}{
		{"cups", false, "cup/cups"},
		{"Cup", true, "Cup/Cups"},
		{"CUPS", true, "CUP/CUPS"},
		{"leaves", true, "leaf/leaves"},
		{"litre", true, "litre/litres"},
		{"litre", false, ""},
		{"Liter", false, ""},
		{"sachets", true, "sachet/sachets"},
		{"tsp", true, ""},
		{"lbs", true, "lb/lbs"},
		{"LBS", true, "LB/LBS"},
		{"lb", true, ""},
		{"gram", true, ""},
		{"zucchini", true, ""},
	} {
		one, other, ok := EnglishForms(tt.word, tt.english)
		got := ""
		if ok {
			got = one + "/" + other
		}
		if got != tt.want {
			t.Errorf("EnglishForms(%q, %v) = %q, want %q", tt.word, tt.english, got, tt.want)
		}
	}
}

// TestNameWord: a shopping item's name agrees in UTF-16 offsets of the name, only when the line it
// came from reads as English.
func TestNameWord(t *testing.T) {
	t.Parallel()
	if w := NameWord("🥚 eggs", "2 🥚 eggs"); w == nil || w.Start != 3 || w.End != 7 || w.One != "egg" {
		t.Errorf("NameWord(🥚 eggs) = %+v", w)
	}
	if w := NameWord("orange sanguine", "1 orange sanguine"); w != nil {
		t.Errorf("French line: %+v, want none", w)
	}
	if w := NameWord("red onions", ""); w == nil || w.One != "onion" || w.Other != "onions" {
		t.Errorf("NameWord(red onions) = %+v", w)
	}
}

func TestLoadEnglishWordsRefusesBadLines(t *testing.T) {
	t.Parallel()
	for _, text := range []string{"cup", "cup cup", "cup cups plural", "cup cups\ncup cupz"} {
		if _, err := loadEnglishWords(text); err == nil || !strings.Contains(err.Error(), "english_words.txt:") {
			t.Errorf("%q: err %v", text, err)
		}
	}
}
