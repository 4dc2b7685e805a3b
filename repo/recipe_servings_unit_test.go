package repo_test

import (
	"context"
	"testing"
	"time"

	"larder/repo"
	"larder/repo/repotest"
)

// A recipe's servings unit is written on create and edit and read back
// wherever the recipe's summary is read: the recipe, the list and a
// meal plan entry.
func TestServingsUnitRoundTrip(t *testing.T) {
	t.Parallel()
	db := repotest.DB(t)
	ctx := context.Background()
	u := repotest.CreateUser(t, db, repo.RoleUser)
	v := repo.Viewer{UserID: &u.ID}
	id, err := repo.CreateRecipe(ctx, db, u.ID, repo.RecipeInput{Title: "Shortbread", Visibility: repo.VisibilityPrivate,
		Servings: ptr(12), ServingsUnit: "cookies"})
	if err != nil {
		t.Fatal(err)
	}
	stew, err := repo.CreateRecipe(ctx, db, u.ID, repo.RecipeInput{Title: "Stew", Visibility: repo.VisibilityPrivate, Servings: ptr(4)})
	if err != nil {
		t.Fatal(err)
	}
	if rec, _ := repo.GetRecipe(ctx, db, stew, v); rec.ServingsUnit != "" {
		t.Fatalf("a recipe written without a unit serves %q", rec.ServingsUnit)
	}
	if rec, err := repo.GetRecipe(ctx, db, id, v); err != nil || rec.ServingsUnit != "cookies" || *rec.Servings != 12 {
		t.Fatalf("created: %+v %v", rec.RecipeSummary, err)
	}
	if err := repo.UpdateRecipe(ctx, db, id, repo.RecipeInput{Title: "Shortbread", Visibility: repo.VisibilityPrivate,
		Servings: ptr(2), ServingsUnit: "loaves"}); err != nil {
		t.Fatal(err)
	}
	if rec, _ := repo.GetRecipe(ctx, db, id, v); rec.ServingsUnit != "loaves" {
		t.Fatalf("edited unit reads %q", rec.ServingsUnit)
	}
	page, err := repo.ListRecipes(ctx, db, v, repo.RecipeFilter{}, 10, nil)
	if err != nil {
		t.Fatal(err)
	}
	units := map[string]string{}
	for _, s := range page.Items {
		units[s.Title] = s.ServingsUnit
	}
	if units["Shortbread"] != "loaves" || units["Stew"] != "" {
		t.Fatalf("list units %v", units)
	}
	plan, err := repo.DefaultMealPlan(ctx, db, u.ID)
	if err != nil {
		t.Fatal(err)
	}
	day := time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)
	if _, err := repo.CreateMealPlanEntry(ctx, db, plan.ID, u.ID, repo.MealPlanEntryInput{Day: day, Meal: "dinner", RecipeID: &id}); err != nil {
		t.Fatal(err)
	}
	es, err := repo.ListMealPlanEntries(ctx, db, plan.ID, day, day, v)
	if err != nil || len(es) != 1 || es[0].Recipe == nil || es[0].Recipe.ServingsUnit != "loaves" {
		t.Fatalf("plan entry %+v %v", es, err)
	}
	// The database refuses what the API refuses: untrimmed or over-long text.
	for _, bad := range []string{" cookies", "a very long name for what this recipe makes"} {
		err := repo.UpdateRecipe(ctx, db, id, repo.RecipeInput{Title: "Shortbread", Visibility: repo.VisibilityPrivate, ServingsUnit: bad})
		if err == nil {
			t.Fatalf("unit %q was written", bad)
		}
	}
}
