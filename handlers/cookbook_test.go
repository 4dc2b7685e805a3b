package handlers

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"io"
	"maps"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"larder/config"
	"larder/filestore"
	"larder/importer/fetch"
	"larder/jobs"
	"larder/repo"
)

// Authorization: cookbooks are their owner's and an ADMIN's; everyone else
// gets 404 for every route naming one.
func init() {
	book := func(t *testing.T, b *testBundle, u repo.User) uuid.UUID {
		t.Helper()
		cb, err := repo.CreateCookbook(context.Background(), b.db, u.ID, repo.CookbookInput{Name: "Authz " + uuid.NewString()[:6]})
		if err != nil {
			t.Fatal(err)
		}
		return cb.ID
	}
	path := func(id uuid.UUID, rest string) string { return "/api/cookbooks/" + id.String() + rest }
	prep := func(rest string, body any) func(*testing.T, *testBundle, repo.User) (string, any) {
		return func(t *testing.T, b *testBundle, u repo.User) (string, any) { return path(book(t, b, u), rest), body }
	}
	// The owner's PUBLIC recipe: every signed-in caller may read it, so
	// only the cookbook decides.
	withRecipe := func(inCookbook bool) func(*testing.T, *testBundle, repo.User) (string, any) {
		return func(t *testing.T, b *testBundle, u repo.User) (string, any) {
			id := book(t, b, u)
			r := cbRecipe(t, b, u.ID, "Authz recipe", repo.VisibilityPublic, nil, nil)
			if inCookbook {
				if _, err := repo.AddCookbookRecipe(context.Background(), b.db, id, r, repo.Viewer{UserID: &u.ID}); err != nil {
					t.Fatal(err)
				}
			}
			return path(id, "/recipes/"+r.String()), nil
		}
	}
	withChild := func(included bool) func(*testing.T, *testBundle, repo.User) (string, any) {
		return func(t *testing.T, b *testBundle, u repo.User) (string, any) {
			id, child := book(t, b, u), book(t, b, u)
			if included {
				if _, err := repo.IncludeCookbook(context.Background(), b.db, id, child); err != nil {
					t.Fatal(err)
				}
			}
			return path(id, "/cookbooks/"+child.String()), nil
		}
	}
	addAuthz(
		authzCase{method: "GET", route: "/api/cookbooks", want: ruleAuth},
		authzCase{method: "POST", route: "/api/cookbooks", want: ruleAuth,
			prepare: func(*testing.T, *testBundle, repo.User) (string, any) {
				return "/api/cookbooks", map[string]any{"name": "Mine"}
			}},
		authzCase{method: "GET", route: "/api/cookbooks/:id", want: ruleOwnerAll, prepare: prep("", nil)},
		authzCase{method: "PUT", route: "/api/cookbooks/:id", want: ruleOwnerAll, prepare: prep("", map[string]any{"name": "Renamed"})},
		authzCase{method: "DELETE", route: "/api/cookbooks/:id", want: ruleOwnerAll, prepare: prep("", nil)},
		authzCase{method: "GET", route: "/api/cookbooks/:id/recipes", want: ruleOwnerAll, prepare: prep("/recipes", nil)},
		authzCase{method: "PUT", route: "/api/cookbooks/:id/recipes/:recipeId", want: ruleOwnerAll, prepare: withRecipe(false)},
		authzCase{method: "DELETE", route: "/api/cookbooks/:id/recipes/:recipeId", want: ruleOwnerAll, prepare: withRecipe(true)},
		authzCase{method: "PUT", route: "/api/cookbooks/:id/cookbooks/:childId", want: ruleOwnerAll, prepare: withChild(false)},
		authzCase{method: "DELETE", route: "/api/cookbooks/:id/cookbooks/:childId", want: ruleOwnerAll, prepare: withChild(true)},
		authzCase{method: "PUT", route: "/api/cookbooks/:id/auto-filters", want: ruleOwnerAll,
			prepare: prep("/auto-filters", map[string]any{"autoFilterTags": []string{"quick"}})},
		// The body is not multipart: the owner gets 415, which is past the
		// authorization check; others never get that far.
		authzCase{method: "POST", route: "/api/cookbooks/:id/image", want: ruleOwnerAll, prepare: prep("/image", map[string]any{})},
		authzCase{method: "DELETE", route: "/api/cookbooks/:id/image", want: ruleOwnerAll, prepare: prep("/image", nil)},
		authzCase{method: "POST", route: "/api/cookbooks/:id/image/from-url", want: ruleOwnerAll,
			prepare: prep("/image/from-url", map[string]any{"url": "https://images.example.com/cover.jpg"})},
	)
}

