package repo_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"larder/repo"
	"larder/repo/repotest"
)

func texts(sections []repo.Section) string {
	var parts []string
	for _, s := range sections {
		var items []string
		for _, it := range s.Items {
			items = append(items, it.Text)
		}
		parts = append(parts, s.Name+":"+strings.Join(items, ","))
	}
	return strings.Join(parts, "|")
}

func TestUpdateRecipeKeepsItemIDs(t *testing.T) {
	t.Parallel()
	db := repotest.DB(t)
	ctx := context.Background()
	u := repotest.CreateUser(t, db, repo.RoleUser)
	admin := repo.Viewer{Admin: true}
	id, err := repo.CreateRecipe(ctx, db, u.ID, repo.RecipeInput{Title: "Bread", Visibility: repo.VisibilityPrivate,
		IngredientSections: []repo.Section{
			{Name: "Dough", Items: []repo.Item{{Text: "flour"}, {Text: "water"}, {Text: "salt"}}},
			{Name: "Topping", Items: []repo.Item{{Text: "seeds"}}},
		}})
	if err != nil {
		t.Fatal(err)
	}
	rec, err := repo.GetRecipe(ctx, db, id, admin)
	if err != nil {
		t.Fatal(err)
	}
	dough := rec.IngredientSections[0].Items
	seeds := rec.IngredientSections[1].Items[0]
	// Reverse the dough (every position changes), move the seeds into it,
	// drop "water", rename the first section, drop the second.
	in := repo.RecipeInput{Title: "Bread", Visibility: repo.VisibilityPrivate,
		IngredientSections: []repo.Section{{Name: "All", Items: []repo.Item{
			dough[2], seeds, {Text: "yeast"}, {ID: dough[0].ID, Text: "strong flour"},
		}}}}
	if err := repo.UpdateRecipe(ctx, db, id, in); err != nil {
		t.Fatal(err)
	}
	rec, err = repo.GetRecipe(ctx, db, id, admin)
	if err != nil {
		t.Fatal(err)
	}
	if got := texts(rec.IngredientSections); got != "All:salt,seeds,yeast,strong flour" {
		t.Fatalf("after edit %s", got)
	}
	items := rec.IngredientSections[0].Items
	if items[0].ID != dough[2].ID || items[1].ID != seeds.ID || items[3].ID != dough[0].ID || items[2].ID == uuid.Nil {
		t.Fatalf("ids not kept: %+v", items)
	}
	// An id of another recipe is refused and changes nothing.
	other, err := repo.CreateRecipe(ctx, db, u.ID, repo.RecipeInput{Title: "Other", Visibility: repo.VisibilityPrivate,
		IngredientSections: []repo.Section{{Items: []repo.Item{{Text: "x"}}}}})
	if err != nil {
		t.Fatal(err)
	}
	o, _ := repo.GetRecipe(ctx, db, other, admin)
	in.IngredientSections[0].Items[0] = o.IngredientSections[0].Items[0]
	if err := repo.UpdateRecipe(ctx, db, id, in); !errors.Is(err, repo.ErrUnknownItem) {
		t.Fatalf("foreign id: %v", err)
	}
	if rec2, _ := repo.GetRecipe(ctx, db, id, admin); texts(rec2.IngredientSections) != "All:salt,seeds,yeast,strong flour" {
		t.Fatalf("refused edit changed the recipe: %s", texts(rec2.IngredientSections))
	}
	if err := repo.UpdateRecipe(ctx, db, uuid.New(), in); !errors.Is(err, repo.ErrNotFound) {
		t.Fatalf("missing recipe: %v", err)
	}
}

