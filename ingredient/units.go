package ingredient

import "strings"

// Canonical unit names. Abbreviations common in US and UK recipes map to these; less common
// measures keep their full singular name ("quart", "pinch") so a client can print them as they are.
const (
	unitCup     = "cup"
	unitTbsp    = "tbsp"
	unitTsp     = "tsp"
	unitG       = "g"
	unitKg      = "kg"
	unitMg      = "mg"
	unitMl      = "ml"
	unitCl      = "cl"
	unitDl      = "dl"
	unitL       = "l"
	unitOz      = "oz"
	unitFlOz    = "fl oz"
	unitLb      = "lb"
	unitQuart   = "quart"
	unitPint    = "pint"
	unitGallon  = "gallon"
	unitPinch   = "pinch"
	unitDash    = "dash"
	unitDrop    = "drop"
	unitSplash  = "splash"
	unitHandful = "handful"
	unitClove   = "clove"
	unitCan     = "can"
	unitJar     = "jar"
	unitBottle  = "bottle"
	unitPackage = "package"
	unitPacket  = "packet"
	unitBox     = "box"
	unitBag     = "bag"
	unitCarton  = "carton"
	unitStick   = "stick"
	unitBunch   = "bunch"
	unitHead    = "head"
	unitSprig   = "sprig"
	unitStalk   = "stalk"
	unitSlice   = "slice"
	unitPiece   = "piece"
	unitSheet   = "sheet"
	unitKnob    = "knob"
	unitEar     = "ear"
	// Measures of other languages with no English word: a Messerspitze or knivspids (a knife's
	// tip), the Swedish and Norwegian kryddmått (1 ml), the Polish and Czech dekagram (10 g), a
	// drinking glass (bicchiere, verre, vaso) and a cube (a Würfel of yeast or stock, a Polish
	// kostka of butter or stock).
	unitKnifeTip = "knife tip"
	unitKrm      = "krm"
	unitDag      = "dag"
	unitGlass    = "glass"
	unitCube     = "cube"
)

// canonicalUnits lists every value Parse can put in Parsed.Unit (besides "").
var canonicalUnits = []string{
	unitCup, unitTbsp, unitTsp, unitG, unitKg, unitMg, unitMl, unitCl, unitDl, unitL, unitOz, unitFlOz,
	unitLb, unitQuart, unitPint, unitGallon, unitPinch, unitDash, unitDrop, unitSplash, unitHandful,
	unitClove, unitCan, unitJar, unitBottle, unitPackage, unitPacket, unitBox, unitBag, unitCarton,
	unitStick, unitBunch, unitHead, unitSprig, unitStalk, unitSlice, unitPiece, unitSheet, unitKnob, unitEar,
	unitKnifeTip, unitKrm, unitDag, unitGlass, unitCube,
}

// caseUnits are the one- and two-letter abbreviations whose meaning depends on case: "T" is a
// tablespoon and "t" a teaspoon in older American cookbooks.
var caseUnits = map[string]string{
	"T": unitTbsp, "Tb": unitTbsp, "TB": unitTbsp, "t": unitTsp,
	"c": unitCup, "C": unitCup, "g": unitG, "G": unitG, "l": unitL, "L": unitL,
}

// unitSpelling is one line of the unit table: the spellings of one unit in one language. Lang ""
// is a metric symbol or spelling every language writes ("g", "ml", "liter"); "en" is English.
// Spellings are lower case without a trailing period. A spelling ending in "+" is also a word for
// something else ("noix" is a walnut, "bouquet" in "bouquet garni"), so it is a unit only when a
// joining word follows it ("1 noix de beurre", "1 bouquet de persil").
type unitSpelling struct {
	key, lang, words string
}

// countOnly is the key of words that only say "items" ("2 Stück Lauch", "2 st ägg"): they count the
// food itself, so the line has no unit and the word is neither the food nor a note.
const countOnly = "#count"

