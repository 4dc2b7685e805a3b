package handlers

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"larder/repo"
)

// rcList fetches one page of GET /api/recipes with the query.
func rcList(t *testing.T, b *testBundle, tok string, q url.Values) RecipePage {
	t.Helper()
	r := b.do(t, "GET", "/api/recipes?"+q.Encode(), nil, tok)
	wantStatus(t, r, 200)
	var p RecipePage
	r.JSON(t, &p)
	return p
}

// rcWalk pages through the list with limit, calling between(page number)
// after each page, and returns every id in the order listed.
func rcWalk(t *testing.T, b *testBundle, tok string, q url.Values, limit int, between func(int)) []uuid.UUID {
	t.Helper()
	q.Set("limit", fmt.Sprint(limit))
	var ids []uuid.UUID
	for page := 0; ; page++ {
		p := rcList(t, b, tok, q)
		if len(p.Items) > limit {
			t.Fatalf("page %d has %d items", page, len(p.Items))
		}
		for _, it := range p.Items {
			ids = append(ids, it.ID)
		}
		if p.NextCursor == nil {
			return ids
		}
		if between != nil {
			between(page)
		}
		q.Set("cursor", *p.NextCursor)
		if page > 1000 {
			t.Fatal("endless pages")
		}
	}
}

// rcRecipe is a recipe's text for search tests.
func rcRecipe(title string, ingredients, steps []string) repo.RecipeInput {
	in := repo.RecipeInput{Title: title, Visibility: repo.VisibilityPublic,
		IngredientSections: []repo.Section{{}}, InstructionSections: []repo.Section{{}}}
	for _, s := range ingredients {
		in.IngredientSections[0].Items = append(in.IngredientSections[0].Items, repo.Item{Text: s})
	}
	for _, s := range steps {
		in.InstructionSections[0].Items = append(in.InstructionSections[0].Items, repo.Item{Text: s})
	}
	return in
}

// setCreated moves a recipe's created_at, as a row committed by a long
// transaction (or restored from a backup) would have it.
func setCreated(t *testing.T, b *testBundle, id uuid.UUID, at time.Time) {
	t.Helper()
	if _, err := b.db.Exec(context.Background(), "UPDATE recipe SET created_at = $2 WHERE id = $1", id, at); err != nil {
		t.Fatal(err)
	}
}

// checkWalk fails unless every id of want appears in got exactly once and
// no id appears twice.
func checkWalk(t *testing.T, got, want []uuid.UUID) {
	t.Helper()
	seen := map[uuid.UUID]int{}
	for _, id := range got {
		seen[id]++
		if seen[id] > 1 {
			t.Fatalf("recipe %s listed twice", id)
		}
	}
	for _, id := range want {
		if seen[id] != 1 {
			t.Fatalf("recipe %s was there before the walk and is missing (gap)", id)
		}
	}
}

func TestRecipeListPaginationWhileInserting(t *testing.T) {
	t.Parallel()
	b := setup(t)
	u, tok := b.user(t, repo.RoleUser)
	base := time.Now().Add(-time.Hour)
	var before []uuid.UUID
	for i := range 30 {
		id := rcInsert(t, b, u.ID, repo.VisibilityPublic)
		// Several share a created_at: the id must break the tie.
		setCreated(t, b, id, base.Add(time.Duration(i/3)*time.Minute))
		before = append(before, id)
	}
	// Between pages: a new recipe, and one dated inside the range already
	// walked and one inside the range still ahead.
	var added []uuid.UUID
	ids := rcWalk(t, b, tok, url.Values{}, 7, func(page int) {
		n := rcInsert(t, b, u.ID, repo.VisibilityPublic)
		mid := rcInsert(t, b, u.ID, repo.VisibilityPublic)
		setCreated(t, b, mid, base.Add(time.Duration(page*3)*time.Minute+30*time.Second))
		added = append(added, n, mid)
	})
	checkWalk(t, ids, before)
	// Newest first, strictly.
	var at []time.Time
	for _, id := range ids {
		at = append(at, rcGet(t, b, tok, id).CreatedAt)
	}
	for i := 1; i < len(at); i++ {
		if at[i].After(at[i-1]) {
			t.Fatalf("order: %v after %v", at[i], at[i-1])
		}
	}
	// A later walk sees everything.
	checkWalk(t, rcWalk(t, b, tok, url.Values{}, 100, nil), append(before, added...))

	// The limit and the cursor are checked.
	for _, q := range []string{"limit=0", "limit=101", "limit=ten", "cursor=bm90LWEtY3Vyc29y", "cursor=%%%"} {
		if r := b.do(t, "GET", "/api/recipes?"+q, nil, tok); r.Status != 400 || r.ErrorCode() != "validation_failed" {
			t.Errorf("%s: %d %s", q, r.Status, r.Body)
		}
	}
	if p := rcList(t, b, tok, url.Values{}); len(p.Items) != 24 || p.Total != int64(len(before)+len(added)) {
		t.Errorf("default page: %d items, total %d", len(p.Items), p.Total)
	}
}

