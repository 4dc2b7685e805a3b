package ingredient

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The table of word forms (data/english_words.txt) is English ("1 orange" → "2 oranges"), so the
// reader gives a counted noun only in a line that reads as English: "1 orange sanguine", "1 avocado
// maturo" or "Succo di 1 lime" keep their words as written at any servings, since an English "s" on
// a French, Italian or Swedish word is wrong and those languages inflect by rules the table does not
// know. The same holds for units other languages spell the same ("1 litre de lait").

// lineWords are frequent words of ingredient lines that only one language uses: articles and
// prepositions, the words for juice, zest and ripe, the pieces a food is cut into, and common
// describing words; with them count the pantry words below. They are folded as the line's words
// are (lower case, no accents, "blokjes" → "blokje"). Measures come from each language's measure list in data/roles.txt. Words that English
// lines use too ("as", "no", "do", "i", "per", "non", "mature", "med" for medium, "store", "petite",
// the "fraîche" of crème fraîche) are left out: they tell nothing.
var lineWords = map[string][]string{
	"en": {"the", "of", "and", "or", "with", "for", "plus", "about", "into", "to", "taste", "each",
		"juice", "zest", "ripe", "fresh", "large", "small", "medium", "whole", "optional",
		"chopped", "sliced", "diced", "minced", "peeled", "cut", "halved", "juiced", "zested",
		"cup", "teaspoon", "tablespoon", "ounce", "pound", "can", "package", "bunch", "clove"},
	"de": {"und", "oder", "mit", "der", "die", "das", "vom", "von", "zum", "zur", "für", "nach", "etwas", "belieben",
		"saft", "abrieb", "schale", "reif", "reife", "reifer", "frisch", "frische", "groß", "große", "klein", "kleine",
		"gehackt", "gewürfelt", "geschält", "halbiert", "geviertelt", "unbehandelt",
		"würfel", "scheiben", "streifen", "stücke", "ringe", "spalten"},
	"fr": {"de", "du", "des", "d", "la", "le", "les", "et", "ou", "avec", "pour",
		"jus", "zeste", "mûr", "mûre", "traité", "traitée", "sanguine", "frais", "gros", "grosse",
		"haché", "hachée", "coupé", "coupée", "pelé", "pelée", "moyen", "moyenne", "entier", "entière",
		"tranches", "lamelles", "rondelles", "morceaux", "quartiers"},
	"es": {"de", "del", "la", "el", "los", "las", "y", "con", "para", "gusto",
		"zumo", "jugo", "ralladura", "maduro", "madura", "grande", "pequeño", "pequeña", "mediano", "mediana",
		"picado", "picada", "pelado", "pelada", "fresco", "fresca", "cortado", "cortada",
		"dados", "tiras", "rodajas", "trozos", "gajos"},
	"it": {"di", "del", "della", "dello", "dei", "degli", "delle", "e", "con", "qb",
		"succo", "scorza", "maturo", "matura", "maturi", "grande", "grandi", "piccolo", "piccola",
		"medio", "media", "medie", "tritato", "tritata", "fresco", "fresca", "biologico", "trattato", "trattata",
		"cubetti", "fette", "rondelle", "listarelle", "pezzi", "spicchi"},
	"nl": {"van", "het", "een", "en", "met", "voor",
		"sap", "rasp", "rijp", "rijpe", "grote", "groot", "kleine", "klein", "verse", "vers",
		"gesnipperd", "gehakt", "fijngesneden", "geperst",
		"blokjes", "reepjes", "plakjes", "ringen", "stukjes", "schijfjes", "partjes"},
	"pt": {"de", "da", "das", "dos", "e", "com", "para", "gosto",
		"suco", "sumo", "raspas", "maduro", "madura", "nanica", "prata", "grande", "média", "médio",
		"pequeno", "pequena", "picado", "picada",
		"cubos", "fatias", "rodelas", "pedaços", "gomos"},
	"sv": {"och", "till", "av",
		"saft", "saften", "skal", "skalet", "mogen", "mogna", "stor", "stora", "liten", "små",
		"hackad", "hackade", "riven", "rivet", "färsk", "färska", "pressad",
		"tärningar", "skivor", "strimlor", "bitar", "klyftor"},
	"pl": {"z", "ze", "lub", "smaku",
		"sok", "skórka", "dojrzały", "dojrzała", "duży", "duża", "mały", "mała",
		"posiekany", "posiekana", "świeży", "świeża",
		"kostkę", "plastry", "paski", "kawałki"},
	"da": {"og", "til", "af", "saft", "skal", "moden", "modne", "stor", "lille", "små", "hakket", "revet", "frisk", "friske"},
	"no": {"og", "til", "av", "saft", "skall", "moden", "modne", "stor", "liten", "små", "hakket", "revet", "fersk", "ferske"},
}

// measureLangs maps a folded measure word to the languages other than English whose measure list
// holds it ("cucharada", "eetlepel", "msk"; not "g" or "ml", which English writes too), as bits in
// lineLangOrder order. Built once the lexicons are loaded (their init): every word of every line is
// asked about, and one lookup costs less than one per language.
var measureLangs map[string]uint16

func buildMeasureLangs() map[string]uint16 {
	m := map[string]uint16{}
	for i := 1; i < len(lineLangOrder); i++ {
		lx := lexicons[lineLangOrder[i]]
		if lx == nil {
			continue
		}
		for w, v := range lx.exact[classMeasure] {
			if len(w) > 1 && v != nil && !sharedUnitWords[w] {
				m[w] |= 1 << i
			}
		}
	}
	return m
}