// Recipes written at once with the same new tags (in any case and order)
// share one tag row per name and never deadlock.
func TestConcurrentTagCreation(t *testing.T) {
	t.Parallel()
	db := repotest.DB(t)
	ctx := context.Background()
	u := repotest.CreateUser(t, db, repo.RoleUser)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for i := range 8 {
		tags := []string{"Alpha", "beta", "GAMMA"}
		if i%2 == 1 {
			tags = []string{"gamma", "BETA", "alpha"}
		}
		wg.Go(func() {
			_, err := repo.CreateRecipe(ctx, db, u.ID, repo.RecipeInput{Title: "T", Visibility: repo.VisibilityPublic, Tags: tags})
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	var n int
	if err := db.QueryRow(ctx, "SELECT count(*) FROM tag").Scan(&n); err != nil || n != 3 {
		t.Fatalf("%d tags (%v)", n, err)
	}
}

func TestSearchQuery(t *testing.T) {
	t.Parallel()
	db := repotest.DB(t)
	ctx := context.Background()
	u := repotest.CreateUser(t, db, repo.RoleUser)
	if _, err := repo.CreateRecipe(ctx, db, u.ID, repo.RecipeInput{Title: "Roast Chicken", Visibility: repo.VisibilityPublic,
		IngredientSections: []repo.Section{{Items: []repo.Item{{Text: "1 chicken"}, {Text: "2 lemons"}}}}}); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ q, any, ab string }{
		{"chicken", "('chicken')", "('chicken':AB)"},
		{"Lemons, chicken!", "('lemon') & ('chicken')", "('lemon':AB) & ('chicken':AB)"},
		{"the", "", ""},
		{"chiken", "('chiken':* | 'chicken')", "('chiken':*AB | 'chicken':AB)"},
		{"it's", "", ""}, // two stop words
		{"o'brien", "('brien':*)", "('brien':*AB)"},     // "o" is too short to guess from
		{"chicken xo", "('chicken')", "('chicken':AB)"}, // so is "xo"
		{"", "", ""},
	}
	for _, tt := range tests {
		got, err := repo.SearchQuery(ctx, db, tt.q)
		if err != nil {
			t.Fatalf("%q: %v", tt.q, err)
		}
		switch {
		case tt.any == "" && got != nil:
			t.Errorf("%q: %+v, want none", tt.q, got)
		case tt.any != "" && got == nil:
			t.Errorf("%q: none, want %s", tt.q, tt.any)
		case got != nil && (got.Any != tt.any || got.TitleOrIngredients != tt.ab):
			t.Errorf("%q: %q / %q, want %q / %q", tt.q, got.Any, got.TitleOrIngredients, tt.any, tt.ab)
		}
		if got != nil {
			// Whatever was typed, the result parses as a tsquery.
			for _, q := range []string{got.Any, got.TitleOrIngredients} {
				if _, err := db.Exec(ctx, "SELECT $1::tsquery", q); err != nil {
					t.Errorf("%q: %q does not parse: %v", tt.q, q, err)
				}
			}
		}
	}
}

// FuzzSearchQuery checks that any search text gives a tsquery PostgreSQL
// parses: quotes, backslashes and operators in what people type must never
// reach the query syntax unescaped.
func FuzzSearchQuery(f *testing.F) {
	for _, s := range []string{"chicken", `a'b\c`, "x & !y | (z", "ça ñandú 鸡肉", "a:*B", "''", `\\'`} {
		f.Add(s)
	}
	db := repotest.DB(f)
	ctx := context.Background()
	f.Fuzz(func(t *testing.T, q string) {
		got, err := repo.SearchQuery(ctx, db, q)
		if err != nil {
			if strings.Contains(err.Error(), "invalid byte sequence") {
				return // not UTF-8: PostgreSQL refuses the text itself
			}
			t.Fatalf("%q: %v", q, err)
		}
		if got == nil {
			return
		}
		for _, s := range []string{got.Any, got.TitleOrIngredients} {
			if _, err := db.Exec(ctx, "SELECT $1::tsquery", s); err != nil {
				t.Fatalf("%q → %q: %v", q, s, err)
			}
		}
	})
}

// recipe.shared_with follows recipe_share, whichever way a share goes:
// added, removed, or cascaded away with its user.
func TestSharedWithFollowsShares(t *testing.T) {
	t.Parallel()
	db := repotest.DB(t)
	ctx := context.Background()
	owner := repotest.CreateUser(t, db, repo.RoleUser)
	a := repotest.CreateUser(t, db, repo.RoleUser)
	b := repotest.CreateUser(t, db, repo.RoleUser)
	id, err := repo.CreateRecipe(ctx, db, owner.ID, repo.RecipeInput{Title: "Pie", Visibility: repo.VisibilityShared})
	if err != nil {
		t.Fatal(err)
	}
	sharedWith := func() []uuid.UUID {
		t.Helper()
		var ids []uuid.UUID
		if err := db.QueryRow(ctx, "SELECT shared_with FROM recipe WHERE id = $1", id).Scan(&ids); err != nil {
			t.Fatal(err)
		}
		return ids
	}
	for _, u := range []uuid.UUID{a.ID, b.ID, a.ID} {
		if _, _, err := repo.AddShare(ctx, db, id, u); err != nil {
			t.Fatal(err)
		}
	}
	if got := sharedWith(); len(got) != 2 || got[0] != a.ID || got[1] != b.ID {
		t.Fatalf("after sharing: %v", got)
	}
	if err := repo.RemoveShare(ctx, db, id, a.ID); err != nil {
		t.Fatal(err)
	}
	if got := sharedWith(); len(got) != 1 || got[0] != b.ID {
		t.Fatalf("after unsharing: %v", got)
	}
	if _, err := db.Exec(ctx, "DELETE FROM app_user WHERE id = $1", b.ID); err != nil {
		t.Fatal(err)
	}
	if got := sharedWith(); len(got) != 0 {
		t.Fatalf("after deleting the user: %v", got)
	}
	for _, v := range []repo.Viewer{{UserID: &a.ID}, {}} {
		if _, err := repo.GetRecipe(ctx, db, id, v); !errors.Is(err, repo.ErrNotFound) {
			t.Fatalf("%v reads it: %v", v.UserID, err)
		}
	}
}

// tag_names (and its lower-case tag_keys, which tag filters match) follow
// recipe_tag through every kind of write, including a deleted or renamed
// tag, so lists never show or match a stale tag.
func TestTagNamesFollowRecipeTags(t *testing.T) {
	t.Parallel()
	db := repotest.DB(t)
	ctx := context.Background()
	u := repotest.CreateUser(t, db, repo.RoleUser)
	id, err := repo.CreateRecipe(ctx, db, u.ID, repo.RecipeInput{Title: "Stew", Visibility: repo.VisibilityPublic,
		Tags: []string{"winter", "Slow Cooker", "easy"}})
	if err != nil {
		t.Fatal(err)
	}
	other, err := repo.CreateRecipe(ctx, db, u.ID, repo.RecipeInput{Title: "Salad", Visibility: repo.VisibilityPublic,
		Tags: []string{"easy"}})
	if err != nil {
		t.Fatal(err)
	}
	check := func(when string, recipe uuid.UUID, want string) {
		t.Helper()
		var names, keys []string
		if err := db.QueryRow(ctx, "SELECT tag_names, tag_keys FROM recipe WHERE id = $1", recipe).Scan(&names, &keys); err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(names, ","); got != want {
			t.Errorf("%s: tag_names %q, want %q", when, got, want)
		}
		if got := strings.Join(keys, ","); got != strings.ToLower(want) {
			t.Errorf("%s: tag_keys %q, want %q", when, got, strings.ToLower(want))
		}
		rec, err := repo.GetRecipe(ctx, db, recipe, repo.Viewer{})
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(rec.Tags, ","); got != want {
			t.Errorf("%s: the recipe reads tags %q, want %q", when, got, want)
		}
	}
	check("created", id, "easy,Slow Cooker,winter")
	if err := repo.UpdateRecipe(ctx, db, id, repo.RecipeInput{Title: "Stew", Visibility: repo.VisibilityPublic,
		Tags: []string{"winter", "Comfort"}}); err != nil {
		t.Fatal(err)
	}
	check("edited", id, "Comfort,winter")
	check("the other recipe, untouched", other, "easy")
	if _, err := db.Exec(ctx, "UPDATE tag SET name = 'Cold Days' WHERE lower(name) = 'winter'"); err != nil {
		t.Fatal(err)
	}
	check("tag renamed", id, "Cold Days,Comfort")
	if _, err := db.Exec(ctx, "DELETE FROM tag WHERE lower(name) = 'comfort'"); err != nil {
		t.Fatal(err)
	}
	check("tag deleted", id, "Cold Days")
	page, err := repo.ListRecipes(ctx, db, repo.Viewer{}, repo.RecipeFilter{Tag: "COLD DAYS"}, 10, nil)
	if err != nil || len(page.Items) != 1 || page.Items[0].ID != id {
		t.Fatalf("tag filter after the rename: %v %v", page.Items, err)
	}
	if _, err := db.Exec(ctx, "TRUNCATE recipe_tag"); err != nil {
		t.Fatal(err)
	}
	check("recipe_tag truncated", id, "")
	check("recipe_tag truncated", other, "")
}

// The facet counts agree with counting each single-category and
// single-tag list, for every kind of viewer.
func TestFacetsAgreeWithCounts(t *testing.T) {
	t.Parallel()
	db := repotest.DB(t)
	ctx := context.Background()
	owner := repotest.CreateUser(t, db, repo.RoleUser)
	friend := repotest.CreateUser(t, db, repo.RoleUser)
	recipes := []repo.RecipeInput{
		{Title: "A", Visibility: repo.VisibilityPublic, Categories: []string{"Dinner", "dinner", "Soup"}, Tags: []string{"Easy"}},
		{Title: "B", Visibility: repo.VisibilityPrivate, Categories: []string{"Dinner"}, Tags: []string{"easy", "Quick"}},
		{Title: "C", Visibility: repo.VisibilityShared, Categories: []string{"Soup"}, Tags: []string{"Quick"}},
		{Title: "D", Visibility: repo.VisibilityShared, Categories: []string{"Dessert"}},
		{Title: "E", Visibility: repo.VisibilityPublic, Tags: []string{"Quick"}},
	}
	for i, in := range recipes {
		id, err := repo.CreateRecipe(ctx, db, owner.ID, in)
		if err != nil {
			t.Fatal(err)
		}
		if i == 2 { // C is shared with the friend; D is SHARED with nobody
			if _, _, err := repo.AddShare(ctx, db, id, friend.ID); err != nil {
				t.Fatal(err)
			}
		}
	}
	// facets sums, for one key, the facet counts of the viewer's parts.
	facets := func(v repo.Viewer, f repo.RecipeFilter) int64 {
		n, err := v.SumParts(func(p repo.ReadPart) (int64, error) {
			fc, err := repo.CountPartFacets(ctx, db, p)
			if f.Category != "" {
				return fc.Categories[f.Category], err
			}
			return fc.Tags[f.Tag], err
		})
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	viewers := []repo.Viewer{{}, {Admin: true}, {UserID: &owner.ID}, {UserID: &friend.ID}}
	for _, v := range viewers {
		for _, key := range []string{"dinner", "soup", "dessert", "easy", "quick", "absent"} {
			for _, f := range []repo.RecipeFilter{{Category: key}, {Tag: key}} {
				want, err := repo.CountRecipes(ctx, db, v, f)
				if err != nil {
					t.Fatal(err)
				}
				if got := facets(v, f); got != want {
					t.Errorf("%+v, %+v: facets %d, count %d", v, f, got, want)
				}
			}
		}
	}
	pub, all := facets(repo.Viewer{}, repo.RecipeFilter{Category: "dinner"}), facets(repo.Viewer{Admin: true}, repo.RecipeFilter{Category: "dinner"})
	if pub != 1 || all != 2 {
		t.Errorf("a recipe listing a category twice counts once: public %d, all %d", pub, all)
	}
}

// The title tier of a search lists every match, in order, across pages,
// whichever way it finds them: from the title index when they are few, by a
// walk newest first, or from the index after a walk that found too few.
func TestSearchBeyondTheWalk(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name           string
		quinces, newer int
	}{
		// Few titles have the word: taken from the title index at once.
		{"few in titles", 30, 1500},
		// Many, and among the newest: found by the walk.
		{"walked", 400, 20},
		// Many, but older than all a walk examines: the walk gives up and
		// they are taken from the title index.
		{"beyond the walk", 350, 4200},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			db := repotest.DB(t)
			ctx := context.Background()
			u := repotest.CreateUser(t, db, repo.RoleUser)
			rows, err := db.Query(ctx, `INSERT INTO recipe (owner_id, title, visibility, created_at)
				SELECT $1, 'Quince tart ' || g, 'PUBLIC', now() - g * interval '1 second' FROM generate_series(1, $2::int) g
				RETURNING id`, u.ID, tc.quinces)
			if err != nil {
				t.Fatal(err)
			}
			ids, err := pgx.CollectRows(rows, pgx.RowTo[uuid.UUID])
			if err != nil {
				t.Fatal(err)
			}
			want := map[uuid.UUID]bool{}
			for _, id := range ids {
				want[id] = true
			}
			if _, err := db.Exec(ctx, `INSERT INTO recipe (owner_id, title, visibility, created_at)
				SELECT $1, 'Plain loaf ' || g, 'PUBLIC', now() + g * interval '1 second' FROM generate_series(1, $2::int) g`,
				u.ID, tc.newer); err != nil {
				t.Fatal(err)
			}
			q, err := repo.SearchQuery(ctx, db, "quince")
			if err != nil || q == nil {
				t.Fatalf("query: %v %v", q, err)
			}
			if q.FewInTitles != (tc.quinces <= 300) {
				t.Errorf("FewInTitles %v with %d quinces", q.FewInTitles, tc.quinces)
			}
			var got []repo.RecipeSummary
			var after *repo.RecipeCursor
			for {
				page, err := repo.ListRecipes(ctx, db, repo.Viewer{}, repo.RecipeFilter{Search: q}, 24, after)
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, page.Items...)
				if after = page.Next; after == nil {
					break
				}
			}
			if len(got) != len(want) {
				t.Fatalf("listed %d recipes, want %d", len(got), len(want))
			}
			for i, r := range got {
				if !want[r.ID] {
					t.Fatalf("%q listed", r.Title)
				}
				delete(want, r.ID)
				if i > 0 && !got[i-1].CreatedAt.After(r.CreatedAt) {
					t.Fatalf("out of order at %d", i)
				}
			}
		})
	}
}

