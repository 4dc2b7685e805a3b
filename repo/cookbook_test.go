package repo_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/google/uuid"

	"larder/repo"
	"larder/repo/repotest"
)

// cookbookFixture creates recipes and cookbooks for one test.
type cookbookFixture struct {
	t   *testing.T
	db  repo.DBTX
	ctx context.Context
}

func newCookbookFixture(t *testing.T, db repo.DBTX) *cookbookFixture {
	return &cookbookFixture{t: t, db: db, ctx: context.Background()}
}

func (f *cookbookFixture) recipe(owner uuid.UUID, title, visibility string, categories, tags []string) uuid.UUID {
	f.t.Helper()
	id, err := repo.CreateRecipe(f.ctx, f.db, owner, repo.RecipeInput{
		Title: title, Visibility: visibility, Categories: categories, Tags: tags,
		IngredientSections:  []repo.Section{{Items: []repo.Item{{Text: "1 egg"}}}},
		InstructionSections: []repo.Section{{Items: []repo.Item{{Text: "Cook it."}}}},
	})
	if err != nil {
		f.t.Fatal(err)
	}
	return id
}

func (f *cookbookFixture) cookbook(owner uuid.UUID, name string, tags, autoCats, autoTags []string) uuid.UUID {
	f.t.Helper()
	cb, err := repo.CreateCookbook(f.ctx, f.db, owner, repo.CookbookInput{
		Name: name, Tags: tags, AutoFilterCategories: autoCats, AutoFilterTags: autoTags,
	})
	if err != nil {
		f.t.Fatal(err)
	}
	return cb.ID
}

func (f *cookbookFixture) add(cookbook, recipe uuid.UUID, v repo.Viewer) {
	f.t.Helper()
	if _, err := repo.AddCookbookRecipe(f.ctx, f.db, cookbook, recipe, v); err != nil {
		f.t.Fatal(err)
	}
}

func (f *cookbookFixture) include(parent, child uuid.UUID) {
	f.t.Helper()
	if _, err := repo.IncludeCookbook(f.ctx, f.db, parent, child); err != nil {
		f.t.Fatal(err)
	}
}

// titles resolves the cookbook for v, page by page, and returns the titles
// in page order, failing on a repeated recipe or a total that disagrees.
func (f *cookbookFixture) titles(cookbook uuid.UUID, v repo.Viewer, limit int) []string {
	f.t.Helper()
	var out []string
	seen := map[uuid.UUID]bool{}
	var after *repo.RecipeCursor
	var total int64 = -1
	for pages := 0; ; pages++ {
		if pages > 1000 {
			f.t.Fatal("pagination does not end")
		}
		page, err := repo.ListCookbookRecipes(f.ctx, f.db, cookbook, v, limit, after)
		if err != nil {
			f.t.Fatal(err)
		}
		if total >= 0 && page.Total != total {
			f.t.Fatalf("total changed between pages: %d then %d", total, page.Total)
		}
		total = page.Total
		if len(page.Items) > limit {
			f.t.Fatalf("page of %d items, limit %d", len(page.Items), limit)
		}
		for _, r := range page.Items {
			if seen[r.ID] {
				f.t.Fatalf("recipe %q appears twice", r.Title)
			}
			seen[r.ID] = true
			out = append(out, r.Title)
		}
		if page.Next == nil {
			break
		}
		after = page.Next
	}
	if int64(len(out)) != total {
		f.t.Fatalf("%d recipes listed, total says %d", len(out), total)
	}
	return out
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	if s == nil {
		s = []string{}
	}
	return s
}

func viewerOf(id uuid.UUID) repo.Viewer { return repo.Viewer{UserID: &id} }

