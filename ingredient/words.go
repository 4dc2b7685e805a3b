package ingredient

// The word lists below are the whole of the package's knowledge of cooking. They are kept as plain
// sets so a missed case is fixed by adding a word, not by changing an algorithm.

// descriptors are words that describe the state, size, cut or quality of an ingredient rather than
// the food itself. Parse moves them to the notes; the matcher ignores them.
var descriptors = setOf(
	// size
	"large", "small", "medium", "medium-large", "medium-small", "extra-large", "xl", "jumbo", "big", "huge",
	"tiny", "mini", "thick", "thin",
	// cut and preparation
	"chopped", "minced", "diced", "sliced", "grated", "shredded", "crushed", "crumbled", "cubed", "julienned",
	"halved", "quartered", "peeled", "unpeeled", "seeded", "deseeded", "cored", "pitted", "stoned", "stemmed",
	"trimmed", "rinsed", "drained", "washed", "scrubbed", "beaten", "whisked", "melted", "softened", "mashed",
	"pureed", "puréed", "smashed", "torn", "zested", "juiced", "squeezed", "separated", "sifted", "packed",
	"snipped", "shaved", "slivered", "flaked", "segmented", "spiralized", "cut", "patted", "deveined",
	"shelled", "hulled", "mixed", "dissolved", "soaked", "reserved",
	// temperature and state
	"cold", "chilled", "warm", "warmed", "lukewarm", "room-temperature", "thawed", "defrosted", "frozen",
	"fresh", "freshly", "dried", "toasted", "cooked", "uncooked", "raw", "leftover", "steamed", "boiled",
	"hard-boiled", "soft-boiled", "hard-cooked", "ripe", "overripe", "firm", "day-old", "stale", "canned",
	"jarred", "bottled", "homemade", "store-bought", "prepared",
	// quality and amount qualifiers
	"heaping", "heaped", "level", "scant", "generous", "rounded", "good-quality", "best-quality", "quality",
	"organic", "lean", "boneless", "skinless", "bone-in", "skin-on", "optional", "divided", "additional",
	// adverbs that go with the words above
	"finely", "coarsely", "roughly", "thinly", "thickly", "lightly", "firmly", "loosely", "very", "well",
	"freshly-ground", "finely-chopped", "roughly-chopped", "thinly-sliced", "about", "approximately",
	// counts written as words: not amounts (see Parse), so they are notes
	"one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "dozen",
)

// sizeWords may sit between an amount and its unit ("2 heaping tablespoons", "1 large can").
// The other languages' words for a package's size ("1 kleine Dose (70 g)", "1 pequeña lata (200 g)") are
// here too, so a count before them still counts the package.
var sizeWords = setOf("large", "small", "medium", "big", "heaping", "heaped", "level", "scant", "generous",
	"rounded", "good", "extra-large", "full", "whole",
	"gestr", "gestrichene", "gestrichener", "gehäufte", "gehäufter",
	"kleine", "kleinen", "kleiner", "kleines", "große", "großen", "großer", "großes", "grosse", "grossen",
	"mittelgroße", "mittelgroßer", "mittelgroßes", "grande", "grandes",
	"pequeña", "pequeñas", "pequeño", "pequeños", "piccola", "piccole", "piccolo", "piccoli", "grote",
	"middelgrote", "pequena", "pequenas", "pequeno", "pequenos", "mała", "małe", "duża", "duże", "liten", "litet",
	"små", "stor", "stort", "stora", "malá", "malé", "velká", "velké")

// leadOfWords may open a line of the form "juice of 1 lemon", "suco de 2 limões", "le jus de 2
// citrons": the fruit is the food (it is what one buys), the part taken from it a note.
var leadOfWords = setOf("juice", "zest", "rind", "peel", "grated", "finely", "freshly", "and", "the", "squeezed",
	"seeds", "flesh", "leaves",
	"jus", "zeste", "suco", "sumo", "zumo", "jugo", "ralladura", "succo", "scorza", "raspas", "raspa", "casca",
	"saft", "abrieb", "schale", "sap", "rasp", "sok", "skórka", "skal", "skall", "šťáva", "kůra")

