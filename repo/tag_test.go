package repo_test

import (
	"context"
	"slices"
	"testing"

	"larder/repo"
	"larder/repo/repotest"
)

// Recipes and cookbooks share the tags but not their links: changing the
// tags of one leaves the other's alone.
func TestTagLinksOfRecipesAndCookbooks(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tx := repotest.Tx(t)
	u := repotest.CreateUser(t, tx, repo.RoleUser)
	recipeID, err := repo.CreateRecipe(ctx, tx, u.ID, repo.RecipeInput{Title: "Soup", Visibility: repo.VisibilityPrivate,
		Tags: []string{"Winter", "Quick"}})
	if err != nil {
		t.Fatal(err)
	}
	cb, err := repo.CreateCookbook(ctx, tx, u.ID, repo.CookbookInput{Name: "Cold nights", Tags: []string{"QUICK", "Soups"}})
	if err != nil {
		t.Fatal(err)
	}
	recipeTags := func() []string {
		t.Helper()
		r, err := repo.GetRecipe(ctx, tx, recipeID, repo.Viewer{Admin: true})
		if err != nil {
			t.Fatal(err)
		}
		return r.Tags
	}
	// A tag keeps the spelling it was first used with.
	if !slices.Equal(cb.Tags, []string{"Quick", "Soups"}) {
		t.Fatalf("cookbook tags %v", cb.Tags)
	}

	in := repo.RecipeInput{Title: "Soup", Visibility: repo.VisibilityPrivate, Tags: []string{"soups"}}
	if err := repo.UpdateRecipe(ctx, tx, recipeID, in); err != nil {
		t.Fatal(err)
	}
	if got := recipeTags(); !slices.Equal(got, []string{"Soups"}) {
		t.Fatalf("recipe tags %v", got)
	}
	if cb, err = repo.GetCookbook(ctx, tx, cb.ID); err != nil || !slices.Equal(cb.Tags, []string{"Quick", "Soups"}) {
		t.Fatalf("cookbook tags after the recipe's changed: %v %v", cb.Tags, err)
	}

	none := []string{}
	if cb, err = repo.UpdateCookbook(ctx, tx, cb.ID, repo.CookbookUpdate{Tags: &none}); err != nil || len(cb.Tags) != 0 {
		t.Fatalf("cookbook tags %v %v", cb.Tags, err)
	}
	if got := recipeTags(); !slices.Equal(got, []string{"Soups"}) {
		t.Fatalf("recipe tags after the cookbook's changed: %v", got)
	}
}
