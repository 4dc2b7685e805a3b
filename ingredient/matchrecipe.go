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

// MatchRecipe is Match for a recipe whose ingredient lines and steps carry their sections.
func MatchRecipe(r Recipe) [][2]int {
	ings := make([]string, len(r.Ingredients))
	for i, l := range r.Ingredients {
		ings[i] = l.Text
	}
	steps := make([]string, len(r.Steps))
	for i, l := range r.Steps {
		steps[i] = l.Text
	}
	return Match(ings, steps)
}
