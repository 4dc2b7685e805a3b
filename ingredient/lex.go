package ingredient

import (
	"html"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

type tokKind uint8

const (
	tWord tokKind = iota
	tNum
	tPunct
)

// token is one lexeme of an ingredient line. start and end are byte offsets into the line, so the
// parser can return the name as an exact slice of the input.
type token struct {
	kind  tokKind
	text  string
	low   string
	start int
	end   int
	val   float64 // tNum only
	// whole is set for a plain integer ("1"), frac for a value below one written as a fraction
	// ("1/2", "½"); together they let "1 1/2" and "1-1/2" read as mixed numbers.
	whole bool
	frac  bool
	// spaceBefore records whether whitespace precedes the token, to tell "1-1/2" from "1 - 2".
	spaceBefore bool
}

var vulgarFractions = map[rune]float64{
	'½': 1.0 / 2, '⅓': 1.0 / 3, '⅔': 2.0 / 3, '¼': 1.0 / 4, '¾': 3.0 / 4,
	'⅕': 1.0 / 5, '⅖': 2.0 / 5, '⅗': 3.0 / 5, '⅘': 4.0 / 5, '⅙': 1.0 / 6, '⅚': 5.0 / 6,
	'⅐': 1.0 / 7, '⅛': 1.0 / 8, '⅜': 3.0 / 8, '⅝': 5.0 / 8, '⅞': 7.0 / 8, '⅑': 1.0 / 9, '⅒': 1.0 / 10,
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

// runeAt decodes the rune at byte offset i, returning (0, 0) at the end of s.
func runeAt(s string, i int) (rune, int) {
	if i >= len(s) {
		return 0, 0
	}
	return utf8.DecodeRuneInString(s[i:])
}

func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsMark(r)
}

func isApostrophe(r rune) bool { return r == '\'' || r == '’' }

// lex splits an ingredient line into words, numbers and punctuation.
func lex(s string) []token {
	toks := make([]token, 0, 16)
	i := 0
	space := true
	for i < len(s) {
		r, size := runeAt(s, i)
		n := len(toks)
		switch {
		case unicode.IsSpace(r):
			i += size
			space = true
			continue
		case r == '&' && vulgarFractions[refRune(s, i)] != 0:
			// "&frac12;", "&#189;": a fraction left as a character reference reads as the fraction.
			end := refEnd(s, i)
			toks = append(toks, token{kind: tNum, text: s[i:end], low: s[i:end], start: i, end: end,
				val: vulgarFractions[refRune(s, i)], frac: true})
		case r == '&' && entityEnd(s, i) > 0:
			// A character reference left from a web page reads as the character it stands for:
			// "1&nbsp;cup" is "1 cup", "salt &amp; vinegar" has an ampersand.
			end := entityEnd(s, i)
			c := string(refRune(s, i))
			if unicode.IsSpace(refRune(s, i)) {
				i = end
				space = true
				continue
			}
			toks = append(toks, token{kind: tPunct, text: c, low: c, start: i, end: end})
		case isDigit(s[i]) || (s[i] == '.' && i+1 < len(s) && isDigit(s[i+1])):
			toks = lexNumber(s, i, toks)
		case vulgarFractions[r] != 0:
			toks = append(toks, token{kind: tNum, text: s[i : i+size], low: s[i : i+size], start: i, end: i + size,
				val: vulgarFractions[r], frac: true})
		case isWordRune(r):
			end := scanWord(s, i)
			toks = append(toks, token{kind: tWord, text: s[i:end], low: strings.ToLower(s[i:end]), start: i, end: end})
		case r == '×':
			// The multiplication sign reads as the letter x does ("2 × 400g tins", "9 × 13 pan").
			toks = append(toks, token{kind: tWord, text: s[i : i+size], low: s[i : i+size], start: i, end: i + size})
		default:
			toks = append(toks, token{kind: tPunct, text: s[i : i+size], low: s[i : i+size], start: i, end: i + size})
		}
		toks[n].spaceBefore = space
		space = false
		i = toks[len(toks)-1].end
	}
	return toks
}

// entityEnd returns the end of the HTML character reference at i ("&nbsp;", "&#160;", "&amp;")
// that stands for one character other than a letter or a number, or 0.
func entityEnd(s string, i int) int {
	c := refRune(s, i)
	if c == 0 || c == '&' && !strings.HasPrefix(s[i:], "&amp;") || unicode.IsLetter(c) || unicode.IsNumber(c) {
		return 0
	}
	return refEnd(s, i)
}

// refEnd returns the end of the HTML character reference at i ("&frac12;", "&#189;", "&#x215B;"):
// the semicolon closing up to ten letters, digits or '#' after the ampersand; or 0.
func refEnd(s string, i int) int {
	j := i + 1
	for j < len(s) && j-i <= 10 && (isDigit(s[j]) || s[j] == '#' || s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z') {
		j++
	}
	if j >= len(s) || s[j] != ';' || j == i+1 {
		return 0
	}
	return j + 1
}

// refRune returns the one character the HTML character reference at i stands for, or 0 when
// there is no reference at i or it stands for more or less than one character.
func refRune(s string, i int) rune {
	if i >= len(s) || s[i] != '&' {
		return 0
	}
	end := refEnd(s, i)
	if end == 0 {
		return 0
	}
	ref := s[i:end]
	c := html.UnescapeString(ref)
	r, size := utf8.DecodeRuneInString(c)
	if c == ref || size != len(c) {
		return 0
	}
	return r
}

// charAt returns the character at byte offset i and its length in s, reading a character
// reference as the character it stands for ("&frasl;" is '⁄', "&frac12;" is '½').
func charAt(s string, i int) (rune, int) {
	if r := refRune(s, i); r != 0 {
		return r, refEnd(s, i) - i
	}
	return runeAt(s, i)
}

// scanWord returns the end of the word starting at i: letters, with inner hyphens and apostrophes
// ("all-purpose", "confectioners'") and digits after the first letter ("7up" is not handled, "v8" is).
func scanWord(s string, i int) int {
	for i < len(s) {
		r, size := runeAt(s, i)
		switch {
		case isWordRune(r):
			i += size
		case r < utf8.RuneSelf && isDigit(byte(r)):
			// Digits continue a Latin word ("v8"), never a word in another script: in "大さじ1"
			// or "d'1/2" the number is an amount of its own.
			prev, _ := utf8.DecodeLastRuneInString(s[:i])
			if !unicode.Is(unicode.Latin, prev) && !(prev < utf8.RuneSelf && isDigit(byte(prev))) {
				return i
			}
			i += size
		case isApostrophe(r):
			i += size
		case r == '-':
			next, _ := runeAt(s, i+size)
			if !isWordRune(next) {
				return i
			}
			i += size
		default:
			return i
		}
	}
	return i
}

// lexNumber reads a number at i: an integer, a decimal ("1.5", "1,5"), a fraction ("1/2", "1⁄2"),
// an integer with a vulgar fraction attached ("1½"), or a number glued to a unit ("200g"). Anything
// that only looks like a number ("350°F", "9x13", "2%", "1/0") becomes a word, so it is never taken as
// an amount.
func lexNumber(s string, i int, toks []token) []token {
	start := i
	j := i
	for j < len(s) && isDigit(s[j]) {
		j++
	}
	whole := j > start
	num := s[start:j]
	switch {
	case j+1 < len(s) && s[j] == '.' && isDigit(s[j+1]):
		k := j + 1
		for k < len(s) && isDigit(s[k]) {
			k++
		}
		num = s[start:k]
		j = k
		whole = false
	case j+1 < len(s) && s[j] == ',' && isDigit(s[j+1]) && whole:
		k := j + 1
		for k < len(s) && isDigit(s[k]) {
			k++
		}
		switch {
		case k-(j+1) == 3:
			// "1,000": a thousands separator.
			num = s[start:j] + s[j+1:k]
			j = k
		case k-(j+1) <= 2:
			// "1,5": a decimal comma.
			num = s[start:j] + "." + s[j+1:k]
			j = k
			whole = false
		}
	}
	val, err := strconv.ParseFloat(num, 64)
	tok := token{kind: tNum, start: start, val: val, whole: whole}
	if err != nil || math.IsInf(val, 0) || math.IsNaN(val) {
		tok.kind = tWord
	}

	// A fraction: "1/2" or "1⁄2" (fraction slash).
	if whole {
		if r, size := charAt(s, j); (r == '/' || r == '⁄') && j+size < len(s) && isDigit(s[j+size]) {
			k := j + size
			for k < len(s) && isDigit(s[k]) {
				k++
			}
			den, derr := strconv.ParseFloat(s[j+size:k], 64)
			j = k
			if derr != nil || den == 0 || math.IsInf(den, 0) || tok.kind != tNum {
				tok.kind = tWord
			} else {
				tok.val = val / den
				tok.whole = false
				tok.frac = tok.val < 1
			}
		}
	}
	// "1½", "1&frac12;": an integer with a vulgar fraction glued on.
	if r, size := charAt(s, j); vulgarFractions[r] != 0 && tok.kind == tNum && tok.whole {
		tok.val += vulgarFractions[r]
		tok.whole = false
		j += size
	}

	r, _ := runeAt(s, j)
	if tok.kind == tNum && timesMeasure(s, j) {
		// "2x400g tins": a count times a package's weight or volume, written without spaces, is
		// a count, the sign and the size; "9x13" and "3x3cm" stay dimensions.
		tok.text, tok.low, tok.end = s[start:j], s[start:j], j
		_, size := runeAt(s, j)
		return append(toks, tok, token{kind: tWord, text: s[j : j+size], low: strings.ToLower(s[j : j+size]), start: j, end: j + size})
	}
	switch {
	case r == '%' || r == '°' || r == 'º' || ((r == 'x' || r == 'X') && j+1 < len(s) && isDigit(s[j+1])):
		// "2%", "350°F", "9x13": keep the whole run as one word.
		end := j + 1
		if r != 'x' && r != 'X' {
			_, size := runeAt(s, j)
			end = j + size
		}
		for end < len(s) {
			r2, size := runeAt(s, end)
			if !(isWordRune(r2) || (r2 < utf8.RuneSelf && isDigit(byte(r2))) || r2 == 'x' || r2 == '.' || r2 == '°') {
				break
			}
			end += size
		}
		tok.kind = tWord
		j = end
	case isWordRune(r):
		// "200g", "1tbsp", "2lb": split when the letters are a unit; otherwise ("2nd") one word.
		end := scanWord(s, j)
		// Split too before a word in another script ("150克", "2個", "1کپ") and before "x" ("4x
		// garlic cloves" counts four).
		if w := strings.ToLower(s[j:end]); tok.kind == tNum && (lookupUnit(s[j:end], true) != "" || w == "fl" || dimensionWords[w] ||
			!unicode.Is(unicode.Latin, r)) {
			tok.text, tok.low, tok.end = s[start:j], s[start:j], j
			toks = append(toks, tok)
			return append(toks, token{kind: tWord, text: s[j:end], low: strings.ToLower(s[j:end]), start: j, end: end})
		}
		tok.kind = tWord
		j = end
	}
	tok.text, tok.low, tok.end = s[start:j], strings.ToLower(s[start:j]), j
	return append(toks, tok)
}

// timesMeasure reports whether a multiplication sign at byte j ("x", "X", "×") is followed by a
// number glued to a unit of weight or volume: "x400g", "×7g", "x1.5kg".
func timesMeasure(s string, j int) bool {
	r, size := runeAt(s, j)
	if r != 'x' && r != 'X' && r != '×' {
		return false
	}
	k := j + size
	digits := k
	for k < len(s) && (isDigit(s[k]) || s[k] == '.' && k+1 < len(s) && isDigit(s[k+1])) {
		k++
	}
	if k == digits || !isDigit(s[digits]) {
		return false
	}
	end := scanWord(s, k)
	return end > k && measureUnits[lookupUnit(s[k:end], true)]
}