func TestCookbookCRUD(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tx := repotest.Tx(t)
	u := repotest.CreateUser(t, tx, repo.RoleUser)

	cb, err := repo.CreateCookbook(ctx, tx, u.ID, repo.CookbookInput{Name: "Weeknights", Description: "Fast food",
		Tags: []string{"quick", "Family"}, AutoFilterCategories: []string{"Dinner"}})
	if err != nil {
		t.Fatal(err)
	}
	if cb.Name != "Weeknights" || cb.OwnerID != u.ID || !slices.Equal(cb.Tags, []string{"Family", "quick"}) ||
		!slices.Equal(cb.AutoFilterCategories, []string{"Dinner"}) || cb.AutoFilterTags == nil || len(cb.AutoFilterTags) != 0 {
		t.Fatalf("created: %+v", cb)
	}

	// A tag used by a recipe first keeps that spelling; the cookbook shares it.
	f := newCookbookFixture(t, tx)
	f.recipe(u.ID, "Soup", repo.VisibilityPrivate, nil, []string{"Winter"})
	name := "Cold nights"
	tags := []string{"WINTER"}
	cb, err = repo.UpdateCookbook(ctx, tx, cb.ID, repo.CookbookUpdate{Name: &name, Tags: &tags})
	if err != nil {
		t.Fatal(err)
	}
	if cb.Name != "Cold nights" || cb.Description != "Fast food" || !slices.Equal(cb.Tags, []string{"Winter"}) ||
		!slices.Equal(cb.AutoFilterCategories, []string{"Dinner"}) {
		t.Fatalf("updated: %+v", cb)
	}
	var tagRows int
	if err := tx.QueryRow(ctx, `SELECT count(*) FROM tag WHERE lower(name) = 'winter'`).Scan(&tagRows); err != nil || tagRows != 1 {
		t.Fatalf("%d tags named winter (%v)", tagRows, err)
	}
	empty := []string{}
	cb, err = repo.UpdateCookbook(ctx, tx, cb.ID, repo.CookbookUpdate{AutoFilterCategories: &empty})
	if err != nil || len(cb.AutoFilterCategories) != 0 || cb.AutoFilterCategories == nil || !slices.Equal(cb.Tags, []string{"Winter"}) {
		t.Fatalf("clearing the filters: %+v %v", cb, err)
	}
	if _, err := repo.UpdateCookbook(ctx, tx, uuid.New(), repo.CookbookUpdate{Name: &name}); !errors.Is(err, repo.ErrNotFound) {
		t.Fatalf("update of a missing cookbook: %v", err)
	}

	key := "cookbooks/ab/abcdef.jpg"
	old, err := repo.SetImage(ctx, tx, repo.CookbookImage, cb.ID, &key)
	if err != nil || old != nil {
		t.Fatalf("first image: %v %v", old, err)
	}
	key2 := "cookbooks/cd/cdef.jpg"
	if old, err = repo.SetImage(ctx, tx, repo.CookbookImage, cb.ID, &key2); err != nil || old == nil || old.Key != key {
		t.Fatalf("replaced image: %v %v", old, err)
	}
	variants := map[string]string{"thumb": "cookbooks/cd/cdef_thumb.jpg"}
	if _, ok, err := repo.SetImageVariants(ctx, tx, repo.CookbookImage, cb.ID, key2, variants); err != nil || !ok {
		t.Fatalf("variants: %v %v", ok, err)
	}
	img, err := repo.DeleteCookbook(ctx, tx, cb.ID)
	if err != nil || img == nil || img.Key != key2 || img.Variants["thumb"] != variants["thumb"] {
		t.Fatalf("delete: %+v %v", img, err)
	}
	if _, err := repo.GetCookbook(ctx, tx, cb.ID); !errors.Is(err, repo.ErrNotFound) {
		t.Fatalf("get after delete: %v", err)
	}
	if _, err := repo.DeleteCookbook(ctx, tx, cb.ID); !errors.Is(err, repo.ErrNotFound) {
		t.Fatalf("second delete: %v", err)
	}
}

