package ingredient

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// sep marks punctuation in a normalized token list: keys never span it, and it splits the
// alternatives of an ingredient name ("salt, pepper", "cilantro/coriander").
const sep = "|"

var foldAccents = map[rune]string{
	'à': "a", 'á': "a", 'â': "a", 'ã': "a", 'ä': "a", 'å': "a", 'ç': "c", 'è': "e", 'é': "e", 'ê': "e",
	'ë': "e", 'ì': "i", 'í': "i", 'î': "i", 'ï': "i", 'ñ': "n", 'ò': "o", 'ó': "o", 'ô': "o", 'õ': "o",
	'ö': "o", 'ø': "o", 'ù': "u", 'ú': "u", 'û': "u", 'ü': "u", 'ý': "y", 'ÿ': "y", 'œ': "oe", 'æ': "ae",
	'ß': "ss",
	// Polish and Czech letters fold like the others, so "mąkę" meets "mąki" once endings are cut
	// (stems.txt). Czech ů is the o of other forms of the word ("sůl", "soli").
	'ą': "a", 'ć': "c", 'ę': "e", 'ł': "l", 'ń': "n", 'ś': "s", 'ź': "z", 'ż': "z", 'č': "c", 'ď': "d",
	'ě': "e", 'ň': "n", 'ř': "r", 'š': "s", 'ť': "t", 'ů': "o", 'ž': "z",
}

// spellings maps variant spellings to one form, so "chilli" in a step finds "chile" in a line.
var spellings = map[string]string{
	"chilli": "chili", "chile": "chili", "chillies": "chili", "chilies": "chili", "chiles": "chili",
	"chilis": "chili", "yoghurt": "yogurt", "yoghurts": "yogurt", "mayo": "mayonnaise", "filet": "fillet",
	"filets": "fillet", "veggie": "vegetable", "veggies": "vegetable", "catsup": "ketchup",
	"breadcrumbs": "breadcrumb", "confectioners": "confectioner",
	// Participles that mean "with the ingredient added": "salted water" uses salt, "a floured
	// surface" uses flour. "unsalted" stays a different word, so salt never links unsalted butter.
	"salted": "salt", "oiled": "oil", "buttered": "butter", "floured": "flour", "sugared": "sugar",
	"greased": "grease", "greasing": "grease", "dusted": "dust", "dusting": "dust",
}

// plurals that the suffix rules below would get wrong.
var irregularPlurals = map[string]string{
	"leaves": "leaf", "halves": "half", "loaves": "loaf", "knives": "knife", "calves": "calf",
	"cookies": "cookie", "pies": "pie", "molasses": "molasses", "couscous": "couscous", "hummus": "hummus",
	"asparagus": "asparagus", "citrus": "citrus", "swiss": "swiss", "grits": "grits", "oats": "oat",
	"lentils": "lentil", "brussels": "brussels", "series": "series", "species": "species", "dies": "die",
	"ties": "tie", "lies": "lie", "eyes": "eye", "shoes": "shoe", "toes": "toe", "does": "does",
	"this": "this", "was": "was", "has": "has", "is": "is", "its": "its", "less": "less", "plus": "plus",
	"us": "us", "yes": "yes", "gas": "gas", "bus": "bus", "lens": "lens", "always": "always",
	"mangetout": "mangetout", "quinoa": "quinoa", "tortellini": "tortellini", "ravioli": "ravioli",
}

// singularIs are singular words ending in "is", which the plural rule for "zucchinis" would cut.
var singularIs = setOf("basis", "crisis", "oasis", "tennis", "chassis", "analysis", "cassis", "pastis", "iris",
	"mantis", "axis", "thesis", "penis", "pelvis", "vis")

