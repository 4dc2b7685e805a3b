package ingredient

// YieldWord returns the word of a recipe's servings unit ("cookies", "small loaves", "9-inch pie")
// that agrees with its number of servings, with its form for one and for more than one and its span
// in UTF-16 code units of unit, so that "Makes 1 loaf" scaled reads "Makes 2 loaves" by the same
// table as the words of ingredient lines. Nil when no word of unit has two English forms: a unit in
// another language ("Stück", "Gläser") is shown as written. A word other languages spell the same
// (the table's "also") keeps its form, as a unit alone does not tell its language.
func YieldWord(unit string) *WordForms {
	s, e, ok := CountedWord(unit, 0, len(unit))
	if !ok {
		return nil
	}
	return agreeingWord(unit, s, e, utf16Offsets(unit), false)
}