func TestListCookbooksPages(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tx := repotest.Tx(t)
	u := repotest.CreateUser(t, tx, repo.RoleUser)
	other := repotest.CreateUser(t, tx, repo.RoleUser)
	f := newCookbookFixture(t, tx)
	f.cookbook(other.ID, "Not mine", nil, nil, nil)
	want := map[string]bool{}
	for i := range 11 {
		want[f2s(i)] = true
		f.cookbook(u.ID, f2s(i), nil, nil, nil)
	}
	var after *repo.CookbookCursor
	got := map[string]bool{}
	for range 20 {
		page, err := repo.ListCookbooks(ctx, tx, u.ID, 4, after)
		if err != nil {
			t.Fatal(err)
		}
		if page.Total != 11 {
			t.Fatalf("total %d", page.Total)
		}
		for _, cb := range page.Items {
			if got[cb.Name] || cb.OwnerID != u.ID {
				t.Fatalf("unexpected %+v", cb)
			}
			got[cb.Name] = true
		}
		if after = page.Next; after == nil {
			break
		}
	}
	if len(got) != len(want) {
		t.Fatalf("listed %v", got)
	}
}

func f2s(i int) string { return fmt.Sprintf("Book %02d", i) }

func TestCookbookResolution(t *testing.T) {
	t.Parallel()
	tx := repotest.Tx(t)
	me := repotest.CreateUser(t, tx, repo.RoleUser)
	friend := repotest.CreateUser(t, tx, repo.RoleUser)
	stranger := repotest.CreateUser(t, tx, repo.RoleUser)
	adminUser := repotest.CreateUser(t, tx, repo.RoleAdmin)
	f := newCookbookFixture(t, tx)
	ctx := context.Background()
	asMe := viewerOf(me.ID)

	// Recipes of three owners and every visibility.
	mine := f.recipe(me.ID, "my stew", repo.VisibilityPrivate, []string{"Dinner"}, nil)
	f.recipe(me.ID, "my cake", repo.VisibilityPrivate, []string{"Dessert"}, []string{"Sweet"})
	friendsPublic := f.recipe(friend.ID, "friend's public pie", repo.VisibilityPublic, []string{"DINNER"}, nil)
	friendsShared := f.recipe(friend.ID, "friend's shared curry", repo.VisibilityShared, []string{"dinner"}, nil)
	if _, _, err := repo.AddShare(ctx, tx, friendsShared, me.ID); err != nil {
		t.Fatal(err)
	}
	f.recipe(friend.ID, "friend's soup shared with others", repo.VisibilityShared, []string{"Dinner"}, nil)
	strangersPrivate := f.recipe(stranger.ID, "stranger's private roast", repo.VisibilityPrivate, []string{"Dinner"}, []string{"sweet"})
	// Public when added to a cookbook, private since: it must vanish.
	turnedPrivate := f.recipe(stranger.ID, "stranger's ex-public tart", repo.VisibilityPublic, nil, nil)
	f.recipe(stranger.ID, "stranger's public salad", repo.VisibilityPublic, []string{"Lunch"}, []string{"SWEET", "green"})

	t.Run("direct", func(t *testing.T) {
		cb := f.cookbook(me.ID, "direct", nil, nil, nil)
		f.add(cb, mine, asMe)
		f.add(cb, friendsPublic, asMe)
		f.add(cb, turnedPrivate, asMe)
		if _, err := repo.AddCookbookRecipe(ctx, tx, cb, strangersPrivate, asMe); !errors.Is(err, repo.ErrNotFound) {
			t.Fatalf("adding a recipe the caller may not read: %v", err)
		}
		if added, err := repo.AddCookbookRecipe(ctx, tx, cb, mine, asMe); err != nil || added {
			t.Fatalf("adding again: %v %v", added, err)
		}
		if _, err := tx.Exec(ctx, `UPDATE recipe SET visibility = 'PRIVATE' WHERE id = $1`, turnedPrivate); err != nil {
			t.Fatal(err)
		}
		want := []string{"friend's public pie", "my stew"}
		if got := sorted(f.titles(cb, asMe, 1)); !slices.Equal(got, want) {
			t.Fatalf("got %v, want %v", got, want)
		}
		// An admin reads every recipe, the private one included.
		if got := f.titles(cb, repo.Viewer{UserID: &adminUser.ID, Admin: true}, 10); len(got) != 3 {
			t.Fatalf("admin sees %v", got)
		}
		if err := repo.RemoveCookbookRecipe(ctx, tx, cb, mine); err != nil {
			t.Fatal(err)
		}
		if err := repo.RemoveCookbookRecipe(ctx, tx, cb, mine); !errors.Is(err, repo.ErrNotFound) {
			t.Fatalf("removing twice: %v", err)
		}
		if _, err := tx.Exec(ctx, `UPDATE recipe SET visibility = 'PUBLIC' WHERE id = $1`, turnedPrivate); err != nil {
			t.Fatal(err)
		}
		if got := sorted(f.titles(cb, asMe, 10)); !slices.Equal(got, []string{"friend's public pie", "stranger's ex-public tart"}) {
			t.Fatalf("after removal: %v", got)
		}
		if _, err := tx.Exec(ctx, `UPDATE recipe SET visibility = 'PRIVATE' WHERE id = $1`, turnedPrivate); err != nil {
			t.Fatal(err)
		}
	})

	t.Run("categories ignore case and respect visibility", func(t *testing.T) {
		cb := f.cookbook(me.ID, "dinners", nil, []string{"dInNeR"}, nil)
		want := []string{"friend's public pie", "friend's shared curry", "my stew"}
		if got := sorted(f.titles(cb, asMe, 2)); !slices.Equal(got, want) {
			t.Fatalf("got %v, want %v", got, want)
		}
	})

	t.Run("tags ignore case and respect visibility", func(t *testing.T) {
		cb := f.cookbook(me.ID, "sweets", nil, nil, []string{"sWeEt", "nothing-has-this"})
		want := []string{"my cake", "stranger's public salad"}
		if got := sorted(f.titles(cb, asMe, 10)); !slices.Equal(got, want) {
			t.Fatalf("got %v, want %v", got, want)
		}
	})

	t.Run("a recipe reached by several paths appears once", func(t *testing.T) {
		root := f.cookbook(me.ID, "root", nil, []string{"dinner"}, nil)
		child := f.cookbook(me.ID, "child", nil, []string{"DINNER"}, nil)
		grandchild := f.cookbook(me.ID, "grandchild", nil, nil, nil)
		f.include(root, child)
		f.include(child, grandchild)
		f.include(root, grandchild)
		for _, cb := range []uuid.UUID{root, child, grandchild} {
			f.add(cb, mine, asMe)
			f.add(cb, friendsPublic, asMe)
		}
		want := []string{"friend's public pie", "friend's shared curry", "my stew"}
		if got := sorted(f.titles(root, asMe, 1)); !slices.Equal(got, want) {
			t.Fatalf("got %v, want %v", got, want)
		}
	})

	t.Run("a private recipe of another user never appears through an include", func(t *testing.T) {
		root := f.cookbook(me.ID, "outer", nil, nil, nil)
		inner := f.cookbook(me.ID, "inner", nil, []string{"dinner"}, []string{"sweet"})
		f.include(root, inner)
		f.add(inner, turnedPrivate, repo.Viewer{UserID: &adminUser.ID, Admin: true}) // an admin put it there
		got := f.titles(root, asMe, 10)
		for _, title := range got {
			if title == "stranger's private roast" || title == "stranger's ex-public tart" || title == "friend's soup shared with others" {
				t.Fatalf("%q leaked: %v", title, got)
			}
		}
		if len(got) != 5 {
			t.Fatalf("got %v", got)
		}
		// The stranger, reading through a cookbook of theirs with the same
		// filters, sees their own private recipe but not mine.
		theirs := f.cookbook(stranger.ID, "stranger's", nil, []string{"dinner"}, nil)
		if got := sorted(f.titles(theirs, viewerOf(stranger.ID), 10)); !slices.Equal(got, []string{"friend's public pie", "stranger's private roast"}) {
			t.Fatalf("stranger sees %v", got)
		}
	})

	t.Run("deep nesting", func(t *testing.T) {
		const depth = 10
		books := make([]uuid.UUID, depth)
		for i := range books {
			books[i] = f.cookbook(me.ID, fmt.Sprintf("level %d", i), nil, nil, nil)
			f.add(books[i], f.recipe(me.ID, fmt.Sprintf("deep %d", i), repo.VisibilityPrivate, nil, nil), asMe)
			if i > 0 {
				f.include(books[i-1], books[i])
			}
		}
		if got := f.titles(books[0], asMe, 3); len(got) != depth {
			t.Fatalf("top level resolves to %v", got)
		}
		if got := sorted(f.titles(books[depth-2], asMe, 3)); !slices.Equal(got, []string{"deep 8", "deep 9"}) {
			t.Fatalf("level 8 resolves to %v", got)
		}
		// Including the top in the bottom would close a cycle.
		if _, err := repo.IncludeCookbook(ctx, tx, books[depth-1], books[0]); !errors.Is(err, repo.ErrCookbookCycle) {
			t.Fatalf("cycle through 10 levels: %v", err)
		}
	})

	t.Run("wide nesting", func(t *testing.T) {
		root := f.cookbook(me.ID, "wide", nil, nil, nil)
		for i := range 40 {
			child := f.cookbook(me.ID, fmt.Sprintf("wide %d", i), nil, nil, nil)
			f.include(root, child)
			f.add(child, f.recipe(me.ID, fmt.Sprintf("wide recipe %d", i), repo.VisibilityPrivate, nil, nil), asMe)
			f.add(child, mine, asMe)
		}
		if got := f.titles(root, asMe, 7); len(got) != 41 {
			t.Fatalf("wide cookbook resolves to %d recipes", len(got))
		}
		kids, err := repo.ListIncludedCookbooks(ctx, tx, root)
		if err != nil || len(kids) != 40 {
			t.Fatalf("%d included cookbooks (%v)", len(kids), err)
		}
	})

	t.Run("auto-included cookbooks contribute their recipes", func(t *testing.T) {
		root := f.cookbook(me.ID, "holidays", []string{"holiday"}, nil, []string{"XMAS"})
		tagged := f.cookbook(me.ID, "christmas", []string{"Xmas"}, nil, nil)
		below := f.cookbook(me.ID, "cookies", nil, nil, nil)
		f.include(tagged, below)
		f.add(tagged, f.recipe(me.ID, "goose", repo.VisibilityPrivate, nil, nil), asMe)
		f.add(below, f.recipe(me.ID, "gingerbread", repo.VisibilityPrivate, nil, nil), asMe)
		// Another user's cookbook with the tag is never included.
		strangers := f.cookbook(stranger.ID, "stranger's xmas", []string{"xmas"}, nil, nil)
		f.add(strangers, f.recipe(stranger.ID, "stranger's public stollen", repo.VisibilityPublic, nil, nil), viewerOf(stranger.ID))

		kids, err := repo.ListIncludedCookbooks(ctx, tx, root)
		if err != nil || len(kids) != 1 || kids[0].ID != tagged {
			t.Fatalf("included: %+v (%v)", kids, err)
		}
		if got := sorted(f.titles(root, asMe, 1)); !slices.Equal(got, []string{"gingerbread", "goose"}) {
			t.Fatalf("got %v", got)
		}
		// Including the auto-includer in the auto-included one is a cycle.
		if _, err := repo.IncludeCookbook(ctx, tx, below, root); !errors.Is(err, repo.ErrCookbookCycle) {
			t.Fatalf("cycle through an automatic inclusion: %v", err)
		}
	})

	t.Run("cycles made by automatic inclusion end", func(t *testing.T) {
		a := f.cookbook(me.ID, "loop a", []string{"loop-a"}, nil, []string{"loop-b"})
		b := f.cookbook(me.ID, "loop b", []string{"loop-b"}, nil, []string{"loop-a"})
		self := f.cookbook(me.ID, "loop self", []string{"loop-self"}, nil, []string{"loop-self"})
		f.add(a, mine, asMe)
		f.add(b, friendsPublic, asMe)
		f.add(self, mine, asMe)
		for _, cb := range []uuid.UUID{a, b} {
			if got := sorted(f.titles(cb, asMe, 1)); !slices.Equal(got, []string{"friend's public pie", "my stew"}) {
				t.Fatalf("got %v", got)
			}
		}
		if got := f.titles(self, asMe, 1); !slices.Equal(got, []string{"my stew"}) {
			t.Fatalf("got %v", got)
		}
		if kids, err := repo.ListIncludedCookbooks(ctx, tx, self); err != nil || len(kids) != 0 {
			t.Fatalf("a cookbook includes itself: %+v %v", kids, err)
		}
	})

	t.Run("missing cookbook resolves to nothing", func(t *testing.T) {
		page, err := repo.ListCookbookRecipes(ctx, tx, uuid.New(), asMe, 10, nil)
		if err != nil || len(page.Items) != 0 || page.Total != 0 || page.Next != nil || page.Items == nil {
			t.Fatalf("%+v %v", page, err)
		}
	})
}