// unitTable is the one list of unit words: Parse, the amounts reader, the language of a line and
// the step matcher's measure words (each language's spellings join its measure class in data/) all
// read it.
var unitTable = []unitSpelling{
	{unitCup, "en", "cup cups cp"},
	{unitTbsp, "en", "tbsp tbsps tbs tbl tbls tblsp tablespoon tablespoons"},
	{unitTsp, "en", "tsp tsps teaspoon teaspoons"},
	{unitG, "", "g gram grams gramme grammes gr grs gm gms 克"},
	{unitKg, "", "kg kgs kilogram kilograms kilo kilos 公斤 千克"},
	{unitMg, "", "mg milligram milligrams"},
	{unitMl, "", "ml mls milliliter milliliters millilitre millilitres cc 毫升"},
	{unitCl, "", "cl centiliter centiliters centilitre centilitres"},
	{unitDl, "", "dl deciliter deciliters decilitre decilitres"},
	{unitL, "", "l liter liters litre litres lt ltr ltrs"},
	{unitOz, "en", "oz ozs ounce ounces"},
	{unitFlOz, "en", "floz"},
	{unitLb, "en", "lb lbs pound pounds"},
	{unitQuart, "en", "quart quarts qt qts"},
	{unitPint, "en", "pint pints pt pts"},
	{unitGallon, "en", "gallon gallons gal gals"},
	{unitPinch, "en", "pinch pinches"},
	{unitDash, "en", "dash dashes"},
	{unitDrop, "en", "drop drops"},
	{unitSplash, "en", "splash splashes"},
	{unitHandful, "en", "handful handfuls"},
	{unitClove, "en", "clove cloves"},
	{unitCan, "en", "can cans tin tins"},
	// A British "pot" of cream or yogurt is a tub; French and Dutch write "pot" for a jar too.
	{unitJar, "en", "jar jars pot pots"},
	{unitBottle, "en", "bottle bottles"},
	{unitPackage, "en", "package packages pkg pkgs pack packs"},
	{unitPacket, "en", "packet packets envelope envelopes sachet sachets"},
	{unitBox, "en", "box boxes"},
	{unitBag, "en", "bag bags"},
	{unitCarton, "en", "carton cartons container containers tub tubs punnet punnets"},
	{unitStick, "en", "stick sticks"},
	{unitBunch, "en", "bunch bunches"},
	{unitHead, "en", "head heads"},
	{unitSprig, "en", "sprig sprigs"},
	{unitStalk, "en", "stalk stalks"},
	{unitSlice, "en", "slice slices"},
	{unitPiece, "en", "piece pieces pc pcs"},
	{unitSheet, "en", "sheet sheets"},
	{unitKnob, "en", "knob knobs"},
	{unitEar, "en", "ear ears"},
	// Japanese measures: "大さじ1", "小さじ1".
	{unitTbsp, "ja", "大さじ"},
	{unitTsp, "ja", "小さじ"},

	// German.
	{unitTbsp, "de", "el essl eßl esslöffel eßlöffel"},
	{unitTsp, "de", "tl teel teelöffel"},
	{unitCup, "de", "tasse tassen"},
	{unitG, "de", "gramm"},
	{unitKg, "de", "kilogramm"},
	{unitMl, "de", "milliliter"},
	{unitKnifeTip, "de", "msp messerspitze messerspitzen"},
	{unitPinch, "de", "prise prisen"},
	{unitClove, "de", "zehe zehen"},
	{unitBunch, "de", "bund bündel"},
	{unitSprig, "de", "zweig zweige zweiglein"},
	{unitStalk, "de", "stange stangen"},
	{unitSlice, "de", "scheibe scheiben"},
	{unitSplash, "de", "schuss"},
	{unitDrop, "de", "tropfen"},
	{unitHandful, "de", "handvoll"},
	{unitHead, "de", "kopf köpfe"},
	{unitCan, "de", "dose dosen büchse"},
	{unitJar, "de", "glas gläser"},
	{unitPackage, "de", "packung packungen pkg"},
	{unitPacket, "de", "päckchen pck pckg tütchen"},
	{unitBag, "de", "beutel tüte"},
	{unitCarton, "de", "becher"},
	{unitBottle, "de", "flasche flaschen"},
	{unitCube, "de", "würfel"},
	{countOnly, "de", "stück stueck stk"},
	// French.
	{unitTbsp, "fr", "càs cas"},
	{unitTsp, "fr", "càc"},
	{unitCup, "fr", "tasse tasses"},
	{unitGlass, "fr", "verre verres"},
	{unitPinch, "fr", "pincée pincées"},
	{unitClove, "fr", "gousse gousses"},
	{unitBunch, "fr", "botte bottes bouquet+ bouquets+"},
	{unitSprig, "fr", "brin brins"},
	{unitStalk, "fr", "branche+ branches+"},
	{unitSlice, "fr", "tranche tranches"},
	{unitDrop, "fr", "goutte gouttes"},
	{unitHandful, "fr", "poignée poignées"},
	{unitKnob, "fr", "noix+"},
	{unitHead, "fr", "tête+ têtes+"},
	{unitCan, "fr", "boîte boîtes conserve"},
	{unitPacket, "fr", "sachet sachets"},
	{unitJar, "fr", "pot pots bocal bocaux"},
	{unitPackage, "fr", "paquet paquets rouleau rouleaux"},
	{unitCarton, "fr", "brique briques barquette"},
	{unitBottle, "fr", "bouteille bouteilles"},
	// Spanish.
	{unitTbsp, "es", "cucharada cucharadas cda cdas"},
	{unitTsp, "es", "cucharadita cucharaditas cdta cdtas cdita cditas"},
	{unitCup, "es", "taza tazas"},
	{unitGlass, "es", "vaso vasos"},
	{unitG, "es", "gramo gramos"},
	{unitKg, "es", "kilogramo kilogramos"},
	{unitMl, "es", "mililitro mililitros"},
	{unitL, "es", "litro litros"},
	{unitPinch, "es", "pizca pizcas"},
	{unitClove, "es", "diente dientes"},
	{unitBunch, "es", "manojo manojos"},
	{unitSprig, "es", "ramita ramitas"},
	{unitSlice, "es", "rebanada rebanadas loncha lonchas rodaja rodajas"},
	{unitSplash, "es", "chorrito chorro"},
	{unitDrop, "es", "gota gotas"},
	{unitHandful, "es", "puñado puñados"},
	{unitHead, "es", "cabeza+"},
	{unitCan, "es", "lata latas"},
	{unitJar, "es", "bote botes tarro tarros frasco frascos"},
	{unitPackage, "es", "paquete paquetes"},
	{unitPacket, "es", "sobre+ sobres+"},
	{unitCarton, "es", "tarrina tarrinas brik"},
	{unitBottle, "es", "botella botellas"},
	{countOnly, "es", "unidad unidades"},
	// Italian.
	{unitTbsp, "it", "cucchiaio cucchiai"},
	{unitTsp, "it", "cucchiaino cucchiaini"},
	{unitCup, "it", "tazza tazze"},
	{unitGlass, "it", "bicchiere bicchieri"},
	{unitG, "it", "grammo grammi"},
	{unitKg, "it", "chilogrammo chilogrammi"},
	{unitMl, "it", "millilitro millilitri"},
	{unitL, "it", "litro litri"},
	{unitPinch, "it", "pizzico pizzichi"},
	{unitClove, "it", "spicchio spicchi"},
	{unitBunch, "it", "mazzetto mazzetti mazzo mazzi ciuffo ciuffi"},
	{unitSprig, "it", "rametto rametti"},
	{unitStalk, "it", "gambo gambi costa coste"},
	{unitSlice, "it", "fetta fette"},
	{unitSplash, "it", "goccio"},
	{unitDrop, "it", "goccia gocce"},
	{unitHandful, "it", "manciata manciate"},
	{unitHead, "it", "cespo cespi"},
	{unitCan, "it", "lattina lattine scatoletta"},
	{unitJar, "it", "barattolo barattoli vasetto vasetti"},
	{unitBox, "it", "scatola"},
	{unitPackage, "it", "confezione confezioni"},
	{unitPacket, "it", "bustina bustine busta"},
	{unitBottle, "it", "bottiglia bottiglie"},
	// Dutch.
	{unitTbsp, "nl", "el eetlepel eetlepels eetl"},
	{unitTsp, "nl", "tl theelepel theelepels theel"},
	{unitCup, "nl", "kopje kopjes kop"},
	{unitG, "nl", "gram"},
	{unitPinch, "nl", "snufje snuifje"},
	{unitClove, "nl", "teen tenen teentje teentjes"},
	{unitBunch, "nl", "bosje bosjes bos"},
	{unitSprig, "nl", "takje takjes"},
	{unitStalk, "nl", "stengel stengels"},
	{unitSlice, "nl", "plak plakken plakje plakjes"},
	{unitSplash, "nl", "scheutje scheut"},
	{unitDrop, "nl", "druppel druppels"},
	{unitHandful, "nl", "handje handvol"},
	{unitKnob, "nl", "klontje"},
	{unitCan, "nl", "blik blikken"},
	{unitJar, "nl", "potje potjes pot"},
	{unitPackage, "nl", "pak pakken"},
	{unitPacket, "nl", "zakje zakjes pakje pakjes"},
	{unitBag, "nl", "zak"},
	{unitCarton, "nl", "bakje bakjes"},
	{unitBottle, "nl", "fles flessen"},
	{countOnly, "nl", "stuk stuks"},
	// Portuguese; "colher" takes its size from what follows it (colher de sopa, colher (chá)).
	{unitCup, "pt", "xícara xícaras xicara xicaras chávena chávenas"},
	{unitGlass, "pt", "copo copos"},
	{unitG, "pt", "grama gramas"},
	{unitPinch, "pt", "pitada pitadas"},
	{unitClove, "pt", "dente dentes"},
	{unitBunch, "pt", "maço maços"},
	{unitSlice, "pt", "fatia fatias"},
	{unitDrop, "pt", "gota gotas"},
	{unitHandful, "pt", "punhado punhados"},
	{unitCan, "pt", "lata latas latinha latinhas"},
	{unitJar, "pt", "pote potes vidro vidros frasco frascos"},
	{unitBox, "pt", "caixa caixas caixinha caixinhas"},
	{unitPackage, "pt", "pacote pacotes embalagem embalagens"},
	{unitPacket, "pt", "saquinho saquinhos envelope"},
	{unitBottle, "pt", "garrafa garrafas"},
	// Polish.
	{unitTbsp, "pl", "łyżka łyżki łyżek"},
	{unitTsp, "pl", "łyżeczka łyżeczki łyżeczek"},
	{unitCup, "pl", "szklanka szklanki szklanek"},
	{unitDag, "pl", "dag dkg"},
	{unitL, "pl", "litr litry litrów"},
	{unitPinch, "pl", "szczypta szczypty szczypt"},
	{unitClove, "pl", "ząbek ząbki ząbków"},
	{unitBunch, "pl", "pęczek pęczki"},
	{unitSprig, "pl", "gałązka gałązki"},
	{unitSlice, "pl", "plaster plastry plasterek plasterki"},
	{unitDrop, "pl", "kropla krople kropli"},
	{unitHandful, "pl", "garść garści"},
	{unitHead, "pl", "główka główki"},
	{unitCan, "pl", "puszka puszki puszek"},
	{unitJar, "pl", "słoik słoiki słoików"},
	{unitPackage, "pl", "opakowanie opakowania paczka paczki"},
	{unitBag, "pl", "torebka torebki"},
	{unitCube, "pl", "kostka kostki kostek"},
	{countOnly, "pl", "szt sztuka sztuki"},
	// Czech.
	{unitTbsp, "cs", "lžíce lžíci lžic"},
	{unitTsp, "cs", "lžička lžičky lžiček lžičku"},
	{unitCup, "cs", "hrnek hrnky hrnku hrnků"},
	{unitDag, "cs", "dkg"},
	{unitPinch, "cs", "špetka špetky špetku"},
	{unitClove, "cs", "stroužek stroužky stroužků"},
	{unitBunch, "cs", "svazek svazky svazku"},
	{unitSprig, "cs", "snítka snítky snítek"},
	{unitSlice, "cs", "plátek plátky plátků"},
	{unitDrop, "cs", "kapka kapky kapek"},
	{unitHandful, "cs", "hrst hrsti"},
	{unitHead, "cs", "hlávka hlávky"},
	{unitCan, "cs", "plechovka plechovky plechovek konzerva konzervy"},
	{unitJar, "cs", "sklenice sklenička"},
	{unitPackage, "cs", "balení balíček balíčky"},
	{unitPacket, "cs", "sáček sáčky"},
	{unitCarton, "cs", "kelímek kelímky pohár"},
	{countOnly, "cs", "ks kus kusy"},
	// Swedish.
	{unitTbsp, "sv", "msk matsked matskedar"},
	{unitTsp, "sv", "tsk tesked teskedar"},
	{unitKrm, "sv", "krm kryddmått"},
	{unitCup, "sv", "kopp koppar"},
	{unitPinch, "sv", "nypa nypor"},
	{unitKnifeTip, "sv", "knivsudd"},
	{unitClove, "sv", "klyfta klyftor"},
	{unitBunch, "sv", "knippe"},
	{unitSprig, "sv", "kvist kvistar"},
	{unitSlice, "sv", "skiva skivor"},
	{unitCan, "sv", "burk burkar"},
	{unitPackage, "sv", "förp förpackning paket pkt"},
	{unitBag, "sv", "påse påsar"},
	{countOnly, "sv", "st"},
	// Danish.
	{unitTbsp, "da", "spsk spiseske spiseskefuld"},
	{unitTsp, "da", "tsk teske teskefuld"},
	{unitPinch, "da", "knsp"},
	{unitKnifeTip, "da", "knivspids"},
	{unitClove, "da", "fed"},
	{unitBunch, "da", "bundt bundter"},
	{unitSprig, "da", "kvist kviste"},
	{unitSlice, "da", "skive skiver"},
	{unitCan, "da", "dåse dåser"},
	{unitPackage, "da", "pakke pakker"},
	{unitBag, "da", "pose poser"},
	{countOnly, "da", "stk"},
	// Norwegian.
	{unitTbsp, "no", "ss spiseskje spiseskjeer"},
	{unitTsp, "no", "ts teskje teskjeer"},
	{unitKrm, "no", "krm"},
	{unitPinch, "no", "klype klyper"},
	{unitKnifeTip, "no", "knivsodd"},
	{unitClove, "no", "fedd"},
	{unitBunch, "no", "bunt"},
	{unitSprig, "no", "kvist kvister"},
	{unitSlice, "no", "skive skiver"},
	{unitCan, "no", "boks bokser"},
	{unitPackage, "no", "pakke pakker pk"},
	{unitBag, "no", "pose poser"},
	{countOnly, "no", "stk"},
}

