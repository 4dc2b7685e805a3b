package ingredient

import "strings"

// Vocabulary for the matcher. All entries are normalized: lowercase, singular, no accents.

// ignoredInNames are dropped from ingredient names before keys are made: the descriptors (as
// normalize splits them) plus words that never help find the food in a step.
var ignoredInNames = func() map[string]bool {
	m := map[string]bool{}
	for w := range descriptors {
		for _, part := range normalize(w) {
			m[part] = true
		}
	}
	// Parts of hyphenated descriptors that change the food ("ground beef", "bone-in", "extra-virgin").
	for _, keep := range []string{"ground", "bone", "skin", "extra", "in", "on"} {
		delete(m, keep)
	}
	for _, w := range []string{"the", "a", "an", "granulated", "some", "any", "your", "favorite", "favourite"} {
		m[w] = true
	}
	return m
}()

// adjectives never stand alone as a key: "red" in a step is not the red onion.
var adjectives = setOf("red", "green", "yellow", "white", "black", "brown", "golden", "dark", "light", "sweet",
	"hot", "mild", "smoked", "sharp", "extra", "virgin", "heavy", "double", "single", "plain", "all",
	"purpose", "self", "rising", "raising", "baking", "cooking", "vegetable", "ice", "cake", "bread", "water",
	"dry", "fine", "coarse", "whole", "low", "fat", "sodium", "reduced", "unsalted", "salt", "thai", "italian",
	"mexican", "chinese", "japanese", "greek", "english", "french", "spanish", "indian", "korean", "new",
	"old", "baby", "young", "wild", "long", "short", "grain", "flat", "leaf", "hard", "soft", "ground", "fish",
	"sea", "kosher", "table", "flaky", "cracked", "fresh", "dried", "frozen", "powdered", "mixed", "instant",
	"active", "quick", "rolled", "steel", "cut", "sour", "bitter", "semisweet", "bittersweet", "unsweetened",
	"sweetened", "lean", "firm", "silken", "medium", "large", "small", "big", "of", "and", "or", "in", "on",
	"cream", "rice", "bell", "spring", "sun", "pearl",
	"with", "day", "bone", "skin", "store", "quality", "good", "best", "soup")

// partNouns are heads that name a part or a form of the food before them: "chicken thighs" are
// "the chicken" in a step, "garlic cloves" are "the garlic", "lemon juice" is "the lemon".
var partNouns = setOf("weed", "ring", "thread", "thigh", "breast", "drumstick", "leg", "wing", "fillet", "loin", "tenderloin",
	"cutlet", "chop", "shank", "shoulder", "chuck", "brisket", "belly", "rib", "clove", "stalk", "sprig",
	"leaf", "floret", "zest", "juice", "rind", "peel", "yolk", "white", "half", "wedge", "segment", "kernel",
	"spear", "tip", "bulb", "head", "heart", "cube", "seed", "pod", "piece", "slice", "strip", "stem", "ear",
	"crown", "round", "root")

// modifierHeads are heads whose modifier also names the food: "cheddar cheese" is "the cheddar",
// "tomato paste" may be "the tomato" when no tomatoes are listed, "soba noodles" are "the soba".
var modifierHeads = setOf("sauce", "paste", "powder", "extract", "concentrate", "flake",
	"granule", "essence", "puree", "cheese", "noodle", "chip", "syrup", "bean", "vinegar", "pasta", "rice",
	"squash", "lettuce", "yogurt", "glaze", "dressing", "reduction", "marinade", "sausage", "pepper",
	"mushroom", "apple", "potato", "tomato", "onion", "wine", "breadcrumb", "crumb", "bread")

// massHeads are products sold by volume or weight, named after a food: "pistachio extract".
var massHeads = setOf("paste", "powder", "extract", "sauce", "syrup", "puree", "concentrate", "flake",
	"granule", "essence", "chip", "vinegar", "glaze", "dressing", "reduction", "marinade", "juice", "zest")

// formWords are forms a food takes. After a weak key they show the step names another product:
// "curry sauce" when curry powder is listed.
var formWords = setOf("oil", "sauce", "paste", "powder", "extract", "seasoning", "syrup", "juice", "zest",
	"pod", "bean", "seed", "leaf", "vinegar", "butter", "cream", "milk", "flake", "granule", "water", "wine",
	"liqueur", "flour", "mixture", "mix", "dressing", "glaze", "marinade", "rim", "shell", "cube", "chip",
	"stock", "broth", "salt", "sugar", "spray", "jam", "jelly", "crust", "dough", "batter", "rub", "spread")

