package ingredient

import (
	"bufio"
	_ "embed"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// WordForms is the word that agrees with an amount, as a span of the line (UTF-16 code units), with
// its form for one and its form for more than one, each in the case the line writes it: the client
// writes the form that agrees with the scaled number and decides nothing about words itself.
type WordForms struct {
	Start int    `json:"start"`
	End   int    `json:"end"`
	One   string `json:"one"`
	Other string `json:"other"`
}

//go:embed data/english_words.txt
var englishWordsFile string

// englishWord is one entry of data/english_words.txt (its flags are described there).
type englishWord struct {
	one, other            string
	portion, also, abbrev bool
}

// englishWords maps both forms of each word, lower case, to its entry.
var englishWords = func() map[string]englishWord {
	m, err := loadEnglishWords(englishWordsFile)
	if err != nil {
		panic(err)
	}
	return m
}()

func loadEnglishWords(text string) (map[string]englishWord, error) {
	m := map[string]englishWord{}
	sc := bufio.NewScanner(strings.NewReader(text))
	for n := 1; sc.Scan(); n++ {
		line, _, _ := strings.Cut(sc.Text(), "#")
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if len(f) < 2 || f[0] == f[1] {
			return nil, fmt.Errorf("data/english_words.txt:%d: want \"one other [portion] [also] [abbrev]\"", n)
		}
		w := englishWord{one: f[0], other: f[1]}
		for _, flag := range f[2:] {
			switch flag {
			case "portion":
				w.portion = true
			case "also":
				w.also = true
			case "abbrev":
				w.abbrev = true
			default:
				return nil, fmt.Errorf("data/english_words.txt:%d: unknown flag %q", n, flag)
			}
		}
		if _, dup := m[w.one]; dup {
			return nil, fmt.Errorf("data/english_words.txt:%d: %q listed twice", n, w.one)
		}
		m[w.one], m[w.other] = w, w
	}
	return m, sc.Err()
}

// EnglishForms returns the two forms of an English unit or counted noun in the case word is
// written in ("Cups" → "Cup", "Cups"), or ok false for a word with one form or not in the table.
// A word other languages spell the same ("litre", "sachet") has them only in an English line. An
// abbreviation whose singular serves any number ("2 lb") has them only where written in the plural:
// "lb" stays "lb" at any number, "lbs" becomes "lb" at one or less.
func EnglishForms(word string, englishLine bool) (one, other string, ok bool) {
	lower := strings.ToLower(word)
	w, ok := englishWords[lower]
	if !ok || w.also && !englishLine || w.abbrev && lower == w.one {
		return "", "", false
	}
	return inCaseOf(word, w.one), inCaseOf(word, w.other), true
}

// inCaseOf writes form in the case of written: all capitals, a capital first, or lower case.
func inCaseOf(written, form string) string {
	lower := strings.ToLower(written)
	switch {
	case written == strings.ToUpper(written) && written != lower:
		return strings.ToUpper(form)
	case written != lower && written[:1] != lower[:1]:
		r, n := utf8.DecodeRuneInString(form)
		return string(unicode.ToUpper(r)) + form[n:]
	}
	return form
}

// CountedWord returns the byte span of the word in text[start:end] that a number before it counts:
// the head of an English noun phrase is its last noun ("red bell pepper" → "pepper", "chicken stock
// cube" → "cube"), so the last word with two forms in the table, unless a word that portions what
// follows leads ("loaf brioche bread" → "loaf", "cube chicken bouillon" → "cube").
func CountedWord(text string, start, end int) (s, e int, ok bool) {
	for i := start; i < end; {
		r, n := utf8.DecodeRuneInString(text[i:])
		if !inWord(r) {
			i += n
			continue
		}
		j := i
		for j < len(text) {
			r, n := utf8.DecodeRuneInString(text[j:])
			if !inWord(r) {
				break
			}
			j += n
		}
		if w, found := englishWords[strings.ToLower(text[i:j])]; found {
			s, e, ok = i, j, true
			if i == start && w.portion {
				return s, e, ok
			}
		}
		i = j
	}
	return s, e, ok
}

// inWord: a word here runs over apostrophes and hyphens ("jalapeño", "pak-choi").
func inWord(r rune) bool { return isWordRune(r) || isApostrophe(r) || r == '-' }

// agreeingWord is the word of the line at byte span [s, e) with its forms and UTF-16 offsets (u), or
// nil when it has one form or is written as part of something else: "1-inch piece", "15-ounce can"
// (a unit joined by a hyphen is an adjective) and "tablespoon(s)" (both forms already). english
// tells whether the line reads as English (see EnglishForms).
func agreeingWord(line string, s, e int, u []int, english bool) *WordForms {
	if s > 0 && line[s-1] == '-' || e < len(line) && line[e] == '(' {
		return nil
	}
	one, other, ok := EnglishForms(line[s:e], english)
	if !ok {
		return nil
	}
	return &WordForms{Start: u[s], End: u[e], One: one, Other: other}
}

// NameWord returns the word of a food's name that a count of it agrees with ("red onions" →
// "onions"), with its forms and offsets in UTF-16 code units of name, or nil when there is none or
// line, the ingredient line the name was read from, is not in English (its words keep their form).
func NameWord(name, line string) *WordForms {
	if english, _ := lineLanguage(lex(line)); !english {
		return nil
	}
	s, e, ok := CountedWord(name, 0, len(name))
	if !ok {
		return nil
	}
	return agreeingWord(name, s, e, utf16Offsets(name), true)
}