func TestRecipeListFilters(t *testing.T) {
	t.Parallel()
	b := setup(t)
	me, tok := b.user(t, repo.RoleUser)
	other, _ := b.user(t, repo.RoleUser)
	mk := func(owner uuid.UUID, title, vis string, cats, tags []string) uuid.UUID {
		in := rcRecipe(title, []string{"salt"}, []string{"Cook."})
		in.Visibility, in.Categories, in.Tags = vis, cats, tags
		return rcInsertWith(t, b, owner, in)
	}
	soup := mk(me.ID, "Soup", "PRIVATE", []string{"Dinner", "Soup"}, []string{"Winter"})
	salad := mk(me.ID, "Salad", "PUBLIC", []string{"Lunch"}, []string{"summer", "Quick"})
	stew := mk(other.ID, "Stew", "PUBLIC", []string{"dinner"}, []string{"winter"})
	mk(other.ID, "Secret", "PRIVATE", []string{"Dinner"}, []string{"Winter"})
	shared := mk(other.ID, "Shared Pie", "SHARED", []string{"Dinner"}, nil)
	if _, _, err := repo.AddShare(context.Background(), b.db, shared, me.ID); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		query string
		want  []uuid.UUID
	}{
		{"", []uuid.UUID{shared, stew, salad, soup}},
		{"category=DINNER", []uuid.UUID{shared, stew, soup}},
		{"category=soup", []uuid.UUID{soup}},
		{"tag=winter", []uuid.UUID{stew, soup}},
		{"tag=QUICK", []uuid.UUID{salad}},
		{"visibility=PUBLIC", []uuid.UUID{stew, salad}},
		{"visibility=SHARED", []uuid.UUID{shared}},
		{"owner=me", []uuid.UUID{salad, soup}},
		{"owner=me&category=dinner", []uuid.UUID{soup}},
		{"owner=" + other.ID.String(), []uuid.UUID{shared, stew}},
		{"category=nothing", nil},
	}
	for _, tt := range tests {
		q, _ := url.ParseQuery(tt.query)
		p := rcList(t, b, tok, q)
		var got []uuid.UUID
		for _, it := range p.Items {
			got = append(got, it.ID)
		}
		if !slices.Equal(got, tt.want) || p.Total != int64(len(tt.want)) {
			t.Errorf("%s: got %v (total %d), want %v", tt.query, got, p.Total, tt.want)
		}
	}
	for _, q := range []string{"visibility=public", "owner=someone"} {
		if r := b.do(t, "GET", "/api/recipes?"+q, nil, tok); r.Status != 400 {
			t.Errorf("%s: %d", q, r.Status)
		}
	}
	if r := b.do(t, "GET", "/api/recipes?owner=me", nil, ""); r.Status != 401 {
		t.Errorf("owner=me anonymously: %d", r.Status)
	}
	// Summaries carry tags and categories but no sections.
	r := b.do(t, "GET", "/api/recipes?tag=quick", nil, tok)
	if s := string(r.Body); !strings.Contains(s, `"tags":["Quick","summer"]`) || strings.Contains(s, "ingredientSections") {
		t.Errorf("summary: %s", s)
	}
}

// searchCorpus creates a small collection with "chicken" in different
// places, each newer than the last, and returns the ids by name.
func searchCorpus(t *testing.T, b *testBundle, owner uuid.UUID) map[string]uuid.UUID {
	t.Helper()
	ids := map[string]uuid.UUID{}
	base := time.Now().Add(-time.Hour)
	for i, r := range []struct {
		name string
		in   repo.RecipeInput
	}{
		{"title", rcRecipe("Chicken Noodle Soup", []string{"2 carrots", "noodles"}, []string{"Simmer everything for 20 minutes."})},
		{"ingredient", rcRecipe("Herb Rice", []string{"300ml chicken stock", "200g rice"}, []string{"Cook the rice in the stock."})},
		{"instruction", rcRecipe("Green Salad", []string{"1 lettuce", "olive oil"}, []string{"Serve next to roast chickens."})},
		{"tomato", rcRecipe("Tomato Tart", []string{"6 ripe tomatoes", "puff pastry"}, []string{"Bake until golden."})},
		{"chickpea", rcRecipe("Chickpea Curry", []string{"2 tins chickpeas"}, []string{"Simmer gently."})},
	} {
		ids[r.name] = rcInsertWith(t, b, owner, r.in)
		setCreated(t, b, ids[r.name], base.Add(time.Duration(i)*time.Minute))
	}
	return ids
}