func TestCookbookRecipesPagination(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := repotest.DB(t) // each recipe commits apart, so created_at differs
	me := repotest.CreateUser(t, db, repo.RoleUser)
	f := newCookbookFixture(t, db)
	cb := f.cookbook(me.ID, "paged", nil, []string{"soup"}, nil)
	var want []string
	for i := range 25 {
		title := fmt.Sprintf("soup %02d", i)
		f.recipe(me.ID, title, repo.VisibilityPrivate, []string{"Soup"}, nil)
		want = append([]string{title}, want...) // newest first
	}
	for _, limit := range []int{1, 7, 25, 100} {
		if got := f.titles(cb, viewerOf(me.ID), limit); !slices.Equal(got, want) {
			t.Fatalf("limit %d: %v", limit, got)
		}
	}
	first, err := repo.ListCookbookRecipes(ctx, db, cb, viewerOf(me.ID), 10, nil)
	if err != nil || first.Next == nil {
		t.Fatal(first, err)
	}
	// Recipes that went away after the cursor was made: an empty page, and
	// the total still right.
	if _, err := db.Exec(ctx, `DELETE FROM recipe WHERE id IN (SELECT id FROM recipe WHERE (created_at, id) < ($1, $2))`,
		first.Next.CreatedAt, first.Next.ID); err != nil {
		t.Fatal(err)
	}
	page, err := repo.ListCookbookRecipes(ctx, db, cb, viewerOf(me.ID), 10, first.Next)
	if err != nil || len(page.Items) != 0 || page.Total != 10 || page.Next != nil {
		t.Fatalf("page past the end: %+v %v", page, err)
	}
}

