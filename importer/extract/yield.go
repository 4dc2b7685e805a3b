package extract

import (
	"math"
	"strconv"
	"strings"
	"unicode"
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

var numberWords = []struct {
	word string
	n    int
}{
	{"one", 1}, {"two", 2}, {"three", 3}, {"four", 4}, {"five", 5}, {"six", 6}, {"seven", 7},
	{"eight", 8}, {"nine", 9}, {"ten", 10}, {"eleven", 11}, {"twelve", 12}, {"dozen", 12},
}

// yieldFromText reads the first number of a yield text. "4-6", "4 to 6",
// "4–6" and "4 or 6" are ranges and give their upper bound; "1 1/2 cups"
// gives 1; words ("serves four") are understood in English.
func yieldFromText(s string) *int {
	s = strings.ToLower(cleanText(s))
	nums := leadingNumbers(s)
	if len(nums) == 0 {
		best, at := 0, len(s)
		for _, w := range numberWords {
			if i := wordIndex(s, w.word); i >= 0 && i < at {
				best, at = w.n, i
			}
		}
		if best == 0 {
			return nil
		}
		return &best
	}
	return positive(nums[len(nums)-1])
}

// leadingNumbers returns the first number of s and, when a range follows it
// directly ("4-6", "4 to 6"), the second.
func leadingNumbers(s string) []float64 {
	i := strings.IndexFunc(s, unicode.IsDigit)
	if i < 0 {
		return nil
	}
	first, rest := readNumber(s[i:])
	out := []float64{first}
	r := strings.TrimLeft(rest, " ")
	for _, sep := range []string{"-", "–", "—", "to ", "or ", "bis ", "à ", "a ", "tot ", "til "} {
		if strings.HasPrefix(r, sep) {
			r = strings.TrimLeft(r[len(sep):], " ")
			if len(r) > 0 && r[0] >= '0' && r[0] <= '9' {
				second, _ := readNumber(r)
				if second > first {
					out = append(out, second)
				}
			}
			break
		}
	}
	return out
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
