package extract

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// parseServings reads recipeYield in any of its published shapes as a
// number of servings (or pieces): 4, "4", "4 servings", "Serves 4-6",
// ["4", "4 servings"], {"value": 4}, "1 loaf". Of an array the first element
// that holds a number wins (plugins put the bare number first). A range
// gives its upper bound, the amount the recipe is written for at most. It
// returns nil when there is no positive whole number to read.
func parseServings(v any) *int {
	switch v := v.(type) {
	case float64:
		return positive(v)
	case string:
		return yieldFromText(v)
	case []any:
		for _, e := range v {
			if n := parseServings(e); n != nil {
				return n
			}
		}
	case map[string]any:
		return parseServings(get(v, "value", "maxValue", "minValue", "@value", "name", "text"))
	}
	return nil
}

func positive(f float64) *int {
	if math.IsNaN(f) || math.IsInf(f, 0) || f < 1 || f > 100000 {
		return nil
	}
	n := int(math.Round(f))
	if math.Abs(f-float64(n)) > 0.01 {
		n = int(f)
	}
	return &n
}

// numberWord is a number written as a word.
type numberWord struct {
	word string
	n    int
}

var numberWords = []numberWord{
	{"one", 1}, {"two", 2}, {"three", 3}, {"four", 4}, {"five", 5}, {"six", 6}, {"seven", 7},
	{"eight", 8}, {"nine", 9}, {"ten", 10}, {"eleven", 11}, {"twelve", 12}, {"dozen", 12},
}

// yieldFromText reads the first number of a yield text, in digits or
// (in English) in words, whichever comes first ("Makes one 9x13 pan" is
// one). "4-6", "4 to 6", "4–6", "4 or 6" and "four to six" are ranges and
// give their upper bound; "1 1/2 cups" gives 1; a number of dozens counts
// its pieces ("2 dozen" is 24).
func yieldFromText(s string) *int {
	n, _, _ := readYield(strings.ToLower(cleanText(s)))
	return n
}

// readYield reads the number of a lower-case yield text s (see
// yieldFromText) and returns it with the text before it and the text after
// it (after a range and "dozen"), or nil.
func readYield(s string) (n *int, before, after string) {
	digitAt := strings.IndexFunc(s, unicode.IsDigit)
	word, wordAt := firstNumberWord(s)
	if wordAt >= 0 && (digitAt < 0 || wordAt < digitAt) {
		n := word.n
		rest := s[wordAt+len(word.word):]
		if upper, after, ok := rangeEnd(rest); ok && upper > n {
			n, rest = upper, after
		}
		if word.word != "dozen" && dozenFollows(rest) {
			n *= 12
			rest = strings.TrimLeft(rest, " ")[len("dozen"):]
		}
		return &n, s[:wordAt], rest
	}
	if digitAt < 0 {
		return nil, s, ""
	}
	nums, rest := leadingNumbers(s)
	f := nums[len(nums)-1]
	if dozenFollows(rest) {
		f *= 12
		rest = strings.TrimLeft(rest, " ")[len("dozen"):]
	}
	return positive(f), s[:digitAt], rest
}

// parseYieldUnit reads what a yield counts when it is not people, from the
// same shapes as parseServings: "12 cookies", "Makes 24 muffins", "2
// loaves", {"value": 24, "unitText": "muffins"}. Of an array the first
// element that names a unit wins. It returns "" for people ("Serves 4",
// "4 servings", "4 personnes", "Portionen: 4") and for a bare number.
func parseYieldUnit(v any) string {
	switch v := v.(type) {
	case string:
		return yieldUnitFromText(v)
	case []any:
		for _, e := range v {
			if u := parseYieldUnit(e); u != "" {
				return u
			}
		}
	case map[string]any:
		if t, ok := get(v, "unitText").(string); ok {
			if t = cleanText(t); yieldText.MatchString(t) {
				return yieldUnitFromText(t) // a whole yield ("24 cookies"), as some apps write it
			}
			return yieldUnitPhrase("", t)
		}
		return parseYieldUnit(get(v, "name", "text"))
	}
	return ""
}

