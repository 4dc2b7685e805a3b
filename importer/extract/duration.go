package extract

import (
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// parseMinutes reads a duration as whole minutes (rounded up): an ISO 8601
// duration ("PT1H30M", "P0DT0H20M", "PT90M", "PT0.5H"), a text ("1 hour 30
// minutes", "1 hr 30 mins", "1h30", "1:30", "12-15 minutes" gives 15), a
// number of minutes, or an object holding one of these. Zero and unreadable
// durations give nil: sites write PT0M for "not given".
func parseMinutes(v any) *int {
	var m float64
	switch v := v.(type) {
	case float64:
		m = v
	case string:
		m = minutesFromText(v)
	case []any:
		for _, e := range v {
			if n := parseMinutes(e); n != nil {
				return n
			}
		}
		return nil
	case map[string]any:
		return parseMinutes(get(v, "maxValue", "value", "minValue", "@value", "duration", "text", "name"))
	default:
		return nil
	}
	if math.IsNaN(m) || m <= 0 || m > 60*24*365 {
		return nil
	}
	n := int(math.Ceil(m - 1e-9))
	return &n
}

func minutesFromText(s string) float64 {
	s = strings.TrimSpace(cleanText(s))
	if s == "" {
		return 0
	}
	if s[0] == 'P' || s[0] == 'p' {
		if m, ok := isoMinutes(s); ok {
			return m
		}
	}
	return textMinutes(s)
}

// isoMinutes parses P[nY][nM][nW][nD][T[nH][nM][nS]], allowing decimals and
// a missing final designator ("PT1H30" is read as 1 h 30 min). Without its
// T, an M after hours, or an M that is the only part ("P1H30M", "P30M"),
// counts minutes: a recipe that takes months is not written so, a time
// that lost its T often is.
func isoMinutes(s string) (float64, bool) {
	s = strings.ToUpper(s[1:])
	inTime := !strings.Contains(s, "T") && (strings.Contains(s, "H") || strings.Count(s, "M") == 1 && strings.Trim(s, "0123456789.,M ") == "")
	total := 0.0
	num := ""
	seen := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9' || c == '.' || c == ',':
			if c == ',' {
				c = '.'
			}
			num += string(c)
			continue
		case c == 'T':
			inTime = true
			continue
		case c == ' ':
			continue
		}
		f, err := strconv.ParseFloat(num, 64)
		if err != nil {
			return 0, false
		}
		num = ""
		seen = true
		switch {
		case c == 'Y':
			total += f * 365 * 24 * 60
		case c == 'M' && !inTime:
			total += f * 30 * 24 * 60
		case c == 'W':
			total += f * 7 * 24 * 60
		case c == 'D':
			total += f * 24 * 60
		case c == 'H':
			total += f * 60
		case c == 'M':
			total += f
		case c == 'S':
			total += f / 60
		default:
			return 0, false
		}
	}
	if num != "" {
		f, err := strconv.ParseFloat(num, 64)
		if err != nil {
			return 0, false
		}
		seen = true
		if inTime && strings.Contains(s, "H") {
			total += f // "PT1H30": the minutes lost their M
		} else if inTime {
			total += f
		} else {
			return 0, false
		}
	}
	return total, seen
}

// timeUnits maps unit words (several languages) to minutes.
var timeUnits = map[string]float64{
	"d": 1440, "day": 1440, "days": 1440, "tag": 1440, "tage": 1440, "jour": 1440, "jours": 1440, "dag": 1440, "dagen": 1440, "dage": 1440, "dager": 1440, "giorni": 1440, "giorno": 1440, "días": 1440, "dia": 1440, "dias": 1440,
	"h": 60, "hr": 60, "hrs": 60, "hour": 60, "hours": 60, "std": 60, "stunde": 60, "stunden": 60, "heure": 60, "heures": 60,
	"ora": 60, "ore": 60, "hora": 60, "horas": 60, "uur": 60, "time": 60, "timer": 60, "timme": 60, "timmar": 60, "godz": 60, "godzina": 60, "godziny": 60, "óra": 60, "saat": 60, "hod": 60, "hodina": 60, "hodiny": 60, "時間": 60, "小时": 60,
	"m": 1, "min": 1, "mins": 1, "minute": 1, "minutes": 1, "minuten": 1, "minuti": 1, "minuto": 1, "minutos": 1, "minuut": 1, "minutter": 1, "minuter": 1, "minut": 1, "minuty": 1, "perc": 1, "dakika": 1, "mn": 1, "分": 1, "分钟": 1,
	"s": 1.0 / 60, "sec": 1.0 / 60, "secs": 1.0 / 60, "second": 1.0 / 60, "seconds": 1.0 / 60,
}