// A recipe is shared with at most repo.MaxShares users, however many
// writers add shares at once: each share locks the recipe row in the
// trigger that counts them.
func TestSharesAreCapped(t *testing.T) {
	t.Parallel()
	db := repotest.DB(t)
	ctx := context.Background()
	owner := repotest.CreateUser(t, db, repo.RoleUser)
	id, err := repo.CreateRecipe(ctx, db, owner.ID, repo.RecipeInput{Title: "Pie", Visibility: repo.VisibilityShared})
	if err != nil {
		t.Fatal(err)
	}
	for range repo.MaxShares - 2 {
		u := repotest.CreateUser(t, db, repo.RoleUser)
		if _, _, err := repo.AddShare(ctx, db, id, u.ID); err != nil {
			t.Fatal(err)
		}
	}
	const racers = 6
	users := make([]repo.User, racers)
	for i := range users {
		users[i] = repotest.CreateUser(t, db, repo.RoleUser)
	}
	var wg sync.WaitGroup
	errs := make([]error, racers)
	for i, u := range users {
		wg.Go(func() { _, _, errs[i] = repo.AddShare(ctx, db, id, u.ID) })
	}
	wg.Wait()
	added := 0
	for _, err := range errs {
		switch {
		case err == nil:
			added++
		case !errors.Is(err, repo.ErrTooManyShares):
			t.Fatalf("share beyond the cap: %v", err)
		}
	}
	var shares, sharedWith int
	if err := db.QueryRow(ctx, `SELECT (SELECT count(*) FROM recipe_share WHERE recipe_id = $1),
		(SELECT cardinality(shared_with) FROM recipe WHERE id = $1)`, id).Scan(&shares, &sharedWith); err != nil {
		t.Fatal(err)
	}
	if added != 2 || shares != repo.MaxShares || sharedWith != repo.MaxShares {
		t.Fatalf("%d of %d racing shares added; %d shares, shared_with of %d", added, racers, shares, sharedWith)
	}
	// Sharing again with someone it is shared with is still no error, and a
	// share removed makes room for another.
	if _, created, err := repo.AddShare(ctx, db, id, users[0].ID); err != nil && !errors.Is(err, repo.ErrTooManyShares) || created {
		t.Fatalf("sharing again: created %v, %v", created, err)
	}
	var someone uuid.UUID
	if err := db.QueryRow(ctx, "SELECT user_id FROM recipe_share WHERE recipe_id = $1 LIMIT 1", id).Scan(&someone); err != nil {
		t.Fatal(err)
	}
	if err := repo.RemoveShare(ctx, db, id, someone); err != nil {
		t.Fatal(err)
	}
	last := repotest.CreateUser(t, db, repo.RoleUser)
	if _, _, err := repo.AddShare(ctx, db, id, last.ID); err != nil {
		t.Fatalf("share after a removal: %v", err)
	}
}