func TestRecipeSearchRanking(t *testing.T) {
	t.Parallel()
	b := setup(t)
	u, tok := b.user(t, repo.RoleUser)
	other, _ := b.user(t, repo.RoleUser)
	ids := searchCorpus(t, b, u.ID)
	// Someone else's private chicken recipe is never found.
	secret := rcRecipe("Secret Chicken", nil, nil)
	secret.Visibility = repo.VisibilityPrivate
	rcInsertWith(t, b, other.ID, secret)

	search := func(q string) []string {
		t.Helper()
		p := rcList(t, b, tok, url.Values{"q": {q}})
		var names []string
		for _, it := range p.Items {
			for name, id := range ids {
				if id == it.ID {
					names = append(names, name)
				}
			}
		}
		if len(names) != len(p.Items) || p.Total != int64(len(p.Items)) {
			t.Fatalf("q=%s: %d items (%v), total %d", q, len(p.Items), names, p.Total)
		}
		return names
	}
	tests := []struct{ q, want string }{
		// The title match ranks first, then the ingredient, then the step,
		// although the step's recipe is the newest.
		{"chicken", "title,ingredient,instruction"},
		{"Chickens", "title,ingredient,instruction"}, // stemming
		{"chiken", "title,ingredient,instruction"},   // a typo
		{"CHICKEN soup", "title"},                    // every word must match
		{"chicken rice", "ingredient"},
		{"chick", "chickpea,title,ingredient,instruction"}, // a prefix: "chickpea" is in a title
		{"icken", "title,ingredient,instruction"},          // a fragment inside the word
		{"tomat", "tomato"},
		{"tomatos", "tomato"},
		{"the chicken", "title,ingredient,instruction"}, // a stop word is not required
		{"xylophone", ""},
	}
	for _, tt := range tests {
		if got := strings.Join(search(tt.q), ","); got != tt.want {
			t.Errorf("q=%q: %s, want %s", tt.q, got, tt.want)
		}
	}
	// Only stop words: no search at all, the whole list newest first.
	if p := rcList(t, b, tok, url.Values{"q": {"the and"}}); p.Total != int64(len(ids)) || p.Items[0].ID != ids["chickpea"] {
		t.Errorf("q of stop words: total %d", p.Total)
	}
	// Search combines with the filters, and anonymous callers search too.
	if _, err := b.db.Exec(context.Background(), "UPDATE recipe SET categories = '{Soup}' WHERE id = $1", ids["ingredient"]); err != nil {
		t.Fatal(err)
	}
	if p := rcList(t, b, "", url.Values{"q": {"chicken"}, "category": {"soup"}}); len(p.Items) != 1 || p.Items[0].ID != ids["ingredient"] {
		t.Errorf("search with a category: %+v", p.Items)
	}
	// A cursor of a search is not one of the plain list, nor the other way.
	searchPage := rcList(t, b, tok, url.Values{"q": {"chicken"}, "limit": {"1"}})
	listPage := rcList(t, b, tok, url.Values{"limit": {"1"}})
	if r := b.do(t, "GET", "/api/recipes?cursor="+*searchPage.NextCursor, nil, tok); r.Status != 400 {
		t.Errorf("search cursor on the list: %d", r.Status)
	}
	if r := b.do(t, "GET", "/api/recipes?q=chicken&cursor="+*listPage.NextCursor, nil, tok); r.Status != 400 {
		t.Errorf("list cursor on a search: %d", r.Status)
	}
	if r := b.do(t, "GET", "/api/recipes?q="+strings.Repeat("a", 201), nil, tok); r.Status != 400 {
		t.Errorf("long q: %d", r.Status)
	}
}

