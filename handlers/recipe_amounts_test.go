package handlers

import (
	"encoding/json"
	"testing"

	"larder/repo"
)

// TestRecipeIngredientAmounts: each ingredient carries the amounts the
// client scales, as spans in UTF-16 code units of its unchanged text, with
// the forms of the word that agrees with each; a package size and a line
// without digits carry none of their own.
func TestRecipeIngredientAmounts(t *testing.T) {
	t.Parallel()
	b := setup(t)
	_, tok := b.user(t, repo.RoleUser)
	lines := []string{"1 cup (240 ml) milk", "1 (28 ounce) can tomatoes", "½–1 tsp salt", "salt to taste"}
	got := servedIngredients(t, b, tok, lines)
	want := []string{
		`[{"start":0,"end":1,"value":1,"style":"integer","unit":{"start":2,"end":5,"key":"cup"},"word":{"start":2,"end":5,"one":"cup","other":"cups"}},` +
			`{"start":7,"end":10,"value":240,"style":"integer","unit":{"start":11,"end":13,"key":"ml"}}]`,
		// The package size is not an amount; the count counts cans.
		`[{"start":0,"end":1,"value":1,"style":"integer","unit":{"start":13,"end":16,"key":"can"},"word":{"start":13,"end":16,"one":"can","other":"cans"}}]`,
		`[{"start":0,"end":3,"value":0.5,"style":"unicode","valueEnd":1,"max":1,"maxStart":2,"maxStyle":"integer",` +
			`"unit":{"start":4,"end":7,"key":"tsp"}}]`,
		`[]`,
	}
	if len(got) != len(want) {
		t.Fatalf("ingredients %+v", got)
	}
	for i, w := range want {
		if got[i].Text != lines[i] || string(got[i].Amounts) != w {
			t.Errorf("%q: amounts %s\nwant %s", got[i].Text, got[i].Amounts, w)
		}
	}
}

// TestRecipeLinesFollowTheRecipesLanguage: a line whose own words do not show
// its language ("1 avocado") is read in its recipe's language, so in a Dutch
// recipe its word gets no English forms (which would read "2 avocados"),
// while the same line in an English recipe does.
func TestRecipeLinesFollowTheRecipesLanguage(t *testing.T) {
	t.Parallel()
	b := setup(t)
	_, tok := b.user(t, repo.RoleUser)
	nouns := func(lines []string) map[string]bool {
		out := map[string]bool{}
		for _, it := range servedIngredients(t, b, tok, lines) {
			var amounts []struct {
				Word *struct{} `json:"word"`
			}
			if err := json.Unmarshal(it.Amounts, &amounts); err != nil {
				t.Fatalf("%q: amounts %s: %v", it.Text, it.Amounts, err)
			}
			out[it.Text] = len(amounts) > 0 && amounts[0].Word != nil
		}
		return out
	}
	dutch := nouns([]string{"2 eetlepels olijfolie", "1 ui, gesnipperd", "1 teentje knoflook", "1 avocado"})
	if dutch["1 avocado"] {
		t.Errorf("Dutch recipe: \"1 avocado\" has English word forms")
	}
	english := nouns([]string{"2 tablespoons olive oil", "1 onion, chopped", "1 clove garlic", "1 avocado"})
	if !english["1 avocado"] {
		t.Errorf("English recipe: \"1 avocado\" has no English word forms")
	}
}

// servedIngredient is one ingredient line as GET /api/recipes/{id} answers it.
type servedIngredient struct {
	Text    string          `json:"text"`
	Amounts json.RawMessage `json:"amounts"`
}

// servedIngredients creates a recipe of lines (one section) and returns its
// ingredients as GET /api/recipes/{id} answers them.
func servedIngredients(t *testing.T, b *testBundle, tok string, lines []string) []servedIngredient {
	t.Helper()
	rec := rcCreate(t, b, tok, mpBody(lines, mpSteps))
	r := b.do(t, "GET", "/api/recipes/"+rec.ID.String(), nil, tok)
	wantStatus(t, r, 200)
	var raw struct {
		IngredientSections []struct {
			Ingredients []servedIngredient `json:"ingredients"`
		} `json:"ingredientSections"`
	}
	r.JSON(t, &raw)
	return raw.IngredientSections[0].Ingredients
}
