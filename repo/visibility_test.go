package repo_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/google/uuid"

	"larder/repo"
	"larder/repo/repotest"
)

// Every way of reading recipes agrees with the rule of issue 4 (PUBLIC to
// anyone, SHARED to the owner and its share recipients, PRIVATE to the
// owner, all to an admin) for every kind of viewer: one recipe, the list,
// its total, the facet counts, tags and categories. The total is the sum of
// the viewer's parts, so it also shows that the parts never overlap: a
// PUBLIC recipe with share records, and a recipe shared with its own owner,
// would otherwise be counted twice.
func TestEveryReadFollowsTheVisibilityRule(t *testing.T) {
	t.Parallel()
	db := repotest.DB(t)
	ctx := context.Background()
	owner := repotest.CreateUser(t, db, repo.RoleUser)
	friend := repotest.CreateUser(t, db, repo.RoleUser)
	stranger := repotest.CreateUser(t, db, repo.RoleUser)

	type recipe struct {
		title, visibility string
		by                repo.User
		sharedWith        []repo.User
		// then, when set, is the visibility the recipe is changed to after
		// its shares were made.
		then string
	}
	recipes := []recipe{
		{title: "public", visibility: repo.VisibilityPublic, by: owner},
		{title: "public with shares", visibility: repo.VisibilityPublic, by: owner, sharedWith: []repo.User{friend}},
		{title: "shared with friend", visibility: repo.VisibilityShared, by: owner, sharedWith: []repo.User{friend}},
		{title: "shared with nobody", visibility: repo.VisibilityShared, by: owner},
		{title: "shared with its owner", visibility: repo.VisibilityShared, by: owner, sharedWith: []repo.User{owner}},
		{title: "private", visibility: repo.VisibilityPrivate, by: owner},
		{title: "shared then private", visibility: repo.VisibilityShared, by: owner, sharedWith: []repo.User{friend}, then: repo.VisibilityPrivate},
		{title: "private then shared", visibility: repo.VisibilityPrivate, by: owner, sharedWith: []repo.User{friend}, then: repo.VisibilityShared},
		{title: "friend's public", visibility: repo.VisibilityPublic, by: friend},
	}
	ids := map[uuid.UUID]string{}
	for _, r := range recipes {
		in := repo.RecipeInput{Title: r.title, Visibility: r.visibility, Categories: []string{"Dinner"}, Tags: []string{strings.ReplaceAll(r.title, " ", "-")}}
		id, err := repo.CreateRecipe(ctx, db, r.by.ID, in)
		if err != nil {
			t.Fatal(err)
		}
		ids[id] = r.title
		for _, u := range r.sharedWith {
			if _, _, err := repo.AddShare(ctx, db, id, u.ID); err != nil {
				t.Fatal(err)
			}
		}
		if r.then != "" {
			in.Visibility = r.then
			if err := repo.UpdateRecipe(ctx, db, id, in); err != nil {
				t.Fatal(err)
			}
		}
	}

	everyone := []string{"public", "public with shares", "friend's public"}
	cases := []struct {
		name string
		v    repo.Viewer
		want []string
	}{
		{"anonymous", repo.Viewer{}, everyone},
		{"stranger", repo.Viewer{UserID: &stranger.ID}, everyone},
		{"friend", repo.Viewer{UserID: &friend.ID}, append([]string{"shared with friend", "private then shared"}, everyone...)},
		{"owner", repo.Viewer{UserID: &owner.ID}, append([]string{"shared with nobody", "shared with its owner", "private",
			"shared with friend", "shared then private", "private then shared"}, everyone...)},
		{"admin", repo.Viewer{UserID: &stranger.ID, Admin: true}, append([]string{"shared with nobody", "shared with its owner", "private",
			"shared with friend", "shared then private", "private then shared"}, everyone...)},
	}
	for _, c := range cases {
		slices.Sort(c.want)
		var got []string
		for id, title := range ids {
			_, err := repo.GetRecipe(ctx, db, id, c.v)
			if err == nil {
				got = append(got, title)
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: GetRecipe reads %q, want %q", c.name, got, c.want)
		}

		page, err := repo.ListRecipes(ctx, db, c.v, repo.RecipeFilter{}, 100, nil)
		if err != nil {
			t.Fatal(err)
		}
		var listed []string
		for _, it := range page.Items {
			listed = append(listed, it.Title)
		}
		slices.Sort(listed)
		if !slices.Equal(listed, c.want) {
			t.Errorf("%s: ListRecipes lists %q, want %q", c.name, listed, c.want)
		}

		want := int64(len(c.want))
		for _, f := range []repo.RecipeFilter{{}, {Category: "dinner"}} {
			if n, err := repo.CountRecipes(ctx, db, c.v, f); err != nil || n != want {
				t.Errorf("%s: CountRecipes(%+v) = %d, %v; want %d", c.name, f, n, err, want)
			}
		}
		facets, err := c.v.SumParts(func(p repo.ReadPart) (int64, error) {
			fc, err := repo.CountPartFacets(ctx, db, p)
			return fc.Categories["dinner"], err
		})
		if err != nil || facets != want {
			t.Errorf("%s: facet count of dinner = %d, %v; want %d", c.name, facets, err, want)
		}

		_, _, tags, err := repo.ListTags(ctx, db, c.v, "", 100, "")
		if err != nil || tags != want {
			t.Errorf("%s: ListTags total = %d, %v; want %d", c.name, tags, err, want)
		}
		cats, _, _, err := repo.ListCategories(ctx, db, c.v, "", 100, "")
		if err != nil || len(cats) != 1 || cats[0].Count != want {
			t.Errorf("%s: ListCategories = %+v, %v; want dinner × %d", c.name, cats, err, want)
		}
	}
}