// bannedHeads never link on their own: "the sauce" or "until the juices run clear" in a step is
// rarely the soy sauce or the lemon juice of the list.
var bannedHeads = setOf("sauce", "paste", "powder", "extract", "juice", "seasoning", "mix", "mixture",
	"concentrate", "granule", "essence", "dressing", "glaze", "filling", "marinade", "base", "blend", "liquid",
	"cube", "white", "half", "piece", "slice", "strip", "round", "tip", "heart", "head", "crown", "spear",
	"puree", "masala", "rub", "spread", "batter", "dough", "wash", "and", "or", "of", "in", "with", "on", "soup", "seed", "stem")

// verbNouns are foods that are also verbs ("cream the butter", "chop the onion", "zest the lemon").
// Followed by one of verbFollowers they are read as the verb. Verbs that apply their ingredient ("oil
// the pan", "salt the water", "butter a dish", "flour the board") are deliberately not listed: the
// step does use that ingredient.
var verbNouns = setOf("cream", "chop", "zest", "juice", "core", "pit", "ice", "cube", "dice", "slice",
	"mash", "puree", "whip", "dress", "fillet", "stuff", "grate", "stone", "seed", "peel", "skin", "halve",
	"quarter", "top", "season", "mince", "brine", "glaze", "roll", "press", "crumb", "flake", "wedge",
	"segment", "strip", "shell", "butterfly", "round", "chip", "cure")

// verbFollowers, after a verbNoun, mark it as a verb.
var verbFollowers = setOf("the", "a", "an", "it", "them", "all", "each", "your", "both", "half", "some", "any",
	"this", "these", "those", "together", "until", "well", "finely", "roughly", "coarsely", "thinly", "lightly",
	"gently", "off", "out", "away", "one", "two", "three", "four")

// distributive words share the noun that follows the list ("red and green peppers", "chicken or
// vegetable stock").
var distributive = setOf("red", "green", "yellow", "orange", "white", "black", "brown", "golden", "dark",
	"light", "sweet", "hot", "mild", "chicken", "beef", "vegetable", "fish", "pork", "lamb", "fresh", "dried",
	"frozen", "whole", "skim", "unsalted", "salted", "smooth", "crunchy", "low", "full", "wild", "purple")

// synonyms are groups of phrases that name the same food. An ingredient gets keys for every
// member of its group; a step finds them all.
var synonyms = [][]string{
	{"scallion", "green onion", "spring onion", "salad onion"},
	{"cilantro", "coriander leaf", "fresh coriander", "coriander"},
	{"confectioner sugar", "powdered sugar", "icing sugar"},
	{"baking soda", "bicarbonate of soda", "bicarb of soda", "bicarb", "sodium bicarbonate", "bread soda"},
	{"cornstarch", "corn starch", "cornflour"},
	{"zucchini", "courgette"},
	{"eggplant", "aubergine", "brinjal"},
	{"bell pepper", "capsicum", "sweet pepper"},
	{"arugula", "rocket"},
	{"shrimp", "prawn"},
	{"chickpea", "garbanzo bean", "garbanzo", "chick pea"},
	{"heavy cream", "double cream", "whipping cream", "heavy whipping cream"},
	{"all purpose flour", "plain flour"},
	{"self rising flour", "self raising flour"},
	{"superfine sugar", "caster sugar", "castor sugar"},
	{"stock", "broth"},
	{"ground beef", "minced beef", "beef mince", "mince"},
	{"ground pork", "minced pork", "pork mince"},
	{"ground lamb", "minced lamb", "lamb mince"},
	{"beet", "beetroot"},
	{"rutabaga", "swede"},
	{"parmesan", "parmigiano reggiano", "parmigiano"},
	{"snow pea", "mangetout"},
	{"green bean", "string bean", "french bean"},
	{"golden raisin", "sultana"},
	{"fava bean", "broad bean"},
	{"lima bean", "butter bean"},
	{"romaine", "cos"},
	{"tomato puree", "tomato paste"},
	{"sour cream", "soured cream"},
	{"demerara sugar", "turbinado sugar", "raw sugar"},
	{"soy sauce", "soya sauce", "shoyu"},
	{"garlic chive", "chinese chive"},
	{"makrut lime leaf", "kaffir lime leaf"},
	{"tofu", "bean curd"},
	{"red pepper flake", "chili flake", "crushed red pepper", "pepper flake"},
	{"cayenne", "cayenne pepper"},
	{"jalapeno", "jalapeno pepper"},
	{"mince", "ground meat", "minced meat"},
	{"confectioner sugar", "confectioners sugar"},
}

