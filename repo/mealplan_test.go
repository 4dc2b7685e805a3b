package repo_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/uuid"

	"larder/repo"
	"larder/repo/repotest"
)

func TestMealPlanVisibility(t *testing.T) {
	t.Parallel()
	db := repotest.Tx(t)
	ctx := context.Background()
	owner := repotest.CreateUser(t, db, repo.RoleUser)
	member := repotest.CreateUser(t, db, repo.RoleUser)
	stranger := repotest.CreateUser(t, db, repo.RoleUser)
	admin := repotest.CreateUser(t, db, repo.RoleAdmin)

	plan, err := repo.DefaultMealPlan(ctx, db, owner.ID)
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := repo.DefaultMealPlan(ctx, db, owner.ID); again.ID != plan.ID {
		t.Fatal("a second default plan was created")
	}
	if _, err := repo.AddMealPlanMember(ctx, db, plan.ID, member.ID); err != nil {
		t.Fatal(err)
	}
	if def, _ := repo.DefaultMealPlan(ctx, db, member.ID); def.ID != plan.ID {
		t.Fatal("a member's default plan is not the household's")
	}
	for _, u := range []uuid.UUID{stranger.ID, admin.ID} {
		if _, err := repo.GetMealPlan(ctx, db, plan.ID, u); !errors.Is(err, repo.ErrNotFound) {
			t.Fatalf("someone else reads the plan: %v", err)
		}
	}

	// The owner plans a recipe the member may read (SHARED with them), then
	// makes it PRIVATE: the member sees the entry, not the recipe.
	recipeID, err := repo.CreateRecipe(ctx, db, owner.ID, repo.RecipeInput{Title: "Secret stew", Visibility: repo.VisibilityShared, Servings: ptr(4)})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := repo.AddShare(ctx, db, recipeID, member.ID); err != nil {
		t.Fatal(err)
	}
	day := time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)
	if _, err := repo.CreateMealPlanEntry(ctx, db, plan.ID, owner.ID, repo.MealPlanEntryInput{Day: day, Meal: "dinner", RecipeID: &recipeID}); err != nil {
		t.Fatal(err)
	}
	if _, err := repo.CreateMealPlanEntry(ctx, db, plan.ID, member.ID, repo.MealPlanEntryInput{Day: day, Meal: "lunch", Title: "Leftovers"}); err != nil {
		t.Fatal(err)
	}
	read := func(u repo.User) []repo.MealPlanEntry {
		t.Helper()
		v := repo.Viewer{UserID: &u.ID, Admin: u.Role == repo.RoleAdmin}
		es, err := repo.ListMealPlanEntries(ctx, db, plan.ID, day, day, v)
		if err != nil {
			t.Fatal(err)
		}
		return es
	}
	es := read(member)
	if len(es) != 2 || es[0].Meal != "lunch" || es[1].Recipe == nil || es[1].Recipe.Title != "Secret stew" {
		t.Fatalf("member reads %+v", es)
	}
	if _, err := db.Exec(ctx, `UPDATE recipe SET visibility = 'PRIVATE' WHERE id = $1`, recipeID); err != nil {
		t.Fatal(err)
	}
	es = read(member)
	if es[1].Recipe != nil || !es[1].RecipeUnavailable || es[1].Title != "" {
		t.Fatalf("the entry leaks the recipe: %+v", es[1])
	}
	if es = read(owner); es[1].Recipe == nil {
		t.Fatal("the owner lost their own recipe")
	}
	if _, err := repo.DeleteRecipe(ctx, db, recipeID); err != nil {
		t.Fatal(err)
	}
	if es = read(owner); es[1].Recipe != nil || !es[1].RecipeUnavailable {
		t.Fatalf("deleted recipe: %+v", es[1])
	}
}

func ptr[T any](v T) *T { return &v }
