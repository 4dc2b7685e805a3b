package repo_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"larder/repo"
	"larder/repo/repotest"
)

// TestFindDuplicateRecipe: by source address when the imported recipe has
// one, else by title and ingredient lines (in order, any case); never
// another owner's recipe.
func TestFindDuplicateRecipe(t *testing.T) {
	t.Parallel()
	tx := repotest.Tx(t)
	ctx := context.Background()
	me := repotest.CreateUser(t, tx, repo.RoleUser)
	other := repotest.CreateUser(t, tx, repo.RoleUser)
	src := "https://example.com/soup"
	create := func(owner uuid.UUID, title string, source *string, lines ...string) uuid.UUID {
		t.Helper()
		var items []repo.Item
		for _, l := range lines {
			items = append(items, repo.Item{Text: l})
		}
		id, err := repo.CreateRecipe(ctx, tx, owner, repo.RecipeInput{Title: title, SourceURL: source, Visibility: repo.VisibilityPrivate,
			IngredientSections: []repo.Section{{Name: "A", Items: items[:1]}, {Name: "B", Items: items[1:]}}})
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	soup := create(me.ID, "Soup", &src, "1 onion", "1 l stock")
	bread := create(me.ID, "Bread", nil, "500 g flour", "Water")
	create(other.ID, "Cake", nil, "3 eggs", "flour")

	tests := []struct {
		name   string
		source *string
		title  string
		lines  []string
		want   uuid.UUID
	}{
		{"same source", &src, "Another title", nil, soup},
		{"other source", sourcePtr("https://example.com/other"), "Soup", []string{"1 onion", "1 l stock"}, uuid.Nil},
		{"same title and lines, any case", nil, "BREAD", []string{"500 G flour", "water"}, bread},
		{"same title, other lines", nil, "Bread", []string{"500 g flour"}, uuid.Nil},
		{"same title, lines in another order", nil, "Bread", []string{"Water", "500 g flour"}, uuid.Nil},
		{"another owner's recipe", nil, "Cake", []string{"3 eggs", "flour"}, uuid.Nil},
	}
	for _, tt := range tests {
		got, found, err := repo.FindDuplicateRecipe(ctx, tx, me.ID, tt.source, tt.title, tt.lines)
		if err != nil {
			t.Fatal(err)
		}
		if found != (tt.want != uuid.Nil) || got != tt.want {
			t.Errorf("%s: %v %v, want %v", tt.name, got, found, tt.want)
		}
	}
	// The import lock is taken and released with the transaction.
	if err := pgx.BeginFunc(ctx, tx, func(inner pgx.Tx) error { return repo.LockRecipeImport(ctx, inner, me.ID, src) }); err != nil {
		t.Fatal(err)
	}
}

func sourcePtr(s string) *string { return &s }

// TestJobProgressDetail: what SetJobProgressDetail writes, GetJob reads.
func TestJobProgressDetail(t *testing.T) {
	t.Parallel()
	tx := repotest.Tx(t)
	ctx := context.Background()
	u := repotest.CreateUser(t, tx, repo.RoleUser)
	id, err := repo.CreateJob(ctx, tx, 987654321, &u.ID, "recipe_archive_import")
	if err != nil {
		t.Fatal(err)
	}
	j, err := repo.GetJob(ctx, tx, id)
	if err != nil || j.ProgressDetail != nil {
		t.Fatalf("new job detail %v (%v)", j.ProgressDetail, err)
	}
	if err := repo.SetJobProgressDetail(ctx, tx, 987654321, 0.25, map[string]any{"format": "paprika", "done": 1, "total": 4}); err != nil {
		t.Fatal(err)
	}
	j, err = repo.GetJob(ctx, tx, id)
	if err != nil || j.Progress == nil || *j.Progress != 0.25 || j.ProgressDetail == nil {
		t.Fatalf("job %+v (%v)", j, err)
	}
	var d struct {
		Format      string
		Done, Total int
	}
	if err := json.Unmarshal(*j.ProgressDetail, &d); err != nil || d.Format != "paprika" || d.Done != 1 || d.Total != 4 {
		t.Fatalf("detail %s (%v)", *j.ProgressDetail, err)
	}
}