// leadJoinWords join a leadOfWords word to its fruit: the joining words of a measure and the
// prepositions the other languages use there ("Saft von 1 Zitrone", "saft av 1 citron", "sok z cytryny").
var leadJoinWords = append([]string{"von", "av", "af", "z", "ze"}, joinWordList...)

// leadArticles may stand before a leadOfWords word ("el zumo de 1 limón"); they are neither food nor note.
var leadArticles = setOf("le", "la", "el", "il", "lo", "o")

// unitArticles stand for "one" before a unit ("een snufje zout", "une pincée de sel").
var unitArticles = setOf("een", "ein", "eine", "einen", "une", "un", "una", "uno", "um", "uma", "en", "ett", "et", "ei")

// joinWordList are the words that join a measure to its food ("2 cups of flour", "200 g de farine",
// "200 g di farina", "1 blik van"): they belong to neither. The elided "d'" is read in the food's word.
var joinWordList = []string{"of", "de", "di", "van"}

// spoonWords name a spoon whose size follows it ("c. à s.", "cuillère à café", "colher (sopa)").
var spoonWords = setOf("c", "cuillère", "cuillères", "cuillere", "cuilleres", "cuil", "cuill", "colher", "colheres")

// spoonSizes are the words after a spoon word that give its size: the soup spoon is the tablespoon,
// the coffee and tea spoons the teaspoon.
var spoonSizes = map[string]string{
	"soupe": unitTbsp, "s": unitTbsp, "sopa": unitTbsp,
	"café": unitTsp, "cafe": unitTsp, "c": unitTsp, "thé": unitTsp, "the": unitTsp, "chá": unitTsp, "cha": unitTsp,
}

// unitQualifiers say how a measure is filled or which one it is ("(gestr.)", "(chá)" after "xícara").
// In parentheses right after the unit they belong to the unit, as does the size word of
// "cucharadas soperas". Level words written loose ("2 cucchiai rasi") are notes, as "heaping" is.
var unitQualifiers = setOf("sopera", "soperas",
	"gestr", "gestrichen", "gestrichener", "gestrichene", "gehäuft", "gehäufter", "gehäufte", "rasa", "rasas", "raso",
	"rasi", "rase", "ras", "colmo", "colma", "colmi", "colme", "colmada", "colmadas", "cheia", "cheias", "cheio",
	"bombée", "bombé", "level", "heaping", "heaped", "rounded", "scant", "sobremesa")

// tastePhrases are "to taste" in the other languages: they end the food's name.
var tastePhrases = []string{"al gusto", "a gusto", "a gosto", "q.b", "qb", "nach geschmack", "nach belieben",
	"naar smaak", "naar wens", "naar believen", "do smaku", "efter smak", "efter smag", "etter smak",
	"podle chuti", "à volonté", "au goût", "selon le goût"}

// approxWords may precede an amount ("about 2 cups").
var approxWords = setOf("about", "approximately", "approx", "around", "roughly", "~", "circa", "ca",
	"unos", "unas", "aproximadamente", "aprox", "cerca", "ongeveer", "zirka", "cirka", "ungefär", "omkring")

// tailWords end the name: what follows is a note ("salt to taste", "oil for frying").
var tailWords = setOf("for", "to", "plus", "if", "at", "cut", "such", "preferably", "optional", "divided",
	"as", "into", "in", "with", "from", "without", "each", "per", "about", "approximately", "approx", "e.g",
	"ideally", "see", "room")

// connectors join words inside a name ("salt and pepper") or a run of descriptors ("peeled and diced").
var connectors = setOf("and", "or", "&", "nor", "and/or")

func setOf(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// meatWordList are the meats sold minced; "minced beef" names a product, "minced garlic" a cut.
var meatWordList = []string{"beef", "pork", "lamb", "veal", "chicken", "turkey", "meat"}
