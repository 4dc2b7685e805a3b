package handlers

import (
	"context"
	"testing"

	"github.com/google/uuid"

	"larder/repo"
)

// Adding a week of a shared meal plan to a shopping list brings only the
// lines of recipes the caller may read: a household member's PRIVATE
// recipe on the plan adds nothing to the owner's list (its lines would be
// its content), while the member's own list gets them; a PUBLIC recipe
// reaches both.
func TestPlanToListSkipsRecipesTheCallerCannotRead(t *testing.T) {
	t.Parallel()
	b := setup(t)
	owner, ownerTok := b.user(t, repo.RoleUser)
	member, memberTok := b.user(t, repo.RoleUser)
	plan := mpDefaultPlan(t, b, owner)
	wantStatus(t, b.do(t, "POST", "/api/mealplans/"+plan.ID.String()+"/members", map[string]string{"email": member.Email}, ownerTok), 201)

	soup := mpRecipe(t, b, owner.ID, "Soup", repo.VisibilityPublic, 4, "2 leeks")
	secret := mpRecipe(t, b, member.ID, "Grandma's rice", repo.VisibilityPrivate, 4, "1 g saffron")
	for _, e := range []struct {
		author uuid.UUID
		recipe uuid.UUID
		day    string
	}{{owner.ID, soup, "2026-03-03"}, {member.ID, secret, "2026-03-04"}} {
		if _, err := repo.CreateMealPlanEntry(context.Background(), b.db, plan.ID, e.author,
			repo.MealPlanEntryInput{Day: mustDay(t, e.day), Meal: "dinner", RecipeID: &e.recipe}); err != nil {
			t.Fatal(err)
		}
	}

	listOfWeek := func(tok string) ShoppingList {
		t.Helper()
		r := b.do(t, "POST", "/api/shopping-lists", map[string]any{"name": "Week"}, tok)
		wantStatus(t, r, 201)
		var l ShoppingList
		r.JSON(t, &l)
		r = b.do(t, "POST", "/api/shopping-lists/"+l.ID.String()+"/plan",
			map[string]any{"planId": plan.ID, "from": "2026-03-02", "to": "2026-03-08"}, tok)
		wantStatus(t, r, 200)
		r.JSON(t, &l)
		return l
	}
	if l := listOfWeek(memberTok); slFind(l, "saffron") == nil || slFind(l, "leeks") == nil {
		t.Fatalf("the member reads both recipes, their list has %+v", l.Items)
	}
	if l := listOfWeek(ownerTok); slFind(l, "saffron") != nil || slFind(l, "leeks") == nil {
		t.Fatalf("the owner's list must hold the soup's leeks and nothing of the member's private recipe: %+v", l.Items)
	}
}
