package repo_test

import (
	"context"
	"fmt"
	"testing"

	"larder/repo"
	"larder/repo/repotest"
)

// The category menu lists what each viewer may read, with counts of those
// recipes only, one entry per name whatever its case, and pages by name.
func TestListCategoriesPerViewer(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tx := repotest.Tx(t)
	owner := repotest.CreateUser(t, tx, repo.RoleUser)
	friend := repotest.CreateUser(t, tx, repo.RoleUser)
	stranger := repotest.CreateUser(t, tx, repo.RoleUser)
	add := func(vis string, cats ...string) {
		t.Helper()
		id, err := repo.CreateRecipe(ctx, tx, owner.ID, repo.RecipeInput{Title: "r", Visibility: vis, Categories: cats})
		if err != nil {
			t.Fatal(err)
		}
		if vis == repo.VisibilityShared {
			if _, _, err := repo.AddShare(ctx, tx, id, friend.ID); err != nil {
				t.Fatal(err)
			}
		}
	}
	add(repo.VisibilityPublic, "Soup", "Dinner")
	add(repo.VisibilityPublic, "dinner")
	add(repo.VisibilityShared, "Dessert", "Dinner")
	add(repo.VisibilityPrivate, "Secret")

	list := func(v repo.Viewer, prefix string, limit int, after string) ([]repo.TagCount, *string, int64) {
		t.Helper()
		items, next, total, err := repo.ListCategories(ctx, tx, v, prefix, limit, after)
		if err != nil {
			t.Fatal(err)
		}
		return items, next, total
	}
	str := func(items []repo.TagCount) string {
		s := ""
		for _, c := range items {
			s += fmt.Sprintf("%s:%d ", c.Name, c.Count)
		}
		return s
	}
	for _, tc := range []struct {
		name string
		v    repo.Viewer
		want string
	}{
		{"signed out", repo.Viewer{}, "Dinner:2 Soup:1 "},
		{"stranger", repo.Viewer{UserID: &stranger.ID}, "Dinner:2 Soup:1 "},
		{"friend", repo.Viewer{UserID: &friend.ID}, "Dessert:1 Dinner:3 Soup:1 "},
		{"owner", repo.Viewer{UserID: &owner.ID}, "Dessert:1 Dinner:3 Secret:1 Soup:1 "},
		{"admin", repo.Viewer{Admin: true}, "Dessert:1 Dinner:3 Secret:1 Soup:1 "},
	} {
		items, next, total := list(tc.v, "", 100, "")
		if got := str(items); got != tc.want || next != nil || total != int64(len(items)) {
			t.Errorf("%s: %q next %v total %d, want %q", tc.name, got, next, total, tc.want)
		}
	}

	// Pages by lower-cased name, and a prefix keeps matching names.
	me := repo.Viewer{UserID: &owner.ID}
	first, next, total := list(me, "", 2, "")
	if str(first) != "Dessert:1 Dinner:3 " || next == nil || *next != "dinner" || total != 4 {
		t.Fatalf("first page %q next %v total %d", str(first), next, total)
	}
	rest, next, _ := list(me, "", 2, *next)
	if str(rest) != "Secret:1 Soup:1 " || next != nil {
		t.Fatalf("second page %q next %v", str(rest), next)
	}
	if got, _, total := list(me, "d", 100, ""); str(got) != "Dessert:1 Dinner:3 " || total != 2 {
		t.Fatalf("prefix d: %q total %d", str(got), total)
	}
	if got, _, _ := list(me, "%", 100, ""); len(got) != 0 {
		t.Fatalf("prefix %% is literal, got %q", str(got))
	}
}