// singular returns a word's singular form, or the word itself. It only needs to map a plural and its
// singular to the same string, since steps and ingredient names both pass through it.
func singular(w string) string {
	if s, ok := irregularPlurals[w]; ok {
		return s
	}
	n := len(w)
	if n <= 3 || w[n-1] != 's' {
		return w
	}
	switch {
	case strings.HasSuffix(w, "is") && n >= 5 && !singularIs[w]:
		return w[:n-1] // zucchinis, kiwis, martinis
	case strings.HasSuffix(w, "ss"), strings.HasSuffix(w, "us"), strings.HasSuffix(w, "is"):
		return w
	case strings.HasSuffix(w, "ies") && n > 4:
		return w[:n-3] + "y"
	case strings.HasSuffix(w, "ches"), strings.HasSuffix(w, "shes"), strings.HasSuffix(w, "sses"),
		strings.HasSuffix(w, "xes"), strings.HasSuffix(w, "zes"), strings.HasSuffix(w, "oes"):
		return w[:n-2]
	}
	return w[:n-1]
}

// normalize turns text into lowercase singular words, with sep for punctuation. Apostrophes vanish
// ("confectioners'" → "confectioner"), hyphens split ("all-purpose" → "all", "purpose").
func normalize(s string) []string {
	return normalizeText(s, false).words
}

// normText is a normalized text. For steps it also records which words were plural and where each
// word starts in the text.
type normText struct {
	words  []string
	plural []bool
	starts []int
}

func normalizeText(s string, step bool) normText {
	return normalizeTextIn(s, step, "en")
}

// keepFinalS are the languages whose words may end in s in every form ("färs", "ananas"): the
// English plural rule would cut it from some forms only ("färs" → "fär", not "färsen"), so it is
// not applied; their endings are cut by stems.txt.
var keepFinalS = setOf("sv", "da", "no", "pl", "cs")

// normalizeIn is normalize for text in a language.
func normalizeIn(s, lang string) []string {
	return normalizeTextIn(s, false, lang).words
}

// normalizeTextIn is normalizeText for text in a language.
func normalizeTextIn(s string, step bool, lang string) normText {
	plainS := keepFinalS[lang]
	var n normText
	n.words = make([]string, 0, len(s)/5+1)
	var b strings.Builder
	start := 0
	flush := func() {
		if b.Len() == 0 {
			return
		}
		w := b.String()
		orig := w
		b.Reset()
		if sp, ok := spellings[w]; ok {
			w = sp
		}
		sg := w
		switch {
		case lang == "pt" && len(w) > 5 && (strings.HasSuffix(w, "oes") || strings.HasSuffix(w, "aes")):
			// Nouns in -ão make their plural in -ões or -ães ("pimentão", "pimentões").
			sg = w[:len(w)-3] + "ao"
		case !plainS:
			sg = singular(w)
		}
		if sp, ok := spellings[sg]; ok {
			sg = sp
		}
		n.words = append(n.words, sg)
		if step {
			n.plural = append(n.plural, sg != orig && orig[len(orig)-1] == 's' && singular(orig) != orig)
			n.starts = append(n.starts, start)
		}
	}
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if b.Len() == 0 {
			start = i
		}
		i += size
		switch {
		case r < utf8.RuneSelf && (r >= 'a' && r <= 'z' || r >= '0' && r <= '9'):
			b.WriteRune(r)
		case r >= 'A' && r <= 'Z':
			b.WriteRune(r + ('a' - 'A'))
		case r == '\'' || r == '’':
			// dropped, not a split
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			lr := unicode.ToLower(r)
			if f, ok := foldAccents[lr]; ok {
				b.WriteString(f)
			} else {
				b.WriteRune(lr)
			}
		case step && (r == '–' || r == '—') && i-size > 0 && s[i-size-1] == ' ' && i < len(s) && s[i] == ' ':
			// A dash standing between spaces in a step sets off a clause or a list ("all the spice
			// powders – turmeric, chilli powder and coriander"), as a comma does; within a word or a
			// range ("5–6 minutes") it only splits words.
			flush()
			if len(n.words) > 0 && n.words[len(n.words)-1] != sep {
				n.words = append(n.words, sep)
				n.plural = append(n.plural, false)
				n.starts = append(n.starts, i-size)
			}
		case unicode.IsSpace(r) || r == '-' || r == '–' || r == '—':
			flush()
		case unicode.IsMark(r):
			// combining accents: drop
		default:
			flush()
			if len(n.words) > 0 && n.words[len(n.words)-1] != sep {
				n.words = append(n.words, sep)
				if step {
					n.plural = append(n.plural, false)
					n.starts = append(n.starts, i-size)
				}
			}
		}
	}
	flush()
	return n
}