func TestIncludeCookbookRefusals(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tx := repotest.Tx(t)
	me := repotest.CreateUser(t, tx, repo.RoleUser)
	other := repotest.CreateUser(t, tx, repo.RoleUser)
	f := newCookbookFixture(t, tx)
	a := f.cookbook(me.ID, "a", nil, nil, nil)
	b := f.cookbook(me.ID, "b", nil, nil, nil)
	c := f.cookbook(me.ID, "c", nil, nil, nil)
	theirs := f.cookbook(other.ID, "theirs", nil, nil, nil)
	f.include(a, b)
	f.include(b, c)
	if added, err := repo.IncludeCookbook(ctx, tx, a, b); err != nil || added {
		t.Fatalf("including again: %v %v", added, err)
	}
	tests := []struct {
		name          string
		parent, child uuid.UUID
		want          error
	}{
		{"itself", a, a, repo.ErrCookbookCycle},
		{"its parent", b, a, repo.ErrCookbookCycle},
		{"its grandparent", c, a, repo.ErrCookbookCycle},
		{"another owner's", a, theirs, repo.ErrCookbookOwner},
		{"a missing child", a, uuid.New(), repo.ErrNotFound},
		{"in a missing parent", uuid.New(), a, repo.ErrNotFound},
	}
	for _, tt := range tests {
		if _, err := repo.IncludeCookbook(ctx, tx, tt.parent, tt.child); !errors.Is(err, tt.want) {
			t.Errorf("including %s: %v, want %v", tt.name, err, tt.want)
		}
	}
	// Siblings and grandchildren may be included more than once.
	f.include(a, c)
	if err := repo.ExcludeCookbook(ctx, tx, a, b); err != nil {
		t.Fatal(err)
	}
	if err := repo.ExcludeCookbook(ctx, tx, a, b); !errors.Is(err, repo.ErrNotFound) {
		t.Fatalf("excluding twice: %v", err)
	}
	// Now b ⊃ c and a ⊃ c only: b may include a.
	f.include(b, a)
}