// unitWords maps lowercased unit spellings (without a trailing period) to canonical units, and
// joinedUnits marks the spellings that need a joining word after them (see unitSpelling).
var unitWords, joinedUnits = func() (map[string]string, map[string]bool) {
	words, joined := map[string]string{}, map[string]bool{}
	for _, row := range unitTable {
		for _, w := range strings.Fields(row.words) {
			if strings.HasSuffix(w, "+") {
				w = strings.TrimSuffix(w, "+")
				joined[w] = true
			}
			words[w] = row.key
		}
	}
	return words, joined
}()

// addUnitMeasures puts each language's unit spellings, and the metric ones every language writes,
// into that language's measure class, so the step matcher and the line's language read the same
// unit words as Parse. It runs once the lexicons are loaded.
func addUnitMeasures() {
	for lang, lx := range lexicons {
		if lang == "en" {
			continue
		}
		for _, row := range unitTable {
			switch {
			case row.lang == lang:
				for _, w := range strings.Fields(row.words) {
					lx.add(classMeasure, strings.TrimSuffix(w, "+"), lang)
				}
			case row.lang == "":
				for _, w := range strings.Fields(row.words) {
					lx.add(classMeasure, w, lang)
				}
			}
		}
	}
	for _, row := range unitTable {
		if row.lang == "" || row.lang == "en" {
			for _, w := range strings.Fields(row.words) {
				sharedUnitWords[foldWord(strings.TrimSuffix(w, "+"))] = true
			}
		}
	}
}