// textMinutes reads durations written out. A number without a unit counts
// as minutes; "1:30" is hours and minutes; of a range the upper bound counts.
// "an hour", "half an hour" and "an hour and a half" are read as a cook
// says them (in English); an article without a unit counts for nothing.
func textMinutes(s string) float64 {
	s = strings.ToLower(s)
	total := 0.0
	pending := -1.0  // a number waiting for its unit
	article := false // pending is "a"/"an", not a number
	lastUnit := 0.0  // the unit of the last number read, for "and a half"
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case unicode.IsDigit(r) && r < 0x80 || fractionValue(r) > 0:
			f, n := readAmount(s[i:])
			i += n
			if i < len(s) && s[i] == ':' && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9' {
				mins, m := readAmount(s[i+1:])
				i += 1 + m
				total += f*60 + mins
				pending = -1
				continue
			}
			pending, article = f, false // a later number of a range replaces an earlier one
		case unicode.IsLetter(r):
			j := i
			for j < len(s) {
				r2, n2 := utf8.DecodeRuneInString(s[j:])
				if !unicode.IsLetter(r2) {
					break
				}
				j += n2
			}
			word := strings.TrimSuffix(s[i:j], ".")
			switch {
			case word == "a" || word == "an":
				if pending < 0 {
					pending, article = 1, true
				}
			case word == "half":
				if article && lastUnit > 0 {
					total += lastUnit / 2 // "an hour and a half"
					pending, article = -1, false
				} else if pending < 0 {
					pending, article = 0.5, true // "half an hour"
				}
			case pending >= 0:
				mult, ok := timeUnits[word]
				if !ok {
					mult = prefixUnit(word)
				}
				if mult > 0 {
					total += pending * mult
					pending, article, lastUnit = -1, false, mult
				}
			}
			i = j
		default:
			i += size
		}
	}
	if pending >= 0 && !article {
		total += pending
	}
	return total
}

// prefixUnit understands unit words glued to something ("h30" after "1").
func prefixUnit(w string) float64 {
	for _, u := range []string{"hours", "hour", "hrs", "hr", "h"} {
		if strings.HasPrefix(w, u) {
			return 60
		}
	}
	for _, u := range []string{"minutes", "mins", "min"} {
		if strings.HasPrefix(w, u) {
			return 1
		}
	}
	return 0
}

// readAmount reads "1", "1.5", "1,5", "1½", "½" or "1 1/2" and returns the
// value and the bytes used.
func readAmount(s string) (float64, int) {
	j := 0
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	val := 0.0
	if j > 0 {
		val, _ = strconv.ParseFloat(s[:j], 64)
	}
	if j+1 < len(s) && (s[j] == '.' || s[j] == ',') && s[j+1] >= '0' && s[j+1] <= '9' {
		k := j + 1
		for k < len(s) && s[k] >= '0' && s[k] <= '9' {
			k++
		}
		f, _ := strconv.ParseFloat(s[:j]+"."+s[j+1:k], 64)
		return f, k
	}
	if j < len(s) {
		if r, n := utf8.DecodeRuneInString(s[j:]); fractionValue(r) > 0 {
			return val + fractionValue(r), j + n
		}
	}
	// "1 1/2" or "1/2"
	rest := s[j:]
	k := 0
	if j > 0 && strings.HasPrefix(rest, " ") {
		k = 1
	}
	if num, den, n := simpleFraction(rest[k:]); n > 0 && den != 0 {
		if j == 0 || k == 1 {
			return val + num/den, j + k + n
		}
	}
	if j > 0 && strings.HasPrefix(rest, "/") {
		if num, den, n := simpleFraction(s); n > 0 && den != 0 {
			return num / den, n
		}
	}
	return val, j
}

func simpleFraction(s string) (float64, float64, int) {
	a := 0
	for a < len(s) && s[a] >= '0' && s[a] <= '9' {
		a++
	}
	if a == 0 || a >= len(s) || s[a] != '/' {
		return 0, 0, 0
	}
	b := a + 1
	for b < len(s) && s[b] >= '0' && s[b] <= '9' {
		b++
	}
	if b == a+1 {
		return 0, 0, 0
	}
	num, _ := strconv.ParseFloat(s[:a], 64)
	den, _ := strconv.ParseFloat(s[a+1:b], 64)
	return num, den, b
}

func fractionValue(r rune) float64 {
	switch r {
	case '½':
		return 0.5
	case '⅓':
		return 1.0 / 3
	case '⅔':
		return 2.0 / 3
	case '¼':
		return 0.25
	case '¾':
		return 0.75
	case '⅛':
		return 0.125
	}
	return 0
}