// recipe_content, what GetRecipe reads of a recipe's sections and items,
// follows the four tables through every kind of write: the API's, and SQL
// by hand, including a TRUNCATE. After each, it reads what the tables hold,
// and equals what a rebuild from them gives.
func TestRecipeContentFollowsItems(t *testing.T) {
	t.Parallel()
	db := repotest.DB(t)
	ctx := context.Background()
	u := repotest.CreateUser(t, db, repo.RoleUser)
	in := repo.RecipeInput{Title: "Pie", Visibility: repo.VisibilityPublic,
		IngredientSections: []repo.Section{
			{Items: []repo.Item{{Text: "flour"}, {Text: "butter"}}},
			{Name: "Filling", Items: []repo.Item{{Text: "apples"}}},
		},
		InstructionSections: []repo.Section{{Items: []repo.Item{{Text: "Rub in."}, {Text: "Bake."}}}},
	}
	id, err := repo.CreateRecipe(ctx, db, u.ID, in)
	if err != nil {
		t.Fatal(err)
	}
	other, err := repo.CreateRecipe(ctx, db, u.ID, repo.RecipeInput{Title: "Tea", Visibility: repo.VisibilityPublic,
		IngredientSections: []repo.Section{{Items: []repo.Item{{Text: "tea"}}}}})
	if err != nil {
		t.Fatal(err)
	}
	check := func(when string, recipe uuid.UUID, ingredients, instructions string) {
		t.Helper()
		rec, err := repo.GetRecipe(ctx, db, recipe, repo.Viewer{})
		if err != nil {
			t.Fatal(err)
		}
		if got := texts(rec.IngredientSections); got != ingredients {
			t.Errorf("%s: ingredients %q, want %q", when, got, ingredients)
		}
		if got := texts(rec.InstructionSections); got != instructions {
			t.Errorf("%s: instructions %q, want %q", when, got, instructions)
		}
		var stale bool
		if err := db.QueryRow(ctx, `WITH kept AS (SELECT c::text AS row FROM recipe_content c WHERE recipe_id = $1),
			rebuilt AS (SELECT refresh_recipe_content(ARRAY[$1::uuid]))
			SELECT (SELECT row FROM kept) IS DISTINCT FROM (SELECT c::text FROM rebuilt, recipe_content c WHERE recipe_id = $1)`,
			recipe).Scan(&stale); err != nil {
			t.Fatal(err)
		}
		if stale {
			t.Errorf("%s: recipe_content differs from a rebuild", when)
		}
	}
	check("created", id, ":flour,butter|Filling:apples", ":Rub in.,Bake.")

	got, err := repo.GetRecipe(ctx, db, id, repo.Viewer{})
	if err != nil {
		t.Fatal(err)
	}
	ing := got.IngredientSections
	in.IngredientSections = []repo.Section{{Name: "Pastry", Items: []repo.Item{ing[1].Items[0], {Text: "sugar"}, ing[0].Items[1]}}}
	in.InstructionSections = nil
	if err := repo.UpdateRecipe(ctx, db, id, in); err != nil {
		t.Fatal(err)
	}
	check("edited", id, "Pastry:apples,sugar,butter", "")
	check("the other recipe, untouched", other, ":tea", "")

	for _, step := range []struct{ when, sql, ingredients string }{
		{"an item's text changed by hand", "UPDATE ingredient SET text = 'brown sugar' WHERE text = 'sugar'", "Pastry:apples,brown sugar,butter"},
		{"a section renamed by hand", "UPDATE ingredient_section SET name = 'Crust' WHERE name = 'Pastry'", "Crust:apples,brown sugar,butter"},
		{"an item deleted by hand", "DELETE FROM ingredient WHERE text = 'apples'", "Crust:brown sugar,butter"},
		{"a section deleted by hand", "DELETE FROM ingredient_section WHERE name = 'Crust'", ""},
	} {
		if _, err := db.Exec(ctx, step.sql); err != nil {
			t.Fatal(err)
		}
		check(step.when, id, step.ingredients, "")
	}
	if _, err := db.Exec(ctx, "TRUNCATE ingredient CASCADE"); err != nil {
		t.Fatal(err)
	}
	check("ingredient truncated", other, ":", "")
}
