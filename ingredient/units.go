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
)

// canonicalUnits lists every value Parse can put in Parsed.Unit (besides "").
var canonicalUnits = []string{
	unitCup, unitTbsp, unitTsp, unitG, unitKg, unitMg, unitMl, unitCl, unitDl, unitL, unitOz, unitFlOz,
	unitLb, unitQuart, unitPint, unitGallon, unitPinch, unitDash, unitDrop, unitSplash, unitHandful,
	unitClove, unitCan, unitJar, unitBottle, unitPackage, unitPacket, unitBox, unitBag, unitCarton,
	unitStick, unitBunch, unitHead, unitSprig, unitStalk, unitSlice, unitPiece, unitSheet, unitKnob, unitEar,
}

// caseUnits are the one- and two-letter abbreviations whose meaning depends on case: "T" is a
// tablespoon and "t" a teaspoon in older American cookbooks.
var caseUnits = map[string]string{
	"T": unitTbsp, "Tb": unitTbsp, "TB": unitTbsp, "t": unitTsp,
	"c": unitCup, "C": unitCup, "g": unitG, "G": unitG, "l": unitL, "L": unitL,
}

// unitWords maps lowercased unit spellings (without a trailing period) to canonical units.
var unitWords = map[string]string{
	"cup": unitCup, "cups": unitCup, "cp": unitCup,
	"tbsp": unitTbsp, "tbsps": unitTbsp, "tbs": unitTbsp, "tbl": unitTbsp, "tbls": unitTbsp, "tblsp": unitTbsp,
	"tablespoon": unitTbsp, "tablespoons": unitTbsp,
	"tsp": unitTsp, "tsps": unitTsp, "teaspoon": unitTsp, "teaspoons": unitTsp,
	"gram": unitG, "grams": unitG, "gramme": unitG, "grammes": unitG, "gr": unitG, "grs": unitG,
	"kg": unitKg, "kgs": unitKg, "kilogram": unitKg, "kilograms": unitKg, "kilo": unitKg, "kilos": unitKg,
	"mg": unitMg, "milligram": unitMg, "milligrams": unitMg,
	"ml": unitMl, "mls": unitMl, "milliliter": unitMl, "milliliters": unitMl, "millilitre": unitMl, "millilitres": unitMl,
	"cl": unitCl, "centiliter": unitCl, "centiliters": unitCl, "centilitre": unitCl, "centilitres": unitCl,
	"dl": unitDl, "deciliter": unitDl, "deciliters": unitDl, "decilitre": unitDl, "decilitres": unitDl,
	"liter": unitL, "liters": unitL, "litre": unitL, "litres": unitL, "lt": unitL, "ltr": unitL, "ltrs": unitL,
	"oz": unitOz, "ozs": unitOz, "ounce": unitOz, "ounces": unitOz, "floz": unitFlOz,
	"lb": unitLb, "lbs": unitLb, "pound": unitLb, "pounds": unitLb,
	"quart": unitQuart, "quarts": unitQuart, "qt": unitQuart, "qts": unitQuart,
	"pint": unitPint, "pints": unitPint, "pt": unitPint, "pts": unitPint,
	"gallon": unitGallon, "gallons": unitGallon, "gal": unitGallon, "gals": unitGallon,
	"pinch": unitPinch, "pinches": unitPinch,
	"dash": unitDash, "dashes": unitDash,
	"drop": unitDrop, "drops": unitDrop,
	"splash": unitSplash, "splashes": unitSplash,
	"handful": unitHandful, "handfuls": unitHandful,
	"clove": unitClove, "cloves": unitClove,
	"can": unitCan, "cans": unitCan, "tin": unitCan, "tins": unitCan,
	"jar": unitJar, "jars": unitJar,
	"bottle": unitBottle, "bottles": unitBottle,
	"package": unitPackage, "packages": unitPackage, "pkg": unitPackage, "pkgs": unitPackage,
	"pack": unitPackage, "packs": unitPackage,
	"packet": unitPacket, "packets": unitPacket, "envelope": unitPacket, "envelopes": unitPacket,
	"sachet": unitPacket, "sachets": unitPacket,
	"box": unitBox, "boxes": unitBox,
	"bag": unitBag, "bags": unitBag,
	"carton": unitCarton, "cartons": unitCarton, "container": unitCarton, "containers": unitCarton,
	"tub": unitCarton, "tubs": unitCarton,
	"stick": unitStick, "sticks": unitStick,
	"bunch": unitBunch, "bunches": unitBunch,
	"head": unitHead, "heads": unitHead,
	"sprig": unitSprig, "sprigs": unitSprig,
	"stalk": unitStalk, "stalks": unitStalk,
	"slice": unitSlice, "slices": unitSlice,
	"piece": unitPiece, "pieces": unitPiece, "pc": unitPiece, "pcs": unitPiece,
	"sheet": unitSheet, "sheets": unitSheet,
	"knob": unitKnob, "knobs": unitKnob,
	"ear": unitEar, "ears": unitEar,
	// Japanese and Chinese recipes: "牛乳 200cc", "150克", "大さじ1".
	"cc": unitMl, "克": unitG, "公斤": unitKg, "千克": unitKg, "毫升": unitMl, "大さじ": unitTbsp, "小さじ": unitTsp,
}

// containerUnits are the units a package size ("14 oz", "400 g") can describe.
var containerUnits = map[string]bool{
	unitCan: true, unitJar: true, unitBottle: true, unitPackage: true, unitPacket: true,
	unitBox: true, unitBag: true, unitCarton: true, unitStick: true,
}

// vagueUnits need no number before them: "pinch salt", "handful chopped parsley".
var vagueUnits = map[string]bool{
	unitPinch: true, unitDash: true, unitSplash: true, unitHandful: true, unitKnob: true, unitBunch: true,
}

// measureUnits are weights and volumes: the units that can give a package size.
var measureUnits = map[string]bool{
	unitG: true, unitKg: true, unitMg: true, unitMl: true, unitCl: true, unitDl: true, unitL: true,
	unitOz: true, unitFlOz: true, unitLb: true, unitQuart: true, unitPint: true, unitGallon: true,
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
	return unitWords[strings.ToLower(word)]
}