// hypernyms are words a step uses for a kind of food ("the pasta", "the cheese", "the nuts"), each
// with a test on an ingredient's words (w, head last). A slice, so keys are added in a fixed order.
var hypernyms = []struct {
	word []string
	test func(w []string) bool
}{
	{[]string{"pasta"}, headIn(setOf("spaghetti", "spaghettini", "linguine", "linguini", "fettuccine", "fettuccini", "tagliatelle", "pappardelle", "penne", "rigatoni", "fusilli", "farfalle", "orzo", "macaroni", "ziti", "bucatini", "orecchiette", "ditalini", "conchiglie", "lasagna", "lasagne", "capellini", "campanelle", "cavatappi", "gemelli", "radiatori", "tortellini", "ravioli", "gnocchi", "paccheri", "strozzapreti", "trofie", "casarecce"))},
	{[]string{"cheese"}, headIn(cheeses)},
	{[]string{"nut"}, headIn(setOf("walnut", "pecan", "almond", "cashew", "hazelnut", "pistachio", "peanut", "macadamia", "nut"))},
	{[]string{"herb"}, anyWithHead(setOf("parsley", "basil", "cilantro", "dill", "mint", "chive", "thyme", "rosemary", "oregano", "tarragon", "sage", "chervil", "marjoram", "lovage", "herb"), setOf("leaf", "sprig", "stem"))},
	{[]string{"spice"}, endsWithAny(spices)},
	{[]string{"meat"}, anyWithHead(meats, setOf("thigh", "breast", "drumstick", "leg", "wing", "loin", "tenderloin", "cutlet", "chop", "shank", "shoulder", "chuck", "brisket", "belly", "rib", "mince"))},
	{[]string{"beef"}, headIn(setOf("steak", "chuck", "brisket", "sirloin", "ribeye", "oxtail", "flank", "skirt"))},
	{[]string{"fish"}, anyWithHead(fishes, setOf("fillet", "steak", "loin"))},
	{[]string{"berry"}, headIn(setOf("blueberry", "raspberry", "strawberry", "blackberry", "cranberry", "gooseberry", "mulberry", "boysenberry", "huckleberry", "berry"))},
}

var cheeses = setOf("parmesan", "parmigiano", "reggiano", "pecorino", "romano", "cheddar", "mozzarella", "feta",
	"gruyere", "ricotta", "gouda", "brie", "camembert", "halloumi", "manchego", "emmental", "emmentaler",
	"fontina", "provolone", "jack", "mascarpone", "gorgonzola", "roquefort", "stilton", "asiago", "comte",
	"taleggio", "paneer", "cotija", "queso", "burrata", "havarti", "swiss", "colby", "muenster", "raclette",
	"reblochon", "cheese")

var meats = setOf("beef", "pork", "lamb", "veal", "chicken", "turkey", "duck", "venison", "mutton", "bison",
	"mince", "sausage", "steak", "chuck", "brisket", "sirloin", "ribeye", "oxtail", "meat")

var fishes = setOf("salmon", "cod", "halibut", "tilapia", "haddock", "tuna", "trout", "snapper", "bass",
	"mackerel", "sardine", "swordfish", "sole", "plaice", "hake", "pollock", "catfish", "mahi", "branzino",
	"bream", "monkfish", "pollack", "barramundi", "fish")