// sharedUnitWords are the unit words, folded, that English lines write too ("g", "ml", "cup"): they
// tell nothing of a line's language.
var sharedUnitWords = map[string]bool{}

// containerUnits are the units a package size ("14 oz", "400 g") can describe.
var containerUnits = map[string]bool{
	unitCan: true, unitJar: true, unitBottle: true, unitPackage: true, unitPacket: true,
	unitBox: true, unitBag: true, unitCarton: true, unitStick: true, unitCube: true,
}

// vagueUnits need no number before them: "pinch salt", "handful chopped parsley".
var vagueUnits = map[string]bool{
	unitPinch: true, unitDash: true, unitSplash: true, unitHandful: true, unitKnob: true, unitBunch: true,
}

// measureUnits are weights and volumes: the units that can give a package size.
var measureUnits = map[string]bool{
	unitG: true, unitKg: true, unitMg: true, unitMl: true, unitCl: true, unitDl: true, unitL: true,
	unitOz: true, unitFlOz: true, unitLb: true, unitQuart: true, unitPint: true, unitGallon: true, unitDag: true,
}

// dimensionWords make a number a size ("2-inch piece"), not an amount.
var dimensionWords = map[string]bool{
	"inch": true, "inches": true, "in": true, "cm": true, "centimeter": true, "centimeters": true,
	"centimetre": true, "centimetres": true, "mm": true, "x": true,
}

// lookupUnit returns the canonical unit for one word, or "". Single letters count only in their
// case-sensitive form and only when allowShort is set (after a number), because "a c" or "t" on their
// own are rarely units.
func lookupUnit(word string, allowShort bool) string {
	if u, ok := caseUnits[word]; ok {
		if allowShort {
			return u
		}
		return ""
	}
	if u := unitWords[strings.ToLower(word)]; u != countOnly {
		return u
	}
	return ""
}

// isCountWord reports whether a word only says "items" ("Stück", "st", "unidades"): see countOnly.
func isCountWord(word string) bool { return unitWords[strings.ToLower(word)] == countOnly }