// Two requests racing to make A⊃B and B⊃A must never both succeed: the
// check and the insert are one transaction under the owner's lock. Each
// round uses a fresh pair; the two inserts start together on their own
// connections.
func TestIncludeCookbookConcurrentCycle(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := repotest.DB(t)
	me := repotest.CreateUser(t, db, repo.RoleUser)
	f := newCookbookFixture(t, db)
	const rounds = 60
	for round := range rounds {
		a := f.cookbook(me.ID, "race a", nil, nil, nil)
		b := f.cookbook(me.ID, "race b", nil, nil, nil)
		// A third cookbook makes the cycle indirect in half of the rounds.
		via := b
		if round%2 == 1 {
			via = f.cookbook(me.ID, "race via", nil, nil, nil)
			f.include(b, via)
		}
		start := make(chan struct{})
		var wg sync.WaitGroup
		errs := make([]error, 2)
		for i, pair := range [][2]uuid.UUID{{a, b}, {via, a}} {
			wg.Go(func() {
				<-start
				_, errs[i] = repo.IncludeCookbook(ctx, db, pair[0], pair[1])
			})
		}
		close(start)
		wg.Wait()
		ok := 0
		for _, err := range errs {
			switch {
			case err == nil:
				ok++
			case !errors.Is(err, repo.ErrCookbookCycle):
				t.Fatalf("round %d: %v", round, err)
			}
		}
		if ok != 1 {
			t.Fatalf("round %d: %d of the two inclusions succeeded (%v)", round, ok, errs)
		}
	}
}