var spices = [][]string{
	{"cumin"}, {"turmeric"}, {"paprika"}, {"cinnamon"}, {"nutmeg"}, {"cardamom"}, {"allspice"}, {"cayenne"},
	{"cayenne", "pepper"}, {"chili", "powder"}, {"chili", "flake"}, {"pepper", "flake"}, {"garam", "masala"},
	{"curry", "powder"}, {"fenugreek"}, {"sumac"}, {"five", "spice"}, {"saffron"}, {"ground", "ginger"},
	{"ground", "coriander"}, {"coriander", "seed"}, {"ground", "clove"}, {"mustard", "seed"}, {"fennel", "seed"},
	{"cumin", "seed"}, {"za", "atar"}, {"zaatar"}, {"chipotle", "powder"}, {"mace"}, {"star", "anise"},
	{"anise"}, {"spice"}, {"masala"}, {"ground", "allspice"}, {"garlic", "powder"}, {"onion", "powder"},
}

func headIn(set map[string]bool) func([]string) bool {
	return func(w []string) bool { return len(w) > 0 && set[w[len(w)-1]] }
}

// anyWithHead matches when the head is in set, or the head is one of parts and another word is in
// set ("basil leaves", "salmon fillets").
func anyWithHead(set, parts map[string]bool) func([]string) bool {
	return func(w []string) bool {
		if len(w) == 0 {
			return false
		}
		head := w[len(w)-1]
		if set[head] {
			return true
		}
		if !parts[head] {
			return false
		}
		for _, x := range w[:len(w)-1] {
			if set[x] {
				return true
			}
		}
		return false
	}
}

func endsWithAny(phrases [][]string) func([]string) bool {
	return func(w []string) bool {
		for _, ph := range phrases {
			if len(ph) <= len(w) && equalWords(w[len(w)-len(ph):], ph) {
				return true
			}
		}
		return false
	}
}

func equalWords(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// equipment words after a food name make it a tool ("stock pot", "garlic press").
var equipment = setOf("pot", "press", "cooker", "grater", "masher", "knife", "slicer", "corer", "squeezer",
	"maker", "timer", "scoop", "ricer", "peeler", "zester", "spinner", "stone", "cutter", "mallet",
	"thermometer", "tenderizer")

// toolStems are, folded, the stems of the tools a page lists among the ingredients: skewers and
// toothpicks ("bamboo skewers", "satéprikkers", "Holzspieße", "grillspyd"). Such a line is not food
// and no step uses it (the labeling rules' decision 25), though steps soak and thread them.
var toolStems = []string{"skewer", "toothpick", "prikker", "spiess", "zahnstocher", "palillo", "stuzzicadent",
	"stecchin", "palito", "espeto", "spett", "tandpetare", "spyd", "tandstik", "tannpirker", "wykalacz",
	"spejl", "paratk"}

// isTool reports whether a line's name, as normalized words, is a tool of toolStems and nothing
// else: a tool word, or a compound ending with one (at most a plural ending after it) whose first part
// says what the tool is made of or for ("Holzspieße", "grillspyd"), with only such words around it
// ("wooden skewers", "palillos de madera"). A food named with the tool is food: "chicken skewers",
// "Hähnchenspieße" are bought and cooked.
func isTool(name []string) bool {
	tool := false
	for _, w := range name {
		if toolModifiers[w] || isNumber(w) {
			continue
		}
		prefix, ok := toolWord(w)
		if !ok || prefix != "" && !toolModifiers[prefix] {
			return false
		}
		tool = true
	}
	return tool
}

// toolWord reports whether w ends with a tool stem, and returns what comes before the stem.
func toolWord(w string) (prefix string, ok bool) {
	for _, t := range toolStems {
		if i := strings.LastIndex(w, t); i >= 0 && len(w)-(i+len(t)) <= 2 {
			return w[:i], true
		}
	}
	return "", false
}

// toolModifiers are the words, and first parts of compounds, that say what a tool is made of, its
// size or what it is for, in the matcher's languages; with the function words between them.
var toolModifiers = setOf("bamboo", "wooden", "wood", "metal", "steel", "stainless", "long", "short", "small",
	"large", "thin", "cocktail", "kebab", "kabob", "bbq", "barbecue", "grill", "reusable", "disposable",
	"holz", "bambus", "bambu", "bambou", "bois", "metall", "schaschlik", "sate", "saté", "madera", "madeira",
	"legno", "houten", "hout", "tra", "trä", "trae", "træ", "tre", "drevene", "dřevěné", "drewniane",
	"of", "de", "di", "en", "in", "aus", "van", "z", "ze", "av", "af", "for", "til", "para", "per", "pour", "a", "the")