// Search pages are ordered by (tier, created_at, id): recipes inserted
// between pages, in any tier, never make the walk repeat or skip one.
func TestRecipeSearchPaginationWhileInserting(t *testing.T) {
	t.Parallel()
	b := setup(t)
	u, tok := b.user(t, repo.RoleUser)
	kinds := []func(i int) repo.RecipeInput{
		func(i int) repo.RecipeInput {
			return rcRecipe(fmt.Sprintf("Lemon Chicken %d", i), []string{"1 lemon"}, []string{"Roast."})
		},
		func(i int) repo.RecipeInput {
			return rcRecipe(fmt.Sprintf("Broth %d", i), []string{"1 chicken carcass"}, []string{"Simmer."})
		},
		func(i int) repo.RecipeInput {
			return rcRecipe(fmt.Sprintf("Slaw %d", i), []string{"cabbage"}, []string{"Serve with fried chicken."})
		},
	}
	base := time.Now().Add(-time.Hour)
	var before []uuid.UUID
	tierOf := map[uuid.UUID]int{}
	for i := range 24 {
		id := rcInsertWith(t, b, u.ID, kinds[i%3](i))
		setCreated(t, b, id, base.Add(time.Duration(i/2)*time.Minute))
		before = append(before, id)
		tierOf[id] = 3 - i%3
	}
	// Unrelated recipes are never listed.
	rcInsertWith(t, b, u.ID, rcRecipe("Beef Stew", []string{"beef"}, []string{"Braise."}))
	n := 100
	ids := rcWalk(t, b, tok, url.Values{"q": {"chicken"}}, 5, func(page int) {
		for k := range kinds {
			id := rcInsertWith(t, b, u.ID, kinds[k](n))
			n++
			tierOf[id] = 3 - k
			if page%2 == 1 { // dated inside the walk's range
				setCreated(t, b, id, base.Add(time.Duration(page)*time.Minute+time.Second))
			}
		}
	})
	checkWalk(t, ids, before)
	for i := 1; i < len(ids); i++ {
		if tierOf[ids[i]] > tierOf[ids[i-1]] {
			t.Fatalf("position %d: tier %d after tier %d", i, tierOf[ids[i]], tierOf[ids[i-1]])
		}
	}
}

func TestTagsList(t *testing.T) {
	t.Parallel()
	b := setup(t)
	me, tok := b.user(t, repo.RoleUser)
	other, otherTok := b.user(t, repo.RoleUser)
	_, adminTok := b.user(t, repo.RoleAdmin)
	mk := func(owner uuid.UUID, vis string, tags ...string) {
		in := rcRecipe("R", nil, nil)
		in.Visibility, in.Tags = vis, tags
		rcInsertWith(t, b, owner, in)
	}
	mk(me.ID, "PUBLIC", "Spicy", "Vegan")
	mk(me.ID, "PRIVATE", "spicy", "Secret Family")
	mk(other.ID, "PUBLIC", "SPICY", "Baking")
	mk(other.ID, "PRIVATE", "Hidden")
	tags := func(tok, query string) string {
		t.Helper()
		r := b.do(t, "GET", "/api/tags?"+query, nil, tok)
		wantStatus(t, r, 200)
		var p TagPage
		r.JSON(t, &p)
		var s []string
		for _, tg := range p.Items {
			s = append(s, fmt.Sprintf("%s:%d", tg.Name, tg.Count))
		}
		return strings.Join(s, ",") + fmt.Sprintf(" (%d)", p.Total)
	}
	// Tags are created on first use, one per name whatever its case.
	tests := []struct{ tok, query, want string }{
		{"", "", "Baking:1,Spicy:2,Vegan:1 (3)"},
		{tok, "", "Baking:1,Secret Family:1,Spicy:3,Vegan:1 (4)"},
		{otherTok, "", "Baking:1,Hidden:1,Spicy:2,Vegan:1 (4)"},
		{adminTok, "", "Baking:1,Hidden:1,Secret Family:1,Spicy:3,Vegan:1 (5)"},
		{tok, "q=s", "Secret Family:1,Spicy:3 (2)"},
		{tok, "q=%25", " (0)"},
	}
	for _, tt := range tests {
		if got := tags(tt.tok, tt.query); got != tt.want {
			t.Errorf("%q as %.6s: %s, want %s", tt.query, tt.tok, got, tt.want)
		}
	}
	var n int
	if err := b.db.QueryRow(context.Background(), "SELECT count(*) FROM tag WHERE lower(name) = 'spicy'").Scan(&n); err != nil || n != 1 {
		t.Fatalf("%d spicy tags", n)
	}
	// Pages of tags.
	var all []string
	q := url.Values{"limit": {"2"}}
	for {
		r := b.do(t, "GET", "/api/tags?"+q.Encode(), nil, adminTok)
		wantStatus(t, r, 200)
		var p TagPage
		r.JSON(t, &p)
		for _, tg := range p.Items {
			all = append(all, tg.Name)
		}
		if p.NextCursor == nil {
			break
		}
		q.Set("cursor", *p.NextCursor)
	}
	if strings.Join(all, ",") != "Baking,Hidden,Secret Family,Spicy,Vegan" {
		t.Fatalf("paged tags: %v", all)
	}
}
