package ingredient

// The client's singular/plural table is English ("1 orange" → "2 oranges"), so the reader gives a
// counted noun only in a line that reads as English: "1 orange sanguine", "1 avocado maturo" or
// "Succo di 1 lime" keep their words as written at any servings, since an English "s" on a French,
// Italian or Swedish word is wrong and those languages inflect by rules the table does not know.

// lineWords are frequent words of ingredient lines that only one language uses (folded: lower case,
// no accents): articles and prepositions, the words for juice, zest and ripe, and the common
// describing words. Measures come from each language's measure list in data/roles.txt. Words that
// are English too ("as", "no", "do", "per") are left out: they tell nothing.
var lineWords = map[string][]string{
	"en": {"the", "of", "and", "or", "with", "for", "plus", "about", "into", "to", "taste", "juice", "zest",
		"ripe", "fresh", "large", "small", "medium", "whole", "chopped", "sliced", "diced", "minced", "peeled",
		"cut", "halved", "juiced", "zested", "optional", "each", "cup", "cups", "teaspoon", "tablespoon",
		"ounce", "ounces", "pound", "pounds", "can", "cans", "package", "bunch", "clove", "cloves"},
	"de": {"und", "oder", "mit", "der", "die", "das", "vom", "von", "zum", "zur", "fur", "nach", "saft",
		"abrieb", "schale", "reif", "reife", "reifer", "frisch", "frische", "gross", "grosse", "klein", "kleine",
		"gehackt", "gewurfelt", "geschalt", "belieben", "etwas", "halbiert", "bio", "unbehandelt", "geviertelt"},
	"fr": {"de", "du", "des", "d", "la", "le", "les", "et", "ou", "avec", "pour", "jus", "zeste", "mur", "mure",
		"murs", "mures", "non", "traite", "traitee", "traites", "traitees", "sanguine", "sanguines", "bio",
		"frais", "fraiche", "gros", "grosse", "petit", "petite", "hache", "hachee", "coupe", "coupee", "pele",
		"pelee", "moyen", "moyenne", "entier", "entiere"},
	"es": {"de", "del", "la", "el", "los", "las", "y", "con", "para", "zumo", "jugo", "ralladura", "madura",
		"maduro", "maduras", "maduros", "grande", "grandes", "pequeno", "pequena", "mediano", "mediana",
		"picado", "picada", "pelado", "pelada", "fresco", "fresca", "gusto", "cortado", "cortada"},
	"it": {"di", "del", "della", "dello", "dei", "degli", "delle", "e", "con", "succo", "scorza", "maturo",
		"matura", "maturi", "mature", "grande", "grandi", "piccolo", "piccola", "medio", "media", "medie",
		"tritato", "tritata", "fresco", "fresca", "qb", "biologico", "non", "trattato", "trattata"},
	"nl": {"van", "het", "een", "en", "met", "voor", "sap", "rasp", "rijp", "rijpe", "grote", "groot",
		"kleine", "klein", "verse", "vers", "gesnipperd", "gehakt", "fijngesneden", "partjes", "geperst"},
	"pt": {"de", "da", "do", "das", "dos", "e", "com", "para", "suco", "sumo", "raspas", "maduro", "madura",
		"nanica", "prata", "grande", "media", "medio", "pequeno", "pequena", "picado", "picada", "gosto"},
	"sv": {"och", "med", "till", "av", "saft", "saften", "skal", "skalet", "mogen", "mogna", "stor", "stora",
		"liten", "sma", "hackad", "hackade", "riven", "rivet", "farsk", "farska", "pressad", "klyftor"},
	"pl": {"i", "z", "ze", "do", "lub", "sok", "skorka", "dojrzaly", "dojrzala", "duzy", "duza", "maly",
		"mala", "posiekany", "posiekana", "swiezy", "swieza", "smaku"},
	"da": {"og", "med", "til", "af", "saft", "skal", "moden", "modne", "stor", "store", "lille", "sma",
		"hakket", "revet", "frisk", "friske"},
	"no": {"og", "med", "til", "av", "saft", "skall", "moden", "modne", "stor", "store", "liten", "sma",
		"hakket", "revet", "fersk", "ferske"},
}

// lineLangs maps a folded word to the languages it marks, as bits in lineLangOrder order.
var lineLangOrder = []string{"en", "de", "fr", "es", "it", "nl", "pt", "sv", "pl", "da", "no"}

var lineLangs = func() map[string]uint16 {
	m := map[string]uint16{}
	for i, lang := range lineLangOrder {
		for _, w := range lineWords[lang] {
			m[w] |= 1 << i
		}
	}
	return m
}()

// englishLine reports whether the words of a line read as English: no other language has more of
// its own words in it than English has. A line without any telling word is English, the language
// of the client's table; a name borrowed from another language ("2 cups pico de gallo", "1 cup
// crème fraîche") is outweighed by the English words around it.
func englishLine(toks []token) bool {
	var counts [16]int
	for _, t := range toks {
		if t.kind != tWord {
			continue
		}
		w := foldWord(t.text)
		bits := lineLangs[w]
		for i := 1; i < len(lineLangOrder); i++ {
			if lx := lexicons[lineLangOrder[i]]; lx != nil && len(w) > 1 && lx.exact[classMeasure][w] != nil && unitWords[w] == "" {
				bits |= 1 << i // "cucharada", "eetlepel", "msk"; not "g" or "ml", which English writes too
			}
		}
		if bits&1 != 0 {
			counts[0]++
			continue // a word English shares tells nothing against it
		}
		for i := 1; bits != 0 && i < len(lineLangOrder); i++ {
			if bits&(1<<i) != 0 {
				counts[i]++
			}
		}
	}
	for i := 1; i < len(lineLangOrder); i++ {
		if counts[i] > counts[0] {
			return false
		}
	}
	return true
}