// yieldUnitFromText is the noun phrase that follows the number of a yield
// text, as written ("Makes 2 small Loaves" is "small Loaves").
func yieldUnitFromText(s string) string {
	s = cleanText(s)
	lower := strings.ToLower(s)
	n, before, after := readYield(lower)
	if n == nil {
		return ""
	}
	if len(lower) == len(s) {
		// the same text in its own case, which the unit keeps
		before, after = s[:len(before)], s[len(s)-len(after):]
	}
	return yieldUnitPhrase(before, after)
}

var (
	// yieldText is a text that starts with its number ("24 cookies").
	yieldText = regexp.MustCompile(`^\d+\s`)
	// peopleLabel is a label before a yield's number that says it counts
	// people whatever follows ("Serves 4 hungry adults").
	peopleLabel = regexp.MustCompile(`(?i)(?:^|[^\pL])(?:serves|serving for|feeds)(?:[^\pL]|$)`)
	// peopleNoun is a yield noun for people or their portions ("4
	// servings", "4 personnes", "4人份"), the nouns of page text's servings.
	peopleNoun = regexp.MustCompile(`(?i)^(?:` + servingsNounWords + `)(?:[^\pL]|$)`)
	// unitEnd ends a yield's noun phrase: a parenthesis, punctuation, a
	// dash between words, the end of a sentence, an alternative ("2
	// loaves or 24 rolls") or a sum.
	unitEnd = regexp.MustCompile(`(?i)[(\[,;:/!?]|\s[-–—]\s|\.(?:\s|$)|\s(?:or|oder|ou|o)\s|\s\+\s`)
	// alternativeWord is the "or" where unitEnd cuts an alternative.
	alternativeWord = regexp.MustCompile(`(?i)^\s(?:or|oder|ou|o)\s$`)
	// onlySizes is a phrase of sizes without a noun ("large").
	onlySizes = regexp.MustCompile(`(?i)^(?:(?:extra[- ])?(?:large|small|medium|big|mini|jumbo|regular|standard)\s*)+$`)
	// portionSize is an amount written after the count: the size of each
	// serving ("4 1.25 cups curry lentils + 1 cup rice"), not what is
	// counted; a size joined to its noun ("1 9-inch pie") is a unit.
	portionSize = regexp.MustCompile(`^\d+(?:[.,/]\d+)?\s`)
	// unitLead is what may stand between the number and its noun: a size
	// in parentheses ("4 (1-cup) servings") or a multiplication sign.
	unitLead = regexp.MustCompile(`^(?:\([^)]{0,20}\)\s*|[x×]\s+)`)
)

// yieldUnitPhrase is the unit of a yield whose number has before and
// after it the given texts: the words after it up to the end of the
// phrase; "" when they name people, when a label before the number does,
// when they hold no letter, or when they are longer than a unit is
// (repo.ServingsUnitMax: a sentence, not a noun).
func yieldUnitPhrase(before, after string) string {
	if peopleLabel.MatchString(before) {
		return ""
	}
	u := unitLead.ReplaceAllString(strings.TrimSpace(after), "")
	if i := unitEnd.FindStringIndex(u); i != nil {
		cut, rest := u[i[0]:i[1]], strings.Fields(u[i[1]:])
		u = strings.TrimSpace(u[:i[0]])
		// "9 large or 16 small brownies": the sizes share the noun of the alternative
		if onlySizes.MatchString(u) && alternativeWord.MatchString(cut) && len(rest) > 0 {
			if noun := strings.TrimRight(rest[len(rest)-1], ".!"); !onlySizes.MatchString(noun) {
				u += " " + noun
			}
		}
	}
	u = strings.TrimSpace(u)
	if peopleNoun.MatchString(u) || portionSize.MatchString(u) || !strings.ContainsFunc(u, unicode.IsLetter) ||
		utf8.RuneCountInString(u) > servingsUnitMax {
		return ""
	}
	return u
}

