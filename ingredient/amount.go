package ingredient

import (
	"html"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Style is how a number is written, so a scaled number can be written the same way.
type Style string

// The styles of a number. A mixed number ("1 1/2", "1½") has the style of its fraction.
const (
	StyleInteger       Style = "integer"         // "2", "1,000"
	StyleDecimal       Style = "decimal"         // "1.5", ".5"
	StyleDecimalComma  Style = "decimal-comma"   // "1,5"
	StyleFraction      Style = "ascii-fraction"  // "1/2", "1 1/2", "1 and 1/2"
	StyleFractionDash  Style = "hyphen-fraction" // "1-1/2"
	StyleFractionSlash Style = "fraction-slash"  // "1⁄2", "1 1⁄2" (U+2044)
	StyleUnicode       Style = "unicode"         // "½", "1½"
	StyleUnicodeSpaced Style = "unicode-spaced"  // "1 ½"
)

// Amount is one quantity of the ingredient in a line: a number, or a range of two, that scales with
// the servings. Offsets are in UTF-16 code units (what a browser's string indexes), end exclusive.
//
// A range ("2-3", "2 to 3", "1 cup to 1 1/2 cups") covers [Start, End): the lower number is
// [Start, ValueEnd) and the upper one [MaxStart, End); the text between them is kept as written.
// Without a range, ValueEnd and MaxStart are left out and the number is [Start, End).
type Amount struct {
	Start    int      `json:"start"`
	End      int      `json:"end"`
	Value    float64  `json:"value"`
	Style    Style    `json:"style"`
	ValueEnd int      `json:"valueEnd,omitempty"`
	Max      *float64 `json:"max,omitempty"`
	MaxStart int      `json:"maxStart,omitempty"`
	MaxStyle Style    `json:"maxStyle,omitempty"`
	// Unit is the unit written after the number ("cup", "g", "inch"), with a normalized key that
	// is the same for every spelling of it ("tablespoons", "Tbsp.", "T" → "tbsp").
	Unit *UnitSpan `json:"unit,omitempty"`
	// ValueUnit is the unit written again after the lower number of a range ("1 cup to 1 1/2
	// cups"): the same key as Unit, which follows the upper number.
	ValueUnit *UnitSpan `json:"valueUnit,omitempty"`
	// Word is the word that agrees with the amount (the upper number of a range): its unit
	// ("cup"), or for a number without one the noun it counts ("2 large eggs" → "eggs", "1 loaf
	// brioche bread" → "loaf"), with both of its English forms. Left out when the word has one form
	// ("tsp", "g") or is not in the table (data/english_words.txt), and for a counted noun or a word
	// other languages spell the same ("litre", "sachet") in a line that is not in English: the
	// words of another language keep their form at any servings.
	Word *WordForms `json:"word,omitempty"`
	// ValueWord is the unit written again after the lower number of a range ("1 cup to 1 1/2
	// cups"), agreeing with that number.
	ValueWord *WordForms `json:"valueWord,omitempty"`
}

// Span is a piece of the line, in UTF-16 code units.
type Span struct {
	Start int `json:"start"`
	End   int `json:"end"`
}

// UnitSpan is a unit as written in the line, and its normalized key.
type UnitSpan struct {
	Start int    `json:"start"`
	End   int    `json:"end"`
	Key   string `json:"key"`
}

// Reason says why a number in a line does not scale.
type Reason string

// The reasons a number never scales.
const (
	ReasonPackage     Reason = "package-size" // "1 (28 ounce) can", "1 15-ounce can", "2 x 400 g tins"
	ReasonPerItem     Reason = "per-item"     // "(5 oz each)", "(à 150 g)", "about 4-5 oz each"
	ReasonRate        Reason = "rate"         // "1 teaspoon per kilo", "1 tsp for each glass"
	ReasonDimension   Reason = "dimension"    // "1-inch cubes", "9x13 inch pan", "cut into 6 pieces"
	ReasonTemperature Reason = "temperature"  // "350°F", "180 degrees"
	ReasonTime        Reason = "time"         // "10 minutes", "10:30"
	ReasonPercent     Reason = "percent"      // "2% milk", "3,5 %"
	ReasonRatio       Reason = "ratio"        // "90/10 beef"
	ReasonName        Reason = "name"         // "00 flour", "5-spice", "V8"
	ReasonReference   Reason = "reference"    // "1st", "see note 2", "step 3", list numbers, headings, "for 6"
	ReasonPrice       Reason = "price"        // "($1.99)"
)

// Number is one number found in a line, with byte offsets into the line. Scales is false for a
// number that must never change with the servings, and Reason says why.
type Number struct {
	Start, End int
	Scales     bool
	Reason     Reason
}

// Reading is everything the reader finds in a line: every number, and the amounts that scale.
type Reading struct {
	Numbers []Number
	amounts []amount
	english bool // the line reads as English (see reader.english)
}

// amount is an Amount with byte offsets, before conversion for the client.
type amount struct {
	start, end, valueEnd, maxStart int
	value                          float64
	max                            *float64
	style, maxStyle                Style
	unit, valueUnit                *UnitSpan // byte offsets
	noun                           *Span     // byte offsets
	// first and last token of the amount and of the unit after it, for the rules that look around.
	tokStart, tokEnd, unitEnd int
}

// ReadAmounts finds every number in line and tells the amounts that scale from those that do not.
func ReadAmounts(line string) Reading {
	return readAmounts(line, lex(line), LanguageUnknown)
}

// readAmounts reads the line's tokens; recipe is the language of its recipe, for a line whose
// words do not tell theirs.
func readAmounts(line string, toks []token, recipe Language) Reading {
	r := reader{p: parser{line: line, toks: toks}, recipe: recipe}
	r.read()
	return Reading{Numbers: r.numbers, amounts: r.amounts, english: len(r.amounts) > 0 && r.english()}
}

// Amounts returns the scaling amounts of the line, offsets in UTF-16 code units.
func (rd Reading) Amounts(line string) []Amount {
	out := make([]Amount, 0, len(rd.amounts))
	if len(rd.amounts) == 0 {
		return out
	}
	u := identity
	if !isASCII(line) {
		u = utf16Offsets(line)
	}
	english := rd.english
	for _, a := range rd.amounts {
		// English writes a decimal point: "0,5 liter groentebouillon" is Dutch, whatever its words.
		if a.style == StyleDecimalComma || a.maxStyle == StyleDecimalComma {
			english = false
		}
	}
	for _, a := range rd.amounts {
		v := Amount{Start: u[a.start], End: u[a.end], Value: a.value, Style: a.style}
		if a.max != nil {
			v.Max, v.MaxStyle = a.max, a.maxStyle
			v.ValueEnd, v.MaxStart = u[a.valueEnd], u[a.maxStart]
		}
		if a.unit != nil {
			v.Unit = &UnitSpan{Start: u[a.unit.Start], End: u[a.unit.End], Key: a.unit.Key}
		}
		if a.valueUnit != nil {
			v.ValueUnit = &UnitSpan{Start: u[a.valueUnit.Start], End: u[a.valueUnit.End], Key: a.valueUnit.Key}
		}
		v.Word, v.ValueWord = a.words(line, u, english)
		out = append(out, v)
	}
	return out
}

// words returns the words that agree with the amount and with the lower number of its range (see
// Amount.Word), given the UTF-16 offsets u of the line and whether it reads as English. A counted
// noun is found only in an English line (countedNoun).
func (a amount) words(line string, u []int, english bool) (word, valueWord *WordForms) {
	switch {
	case a.unit != nil:
		word = agreeingWord(line, a.unit.Start, a.unit.End, u, english)
	case a.noun != nil:
		if s, e, ok := CountedWord(line, a.noun.Start, a.noun.End); ok {
			word = agreeingWord(line, s, e, u, english)
		}
	}
	if a.valueUnit != nil {
		valueWord = agreeingWord(line, a.valueUnit.Start, a.valueUnit.End, u, english)
	}
	return word, valueWord
}

// identity is the offset map of an ASCII line, where a byte is a UTF-16 code unit; most lines are.
var identity = func() []int {
	m := make([]int, maxIdentity)
	for i := range m {
		m[i] = i
	}
	return m
}()

const maxIdentity = 1 << 12

func isASCII(s string) bool {
	if len(s) >= maxIdentity {
		return false // utf16Offsets covers long lines
	}
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// utf16Offsets maps every byte offset of s (and len(s)) to its offset in UTF-16 code units. Bytes
// inside a rune map to the rune's start; invalid bytes count as one U+FFFD each, as a browser
// decoding the JSON would see them.
func utf16Offsets(s string) []int {
	out := make([]int, len(s)+1)
	n := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		for k := 0; k < size; k++ {
			out[i+k] = n
		}
		if r == utf8.RuneError && size == 1 {
			n++
		} else {
			n += utf16.RuneLen(r)
		}
		i += size
	}
	out[len(s)] = n
	return out
}

type reader struct {
	p       parser
	numbers []Number
	amounts []amount
	// heading is set for a line that only names a section ("For 6-8 cocktails:").
	heading bool
	openers []int // see enclosingParen
	// lang is 1 once the line is known to read as English, 2 once known not to (see lineLanguage).
	lang uint8
	// recipe is the language of the line's recipe, which decides for a line that does not tell.
	recipe Language
}

// english reports whether the line reads as English, working it out once.
func (r *reader) english() bool {
	if r.lang == 0 {
		r.lang = 2
		if english, told := lineLanguage(r.p.toks); english && (told || r.recipe != LanguageOther) {
			r.lang = 1
		}
	}
	return r.lang == 1
}

func (r *reader) read() {
	t := strings.TrimSpace(r.p.line)
	r.heading = strings.HasSuffix(t, ":")
	toks := r.p.toks
	for i := 0; i < len(toks); {
		t := toks[i]
		switch {
		case t.kind == tWord && startsWithDigit(t.text):
			// The lexer keeps "350°F", "2%", "9x13", "2nd" and "V8"-like runs as words.
			r.never(t.start, t.end, wordNumberReason(t.low))
			i++
		case t.kind == tNum:
			i = r.quantity(i)
		default:
			i++
		}
	}
}

func startsWithDigit(s string) bool {
	return s != "" && (isDigit(s[0]) || (s[0] == '.' && len(s) > 1 && isDigit(s[1])))
}

func wordNumberReason(w string) Reason {
	switch {
	case strings.ContainsAny(w, "%"):
		return ReasonPercent
	case strings.ContainsAny(w, "°º"):
		return ReasonTemperature
	case strings.ContainsAny(w, "x×"):
		return ReasonDimension
	case strings.HasSuffix(w, "st") || strings.HasSuffix(w, "nd") || strings.HasSuffix(w, "rd") || strings.HasSuffix(w, "th"):
		return ReasonReference
	case (strings.HasSuffix(w, "f") || strings.HasSuffix(w, "c")) && strings.Trim(w[:len(w)-1], "0123456789.") == "":
		return ReasonTemperature // "350F", "180C"
	}
	return ReasonName
}

func (r *reader) never(start, end int, why Reason) {
	r.numbers = append(r.numbers, Number{Start: start, End: end, Reason: why})
}

// quantity reads the number or range at token i, classifies it and returns the index after it.
func (r *reader) quantity(i int) int {
	p := &r.p
	a, next := r.readAmount(i)
	why := r.classify(&a, i, next)
	if why != "" {
		r.never(a.start, a.end, why)
		if why == ReasonPackage {
			r.packageItem(&a, i)
		}
		return next
	}
	r.numbers = append(r.numbers, Number{Start: a.start, End: a.end, Scales: true})
	// Two amounts of one range written with their units ("1 cup to 1 1/2 cups") are one amount.
	if n := len(r.amounts); n > 0 && a.max == nil {
		prev := &r.amounts[n-1]
		if prev.max == nil && prev.unit != nil && a.unit != nil && prev.unit.Key == a.unit.Key &&
			prev.unitEnd+1 == i && (p.isPunct(prev.unitEnd, "-", "–", "—") || p.isWord(prev.unitEnd, "to", "or")) && a.value > prev.value {
			prev.max, prev.maxStyle, prev.valueEnd, prev.maxStart = ptr(a.value), a.style, prev.end, a.start
			prev.end, prev.tokEnd = a.end, a.tokEnd
			prev.valueUnit, prev.unit, prev.unitEnd = prev.unit, a.unit, a.unitEnd
			return next
		}
	}
	r.amounts = append(r.amounts, a)
	return next
}

// readAmount reads a number or a range at token i, and the unit or counted noun after it.
func (r *reader) readAmount(i int) (amount, int) {
	p := &r.p
	a := amount{tokStart: i}
	v, j, _ := p.number(i)
	// "6 1/2-inch thick lamb chops": six chops half an inch thick, not 6.5 inches of chops.
	if j > i+1 && p.toks[i].whole && p.toks[j-1].frac && p.toks[j-1].start > p.toks[i].end &&
		p.isPunct(j, "-") && !p.toks[j].spaceBefore && isDimensionWord(p.tokLow(j+1)) && isThicknessWord(p.tokLow(j+2)) {
		v, j = p.toks[i].val, i+1
	}
	a.value, a.start, a.end = v, p.toks[i].start, p.toks[j-1].end
	a.style = r.style(i, j)
	// A range: "2-3", "2 – 3", "2 to 3", "3 or 4", "2 à 3", "2 bis 3".
	if p.isPunct(j, "-", "–", "—") || p.isWord(j, "to", "or", "à", "bis", "a", "tot", "till") {
		if w, k, ok := p.number(j + 1); ok && w > v {
			a.max, a.maxStyle = ptr(w), r.style(j+1, k)
			a.valueEnd, a.maxStart, a.end = a.end, p.toks[j+1].start, p.toks[k-1].end
			j = k
		}
	}
	a.tokEnd = j
	a.unitEnd = j
	// The unit: "cup", "15-ounce", "fl oz", "T.", "inch", "cm", "\"".
	k := r.afterCanGrade(j)
	if p.isPunct(k, "-") && !p.toks[k].spaceBefore {
		k++
	} else if p.isPunct(k, "-", "–") && p.tok(k+1) != nil && p.toks[k+1].kind == tWord && measureUnits[lookupUnit(p.toks[k+1].text, true)] {
		k++ // "13.5 – ounce can"
	}
	if t := p.tok(k); t != nil {
		switch {
		case t.kind == tWord && isDimensionWord(t.low) && (t.low != "in" || r.inchAbbrev(k)):
			end := k + 1
			if p.isPunct(end, ".") && !p.toks[end].spaceBefore {
				end++
			}
			a.unit = &UnitSpan{Start: t.start, End: t.end, Key: dimensionKey(t.low)}
			a.unitEnd = end
		case t.kind == tPunct && (t.text == "\"" || t.text == "”" || t.text == "″") && !t.spaceBefore:
			a.unit = &UnitSpan{Start: t.start, End: t.end, Key: "inch"}
			a.unitEnd = k + 1
		case t.kind == tWord:
			if u, end := p.unit(k, true, false); u != "" {
				last := k
				if u == unitFlOz {
					last = p.flOz(k) - 1
				} else if _, e := p.spoon(k); e > k {
					last = e - 1 // "c. à s.", "colher (sopa)": the spoon and its size
				}
				if last > k && p.isPunct(last, ".") {
					last--
				}
				a.unit = &UnitSpan{Start: t.start, End: p.toks[last].end, Key: u}
				a.unitEnd = end
				if p.isWord(end-1, joinWordList...) {
					a.unitEnd = end - 1
				}
			}
		}
	}
	if a.unit == nil {
		a.noun = r.countedNoun(k)
	}
	return a, j
}

// countedNoun finds the words naming what a number without a unit counts, starting at token k: the
// name that follows, without the describing words around it ("2 large eggs, beaten" → "eggs", "1
// red onion" → "red onion", "1 large loaf brioche bread" → "loaf brioche bread"). Which of them
// agrees with the number is the client's table's business; a line in another language has none,
// since the table is English (see lineLanguage). A noun after an article agrees with the article,
// not the number: "½ a lemon" × 3 is "1½ a lemon".
func (r *reader) countedNoun(k int) *Span {
	p := &r.p
	// "2 dozen clams" counts dozens: the clams stay plural at any servings.
	if p.isWord(k, "a", "an", "dozen", "doz") || !r.english() {
		return nil
	}
	var noun *Span
	for n := k; n < k+4; n++ {
		t := p.tok(n)
		// An abbreviation's dot does not end the words: "3 sm. potatoes", "2 med. carrots".
		if t != nil && t.text == "." && !t.spaceBefore && n > k && p.toks[n-1].kind == tWord &&
			p.tok(n+1) != nil && p.toks[n+1].kind == tWord && p.toks[n+1].spaceBefore {
			continue
		}
		if t == nil || t.kind != tWord || t.low == "x" || t.low == "×" || connectors[t.low] || t.low == "of" || tailWords[t.low] {
			break
		}
		if isSizeWord(t.low) || descriptors[t.low] {
			if noun != nil {
				break
			}
			continue
		}
		if noun == nil {
			noun = &Span{Start: t.start, End: t.end}
		}
		noun.End = t.end
	}
	return noun
}

// style tells how the number in tokens [i, j) is written.
func (r *reader) style(i, j int) Style {
	p := &r.p
	// A character reference reads as its character: "1&frac12;" is written as "1½" is.
	text := html.UnescapeString(p.line[p.toks[i].start:p.toks[j-1].end])
	switch {
	case strings.ContainsRune(text, '⁄'):
		return StyleFractionSlash
	case strings.ContainsRune(text, '/'):
		if j-i == 3 && p.isPunct(i+1, "-") {
			return StyleFractionDash
		}
		return StyleFraction
	}
	if _, size := utf8.DecodeLastRuneInString(text); size > 1 {
		if j-i == 2 {
			return StyleUnicodeSpaced
		}
		return StyleUnicode
	}
	if p.toks[i].whole {
		return StyleInteger
	}
	if strings.ContainsRune(text, ',') {
		return StyleDecimalComma
	}
	return StyleDecimal
}

// classify returns why the amount at tokens [i, next) does not scale, or "" when it does.
func (r *reader) classify(a *amount, i, next int) Reason {
	p := &r.p
	if r.heading {
		return ReasonReference
	}
	if a.value == 0 {
		return ReasonName // "00 flour", "0 fat"
	}
	if isRatio(p.toks[i].text) {
		return ReasonRatio
	}
	if isGrade(p.toks[i].text) {
		return ReasonName // "41/50 shrimp"
	}
	prev := p.tok(i - 1)
	after := p.tok(next)
	// Numbered lists and notes: "1. 2 cups flour", "1) ...".
	if i == 0 && after != nil && (after.text == "." || after.text == ")") && !after.spaceBefore && a.max == nil &&
		p.toks[i].whole && p.tok(next+1) != nil && p.toks[next+1].spaceBefore {
		return ReasonReference
	}
	if prev != nil {
		switch {
		case prev.kind == tPunct && currency[prev.text] && !p.toks[i].spaceBefore:
			return ReasonPrice
		case prev.kind == tPunct && (prev.text == "-" || prev.text == ":") && !p.toks[i].spaceBefore && !prev.spaceBefore &&
			p.tok(i-2) != nil && (p.toks[i-2].kind == tWord && prev.text == "-" || p.toks[i-2].kind == tNum && prev.text == ":"):
			return ReasonName // "1-to-1 flour", "Omega-3", the last part of "1:1:1"
		case prev.kind == tWord && prev.low == "for" && (after == nil || after.kind == tPunct && after.text != "-" && after.text != "/"):
			return ReasonReference // "salad greens for 6"
		case prev.kind == tWord && strings.HasSuffix(prev.low, "mehl") && a.unit == nil:
			return ReasonName // German flour types: "Weizenmehl 405"
		case prev.kind == tPunct && prev.text == "#":
			return ReasonReference
		case prev.kind == tWord && (prev.low == "gas" || prev.low == "mark" && p.isWord(i-2, "gas")):
			return ReasonTemperature // a British oven setting: "fan/gas 4", "Gas mark 6"
		case prev.kind == tWord && referenceWords[strings.TrimSuffix(prev.low, ".")]:
			return ReasonReference
		case prev.kind == tPunct && prev.text == "." && p.isWord(i-2, "no", "nr", "n"):
			return ReasonReference // "No. 2 can", "Spaghetti Nr. 5", "spaghetti n. 5"
		case prev.kind == tWord && (prev.low == "à" || prev.low == "je" && i > 1 || prev.low == "pro" || prev.low == "per"):
			return ReasonPerItem // "4 Filets à 150 g"; "je 1 TL Salz und Pfeffer" heads the line: 1 tsp of each, which scales
		case prev.kind == tWord && (prev.low == "into" || prev.low == "in" && (a.unit == nil && cutWords[p.tokLow(next)] ||
			a.unit != nil && (isDimensionKey(a.unit.Key) || a.unit.Key == unitPiece || a.unit.Key == unitSlice))):
			return ReasonDimension // "cut into 6 pieces", "cut into 1-inch cubes", "cut in 4"
		case prev.kind == tWord && (prev.low == "x" || prev.low == "×") && p.tok(i-2) != nil && p.toks[i-2].kind == tNum:
			// The second number of "9 x 13" or "2 x 400 g": a dimension or the size of each package
			// (or piece: "1 x 2.5cm piece ginger").
			if a.unit != nil && (measureUnits[a.unit.Key] || r.piecesOfLength(*a)) {
				return ReasonPackage
			}
			return ReasonDimension
		}
	}
	if after != nil {
		switch {
		case after.kind == tPunct && (after.text == "%" || after.text == "°" || after.text == "º" || after.text == "˚"):
			if after.text == "%" {
				return ReasonPercent
			}
			return ReasonTemperature
		case after.kind == tPunct && after.text == ":" && !after.spaceBefore && p.tok(next+1) != nil && p.toks[next+1].kind == tNum && !p.toks[next+1].spaceBefore:
			return ReasonTime // "10:30"
		case after.kind == tWord && (after.low == "percent" || after.low == "pct"):
			return ReasonPercent
		case after.kind == tWord && (temperatureWords[after.low] || after.text == "F" || after.text == "C" && a.value >= 40):
			return ReasonTemperature // "350 F", "(26C)": nobody measures forty cups with a "C"
		case after.kind == tPunct && currency[after.text]:
			return ReasonPrice
		case after.kind == tWord && timeWords[strings.TrimSuffix(after.low, ".")]:
			return ReasonTime
		case after.kind == tWord && servingWords[after.low] && (prev != nil && prev.kind == tWord && yieldWords[prev.low] ||
			p.tok(next+1) == nil || p.toks[next+1].kind == tPunct):
			return ReasonReference // "for 4 people", "(6 servings)"; "4 portions sea bass" counts portions
		case after.kind == tWord && (after.low == "x" || after.low == "×") && p.tok(next+1) != nil && p.toks[next+1].kind == tNum:
			// "9 x 13 inch pan" is a dimension; "2 x 400 g tins" counts tins, and "1 x 2.5cm
			// piece ginger" counts pieces of that length.
			b, _ := r.readAmount(next + 1)
			if b.unit == nil || !measureUnits[b.unit.Key] && !r.piecesOfLength(b) {
				return ReasonDimension
			}
		case after.kind == tPunct && after.text == "-" && !after.spaceBefore && p.tok(next+1) != nil &&
			p.toks[next+1].kind == tWord && !p.toks[next+1].spaceBefore && a.unit == nil:
			// The number of pieces in each package between a count and the package is its size:
			// "1 (12-count) package rolls", "2 6-pack cans".
			if packCountWords[p.toks[next+1].low] && (r.bareCountEndsAt(i-1) || r.packageSize(a, i)) {
				return ReasonPackage
			}
			return ReasonName // "5-spice", "7-grain"
		case after.kind == tWord && a.unit == nil && nameNumberWords[after.low]:
			return ReasonName // "Chinese 5 spice"
		case after.kind == tWord && a.unit == nil && (after.low == "count" || after.low == "ct"):
			return ReasonName // a size grade: "shrimp (16/20 count)", "21/25 ct"
		case after.kind == tWord && a.unit == nil && ratingWords[after.low] && (p.tok(next+1) == nil || p.toks[next+1].kind == tPunct):
			return ReasonName // a rating: "beef mince (5 star)"; "2 star anise" counts pods
		case a.max == nil && (after.kind == tPunct && (after.text == "-" || after.text == "–" || after.text == "—") || after.kind == tWord && after.low == "to") &&
			p.tok(next+1) != nil && p.toks[next+1].kind == tWord && startsWithDigit(p.toks[next+1].text):
			// The first end of a range whose other end is a temperature or a percentage is one
			// too: "heated to 120–130°F", "20-25%".
			if why := wordNumberReason(p.toks[next+1].low); why == ReasonTemperature || why == ReasonPercent {
				return why
			}
		}
	}
	if r.inName(a, i, next) {
		return ReasonName
	}
	if r.conversionNote(a, i) {
		return ReasonReference
	}
	// The equivalent of a temperature is one too: "80F (26C)".
	if r.followsNever(i, ReasonTemperature) {
		return ReasonTemperature
	}
	if r.packageSize(a, i) {
		return ReasonPackage
	}
	if why := r.perItem(a, i); why != "" {
		return why
	}
	if a.unit != nil && isDimensionKey(a.unit.Key) {
		return r.dimension(a, i)
	}
	return ""
}

// conversionNote reports whether the amount at token i is one side of a note that defines a unit:
// "1 cup = 240 ml", alone or in parentheses after the amount ("1 cup rice (1 cup = 240 ml)"). One
// unit set equal to a measure, with nothing after it, says how the recipe measures, not how much
// to use. The measure after "=" is the other side of the same note.
func (r *reader) conversionNote(a *amount, i int) bool {
	p := &r.p
	if p.isPunct(i-1, "=") && len(r.numbers) > 0 {
		last := r.numbers[len(r.numbers)-1]
		return !last.Scales && last.Reason == ReasonReference && r.conversionLeft(i-1)
	}
	if a.value != 1 || a.max != nil || a.unit == nil || !p.isPunct(a.unitEnd, "=") {
		return false
	}
	return r.conversionLeft(a.unitEnd)
}

// conversionLeft reports whether the "=" at token eq sets one unit equal to a measure that ends
// its line or parenthesis.
func (r *reader) conversionLeft(eq int) bool {
	p := &r.p
	if p.tok(eq+1) == nil || p.toks[eq+1].kind != tNum {
		return false
	}
	b, _ := r.readAmount(eq + 1)
	return b.unit != nil && measureUnits[b.unit.Key] && (b.unitEnd == len(p.toks) || p.isPunct(b.unitEnd, ")"))
}

// inName reports whether a number without a unit is part of a name, in a line whose amount is
// written elsewhere: a brand's or model's number after its capitalized name ("2 tbsp Hormel Cure 81",
// "1/4 cup Heinz 57 sauce", "½ oz Bacardi 151"), or a fraction between the words of a name ("Lait
// 1/2 écrémé : 25 cl", "500 ml de lait 1/2 écrémé", "Beurre 1/2 sel : 30 g"). A number after a word
// that leads to an amount ("juice of 1/2 lemon", "plus 1 yolk", "alternativ 2 Möhren") is not one.
func (r *reader) inName(a *amount, i, next int) bool {
	p := &r.p
	prev := p.tok(i - 1)
	if a.unit != nil || a.max != nil || prev == nil || prev.kind != tWord || leadsToAmount(prev.low) ||
		lookupUnit(prev.text, true) != "" || next != i+1 {
		return false
	}
	after := p.tok(next)
	if p.toks[i].frac {
		return after != nil && after.kind == tWord && !leadsToAmount(after.low) && r.amountElsewhere(i)
	}
	// A brand: a capitalized word after the line's amount ("Eggs 2" is an amount) before a whole
	// number that no capitalized word follows ("Mehl 2 Eier" counts eggs).
	first, _ := utf8.DecodeRuneInString(prev.text)
	return len(r.numbers) > 0 && p.toks[i].whole && unicode.IsUpper(first) &&
		(after == nil || after.kind == tPunct || after.kind == tWord && after.text == after.low)
}

// amountElsewhere reports whether the line has an amount with a unit before token i, or one after
// a colon later ("Lait 1/2 écrémé : 25 cl").
func (r *reader) amountElsewhere(i int) bool {
	for _, a := range r.amounts {
		if a.unit != nil {
			return true
		}
	}
	p := &r.p
	for k := i + 1; k+1 < len(p.toks); k++ {
		if p.isPunct(k, ":") && p.toks[k+1].kind == tNum {
			return true
		}
	}
	return false
}

// leadsToAmount reports whether a word may stand right before an amount of the ingredient: a
// connector, a preposition ("of", "de", "van"), an approximation or a lead word ("juice of").
func leadsToAmount(w string) bool {
	return connectors[w] || tailWords[w] || leadOfWords[w] || approxWords[w] || ofWords[w] || plusWords[w]
}

// ofWords introduce the size of what was counted: "4 zalmfilets van 150 g", "3 huevos de 60 g",
// "1 confezione da 250 g", and in English "juice of 1 lime".
var ofWords = setOf("of", "de", "d", "du", "des", "di", "da", "del", "della", "von", "vom", "van", "do", "dos",
	"das", "z", "ze")

// plusWords add or offer another amount, or approximate one, in the other languages of the corpus
// ("und", "alternativ", "o", "environ"); the English ones are connectors, tail or approximation words.
var plusWords = setOf("und", "oder", "alternativ", "et", "ou", "y", "o", "e", "en", "och", "i", "lub", "oraz",
	"eller", "og", "env", "environ", "etwa")

// packageSize reports whether the amount at token i is the size of each package or piece,
// written between a count and the item: "1 (28 ounce) can", "1 15-ounce can", "2 10 oz packages",
// "1 bone-in 4-5 pound pork shoulder", "1 can (14 oz)", "1 jar (8 ounce size)".
func (r *reader) packageSize(a *amount, i int) bool {
	p := &r.p
	if r.sizeAfterCount(a, i) {
		return true
	}
	open, inParen := r.enclosingParen(i)
	if inParen {
		if r.parenHas(open, "or", "total", "plus", "+") {
			return false
		}
		if r.parenHas(open, "size") && a.unit != nil {
			return true
		}
		// A measure that opens a parenthesis before a package word names the package the food
		// comes from, not more food: "2 cups frozen peas (10 oz. bag)", "(14-oz can)".
		if i == open+1 && a.max == nil && a.unit != nil && measureUnits[a.unit.Key] && r.containerAt(a.unitEnd) {
			return true
		}
		// The words before the parenthesis: a bare count, or a count and a container.
		j := open - 1
		if p.isPunct(j, "-", "–", ",") {
			j--
		}
		described := false
		for j >= 0 && p.toks[j].kind == tWord && !countWords[p.toks[j].low] && (isSizeWord(p.toks[j].low) || descriptors[p.toks[j].low]) {
			j--
			described = true
		}
		if j >= 0 && p.toks[j].kind == tWord && isContainer(p.toks[j].text) {
			j--
			for j >= 0 && p.toks[j].kind == tWord && (isSizeWord(p.toks[j].low) || descriptors[p.toks[j].low]) {
				j--
			}
			return r.countEndsAt(j) || r.wordCountAt(j)
		}
		if r.bareCountEndsAt(j) || r.wordCountAt(j) {
			// "2 (6 oz) salmon fillets" gives each piece's size; after the words that describe
			// the pieces, the weight is that of them all ("6 medium (about 2 lb) potatoes", "16
			// whole (227 grams) graham crackers"), unless a package follows ("1 large (28 oz) can").
			if !described || a.unit == nil || !measureUnits[a.unit.Key] {
				return true
			}
			end := p.closeParen(open)
			return end > 0 && end < len(p.toks) && p.toks[end].kind == tWord && isContainer(p.toks[end].text)
		}
		// "1 can tomato sauce (15 oz)", "1 boîte de tomates pelées (400 g)": a bare measure in
		// parentheses after counted containers, before any other number.
		return r.containersCounted() && a.unit != nil && measureUnits[a.unit.Key] && r.sizeInParen(open, i, a)
	}
	// An equivalent of a package size: "1 15-ounce (425 g) can", "1 (15-ounce/425 g) can".
	return r.followsNever(i, ReasonPackage)
}

// perItemParenWords in a parenthesis make its amount the size of each item: "(5 oz each)", "(à
// 150 g)", "(po 400 g)".
var perItemParenWords = []string{"each", "apiece", "à", "ea", "per", "chacun", "chacune", "ciascuno", "ciascuna", "cada", "je", "po", "styck"}

// sizeInParen reports whether the measure a at token i is the only number of the parenthesis at
// open: after words that label or describe it ("(de 80 g)", "(Abtropfgewicht 285 g)", "(ca. 500
// g)", "(aus dem Kühlregal, 275 g)") and before nothing but the words of a net or drained weight
// ("(ca. 140 g Abtropfgewicht)"). After counted packages it is the size of each; words that join
// another amount ("or", "plus", "total") were ruled out by the caller.
func (r *reader) sizeInParen(open, i int, a *amount) bool {
	p := &r.p
	end := p.closeParen(open) - 1 // the ")"
	if end < a.unitEnd {
		return false
	}
	if r.parenHas(open, perItemParenWords...) {
		return false // the size of each item (perItem), not of the packages
	}
	for k := open + 1; k < i; k++ {
		if p.toks[k].kind == tNum {
			return false
		}
	}
	for k := a.unitEnd; k < end; k++ {
		if !netWeightWords[p.toks[k].low] && !p.isPunct(k, ".") {
			return false
		}
	}
	return true
}

// containersCounted reports whether the line so far counts packages and nothing else: its last
// number is a count of containers ("1 Glas", "2 boîtes"), or it has no number yet and heads with a
// count written as a word before a container ("eine Dose Kichererbsen (400 g)", "deux boîtes de
// tomates pelées (400 g)").
func (r *reader) containersCounted() bool {
	if n := len(r.amounts); n > 0 {
		return r.countedContainer(&r.amounts[n-1]) && r.numbers[len(r.numbers)-1].Start == r.amounts[n-1].start
	}
	p := &r.p
	if len(r.numbers) > 0 || !r.wordCountAt(0) {
		return false
	}
	k := 1
	for k < len(p.toks) && p.toks[k].kind == tWord && isSizeWord(p.toks[k].low) {
		k++
	}
	return k < len(p.toks) && p.toks[k].kind == tWord && isContainer(p.toks[k].text)
}

// wordCountAt reports whether token j is a count written as a word that heads the line, before
// any number: "one (14 oz) can", "two (6-ounce) salmon fillets", "eine Dose (400 g)". The numbers
// after it are read as they would be after the same count in digits; the word itself never scales
// (issue 14: only amounts written in digits do).
func (r *reader) wordCountAt(j int) bool {
	p := &r.p
	return j == 0 && len(p.toks) > 0 && p.toks[0].kind == tWord && countWords[p.toks[0].low] && len(r.numbers) == 0
}

// netWeightWords name the weight written on a package.
var netWeightWords = setOf("abtropfgewicht", "füllmenge", "nettogewicht", "netto", "net", "nett", "wt", "weight",
	"drained", "poids", "égoutté", "peso", "neto", "líquido", "drenado", "sgocciolato", "escurrido", "uitlekgewicht", "inhoud", "nettovikt")

// countedContainer reports whether an amount counts packages: its unit is one ("1 can"), or, in a
// language whose package words are not units, the word after it ("1 boîte", "1 blik", "1 lata").
func (r *reader) countedContainer(a *amount) bool {
	p := &r.p
	if a.unit != nil {
		return isContainer(p.line[a.unit.Start:a.unit.End])
	}
	return r.containerAt(a.tokEnd)
}

// containerAt reports whether a package word stands at token k, maybe after size words and a
// unit's dot: "can" in "1 large can", "bag" in "(10 oz. bag)".
func (r *reader) containerAt(k int) bool {
	p := &r.p
	for k < len(p.toks) && (p.toks[k].kind == tWord && isSizeWord(p.toks[k].low) || p.isPunct(k, ".") && !p.toks[k].spaceBefore) {
		k++
	}
	return k < len(p.toks) && p.toks[k].kind == tWord && isContainer(p.toks[k].text)
}

// sizeAfterCount reports a measure right after a bare count, maybe after size words: "1 large
// 28-oz can", "(or 4 5-oz portions)".
func (r *reader) sizeAfterCount(a *amount, i int) bool {
	p := &r.p
	if a.unit == nil || !(measureUnits[a.unit.Key] || isDimensionKey(a.unit.Key)) {
		return false
	}
	j := i - 1
	for j >= 0 && p.toks[j].kind == tWord && !countWords[p.toks[j].low] && (isSizeWord(p.toks[j].low) || descriptors[p.toks[j].low]) {
		j--
	}
	if r.bareCountEndsAt(j) {
		return true
	}
	// A count written as a word: "one 15-ounce can", "a 28-ounce can", "four 8-ounce packages".
	if j < 0 || p.toks[j].kind != tWord || !countWords[p.toks[j].low] {
		return false
	}
	if j == 0 || p.toks[j-1].kind != tWord {
		return true
	}
	// After other words, only when a package follows the measure: "(from a 17.3-ounce package)"
	// names the package the sheets come from, not more pastry.
	return r.containerAt(a.unitEnd)
}

// packageItem gives the count before a package size the container or item after it as its unit or
// noun: "1 (28 ounce) can" counts cans, "2 10 oz packages" packages, "2 (6 oz) fillets" fillets.
func (r *reader) packageItem(size *amount, i int) {
	p := &r.p
	if len(r.amounts) == 0 {
		return
	}
	count := &r.amounts[len(r.amounts)-1]
	if count.unit != nil || count.noun != nil {
		return
	}
	// "½ of a 16 oz package": the package is counted by its article, not by the amount before.
	j := i - 1
	for j >= 0 && p.toks[j].kind == tWord && (isSizeWord(p.toks[j].low) || descriptors[p.toks[j].low]) {
		j--
	}
	if j >= 0 && p.toks[j].kind == tWord && countWords[p.toks[j].low] {
		return
	}
	k := size.unitEnd
	if open, in := r.enclosingParen(i); in {
		k = p.closeParen(open)
		if k < 0 {
			return
		}
	}
	for m := 0; m < 3 && k < len(p.toks) && p.toks[k].kind == tWord; m, k = m+1, k+1 {
		t := p.toks[k]
		if isSizeWord(t.low) || descriptors[t.low] {
			continue
		}
		if u := lookupUnit(t.text, true); u != "" {
			count.unit = &UnitSpan{Start: t.start, End: t.end, Key: u}
			count.unitEnd = k + 1
		} else {
			count.noun = r.countedNoun(k)
		}
		return
	}
}

// countEndsAt reports whether the last scaling amount ends at token j.
func (r *reader) countEndsAt(j int) bool {
	return j >= 0 && len(r.amounts) > 0 && r.amounts[len(r.amounts)-1].tokEnd-1 == j
}

// inchAbbrev reports whether "in" at token k abbreviates inches ("2in", "2-in", "2 in.", "2 in
// piece"), not the preposition ("2 in the pot").
func (r *reader) inchAbbrev(k int) bool {
	p := &r.p
	if !p.toks[k].spaceBefore || p.isPunct(k-1, "-") {
		return true
	}
	if p.isPunct(k+1, ".") && !p.toks[k+1].spaceBefore {
		return true
	}
	w := p.tokLow(k + 1)
	return w == "piece" || isThicknessWord(w) || cutWords[w] || panWords[w]
}

// piecesOfLength reports whether amount b is a length followed by the word for a piece of the food
// ("2.5cm piece", "3 cm knob", "5cm stick"): the size of each of the pieces a number before it counts.
func (r *reader) piecesOfLength(b amount) bool {
	if b.unit == nil || !isDimensionKey(b.unit.Key) {
		return false
	}
	switch lookupUnit(r.p.tokLow(b.unitEnd), false) {
	case unitPiece, unitKnob, unitStick, unitSlice:
		return true
	}
	return false
}

// bareCountEndsAt reports whether the last scaling amount is a count without a unit that ends at
// token j ("1" in "1 (28 ounce) can").
func (r *reader) bareCountEndsAt(j int) bool {
	return r.countEndsAt(j) && r.amounts[len(r.amounts)-1].unit == nil
}

// followsNever reports whether the amount at token i is an equivalent, in parentheses or after a
// slash, of a number just before it that does not scale for the reason why.
func (r *reader) followsNever(i int, why Reason) bool {
	p := &r.p
	j := i - 1
	for j >= 0 && p.toks[j].kind == tPunct && (p.toks[j].text == "(" || p.toks[j].text == "/" || p.toks[j].text == "[") {
		j--
	}
	if j == i-1 || j < 0 || len(r.numbers) == 0 {
		return false
	}
	last := r.numbers[len(r.numbers)-1]
	if last.Scales || last.Reason != why {
		return false
	}
	// The previous number, maybe with its unit, ends at token j.
	end := p.toks[j].end
	if last.End == end {
		return true
	}
	if p.toks[j].kind == tWord && (lookupUnit(p.toks[j].text, true) != "" || isDimensionWord(p.toks[j].low)) {
		k := j - 1
		if p.isPunct(k, "-") {
			k--
		}
		return k >= 0 && p.toks[k].end == last.End
	}
	return false
}

// perItem tells the amounts that give the size of each item or a rate, which no number of
// servings changes: "(5 oz each)", "(à 150 g)", "about 4-5 oz each", "1 teaspoon per kilo",
// "+1 tsp for each serving glass".
func (r *reader) perItem(a *amount, i int) Reason {
	p := &r.p
	k := a.unitEnd
	if a.unit == nil {
		k = a.tokEnd
	}
	if p.isPunct(k, ".") {
		k++
	}
	// A rate in the same clause: "1 teaspoon per kilo", "1 tsp salt per kilo of meat".
	for n := k; n < len(p.toks) && n < k+6; n++ {
		if p.toks[n].kind != tWord {
			break
		}
		if p.isWord(n, "per", "pro", "je", "par", "por", "na") && r.rateOf(n) ||
			p.isWord(n, "for", "a", "an") && p.isWord(n+1, "each", "every") {
			return ReasonRate
		}
	}
	// "4 zalmfilets van 150 g", "3 huevos de 60 g", "2 latas de 400 g": a measure introduced by "of"
	// after things counted without a unit, or after counted packages ("2 boîtes de 400 g de
	// tomates", "2 latas de atún de 80 g"), is the size of each.
	// Also with an approximation between: "4 kipfilets van ca. 125 g", "4 fette di circa 200 g".
	of := r.ofBefore(i)
	if a.unit != nil && measureUnits[a.unit.Key] && of >= 2 && len(r.amounts) > 0 &&
		(r.amounts[len(r.amounts)-1].unit == nil || r.countedContainer(&r.amounts[len(r.amounts)-1])) &&
		r.numbers[len(r.numbers)-1].Start == r.amounts[len(r.amounts)-1].start {
		last := r.amounts[len(r.amounts)-1]
		words := true
		for k := last.tokEnd; k < of; k++ {
			words = words && p.toks[k].kind == tWord
		}
		if words && last.tokEnd < of {
			return ReasonPerItem
		}
	}
	// "in vier porties van 150 g", "cut into 4 pieces of 100 g": the size of each piece of a cut.
	if a.unit != nil && of >= 1 && p.toks[of-1].kind == tWord && cutWords[p.toks[of-1].low] {
		return ReasonPerItem
	}
	if open, in := r.enclosingParen(i); in && r.parenHas(open, perItemParenWords...) {
		return ReasonPerItem
	}
	// "each" after the amount: the size of each of the items counted before ("4 steaks, about
	// 4-5 oz each", "4 fette di pesce spada di circa 200 g l'una"), or, when nothing was counted
	// before, a heading ("1/2 tsp EACH onion powder and paprika", "salt and pepper, 1 tsp each").
	for n := k; n < len(p.toks) && n < k+3; n++ {
		t := p.toks[n]
		if t.kind == tPunct {
			break
		}
		if eachWords[t.low] {
			if len(r.amounts) > 0 {
				return ReasonPerItem
			}
			break
		}
	}
	return ""
}

// afterCanGrade returns the token after a can size graded by number between a count and the can
// ("1 No. 2 can", "2 #10 cans"), or k when there is none: the count counts the cans.
func (r *reader) afterCanGrade(k int) int {
	p := &r.p
	g := k
	switch {
	case p.isWord(g, "no", "nr") && p.isPunct(g+1, ".") && p.tok(g+2) != nil && p.toks[g+2].kind == tNum:
		g += 3
	case p.isPunct(g, "#") && p.tok(g+1) != nil && p.toks[g+1].kind == tNum && !p.toks[g+1].spaceBefore:
		g += 2
	default:
		return k
	}
	if t := p.tok(g); t != nil && t.kind == tWord && isContainer(t.text) {
		return g
	}
	return k
}

// rateOf reports whether the word after the rate word at token per says what a rate is per: "per
// kilo", "pro Person", "par litre", "por persona", "na osobę"; in English any word but an article
// ("1 tbsp per glass"). In Italian and Dutch "per" is also "for" ("lievito per dolci", "per la
// salsa"), and Spanish "por" and Polish "na" have other senses, so elsewhere they make a rate only
// before a measure or a serving.
func (r *reader) rateOf(per int) bool {
	p := &r.p
	t := p.tok(per + 1)
	if t == nil || t.kind != tWord || articles[t.low] {
		return false
	}
	// The line's own words decide, not its recipe's: a number is a rate or an amount whatever
	// recipe the line sits in (the recipe's language only chooses word forms).
	english, _ := lineLanguage(p.toks)
	return english && !p.isWord(per, "por", "na") || lookupUnit(t.text, false) != "" || servingWords[t.low] || isMeasureWord(t.low)
}

// ofBefore returns the index of the "of" word that introduces the amount at token i, maybe with
// an approximation between ("van ca. 125 g", "di circa 200 g"), or -1.
func (r *reader) ofBefore(i int) int {
	p := &r.p
	j := i - 1
	if p.isPunct(j, ".") && j > 0 && approxWords[p.toks[j-1].low] {
		j -= 2
	} else if j >= 0 && p.toks[j].kind == tWord && approxWords[p.toks[j].low] {
		j--
	}
	if j >= 0 && p.toks[j].kind == tWord && ofWords[p.toks[j].low] {
		return j
	}
	return -1
}

// dimension classifies a length: a quantity when it heads the line and measures the food ("2 inch
// ginger root", "3\" ginger", "1/2 inch (1 cm) fresh turmeric"), else the size of a cut or a pan.
func (r *reader) dimension(a *amount, i int) Reason {
	p := &r.p
	// The equivalent of a pan's or a cut's size is one too: "a 25cm (10in) tart tin".
	if r.followsNever(i, ReasonDimension) {
		return ReasonDimension
	}
	k := a.unitEnd
	if p.isPunct(k, "-") {
		k++
	}
	k = r.afterLengthEquivalent(k)
	w := p.tokLow(k)
	if i2 := strings.IndexByte(w, '-'); i2 > 0 {
		w = w[:i2] // "inch-thick"
	}
	if isThicknessWord(w) || cutWords[w] || panWords[w] || p.isWord(k, "x", "×") || r.panFollows(k) {
		return ReasonDimension
	}
	// A length in the first amount of the line, or the equivalent of one: right after it, or
	// alone in parentheses later ("1 inch fresh ginger, (grated (2.5cm))").
	if len(r.amounts) == 0 {
		return ""
	}
	last := r.amounts[len(r.amounts)-1]
	if open, in := r.enclosingParen(i); in && len(r.amounts) == 1 && last.unit != nil && isDimensionKey(last.unit.Key) &&
		open == i-1 && p.closeParen(open) == a.unitEnd+1 {
		return ""
	}
	if last.unit != nil && isDimensionKey(last.unit.Key) && len(r.amounts) == 1 {
		j := i - 1
		for j >= 0 && p.toks[j].kind == tPunct && (p.toks[j].text == "(" || p.toks[j].text == "/") {
			j--
		}
		if j >= 0 && j < i-1 && j == last.unitEnd-1 {
			return ""
		}
	}
	return ReasonDimension
}

// afterLengthEquivalent returns the token after the equivalent of a length written after it at
// token k, in the other system after a slash or in parentheses ("20cm/8in", "23 cm (9 inch)"), or k
// when there is none.
func (r *reader) afterLengthEquivalent(k int) int {
	p := &r.p
	open := p.isPunct(k, "(")
	if !open && !p.isPunct(k, "/") {
		return k
	}
	n := k + 1
	if p.tok(n) == nil || p.toks[n].kind != tNum {
		return k
	}
	n++
	if p.isPunct(n, "-") && !p.toks[n].spaceBefore {
		n++
	}
	if !p.isWord(n, "inch", "inches", "in", "cm", "mm", "centimeter", "centimeters", "centimetre", "centimetres") {
		return k
	}
	n++
	if p.isPunct(n, ".") && !p.toks[n].spaceBefore {
		n++
	}
	if open {
		if !p.isPunct(n, ")") {
			return k
		}
		n++
	}
	return n
}

// panFollows reports whether the words from token k name a tin or pan after words that describe
// it ("loose-bottomed cake tin", "deep fluted tart tin"): the length before them is the pan's size.
func (r *reader) panFollows(k int) bool {
	p := &r.p
	for n := k; n < k+4 && n < len(p.toks) && p.toks[n].kind == tWord; n++ {
		w := p.toks[n].low
		if panNouns[w] {
			return true
		}
		if !panDescribers[w] && !panWords[w] {
			return false
		}
	}
	return false
}

// panDescribers describe a tin or pan between its size and its name ("20cm loose-bottomed tin").
var panDescribers = setOf("loose-bottomed", "loose-based", "deep", "shallow", "fluted", "non-stick", "nonstick",
	"rectangular", "oval", "heavy-based", "ovenproof", "metal", "glass", "ceramic", "cast-iron", "sandwich",
	"roasting", "bundt", "traybake", "swiss", "roll")

// panNouns name the tin or pan itself.
var panNouns = setOf("tin", "tins", "pan", "pans", "dish", "dishes", "tray", "trays", "mould", "moulds", "mold",
	"molds", "ring", "skillet", "ramekin", "ramekins", "springform", "plate", "form", "case", "cases")

// enclosingParen returns the token index of the "(" or "[" that encloses token i. The openers are
// found once per line, so a line full of parentheses stays linear.
func (r *reader) enclosingParen(i int) (int, bool) {
	p := &r.p
	if r.openers == nil {
		r.openers = make([]int, len(p.toks))
		var stack []int
		for j, t := range p.toks {
			r.openers[j] = -1
			if n := len(stack); n > 0 {
				r.openers[j] = stack[n-1]
			}
			if t.kind != tPunct {
				continue
			}
			switch t.text {
			case "(", "[":
				stack = append(stack, j)
			case ")", "]":
				if n := len(stack); n > 0 {
					stack = stack[:n-1]
				}
			}
		}
	}
	if i < 0 || i >= len(r.openers) || r.openers[i] < 0 {
		return 0, false
	}
	return r.openers[i], true
}

// parenHas reports whether the parenthesis opened at token open holds one of the words. It looks
// at most 40 tokens in: an aside in an ingredient line is a few words, and a line of unclosed
// parentheses must not make every number scan to the end.
func (r *reader) parenHas(open int, words ...string) bool {
	p := &r.p
	end := p.closeParen(open)
	if end < 0 || end > open+40 {
		end = min(len(p.toks), open+40)
	}
	for j := open + 1; j < end; j++ {
		for _, w := range words {
			if p.toks[j].low == w {
				return true
			}
		}
	}
	return false
}

// isRatio reports whether a number token is a ratio such as "90/10", not a fraction.
func isRatio(text string) bool {
	num, den, ok := slashParts(text)
	if !ok || len(num) != len(den) && len(num) < len(den) {
		return false
	}
	return atoiSmall(num) >= atoiSmall(den)
}

// isGrade reports whether a number token is a size grade such as "16/20" or "41/50" (shrimp per
// pound): two numbers of two digits or more around a slash, which no cook writes as a fraction.
func isGrade(text string) bool {
	num, den, ok := slashParts(text)
	return ok && atoiSmall(num) >= 10 && atoiSmall(den) >= 10
}

// slashParts splits "90/10" or "1⁄2" at its slash.
func slashParts(text string) (num, den string, ok bool) {
	slash := strings.IndexAny(text, "/⁄")
	if slash <= 0 {
		return "", "", false
	}
	return text[:slash], strings.TrimLeft(text[slash:], "/⁄"), true
}

func atoiSmall(s string) int {
	n := 0
	for i := 0; i < len(s) && i < 9; i++ {
		if !isDigit(s[i]) {
			break
		}
		n = n*10 + int(s[i]-'0')
	}
	return n
}

func isDimensionWord(w string) bool {
	return dimensionWords[w] && w != "x"
}

func isThicknessWord(w string) bool {
	return w == "thick" || w == "long" || w == "wide" || w == "deep" || w == "high" || w == "thick-cut" ||
		w == "thickness" || w == "diameter" || w == "square" || w == "dick" || w == "épaisseur"
}

// dimensionKey normalizes a length unit.
func dimensionKey(w string) string {
	switch strings.TrimSuffix(w, ".") {
	case "cm", "centimeter", "centimeters", "centimetre", "centimetres":
		return "cm"
	case "mm":
		return "mm"
	}
	return "inch"
}

func isDimensionKey(k string) bool { return k == "inch" || k == "cm" || k == "mm" }

// isContainer reports whether a word names a package whose size is written beside it.
func isContainer(w string) bool {
	u := lookupUnit(strings.TrimSuffix(w, "."), true)
	return containerUnits[u] && u != unitStick
}

// eachWords after an amount make it the size of each item counted before it.
var eachWords = setOf("each", "apiece", "l'una", "l'uno", "l’una", "l’uno", "cadauno", "cadauna", "ciascuno", "ciascuna",
	"chacun", "chacune")

// isMeasureWord reports whether a word is a measure in any language's lexicon ("chilo", "Liter").
func isMeasureWord(w string) bool {
	f := foldWord(w)
	for _, lx := range lexicons {
		if lx != nil && lx.exact[classMeasure][f] != nil {
			return true
		}
	}
	return false
}

// referenceWords are words before a number that make it a reference, not an amount.
var referenceWords = setOf("note", "notes", "step", "steps", "recipe", "page", "footnote", "mark", "size",
	"type", "typ", "tipo", "number", "no", "nr", "nº", "photo", "version", "day", "week", "serves", "makes", "yield",
	"yields", "servings", "feeds")

var temperatureWords = setOf("degrees", "degree", "deg", "fahrenheit", "celsius", "grad", "degrés", "gradi", "grados")

var timeWords = setOf("minute", "minutes", "min", "mins", "hour", "hours", "hr", "hrs", "second", "seconds", "sec",
	"secs", "day", "days", "week", "weeks", "minuten", "minuti", "minutos", "stunden", "stunde", "heures", "heure",
	"ore", "horas", "overnight", "std", "h", "uur", "timer", "timmar", "timme", "minutter", "minuter", "godz",
	"godzin", "godziny", "minut", "minuty", "hodin", "hodiny", "hodinu",
	// A pressure cooker's whistles count its cooking time: "(3 whistles)".
	"whistle", "whistles")

// yieldWords before a number make it the yield of the recipe.
var yieldWords = setOf("for", "serves", "makes", "feeds", "yields", "yield", "für", "pour", "per")

var servingWords = setOf("servings", "serving", "people", "persons", "person", "portions", "portion", "personnes",
	"personne", "personen", "persoon", "persone", "persona", "personas", "pessoa", "pessoas", "porciones",
	"comensal", "comensales", "osobę", "osoby", "osobu",
	"cocktails", "drinks")

// cutWords name the pieces of a cut, whose size is never an amount ("1-inch cubes").
var cutWords = setOf("cubes", "cube", "pieces", "chunks", "chunk", "dice", "diced", "strips", "strip", "slices",
	"rounds", "lengths", "wedges", "batons", "matchsticks", "segments", "squares", "rings", "florets", "bits",
	"cubed", "sections", "portions", "pcs", "stücke", "morceaux", "pezzi", "trozos", "cubitos", "dados",
	"porties", "portionen", "porzioni", "porciones", "porções", "stukken", "stukjes", "bitar", "kawałki", "kousky")

// panWords make a length the size of a pan or a crust ("9-inch pie crust", "9x13 inch pan").
var panWords = setOf("pan", "pans", "dish", "tin", "skillet", "mold", "mould", "ramekin", "ramekins", "springform",
	"crust", "crusts", "shell", "shells", "tortilla", "tortillas", "round", "baking", "cake", "pie", "tart", "loaf",
	"pizza", "cutter", "ring", "square", "plate", "pot", "frying", "sheet", "form")

// articles after "per" make it the Italian or French "for" ("di cui 2 cucchiai per la salsa").
var articles = setOf("la", "il", "lo", "le", "i", "gli", "l", "un", "una", "uno", "the", "a", "an", "des", "les")

// packCountWords after a number and a hyphen say how many pieces a package holds ("12-count").
var packCountWords = setOf("count", "ct", "pack", "piece", "pc")

// countWords count items in words; a measure after them is the size of each ("one 15-ounce can").
var countWords = setOf("a", "an", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
	"eleven", "twelve", "ein", "eine", "un", "une", "uno", "una",
	// The counts up to six in the other languages of the corpus, but for the words that are also
	// another word there or in English ("to", "en", "et", "sei", "um", "fire").
	"zwei", "drei", "vier", "fünf", "sechs", "deux", "trois", "quatre", "cinq", "dos", "tres", "cuatro", "cinco", "seis",
	"due", "tre", "quattro", "cinque", "een", "twee", "drie", "zes", "um", "uma", "dois", "duas", "três",
	"jeden", "jedna", "dwa", "dwie", "trzy", "cztery", "pięć", "dva", "dvě", "tři", "čtyři", "pět",
	"ett", "två", "fyra", "fem")

var currency = setOf("$", "€", "£", "¥", "₹")

// ratingWords after a number that ends the line or a parenthesis make it a rating ("(5 star)").
var ratingWords = setOf("star", "stars", "sterne", "étoiles")

// nameNumberWords follow a number that is part of a name ("Chinese 5 spice", "7 up").
var nameNumberWords = setOf("spice", "spices", "up", "grain", "grains", "倍")