// cbRecipe creates a recipe directly in the database.
func cbRecipe(t *testing.T, b *testBundle, owner uuid.UUID, title, visibility string, categories, tags []string) uuid.UUID {
	t.Helper()
	id, err := repo.CreateRecipe(context.Background(), b.db, owner, repo.RecipeInput{
		Title: title, Visibility: visibility, Categories: categories, Tags: tags,
		IngredientSections:  []repo.Section{{Items: []repo.Item{{Text: "2 eggs"}}}},
		InstructionSections: []repo.Section{{Items: []repo.Item{{Text: "Whisk."}}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// cbCreate creates a cookbook through the API and returns it.
func cbCreate(t *testing.T, b *testBundle, tok string, body any) Cookbook {
	t.Helper()
	r := b.do(t, "POST", "/api/cookbooks", body, tok)
	wantStatus(t, r, 201)
	var cb Cookbook
	r.JSON(t, &cb)
	return cb
}

type cbDetailJSON struct {
	Cookbook
	Recipes struct {
		Items      []RecipeSummary `json:"items"`
		NextCursor *string         `json:"nextCursor"`
		Total      int64           `json:"total"`
	} `json:"recipes"`
	Cookbooks   []Cookbook  `json:"cookbooks"`
	RecipeIDs   []uuid.UUID `json:"recipeIds"`
	CookbookIDs []uuid.UUID `json:"cookbookIds"`
}

func cbGet(t *testing.T, b *testBundle, tok string, id uuid.UUID, query string) cbDetailJSON {
	t.Helper()
	r := b.do(t, "GET", "/api/cookbooks/"+id.String()+query, nil, tok)
	wantStatus(t, r, 200)
	var d cbDetailJSON
	r.JSON(t, &d)
	return d
}

func recipeTitles(items []RecipeSummary) []string {
	out := []string{}
	for _, r := range items {
		out = append(out, r.Title)
	}
	slices.Sort(out)
	return out
}

func TestCookbookCRUDRoutes(t *testing.T) {
	t.Parallel()
	b := setup(t)
	me, tok := b.user(t, repo.RoleUser)
	_, otherTok := b.user(t, repo.RoleUser)
	_, adminTok := b.user(t, repo.RoleAdmin)

	// Arrays are [] when unset, never null.
	r := b.do(t, "POST", "/api/cookbooks", map[string]any{"name": "  Weeknights  "}, tok)
	wantStatus(t, r, 201)
	for _, field := range []string{`"tags":[]`, `"autoFilterCategories":[]`, `"autoFilterTags":[]`, `"imageUrl":null`, `"imageVariants":{}`, `"description":""`} {
		if !strings.Contains(string(r.Body), field) {
			t.Errorf("created cookbook lacks %s: %s", field, r.Body)
		}
	}
	var plain Cookbook
	r.JSON(t, &plain)
	if plain.Name != "Weeknights" || plain.OwnerID != me.ID {
		t.Fatalf("created %+v", plain)
	}

	// Labels are cleaned as a recipe's: trimmed, empty ones dropped, a
	// repeat (ignoring case) kept once with its first spelling.
	cb := cbCreate(t, b, tok, map[string]any{"name": "Baking", "description": "Bread and cakes",
		"tags": []string{"oven", "Oven", " sweet ", " "}, "autoFilterCategories": []string{"Dessert"}, "autoFilterTags": []string{"cake"}})
	if !slices.Equal(cb.Tags, []string{"oven", "sweet"}) || !slices.Equal(cb.AutoFilterCategories, []string{"Dessert"}) {
		t.Fatalf("created %+v", cb)
	}

	bad := []struct {
		name  string
		body  any
		field string
	}{
		{"no name", map[string]any{"description": "x"}, "name"},
		{"blank name", map[string]any{"name": "   "}, "name"},
		{"long name", map[string]any{"name": strings.Repeat("n", 201)}, "name"},
		{"long filter", map[string]any{"name": "x", "autoFilterTags": []string{"ok", strings.Repeat("t", 101)}}, "autoFilterTags[1]"},
		{"too many", map[string]any{"name": "x", "autoFilterCategories": func() []string {
			var s []string
			for i := range 31 {
				s = append(s, fmt.Sprint("c", i))
			}
			return s
		}()}, "autoFilterCategories"},
		{"wrong type", `{"name": "x", "tags": "oven"}`, "tags"},
	}
	for _, tt := range bad {
		r := b.do(t, "POST", "/api/cookbooks", tt.body, tok)
		var e struct {
			Error struct{ Fields map[string]string } `json:"error"`
		}
		r.JSON(t, &e)
		if r.Status != 400 || e.Error.Fields[tt.field] == "" {
			t.Errorf("%s: %d %s", tt.name, r.Status, r.Body)
		}
	}
	var count int
	if err := b.db.QueryRow(context.Background(), `SELECT count(*) FROM cookbook`).Scan(&count); err != nil || count != 2 {
		t.Fatalf("%d cookbooks after the refused creates (%v)", count, err)
	}

	// PUT: name required; left-out fields keep their value.
	r = b.do(t, "PUT", "/api/cookbooks/"+cb.ID.String(), map[string]any{"name": "Baking day", "tags": []string{}}, tok)
	wantStatus(t, r, 200)
	var upd Cookbook
	r.JSON(t, &upd)
	if upd.Name != "Baking day" || upd.Description != "Bread and cakes" || len(upd.Tags) != 0 || upd.Tags == nil ||
		!slices.Equal(upd.AutoFilterTags, []string{"cake"}) || !upd.UpdatedAt.After(cb.UpdatedAt) {
		t.Fatalf("updated %+v", upd)
	}
	wantStatus(t, b.do(t, "PUT", "/api/cookbooks/"+cb.ID.String(), map[string]any{"description": "no name"}, tok), 400)

	r = b.do(t, "PUT", "/api/cookbooks/"+cb.ID.String()+"/auto-filters",
		map[string]any{"autoFilterCategories": []string{"Bread", "bread", "Cake"}}, tok)
	wantStatus(t, r, 200)
	r.JSON(t, &upd)
	if !slices.Equal(upd.AutoFilterCategories, []string{"Bread", "Cake"}) || !slices.Equal(upd.AutoFilterTags, []string{"cake"}) || upd.Name != "Baking day" {
		t.Fatalf("auto-filters %+v", upd)
	}
	r = b.do(t, "PUT", "/api/cookbooks/"+cb.ID.String()+"/auto-filters", map[string]any{"autoFilterTags": []string{}}, tok)
	wantStatus(t, r, 200)
	r.JSON(t, &upd)
	if len(upd.AutoFilterTags) != 0 || len(upd.AutoFilterCategories) != 2 {
		t.Fatalf("cleared tags %+v", upd)
	}
	wantStatus(t, b.do(t, "PUT", "/api/cookbooks/"+cb.ID.String()+"/auto-filters", map[string]any{}, tok), 400)

	// GET: the owner and an ADMIN; anyone else 404, like a cookbook that does not exist.
	d := cbGet(t, b, tok, cb.ID, "")
	if d.Name != "Baking day" || d.Recipes.Items == nil || d.Cookbooks == nil || d.RecipeIDs == nil || d.CookbookIDs == nil {
		t.Fatalf("detail %+v", d)
	}
	cbGet(t, b, adminTok, cb.ID, "")
	for _, p := range []string{cb.ID.String(), uuid.NewString(), "not-a-uuid"} {
		if r := b.do(t, "GET", "/api/cookbooks/"+p, nil, otherTok); r.Status != 404 || r.ErrorCode() != "not_found" {
			t.Errorf("other user, %s: %d %s", p, r.Status, r.Body)
		}
	}
	wantStatus(t, b.do(t, "PUT", "/api/cookbooks/"+cb.ID.String(), map[string]any{"name": "Mine now"}, otherTok), 404)
	wantStatus(t, b.do(t, "DELETE", "/api/cookbooks/"+cb.ID.String(), nil, otherTok), 404)
	if got, _ := repo.GetCookbook(context.Background(), b.db, cb.ID); got.Name != "Baking day" {
		t.Fatalf("another user changed the cookbook: %+v", got)
	}

	wantStatus(t, b.do(t, "DELETE", "/api/cookbooks/"+cb.ID.String(), nil, tok), 204)
	wantStatus(t, b.do(t, "GET", "/api/cookbooks/"+cb.ID.String(), nil, tok), 404)
	wantStatus(t, b.do(t, "DELETE", "/api/cookbooks/"+cb.ID.String(), nil, tok), 404)
}

func TestListCookbooksRoute(t *testing.T) {
	t.Parallel()
	b := setup(t)
	_, tok := b.user(t, repo.RoleUser)
	_, otherTok := b.user(t, repo.RoleUser)
	cbCreate(t, b, otherTok, map[string]any{"name": "Not mine"})
	for i := range 5 {
		cbCreate(t, b, tok, map[string]any{"name": fmt.Sprint("Mine ", i)})
	}
	var names []string
	next := ""
	for range 10 {
		q := "?limit=2&owner=me"
		if next != "" {
			q += "&cursor=" + url.QueryEscape(next)
		}
		r := b.do(t, "GET", "/api/cookbooks"+q, nil, tok)
		wantStatus(t, r, 200)
		var page struct {
			Items      []Cookbook `json:"items"`
			NextCursor *string    `json:"nextCursor"`
			Total      int        `json:"total"`
		}
		r.JSON(t, &page)
		if page.Total != 5 || len(page.Items) > 2 {
			t.Fatalf("page %+v", page)
		}
		for _, cb := range page.Items {
			names = append(names, cb.Name)
		}
		if page.NextCursor == nil {
			break
		}
		next = *page.NextCursor
	}
	// Newest first.
	if !slices.Equal(names, []string{"Mine 4", "Mine 3", "Mine 2", "Mine 1", "Mine 0"}) {
		t.Fatalf("listed %v", names)
	}
	if r := b.do(t, "GET", "/api/cookbooks", nil, tok); !strings.Contains(string(r.Body), `"total":5`) {
		t.Fatalf("default page: %s", r.Body)
	}
	for _, q := range []string{"?limit=0", "?limit=101", "?limit=x", "?cursor=nonsense", "?owner=someone"} {
		if r := b.do(t, "GET", "/api/cookbooks"+q, nil, tok); r.Status != 400 || r.ErrorCode() != "validation_failed" {
			t.Errorf("%s: %d %s", q, r.Status, r.Body)
		}
	}
}

func TestCookbookMembershipRoutes(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	me, tok := b.user(t, repo.RoleUser)
	other, otherTok := b.user(t, repo.RoleUser)
	_, adminTok := b.user(t, repo.RoleAdmin)

	stew := cbRecipe(t, b, me.ID, "Stew", repo.VisibilityPrivate, []string{"Dinner"}, nil)
	cake := cbRecipe(t, b, me.ID, "Cake", repo.VisibilityPrivate, nil, []string{"Sweet"})
	theirPublic := cbRecipe(t, b, other.ID, "Their pie", repo.VisibilityPublic, nil, nil)
	theirPrivate := cbRecipe(t, b, other.ID, "Their secret", repo.VisibilityPrivate, []string{"dinner"}, []string{"sweet"})

	parent := cbCreate(t, b, tok, map[string]any{"name": "Parent", "autoFilterCategories": []string{"DINNER"}})
	child := cbCreate(t, b, tok, map[string]any{"name": "Child", "autoFilterTags": []string{"SWEET"}})
	tagged := cbCreate(t, b, tok, map[string]any{"name": "Tagged", "tags": []string{"Party"}})
	theirs := cbCreate(t, b, otherTok, map[string]any{"name": "Theirs", "tags": []string{"party"}})
	p := "/api/cookbooks/" + parent.ID.String()

	wantStatus(t, b.do(t, "PUT", p+"/recipes/"+theirPublic.String(), nil, tok), 204)
	wantStatus(t, b.do(t, "PUT", p+"/recipes/"+theirPublic.String(), nil, tok), 204) // again: no change
	wantStatus(t, b.do(t, "PUT", p+"/recipes/"+stew.String(), nil, tok), 204)
	for _, id := range []string{theirPrivate.String(), uuid.NewString(), "x"} {
		if r := b.do(t, "PUT", p+"/recipes/"+id, nil, tok); r.Status != 404 {
			t.Errorf("adding recipe %s: %d %s", id, r.Status, r.Body)
		}
	}
	wantStatus(t, b.do(t, "PUT", p+"/cookbooks/"+child.ID.String(), nil, tok), 204)
	wantStatus(t, b.do(t, "PUT", p+"/cookbooks/"+child.ID.String(), nil, tok), 204)
	wantStatus(t, b.do(t, "PUT", "/api/cookbooks/"+child.ID.String()+"/recipes/"+cake.String(), nil, tok), 204)

	// Cycles: itself, and the parent in its child.
	for _, path := range []string{p + "/cookbooks/" + parent.ID.String(), "/api/cookbooks/" + child.ID.String() + "/cookbooks/" + parent.ID.String()} {
		if r := b.do(t, "PUT", path, nil, tok); r.Status != 409 || r.ErrorCode() != "conflict" {
			t.Errorf("%s: %d %s", path, r.Status, r.Body)
		}
	}
	// Another user's cookbook cannot be included (404: not visible); an
	// ADMIN sees it, but cookbooks of two owners never mix.
	wantStatus(t, b.do(t, "PUT", p+"/cookbooks/"+theirs.ID.String(), nil, tok), 404)
	if r := b.do(t, "PUT", p+"/cookbooks/"+theirs.ID.String(), nil, adminTok); r.Status != 400 {
		t.Errorf("admin mixing owners: %d %s", r.Status, r.Body)
	}

	// Automatic inclusion by tag: only the owner's own cookbooks.
	wantStatus(t, b.do(t, "PUT", p+"/auto-filters", map[string]any{"autoFilterTags": []string{"party"}}, tok), 200)
	d := cbGet(t, b, tok, parent.ID, "")
	want := []string{"Cake", "Stew", "Their pie"}
	if got := recipeTitles(d.Recipes.Items); !slices.Equal(got, want) || d.Recipes.Total != 3 {
		t.Fatalf("recipes %v (total %d), want %v", got, d.Recipes.Total, want)
	}
	var included []string
	for _, c := range d.Cookbooks {
		included = append(included, c.Name)
	}
	if !slices.Equal(included, []string{"Child", "Tagged"}) || !slices.Equal(d.CookbookIDs, []uuid.UUID{child.ID}) {
		t.Fatalf("included %v, direct %v", included, d.CookbookIDs)
	}
	slices.SortFunc(d.RecipeIDs, func(a, b uuid.UUID) int { return strings.Compare(a.String(), b.String()) })
	wantDirect := []uuid.UUID{stew, theirPublic}
	slices.SortFunc(wantDirect, func(a, b uuid.UUID) int { return strings.Compare(a.String(), b.String()) })
	if !slices.Equal(d.RecipeIDs, wantDirect) {
		t.Fatalf("recipeIds %v, want %v", d.RecipeIDs, wantDirect)
	}
	// The recipe items have the Recipe fields of a list.
	for _, it := range d.Recipes.Items {
		if it.Title == "Their pie" && (it.OwnerID != other.ID || it.Visibility != "PUBLIC" || it.Categories == nil || it.Tags == nil) {
			t.Fatalf("item %+v", it)
		}
	}
	// An ADMIN reads the cookbook with their own visibility: everything.
	wantStatus(t, b.do(t, "PUT", p+"/recipes/"+theirPrivate.String(), nil, adminTok), 204)
	if got := recipeTitles(cbGet(t, b, adminTok, parent.ID, "").Recipes.Items); len(got) != 4 {
		t.Fatalf("admin sees %v", got)
	}
	// The owner still does not see the other user's private recipe.
	if got := recipeTitles(cbGet(t, b, tok, parent.ID, "").Recipes.Items); !slices.Equal(got, want) {
		t.Fatalf("after the admin's addition the owner sees %v", got)
	}

	// Removal.
	wantStatus(t, b.do(t, "DELETE", p+"/recipes/"+theirPublic.String(), nil, tok), 204)
	wantStatus(t, b.do(t, "DELETE", p+"/recipes/"+theirPublic.String(), nil, tok), 404)
	wantStatus(t, b.do(t, "DELETE", p+"/recipes/"+cake.String(), nil, tok), 404) // only in the child
	wantStatus(t, b.do(t, "DELETE", p+"/cookbooks/"+child.ID.String(), nil, tok), 204)
	wantStatus(t, b.do(t, "DELETE", p+"/cookbooks/"+child.ID.String(), nil, tok), 404)
	wantStatus(t, b.do(t, "DELETE", p+"/cookbooks/"+tagged.ID.String(), nil, tok), 404) // included by tag only
	if got := recipeTitles(cbGet(t, b, tok, parent.ID, "").Recipes.Items); !slices.Equal(got, []string{"Stew"}) {
		t.Fatalf("after removals: %v", got)
	}
	// Other users touch nothing.
	wantStatus(t, b.do(t, "PUT", p+"/recipes/"+theirPublic.String(), nil, otherTok), 404)
	wantStatus(t, b.do(t, "DELETE", p+"/recipes/"+stew.String(), nil, otherTok), 404)

	// Deleting the parent keeps the child and the recipes.
	wantStatus(t, b.do(t, "PUT", p+"/cookbooks/"+child.ID.String(), nil, tok), 204)
	wantStatus(t, b.do(t, "DELETE", p, nil, tok), 204)
	if got := recipeTitles(cbGet(t, b, tok, child.ID, "").Recipes.Items); !slices.Equal(got, []string{"Cake"}) {
		t.Fatalf("child after the parent's deletion: %v", got)
	}
	if _, err := repo.GetRecipe(ctx, b.db, stew, repo.Viewer{UserID: &me.ID}); err != nil {
		t.Fatalf("recipe after its cookbook's deletion: %v", err)
	}
}

func TestCookbookRecipesPagingRoutes(t *testing.T) {
	t.Parallel()
	b := setup(t)
	me, tok := b.user(t, repo.RoleUser)
	cb := cbCreate(t, b, tok, map[string]any{"name": "Soups", "autoFilterCategories": []string{"soup"}})
	var want []string
	for i := range 13 {
		title := fmt.Sprintf("Soup %02d", i)
		cbRecipe(t, b, me.ID, title, repo.VisibilityPrivate, []string{"Soup"}, nil)
		want = append([]string{title}, want...)
	}
	// The first page comes with the cookbook, the next from /recipes.
	d := cbGet(t, b, tok, cb.ID, "?limit=5")
	var got []string
	for _, it := range d.Recipes.Items {
		got = append(got, it.Title)
	}
	next := d.Recipes.NextCursor
	for next != nil {
		r := b.do(t, "GET", "/api/cookbooks/"+cb.ID.String()+"/recipes?limit=5&cursor="+url.QueryEscape(*next), nil, tok)
		wantStatus(t, r, 200)
		var page cookbookRecipePage
		r.JSON(t, &page)
		if page.Total != 13 || len(page.Items) > 5 {
			t.Fatalf("page %+v", page)
		}
		for _, it := range page.Items {
			got = append(got, it.Title)
		}
		next = page.NextCursor
	}
	if !slices.Equal(got, want) || d.Recipes.Total != 13 {
		t.Fatalf("pages gave %v (total %d)", got, d.Recipes.Total)
	}
	// GET /:id with a cursor pages too.
	d2 := cbGet(t, b, tok, cb.ID, "?limit=5&cursor="+url.QueryEscape(*d.Recipes.NextCursor))
	if len(d2.Recipes.Items) != 5 || d2.Recipes.Items[0].Title != want[5] {
		t.Fatalf("second page through GET /:id: %+v", d2.Recipes.Items)
	}
	for _, q := range []string{"?limit=0", "?limit=500", "?cursor=%%%", "?cursor=bm90LWEtY3Vyc29y"} {
		if r := b.do(t, "GET", "/api/cookbooks/"+cb.ID.String()+"/recipes"+q, nil, tok); r.Status != 400 {
			t.Errorf("%s: %d %s", q, r.Status, r.Body)
		}
	}
}

// A⊃B and B⊃A sent at the same time, over real connections: never both.
func TestIncludeCookbookRaceRoute(t *testing.T) {
	t.Parallel()
	b := setup(t)
	base := b.serve(t)
	_, tok := b.user(t, repo.RoleUser)
	client := &http.Client{Timeout: 30 * time.Second}
	put := func(parent, child uuid.UUID) int {
		req, _ := http.NewRequest("PUT", base+"/api/cookbooks/"+parent.String()+"/cookbooks/"+child.String(), nil)
		req.Header.Set("Authorization", "Bearer "+tok)
		resp, err := client.Do(req)
		if err != nil {
			t.Error(err)
			return 0
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	for round := range 20 {
		a := cbCreate(t, b, tok, map[string]any{"name": "A"})
		c := cbCreate(t, b, tok, map[string]any{"name": "B"})
		var wg sync.WaitGroup
		start := make(chan struct{})
		codes := make([]int, 2)
		for i, pair := range [][2]uuid.UUID{{a.ID, c.ID}, {c.ID, a.ID}} {
			wg.Go(func() {
				<-start
				codes[i] = put(pair[0], pair[1])
			})
		}
		close(start)
		wg.Wait()
		slices.Sort(codes)
		if codes[0] != 204 || codes[1] != 409 {
			t.Fatalf("round %d: statuses %v, want one 204 and one 409", round, codes)
		}
	}
}

func cbPNG(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.NRGBA{uint8(3 * x), uint8(5 * y), 120, 255})
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// cbMultipart builds a multipart body with one file field.
func cbMultipart(t *testing.T, field, filename string, content []byte) ([]byte, string) {
	t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	part, err := w.CreateFormFile(field, filename)
	if err != nil {
		t.Fatal(err)
	}
	part.Write(content)
	w.Close()
	return buf.Bytes(), w.FormDataContentType()
}

func TestCookbookImageUploadRoutes(t *testing.T) {
	t.Parallel()
	b := setup(t)
	_, tok := b.user(t, repo.RoleUser)
	_, otherTok := b.user(t, repo.RoleUser)
	cb := cbCreate(t, b, tok, map[string]any{"name": "Covers"})
	p := "/api/cookbooks/" + cb.ID.String() + "/image"
	upload := func(tok, field, name string, content []byte) response {
		body, ct := cbMultipart(t, field, name, content)
		return b.do(t, "POST", p, body, tok, "Content-Type", ct)
	}
	stored := func(imageURL *string) string {
		if imageURL == nil || !strings.HasPrefix(*imageURL, "/uploads/cookbooks/") {
			t.Fatalf("imageUrl %v", imageURL)
		}
		return filepath.Join(b.deps.Config.UploadPath, uploadKey(*imageURL))
	}

	// Named .txt and sent as text: the bytes decide.
	r := upload(tok, "image", "notes.txt", cbPNG(t, 60, 40))
	wantStatus(t, r, 200)
	var first Cookbook
	r.JSON(t, &first)
	firstFile := stored(first.ImageURL)
	// Served, and re-encoded (an opaque image becomes a JPEG).
	got := b.do(t, "GET", *first.ImageURL, nil, "")
	wantStatus(t, got, 200)
	if !bytes.HasPrefix(got.Body, []byte{0xFF, 0xD8, 0xFF}) {
		t.Fatalf("served %q…", got.Body[:min(8, len(got.Body))])
	}

	// Replacing deletes the old file.
	r = upload(tok, "image", "cover.png", cbPNG(t, 30, 30))
	wantStatus(t, r, 200)
	var second Cookbook
	r.JSON(t, &second)
	secondFile := stored(second.ImageURL)
	if secondFile == firstFile {
		t.Fatal("the new image has the old key")
	}
	if _, err := os.Stat(firstFile); !os.IsNotExist(err) {
		t.Fatalf("old file still there: %v", err)
	}
	if _, err := os.Stat(secondFile); err != nil {
		t.Fatal(err)
	}

	refusals := []struct {
		name   string
		resp   func() response
		status int
		code   string
	}{
		{"not an image", func() response { return upload(tok, "image", "cover.png", []byte("<html>hello</html>")) }, 415, "unsupported_media_type"},
		{"an image followed by a script", func() response {
			return upload(tok, "image", "cover.png", append(cbPNG(t, 8, 8), "<script>alert(1)</script>"...))
		}, 415, "unsupported_media_type"},
		{"too big", func() response { return upload(tok, "image", "big.png", make([]byte, MaxImageBytes+1)) }, 413, "payload_too_large"},
		{"wrong field", func() response { return upload(tok, "file", "cover.png", cbPNG(t, 8, 8)) }, 400, "validation_failed"},
		{"not multipart", func() response { return b.do(t, "POST", p, cbPNG(t, 8, 8), tok, "Content-Type", "image/png") }, 415, "unsupported_media_type"},
		{"another user", func() response { return upload(otherTok, "image", "cover.png", cbPNG(t, 8, 8)) }, 404, "not_found"},
	}
	for _, tt := range refusals {
		if r := tt.resp(); r.Status != tt.status || r.ErrorCode() != tt.code {
			t.Errorf("%s: %d %s", tt.name, r.Status, r.Body)
		}
	}
	// Nothing changed: the image and the stored files are those of before.
	if now, _ := repo.GetCookbook(context.Background(), b.db, cb.ID); now.ImageKey == nil || *now.ImageKey != uploadKey(*second.ImageURL) {
		t.Fatalf("image after refusals: %v", now.ImageKey)
	}
	files := 0
	filepath.WalkDir(b.deps.Config.UploadPath, func(_ string, d os.DirEntry, _ error) error {
		if d != nil && !d.IsDir() {
			files++
		}
		return nil
	})
	if files != 1 {
		t.Fatalf("%d files stored", files)
	}

	// DELETE removes the image and its file; again is fine.
	wantStatus(t, b.do(t, "DELETE", p, nil, otherTok), 404)
	wantStatus(t, b.do(t, "DELETE", p, nil, tok), 204)
	if _, err := os.Stat(secondFile); !os.IsNotExist(err) {
		t.Fatalf("file still there after DELETE: %v", err)
	}
	if d := cbGet(t, b, tok, cb.ID, ""); d.ImageURL != nil {
		t.Fatalf("imageUrl %v after DELETE", *d.ImageURL)
	}
	wantStatus(t, b.do(t, "DELETE", p, nil, tok), 204)

	// Deleting the cookbook deletes its image file.
	r = upload(tok, "image", "cover.png", cbPNG(t, 10, 10))
	wantStatus(t, r, 200)
	var third Cookbook
	r.JSON(t, &third)
	wantStatus(t, b.do(t, "DELETE", "/api/cookbooks/"+cb.ID.String(), nil, tok), 204)
	if _, err := os.Stat(stored(third.ImageURL)); !os.IsNotExist(err) {
		t.Fatalf("file still there after deleting the cookbook: %v", err)
	}
}

// The image job makes a cookbook image's renditions as it does a recipe
// image's: the cookbook shows them as imageVariants wherever it is shown,
// they are served, and they go with the image when it is replaced or
// removed and when the cookbook is deleted.
func TestCookbookImageVariants(t *testing.T) {
	t.Parallel()
	b := setup(t)
	_, tok := b.user(t, repo.RoleUser)
	startImageWorkers(t, b)
	cb := cbCreate(t, b, tok, map[string]any{"name": "Covers"})
	parent := cbCreate(t, b, tok, map[string]any{"name": "Shelf"})
	wantStatus(t, b.do(t, "PUT", "/api/cookbooks/"+parent.ID.String()+"/cookbooks/"+cb.ID.String(), nil, tok), 204)
	upload := func(pic []byte) Cookbook {
		t.Helper()
		body, ct := cbMultipart(t, "image", "cover.jpg", pic)
		r := b.do(t, "POST", "/api/cookbooks/"+cb.ID.String()+"/image", body, tok, "Content-Type", ct)
		wantStatus(t, r, 200)
		var got Cookbook
		r.JSON(t, &got)
		waitImageProcessed(t, b, tok, got.ImageURL)
		return cbGet(t, b, tok, cb.ID, "").Cookbook
	}
	wantFiles := func(want ...string) {
		t.Helper()
		for i, u := range want {
			want[i] = uploadKey(u)
		}
		slices.Sort(want)
		if got := rcFiles(t, b); !slices.Equal(got, want) {
			t.Fatalf("stored files %v, want %v", got, want)
		}
	}

	first := upload(quadrantJPEG(t, 1000, 600))
	for name, width := range map[string]int{"thumb": 320, "medium": 800} {
		u := first.ImageVariants[name]
		if !strings.HasPrefix(uploadKey(u), strings.TrimSuffix(uploadKey(*first.ImageURL), ".jpg")+"_") {
			t.Fatalf("%s: %q next to %q", name, u, *first.ImageURL)
		}
		r := b.do(t, "GET", u, nil, "")
		wantStatus(t, r, 200)
		cfg, err := jpeg.DecodeConfig(bytes.NewReader(r.Body))
		if err != nil || cfg.Width != width || cfg.Height != width*600/1000 {
			t.Fatalf("%s: %+v %v", name, cfg, err)
		}
	}
	wantFiles(*first.ImageURL, first.ImageVariants["thumb"], first.ImageVariants["medium"])
	// The list and the including cookbook show them too.
	var list cookbookListPage
	b.do(t, "GET", "/api/cookbooks", nil, tok).JSON(t, &list)
	for _, item := range list.Items {
		if item.ID == cb.ID && !maps.Equal(item.ImageVariants, first.ImageVariants) {
			t.Fatalf("listed with %v", item.ImageVariants)
		}
	}
	if d := cbGet(t, b, tok, parent.ID, ""); len(d.Cookbooks) != 1 || !maps.Equal(d.Cookbooks[0].ImageVariants, first.ImageVariants) {
		t.Fatalf("included %+v", d.Cookbooks)
	}

	// A new image replaces the old one and its renditions.
	second := upload(quadrantJPEG(t, 600, 400))
	if *second.ImageURL == *first.ImageURL || len(second.ImageVariants) != 2 {
		t.Fatalf("second image %v %v", *second.ImageURL, second.ImageVariants)
	}
	wantFiles(*second.ImageURL, second.ImageVariants["thumb"], second.ImageVariants["medium"])

	// Removing the image removes them all.
	wantStatus(t, b.do(t, "DELETE", "/api/cookbooks/"+cb.ID.String()+"/image", nil, tok), 204)
	if d := cbGet(t, b, tok, cb.ID, ""); d.ImageURL != nil || d.ImageVariants == nil || len(d.ImageVariants) != 0 {
		t.Fatalf("after DELETE: %v %v", d.ImageURL, d.ImageVariants)
	}
	wantFiles()

	// So does deleting the cookbook.
	upload(quadrantJPEG(t, 500, 500))
	if files := rcFiles(t, b); len(files) != 3 {
		t.Fatalf("files %v", files)
	}
	wantStatus(t, b.do(t, "DELETE", "/api/cookbooks/"+cb.ID.String(), nil, tok), 204)
	wantFiles()
}

// waitImageProcessed waits for the image_process job of the image served at
// imageURL (enqueued with it) and wants it completed.
func waitImageProcessed(t *testing.T, b *testBundle, tok string, imageURL *string) {
	t.Helper()
	if imageURL == nil {
		t.Fatal("no image")
	}
	var id uuid.UUID
	if err := b.db.QueryRow(context.Background(), `SELECT j.id FROM app_job j JOIN river_job r ON r.id = j.river_job_id
		WHERE r.kind = 'image_process' AND r.args->>'imageKey' = $1`, uploadKey(*imageURL)).Scan(&id); err != nil {
		t.Fatalf("no image_process job for %s: %v", *imageURL, err)
	}
	if j := finishedJob(t, b, tok, id); j.State != "completed" {
		t.Fatalf("image_process job %+v", j)
	}
}

func TestCookbookImageFromURLRoute(t *testing.T) {
	t.Parallel()
	b := setup(t)
	_, tok := b.user(t, repo.RoleUser)
	cb := cbCreate(t, b, tok, map[string]any{"name": "Covers"})
	p := "/api/cookbooks/" + cb.ID.String() + "/image/from-url"

	r := b.do(t, "POST", p, map[string]any{"url": "https://images.example.com/cover.jpg"}, tok)
	wantStatus(t, r, 202)
	var acc struct{ Job Job }
	r.JSON(t, &acc)
	if acc.Job.Kind != "cookbook_image_download" || acc.Job.State != "queued" {
		t.Fatalf("job %+v", acc.Job)
	}
	wantStatus(t, b.do(t, "GET", "/api/jobs/"+acc.Job.ID.String(), nil, tok), 200)
	var args string
	if err := b.db.QueryRow(context.Background(), `SELECT r.args::text FROM river_job r JOIN app_job j ON j.river_job_id = r.id
		WHERE j.id = $1`, acc.Job.ID).Scan(&args); err != nil || !strings.Contains(args, cb.ID.String()) || !strings.Contains(args, "cover.jpg") {
		t.Fatalf("job args %s (%v)", args, err)
	}

	// Addresses that can never be fetched are refused at once, with no job.
	for _, u := range []string{"", "ftp://example.com/x.png", "not a url", "http://127.0.0.1/x.png", "http://169.254.169.254/latest/meta-data",
		"http://[::1]/x.png", "https://example.com/" + strings.Repeat("x", 2100)} {
		r := b.do(t, "POST", p, map[string]any{"url": u}, tok)
		var e struct {
			Error struct{ Fields map[string]string } `json:"error"`
		}
		r.JSON(t, &e)
		if r.Status != 400 || e.Error.Fields["url"] == "" {
			t.Errorf("%q: %d %s", u, r.Status, r.Body)
		}
	}
	var jobs int
	if err := b.db.QueryRow(context.Background(), `SELECT count(*) FROM app_job`).Scan(&jobs); err != nil || jobs != 1 {
		t.Fatalf("%d jobs (%v)", jobs, err)
	}
	wantStatus(t, b.do(t, "POST", "/api/cookbooks/"+uuid.NewString()+"/image/from-url", map[string]any{"url": "https://example.com/x.png"}, tok), 404)
}

// The whole path: the API queues the download, a real worker fetches the
// image from a test server (the fetcher may reach loopback here), and the
// cookbook shows it.
func TestCookbookImageFromURLEndToEnd(t *testing.T) {
	t.Parallel()
	pic := cbPNG(t, 48, 32)
	srv := newImageServer(t, pic)
	b := setup(t, func(d *Deps) { d.Config.ImportAllowPrivate = true })
	startImageWorkers(t, b)
	_, tok := b.user(t, repo.RoleUser)
	cb := cbCreate(t, b, tok, map[string]any{"name": "Covers"})

	r := b.do(t, "POST", "/api/cookbooks/"+cb.ID.String()+"/image/from-url", map[string]any{"url": srv + "/cover.png"}, tok)
	wantStatus(t, r, 202)
	var acc struct{ Job Job }
	r.JSON(t, &acc)
	j := finishedJob(t, b, tok, acc.Job.ID)
	if j.State != "completed" || !strings.Contains(string(j.Result), cb.ID.String()) {
		t.Fatalf("job %+v (result %s)", j, j.Result)
	}
	d := cbGet(t, b, tok, cb.ID, "")
	if d.ImageURL == nil {
		t.Fatal("no image after the job")
	}
	wantStatus(t, b.do(t, "GET", *d.ImageURL, nil, ""), 200)
	// Then, in a job of the caller's, its renditions.
	waitImageProcessed(t, b, tok, d.ImageURL)
	d = cbGet(t, b, tok, cb.ID, "")
	if len(d.ImageVariants) != 2 {
		t.Fatalf("variants %v", d.ImageVariants)
	}
	for _, u := range d.ImageVariants {
		wantStatus(t, b.do(t, "GET", u, nil, ""), 200)
	}

	r = b.do(t, "POST", "/api/cookbooks/"+cb.ID.String()+"/image/from-url", map[string]any{"url": srv + "/page.html"}, tok)
	wantStatus(t, r, 202)
	r.JSON(t, &acc)
	if j := finishedJob(t, b, tok, acc.Job.ID); j.State != "failed" || j.Error == nil || j.Error.Code != "not_an_image" {
		t.Fatalf("job %+v", j)
	}
	if again := cbGet(t, b, tok, cb.ID, ""); again.ImageURL == nil || *again.ImageURL != *d.ImageURL {
		t.Fatalf("a failed download changed the image: %v", again.ImageURL)
	}
}

// newImageServer serves pic at any path ending in .png and an HTML page
// elsewhere, on loopback; it returns the base URL.
func newImageServer(t *testing.T, pic []byte) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, ".png") {
			w.Header().Set("Content-Type", "image/png")
			w.Write(pic)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, "<!doctype html><title>not an image</title>")
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// startImageWorkers works the images queue of b's database with the real
// workers, storing files where b's app serves them.
func startImageWorkers(t *testing.T, b *testBundle) {
	t.Helper()
	deps := &jobs.Deps{DB: b.db, Logger: b.deps.Logger, Config: b.deps.Config,
		Files: filestore.Local{Root: b.deps.Config.UploadPath}, Fetcher: fetch.New(fetch.Options{AllowPrivate: true})}
	client, err := jobs.NewClient(b.db, b.deps.Logger, jobs.NewWorkers(deps), jobs.ClientConfig{
		Concurrency: map[string]int{config.QueueImages: 2},
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := client.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = jobs.Shutdown(client, 5*time.Second) })
}