// Deleting a recipe takes it out of every cookbook; deleting a cookbook
// keeps its recipes and child cookbooks.
func TestCookbookDeleteRules(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tx := repotest.Tx(t)
	me := repotest.CreateUser(t, tx, repo.RoleUser)
	f := newCookbookFixture(t, tx)
	r := f.recipe(me.ID, "kept", repo.VisibilityPrivate, nil, nil)
	gone := f.recipe(me.ID, "gone", repo.VisibilityPrivate, nil, nil)
	parent := f.cookbook(me.ID, "parent", []string{"t"}, nil, nil)
	child := f.cookbook(me.ID, "child", nil, nil, nil)
	f.include(parent, child)
	for _, cb := range []uuid.UUID{parent, child} {
		f.add(cb, r, viewerOf(me.ID))
		f.add(cb, gone, viewerOf(me.ID))
	}
	if _, err := repo.DeleteRecipe(ctx, tx, gone); err != nil {
		t.Fatal(err)
	}
	if got := f.titles(parent, viewerOf(me.ID), 10); !slices.Equal(got, []string{"kept"}) {
		t.Fatalf("after deleting a recipe: %v", got)
	}
	if _, err := repo.DeleteCookbook(ctx, tx, parent); err != nil {
		t.Fatal(err)
	}
	var links int
	if err := tx.QueryRow(ctx, `SELECT (SELECT count(*) FROM cookbook_recipe WHERE cookbook_id = $1)
		+ (SELECT count(*) FROM cookbook_inclusion WHERE parent_id = $1) + (SELECT count(*) FROM cookbook_tag WHERE cookbook_id = $1)`,
		parent).Scan(&links); err != nil || links != 0 {
		t.Fatalf("%d links left (%v)", links, err)
	}
	if _, err := repo.GetCookbook(ctx, tx, child); err != nil {
		t.Fatalf("child: %v", err)
	}
	if got := f.titles(child, viewerOf(me.ID), 10); !slices.Equal(got, []string{"kept"}) {
		t.Fatalf("child after deleting the parent: %v", got)
	}
}
