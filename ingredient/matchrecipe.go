package ingredient

// Line is an ingredient line or a step with the name of the section it is listed under ("" when the
// recipe does not group them).
type Line struct {
	Text    string
	Section string
}

// Recipe is what the matcher reads: the ingredient lines and the steps in recipe order (sections in
// order, then lines), the order link indexes refer to.
type Recipe struct {
	Ingredients []Line
	Steps       []Line
}

// MatchRecipe links ingredient lines to the steps that use them, as Match does, reading the recipe's
// sections too: same-name lines go to the steps of their own part of the recipe, and "the marinade
// ingredients" names the lines of the marinade section. A heading pasted into an unsectioned
// ingredient list ("For the sauce:") starts a section of its own.
func MatchRecipe(r Recipe) [][2]int {
	parsed := make([]Parsed, len(r.Ingredients))
	sections := make([]string, len(r.Ingredients))
	heading := ""
	for i, l := range r.Ingredients {
		parsed[i] = Parse(l.Text)
		if parsed[i].Name == "" && parsed[i].Notes != "" {
			heading = parsed[i].Notes
		}
		sections[i] = l.Section
		if l.Section == "" {
			sections[i] = heading
		}
	}
	return matchLines(parsed, sections, r.Steps)
}