// pantryWords are the commonest foods of a pantry (milk, cream, stock, sugar, flour, water, oil,
// salt, pepper) in the languages whose word no English line writes: "1 Liter Milch", "½ l de
// leche", "1 filet d'huile". Words English writes too ("butter", "water", "salt", "latte", "farina")
// are left out.
var pantryWords = map[string][]string{
	"de": {"milch", "sahne", "brühe", "zucker", "mehl", "wasser", "öl", "salz", "pfeffer"},
	"fr": {"lait", "huile", "beurre", "sucre", "farine", "eau", "sel", "poivre"},
	"es": {"leche", "aceite", "azúcar", "harina", "agua", "pimienta", "caldo"},
	"it": {"olio", "zucchero", "acqua", "brodo", "pepe"},
	"nl": {"melk", "boter", "suiker", "bloem", "zout", "olie"},
	"pt": {"leite", "azeite", "açúcar", "farinha", "água", "manteiga"},
	"sv": {"mjölk", "grädde", "socker", "vetemjöl", "vatten"},
	"pl": {"mleko", "mleka", "masło", "masła", "cukier", "cukru", "mąka", "mąki", "woda", "wody", "oleju"},
	"da": {"mælk", "fløde", "vand"},
	"no": {"melk", "fløte", "vann"},
}

// lineLangs maps a folded word to the languages it marks, as bits in lineLangOrder order.
var lineLangOrder = []string{"en", "de", "fr", "es", "it", "nl", "pt", "sv", "pl", "da", "no"}

var lineLangs = func() map[string]uint16 {
	m := map[string]uint16{}
	for i, lang := range lineLangOrder {
		for _, w := range slices.Concat(lineWords[lang], pantryWords[lang]) {
			m[foldWord(w)] |= 1 << i // folded as the line's words are: "blokjes" is "blokje"
		}
	}
	return m
}()

// compoundHeads are the pantry words that end German and Dutch compounds
// ("Gemüsebrühe", "Kokosmilch", "Schlagsahne", "Puderzucker", "karnemelk", "basterdsuiker"), folded;
// no English word ends in one.
var compoundHeads = map[string]uint16{}

func init() {
	for i, lang := range lineLangOrder {
		if lang != "de" && lang != "nl" {
			continue
		}
		for _, w := range pantryWords[lang] {
			if f := foldWord(w); len(f) >= 4 {
				compoundHeads[f] |= 1 << i
			}
		}
	}
}

// compoundBits returns the languages whose compound the folded word w is: one that ends in one of
// their pantry words after at least three letters of another word.
func compoundBits(w string) uint16 {
	var bits uint16
	for head, b := range compoundHeads {
		if len(w) >= len(head)+3 && strings.HasSuffix(w, head) {
			bits |= b
		}
	}
	return bits
}

// elisions are the articles and prepositions French and Italian write elided onto the next word
// ("d'huile", "l'uovo", "dell'olio"): the word tells its language when a lower-case word follows
// the apostrophe ("d'Anjou pears" is a name).
var elisions = map[string][]string{"d": {"fr", "it"}, "l": {"fr", "it"}, "qu": {"fr"},
	"dell": {"it"}, "all": {"it"}, "nell": {"it"}, "dall": {"it"}, "sull": {"it"}, "un": {"it"}}

// elisionBits returns the languages of an elided article at the start of word w, or 0.
func elisionBits(w string) uint16 {
	k := strings.IndexAny(w, "'’")
	if k < 1 {
		return 0
	}
	_, size := utf8.DecodeRuneInString(w[k:]) // the apostrophe
	if rest, _ := utf8.DecodeRuneInString(w[k+size:]); !unicode.IsLower(rest) {
		return 0
	}
	var bits uint16
	for _, lang := range elisions[strings.ToLower(w[:k])] {
		bits |= 1 << slices.Index(lineLangOrder, lang)
	}
	return bits
}

// lineLanguage tells whether the words of a line read as English (no other language has more of
// its own words in it than English has), and whether they tell anything at all: "1 avocado" or "2
// limes" has no word that only one language uses, and reads as English only for want of a sign.
// A name borrowed from another language ("2 cups pico de gallo", "1 cup crème fraîche") is
// outweighed by the English words around it.
func lineLanguage(toks []token) (english, told bool) {
	var counts [16]int
	for _, t := range toks {
		if t.kind != tWord {
			continue
		}
		w := foldWord(t.text)
		bits := lineLangs[w] | elisionBits(t.text)
		if bits == 0 {
			bits = compoundBits(w)
		}
		bits |= measureLangs[w]
		if bits != 0 {
			told = true
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
			return false, told
		}
	}
	return true, told
}

// Language is what is known of the language of the recipe a line belongs to, for the lines whose
// own words do not tell theirs.
type Language uint8

const (
	// LanguageUnknown reads a line that does not tell its language as English, the language of
	// the client's table: a line read on its own (`admin ingredients`).
	LanguageUnknown Language = iota
	// LanguageEnglish: the recipe's lines read as English.
	LanguageEnglish
	// LanguageOther: more of the recipe's lines read as another language than as English, so a
	// line that does not tell is in that language too ("1 avocado" in a Dutch recipe keeps its
	// word at any servings).
	LanguageOther
)

// verdict is what a line's words say of its language (see lineLanguage).
type verdict struct{ english, told bool }

func verdictOf(toks []token) verdict {
	english, told := lineLanguage(toks)
	return verdict{english, told}
}

// recipeLanguage is the language of a recipe from the lines that tell theirs: English unless more
// of them read as another language.
func recipeLanguage(lines []verdict) Language {
	english, other := 0, 0
	for _, v := range lines {
		switch {
		case !v.told:
		case v.english:
			english++
		default:
			other++
		}
	}
	if other > english {
		return LanguageOther
	}
	return LanguageEnglish
}
