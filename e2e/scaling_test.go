package e2e

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"larder/repo"
)

// TestScaledServingsReadTheSame scales a recipe with an equivalent measure
// and a package size, and reads its ingredient lines on the recipe page, in
// cooking mode and as printed: the three show the same text, the
// millilitres scale with the cup, the can's size does not, and the page's
// Serves says how many servings the lines are for, on screen and in print.
func TestScaledServingsReadTheSame(t *testing.T) {
	requirements(t)
	svc := startService(t)
	ctx := context.Background()

	const email, pw = "scaler@example.com", "Correct-Horse-Battery-14"
	user := verifiedUser(t, svc, "Scaler", email, pw)
	servings := 2
	id, err := repo.CreateRecipe(ctx, svc.DB, user.ID, repo.RecipeInput{
		Title: "Tomato milk bake", Servings: &servings, Visibility: repo.VisibilityPrivate,
		IngredientSections: []repo.Section{{Items: []repo.Item{
			{Text: "1 cup (240 ml) milk"}, {Text: "1 (28 ounce) can tomatoes"}, {Text: "2 large eggs"}, {Text: "salt to taste"},
		}}},
		InstructionSections: []repo.Section{{Items: []repo.Item{{Text: "Whisk the milk and eggs."}, {Text: "Pour over the tomatoes and bake."}}}},
	})
	if err != nil {
		t.Fatal(err)
	}

	b := newBrowser(t, svc.URL)
	b.signIn(email, pw)
	path := "/recipes/" + id.String()
	b.open(path)
	b.waitTestID("ingredient-line")
	if got, want := b.texts("ingredient-line"), []string{"1 cup (240 ml) milk", "1 (28 ounce) can tomatoes", "2 large eggs", "salt to taste"}; !slices.Equal(got, want) {
		b.fail("unscaled lines %q, want the lines as written %q", got, want)
	}

	for _, tc := range []struct {
		servings int
		want     []string
	}{
		{3, []string{"1 1/2 cups (360 ml) milk", "1 1/2 (28 ounce) cans tomatoes", "3 large eggs", "salt to taste"}},
		{1, []string{"1/2 cup (120 ml) milk", "1/2 (28 ounce) can tomatoes", "1 large egg", "salt to taste"}},
	} {
		t.Run(fmt.Sprintf("%d servings", tc.servings), func(t *testing.T) {
			b.t = t
			b.open(path)
			b.waitTestID("servings-input")
			for i := 2; i != tc.servings; {
				if tc.servings > i {
					b.click("servings-increase")
					i++
				} else {
					b.click("servings-decrease")
					i--
				}
				b.wait(fmt.Sprintf("%d servings", i), fmt.Sprintf(`document.querySelector('[data-testid=servings-input]').value === '%d'`, i))
			}
			b.wait("the scaled lines", fmt.Sprintf(`JSON.stringify([...document.querySelectorAll('[data-testid=ingredient-line]')].map(e => e.innerText.trim())) === %s`, js(mustJSON(tc.want))))
			page := b.texts("ingredient-line")
			serves := fmt.Sprintf("%d (scaled from 2)", tc.servings)
			if got := b.texts("recipe-serves"); !slices.Equal(got, []string{serves}) {
				b.fail("Serves reads %q above lines scaled to %d servings, want %q", got, tc.servings, serves)
			}

			// Printed: the same lines under print media, without the app around them.
			b.emulateMedia("print")
			b.wait("the print layout", `getComputedStyle(document.querySelector('.topbar')).display === 'none'`)
			printed := b.texts("ingredient-line")
			if v := eval[string](b, `(() => { const e = document.querySelector('[data-testid=servings-input]'); return e.getClientRects().length > 0 ? e.value : 'hidden'; })()`); v != fmt.Sprint(tc.servings) {
				b.fail("printed servings %q, want %d", v, tc.servings)
			}
			// Printed without the servings control, the page still says how many the lines are for.
			if v := eval[string](b, `document.querySelector('[data-testid=recipe-serves]').innerText.trim()`); v != serves {
				b.fail("printed Serves %q, want %q", v, serves)
			}
			if eval[bool](b, `document.querySelector('[data-testid=servings-increase]').getClientRects().length > 0`) {
				b.fail("the servings buttons are printed")
			}
			b.emulateMedia("")

			// Cooking mode, opened from the page so it keeps the servings, with every ingredient shown.
			b.click("cook-mode-link")
			b.waitPath(`^/recipes/` + id.String() + `/cook$`)
			b.waitTestID("cook-mode")
			b.click("cook-show-all")
			b.wait("every ingredient in cooking mode", `document.querySelectorAll('[data-testid=cook-ingredient]').length === 4`)
			cooking := b.texts("cook-ingredient")

			if !slices.Equal(page, tc.want) || !slices.Equal(printed, page) || !slices.Equal(cooking, page) {
				b.fail("scaled to %d servings:\n  recipe page  %q\n  printed      %q\n  cooking mode %q\n  want         %q",
					tc.servings, page, printed, cooking, tc.want)
			}
		})
	}
}