// servingsUnitMax is repo.ServingsUnitMax, which this package may not import.
const servingsUnitMax = 40

// firstNumberWord finds the number word that comes first in s.
func firstNumberWord(s string) (numberWord, int) {
	best, at := numberWords[0], -1
	for _, w := range numberWords {
		if i := wordIndex(s, w.word); i >= 0 && (at < 0 || i < at) {
			best, at = w, i
		}
	}
	return best, at
}

// rangeEnd reads the upper end of a range written in words or digits
// after its first number ("to six", "-6"), and what follows it.
func rangeEnd(rest string) (int, string, bool) {
	r := strings.TrimLeft(rest, " ")
	for _, sep := range rangeSeparators {
		if !strings.HasPrefix(r, sep) {
			continue
		}
		r = strings.TrimLeft(r[len(sep):], " ")
		if len(r) > 0 && r[0] >= '0' && r[0] <= '9' {
			f, after := readNumber(r)
			if n := positive(f); n != nil {
				return *n, after, true
			}
			return 0, rest, false
		}
		if w, at := firstNumberWord(r); at == 0 {
			return w.n, r[len(w.word):], true
		}
		return 0, rest, false
	}
	return 0, rest, false
}

// dozenFollows reports whether the number just read counts dozens.
func dozenFollows(rest string) bool {
	return strings.HasPrefix(strings.TrimLeft(rest, " "), "dozen")
}

var rangeSeparators = []string{"-", "–", "—", "to ", "or ", "bis ", "à ", "a ", "tot ", "til "}

// leadingNumbers returns the first number of s and, when a range follows it
// directly ("4-6", "4 to 6"), the second; and the text after them.
func leadingNumbers(s string) ([]float64, string) {
	i := strings.IndexFunc(s, unicode.IsDigit)
	if i < 0 {
		return nil, s
	}
	first, rest := readNumber(s[i:])
	out := []float64{first}
	if upper, after, ok := rangeEnd(rest); ok && float64(upper) > first {
		out, rest = append(out, float64(upper)), after
	}
	return out, rest
}

// readNumber reads digits with an optional decimal part ("4", "4.0", "2,5").
func readNumber(s string) (float64, string) {
	j := 0
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	intPart := s[:j]
	if j+1 < len(s) && (s[j] == '.' || s[j] == ',') && s[j+1] >= '0' && s[j+1] <= '9' {
		k := j + 1
		for k < len(s) && s[k] >= '0' && s[k] <= '9' {
			k++
		}
		// "1,000" is a thousand, "2,5" is two and a half
		if s[j] == ',' && k-j-1 == 3 {
			f, _ := strconv.ParseFloat(intPart+s[j+1:k], 64)
			return f, s[k:]
		}
		f, _ := strconv.ParseFloat(intPart+"."+s[j+1:k], 64)
		return f, s[k:]
	}
	f, _ := strconv.ParseFloat(intPart, 64)
	return f, s[j:]
}

// wordIndex is the offset of w in s as a whole word, or -1.
func wordIndex(s, w string) int {
	i := strings.Index(s, w)
	for i >= 0 {
		before := i == 0 || !isLetter(s[i-1])
		after := i+len(w) >= len(s) || !isLetter(s[i+len(w)])
		if before && after {
			return i
		}
		next := strings.Index(s[i+1:], w)
		if next < 0 {
			return -1
		}
		i += 1 + next
	}
	return -1
}

func isLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// YieldUnit reads what a yield counts when it is not people, from the
// shapes Servings reads ("24 muffins"; a schema.org QuantitativeValue
// {"value": 24, "unitText": "muffins"}, the shape of an app's separate
// count and unit); "" for people or a bare number. It lets the archive
// importer's format readers keep a unit by the page reader's rules.
func YieldUnit(v any) string { return parseYieldUnit(v) }
