package shopping

import (
	"math"
	"strconv"
	"strings"
)

// Family is a kind of measure whose units convert into each other.
type Family string

// The families amounts are summed within. A unit outside volume and mass
// (a clove, a can, a pinch) is a family of its own: only the same unit adds up.
const (
	Volume Family = "volume"
	Mass   Family = "mass"
	Count  Family = "count" // no unit: "3 eggs"
)

// Unit systems a list shows its merged amounts in.
const (
	Metric    = "metric"
	US        = "us"
	AsWritten = "as_written"
)

// Systems lists the unit systems a list may use.
var Systems = []string{Metric, US, AsWritten}

// measure is a unit's family and its size in the family's base unit
// (millilitres, grams). US measures are the ones cooks round to: a cup of
// 240 ml is 16 tablespoons of 15 ml, 48 teaspoons of 5 ml and 8 fluid ounces
// of 30 ml, so spoon and cup amounts convert to each other exactly.
type measure struct {
	family Family
	base   float64
}

var measures = map[string]measure{
	"tsp": {Volume, 5}, "tbsp": {Volume, 15}, "cup": {Volume, 240}, "fl oz": {Volume, 30},
	"pint": {Volume, 480}, "quart": {Volume, 960}, "gallon": {Volume, 3840},
	"ml": {Volume, 1}, "cl": {Volume, 10}, "dl": {Volume, 100}, "l": {Volume, 1000},
	"mg": {Mass, 0.001}, "g": {Mass, 1}, "kg": {Mass, 1000}, "oz": {Mass, 28.35}, "lb": {Mass, 453.6},
	// The Swedish and Norwegian kryddmått is 1 ml; the Polish and Czech dekagram 10 g.
	"krm": {Volume, 1}, "dag": {Mass, 10},
}

// FamilyOf returns the family of a unit as the ingredient reader writes it
// ("" is a count) and how many base units one of it is. Units outside
// volume and mass are their own family, of size 1.
func FamilyOf(unit string) (Family, float64) {
	if unit == "" {
		return Count, 1
	}
	if m, ok := measures[unit]; ok {
		return m.family, m.base
	}
	return Family("unit:" + unit), 1
}

// metricUnits and usUnits are the units a total is shown in, largest
// first, with the smallest total each is used from.
var (
	metricVolume = []step{{"l", 1000}, {"ml", 0}}
	metricMass   = []step{{"kg", 1000}, {"g", 0}}
	usVolume     = []step{{"cup", 60}, {"tbsp", 15}, {"tsp", 0}} // a quarter cup and more in cups
	usMass       = []step{{"lb", 453.6}, {"oz", 0}}
	spoons       = []step{{"tbsp", 15}, {"tsp", 0}}
)

type step struct {
	unit string
	from float64 // in base units
}

// display picks the unit a cook would read a total of base units in,
// following the system. written are the units the amounts were written in,
// the largest share first: as_written keeps the main one, and small
// amounts written only in spoons stay in spoons in every system (nobody
// measures 25 ml of cumin).
func display(family Family, base float64, system string, written []string) (float64, string) {
	if family == Count {
		return base, ""
	}
	if family != Volume && family != Mass {
		return base, strings.TrimPrefix(string(family), "unit:")
	}
	if family == Volume && base < 60 && allSpoons(written) {
		return inSteps(base, spoons)
	}
	switch system {
	case Metric:
		if family == Volume {
			return inSteps(base, metricVolume)
		}
		return inSteps(base, metricMass)
	case US:
		if family == Volume {
			return inSteps(base, usVolume)
		}
		return inSteps(base, usMass)
	}
	unit := written[0]
	return base / measures[unit].base, unit
}

func allSpoons(units []string) bool {
	for _, u := range units {
		if u != "tsp" && u != "tbsp" {
			return false
		}
	}
	return len(units) > 0
}

func inSteps(base float64, steps []step) (float64, string) {
	for _, s := range steps {
		if base >= s.from {
			return base / measures[s.unit].base, s.unit
		}
	}
	last := steps[len(steps)-1]
	return base / measures[last.unit].base, last.unit
}

// Round gives an amount the precision a shopping list needs: two
// significant digits below 10 (1.8 cups, 0.33 cup), whole numbers below
// 100, tens above (440 ml). Counts of whole things are not rounded down to
// nothing: a total is never shown as 0.
func Round(v float64) float64 {
	if v <= 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return v
	}
	var r float64
	switch {
	case v < 10:
		mag := math.Pow(10, math.Floor(math.Log10(v))-1)
		r = math.Round(v/mag) * mag
		// Clear the binary noise of the division (0.30000000000000004).
		r, _ = strconv.ParseFloat(strconv.FormatFloat(r, 'g', 2, 64), 64)
	case v < 100:
		r = math.Round(v)
	default:
		r = math.Round(v/10) * 10
	}
	return r
}
