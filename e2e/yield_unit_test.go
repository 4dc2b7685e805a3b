package e2e

import (
	"context"
	"fmt"
	"testing"

	"larder/repo"
)

// TestYieldUnitReadsTheSame scales a recipe that makes a loaf, not servings
// for people: the page says "Makes", its unit takes the form for the number
// shown (1 loaf, 2 loaves) on screen, in print and on the servings control
// of the page and of cooking mode; and the editor's unit field turns it
// back into a recipe that serves people.
func TestYieldUnitReadsTheSame(t *testing.T) {
	requirements(t)
	svc := startService(t)
	ctx := context.Background()

	const email, pw = "baker@example.com", "Correct-Horse-Battery-14"
	user := verifiedUser(t, svc, "Baker", email, pw)
	one := 1
	id, err := repo.CreateRecipe(ctx, svc.DB, user.ID, repo.RecipeInput{
		Title: "Plain loaf", Servings: &one, ServingsUnit: "loaf", Visibility: repo.VisibilityPrivate,
		IngredientSections:  []repo.Section{{Items: []repo.Item{{Text: "4 cups flour"}, {Text: "salt to taste"}}}},
		InstructionSections: []repo.Section{{Items: []repo.Item{{Text: "Mix, prove and bake."}}}},
	})
	if err != nil {
		t.Fatal(err)
	}

	b := newBrowser(t, svc.URL)
	b.signIn(email, pw)
	path := "/recipes/" + id.String()
	// The label of the yield (dt) and of the servings control, as written (not as styled).
	yieldLabel := func() string {
		return eval[string](b, `document.querySelector('[data-testid=recipe-serves]').previousElementSibling.textContent.trim()`)
	}
	controlLabel := func() string {
		return eval[string](b, `document.querySelector('.servings-label').textContent.trim()`)
	}

	b.open(path)
	b.waitTestID("recipe-serves")
	if l, v := yieldLabel(), b.text("recipe-serves"); l != "Makes" || v != "1 loaf" {
		b.fail("unscaled yield %q %q, want Makes 1 loaf", l, v)
	}
	if l := controlLabel(); l != "Loaf" {
		b.fail("servings control labelled %q, want Loaf", l)
	}
	b.click("servings-increase")
	b.wait("2 loaves", `document.querySelector('[data-testid=servings-input]').value === '2'`)
	const scaled = "2 loaves (scaled from 1)"
	if v := b.text("recipe-serves"); v != scaled {
		b.fail("scaled yield %q, want %q", v, scaled)
	}
	if l := controlLabel(); l != "Loaves" {
		b.fail("scaled servings control labelled %q, want Loaves", l)
	}
	b.wait("the lines for 2 loaves", `document.querySelector('[data-testid=ingredient-line]').innerText.trim() === '8 cups flour'`)

	// Printed: the yield says what the lines are for without the control.
	b.emulateMedia("print")
	b.wait("the print layout", `getComputedStyle(document.querySelector('.topbar')).display === 'none'`)
	if v := eval[string](b, `document.querySelector('[data-testid=recipe-serves]').innerText.trim()`); v != scaled {
		b.fail("printed yield %q, want %q", v, scaled)
	}
	b.emulateMedia("")

	// Cooking mode keeps the servings and labels its control the same way.
	b.click("cook-mode-link")
	b.waitPath(`^/recipes/` + id.String() + `/cook$`)
	b.waitTestID("cook-mode")
	if l := controlLabel(); l != "Loaves" {
		b.fail("cooking mode's servings control labelled %q, want Loaves", l)
	}

	// The editor shows the unit; emptied, the recipe serves people again.
	b.open(path + "/edit")
	b.waitTestID("recipe-servings-unit")
	if v := eval[string](b, `document.querySelector('[data-testid=recipe-servings-unit]').value`); v != "loaf" {
		b.fail("editor's unit %q, want loaf", v)
	}
	b.setValue("recipe-servings-unit", "")
	b.click("recipe-save")
	b.waitPath(fmt.Sprintf(`^/recipes/%s$`, id))
	b.waitTestID("recipe-serves")
	if l, v := yieldLabel(), b.text("recipe-serves"); l != "Serves" || v != "1" {
		b.fail("after emptying the unit: %q %q, want Serves 1", l, v)
	}
	if l := controlLabel(); l != "Servings" {
		b.fail("servings control labelled %q after emptying the unit, want Servings", l)
	}
}
