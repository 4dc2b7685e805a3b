package handlers

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"larder/repo"
	"larder/repo/repotest"
)

func slList(t *testing.T, b *testBundle, u repo.User, system string) uuid.UUID {
	t.Helper()
	id, err := repo.CreateShoppingList(context.Background(), b.db, u.ID, "Groceries", system)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func slItem(t *testing.T, b *testBundle, u repo.User, listID uuid.UUID) uuid.UUID {
	t.Helper()
	id := uuid.New()
	err := repo.SaveShoppingItem(context.Background(), b.db, repo.ShoppingItem{ID: id, ListID: listID, Text: "milk", Food: "milk",
		Aisle: "dairy", ChangedAt: time.Now()}, false)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func init() {
	list := func(suffix string, body any) func(*testing.T, *testBundle, repo.User) (string, any) {
		return func(t *testing.T, b *testBundle, u repo.User) (string, any) {
			return "/api/shopping-lists/" + slList(t, b, u, "metric").String() + suffix, body
		}
	}
	item := func(body any) func(*testing.T, *testBundle, repo.User) (string, any) {
		return func(t *testing.T, b *testBundle, u repo.User) (string, any) {
			l := slList(t, b, u, "metric")
			return "/api/shopping-lists/" + l.String() + "/items/" + slItem(t, b, u, l).String(), body
		}
	}
	addAuthz(
		authzCase{method: "GET", route: "/api/shopping-lists", want: ruleAuth},
		authzCase{method: "POST", route: "/api/shopping-lists", want: ruleAuth,
			prepare: func(*testing.T, *testBundle, repo.User) (string, any) {
				return "/api/shopping-lists", map[string]any{"name": "Weekly"}
			}},
		authzCase{method: "GET", route: "/api/shopping-lists/:id", want: ruleHousehold, prepare: list("", nil)},
		authzCase{method: "PATCH", route: "/api/shopping-lists/:id", want: ruleHousehold, prepare: list("", map[string]any{"name": "x"})},
		authzCase{method: "DELETE", route: "/api/shopping-lists/:id", want: ruleHousehold, prepare: list("", nil)},
		authzCase{method: "POST", route: "/api/shopping-lists/:id/members", want: ruleHousehold,
			prepare: func(t *testing.T, b *testBundle, u repo.User) (string, any) {
				friend := repotest.CreateUser(t, b.db, repo.RoleUser)
				return "/api/shopping-lists/" + slList(t, b, u, "metric").String() + "/members", map[string]any{"email": friend.Email}
			}},
		authzCase{method: "DELETE", route: "/api/shopping-lists/:id/members/:userId", want: ruleHousehold,
			prepare: func(t *testing.T, b *testBundle, u repo.User) (string, any) {
				friend := repotest.CreateUser(t, b.db, repo.RoleUser)
				l := slList(t, b, u, "metric")
				if _, err := repo.AddShoppingListMember(context.Background(), b.db, l, friend.ID); err != nil {
					t.Fatal(err)
				}
				return "/api/shopping-lists/" + l.String() + "/members/" + friend.ID.String(), nil
			}},
		authzCase{method: "POST", route: "/api/shopping-lists/:id/items", want: ruleHousehold, prepare: list("/items", map[string]any{"text": "bread"})},
		authzCase{method: "PATCH", route: "/api/shopping-lists/:id/items/:itemId", want: ruleHousehold, prepare: item(map[string]any{"checked": true})},
		authzCase{method: "DELETE", route: "/api/shopping-lists/:id/items/:itemId", want: ruleHousehold, prepare: item(nil)},
		authzCase{method: "POST", route: "/api/shopping-lists/:id/reorder", want: ruleHousehold, prepare: list("/reorder", map[string]any{"ids": []string{}})},
		authzCase{method: "POST", route: "/api/shopping-lists/:id/clear-checked", want: ruleHousehold, prepare: list("/clear-checked", nil)},
		authzCase{method: "POST", route: "/api/shopping-lists/:id/changes", want: ruleHousehold, prepare: list("/changes", map[string]any{"changes": []any{}})},
		authzCase{method: "POST", route: "/api/shopping-lists/:id/recipes", want: ruleHousehold,
			prepare: func(t *testing.T, b *testBundle, u repo.User) (string, any) {
				r := mpRecipe(t, b, u.ID, "Public soup", repo.VisibilityPublic, 2, "1 l stock")
				return "/api/shopping-lists/" + slList(t, b, u, "metric").String() + "/recipes", map[string]any{"recipeId": r}
			}},
		authzCase{method: "DELETE", route: "/api/shopping-lists/:id/recipes/:recipeId", want: ruleHousehold,
			prepare: func(t *testing.T, b *testBundle, u repo.User) (string, any) {
				r := mpRecipe(t, b, u.ID, "Soup", repo.VisibilityPrivate, 2, "1 l stock")
				l := slList(t, b, u, "metric")
				err := repo.SaveShoppingItem(context.Background(), b.db, repo.ShoppingItem{ID: uuid.New(), ListID: l, Text: "stock", Aisle: "pantry",
					ChangedAt: time.Now(), Sources: []repo.ItemSource{{RecipeID: &r, Line: "1 l stock"}}}, true)
				if err != nil {
					t.Fatal(err)
				}
				return "/api/shopping-lists/" + l.String() + "/recipes/" + r.String(), nil
			}},
		authzCase{method: "POST", route: "/api/shopping-lists/:id/plan", want: ruleHousehold, prepare: list("/plan", map[string]any{"from": "2026-03-02", "to": "2026-03-08"})},
		// Without live updates (the test app has none) the stream is a 503 to those who may open it.
		authzCase{method: "GET", route: "/api/shopping-lists/:id/events", want: ruleHousehold, prepare: list("/events", nil)},
	)
}

// slGet reads a list through the API.
func slGet(t *testing.T, b *testBundle, tok string, id uuid.UUID) ShoppingList {
	t.Helper()
	r := b.do(t, "GET", "/api/shopping-lists/"+id.String(), nil, tok)
	wantStatus(t, r, 200)
	var l ShoppingList
	r.JSON(t, &l)
	return l
}

func slFind(l ShoppingList, text string) *ShoppingItem {
	for i := range l.Items {
		if l.Items[i].Text == text {
			return &l.Items[i]
		}
	}
	return nil
}

func TestShoppingListFromRecipesAndPlan(t *testing.T) {
	t.Parallel()
	b := setup(t)
	u, tok := b.user(t, repo.RoleUser)
	pancakes := mpRecipe(t, b, u.ID, "Pancakes", repo.VisibilityPrivate, 4, "1 cup milk", "2 large eggs, beaten", "salt to taste")
	sauce := mpRecipe(t, b, u.ID, "Sauce", repo.VisibilityPrivate, 2, "200 ml milk", "1 red onion", "2 onions", "1 orange sanguine")

	r := b.do(t, "POST", "/api/shopping-lists", map[string]any{"name": "Week", "unitSystem": "metric"}, tok)
	wantStatus(t, r, 201)
	var l ShoppingList
	r.JSON(t, &l)
	path := "/api/shopping-lists/" + l.ID.String()
	wantStatus(t, b.do(t, "POST", path+"/recipes", map[string]any{"recipeId": pancakes}, tok), 200)
	wantStatus(t, b.do(t, "POST", path+"/recipes", map[string]any{"recipeId": sauce}, tok), 200)
	l = slGet(t, b, tok, l.ID)
	milk := slFind(l, "milk")
	if milk == nil || milk.Quantity == nil || *milk.Quantity != 440 || milk.Unit != "ml" || len(milk.Sources) != 2 || milk.Aisle != "dairy" {
		t.Fatalf("milk: %+v", milk)
	}
	if len(l.Items) != 6 { // milk, eggs, salt, red onion, onions, orange sanguine
		t.Fatalf("items: %+v", l.Items)
	}
	// A count's name comes with the forms of its word, from the line's language: an English
	// name's word ("onion" in "red onion"), none for a French one; ml has one form.
	if o := slFind(l, "red onion"); o == nil || o.Word == nil || o.Word.Start != 4 || o.Word.End != 9 || o.Word.Other != "onions" {
		t.Fatalf("red onion: %+v", o)
	}
	if o := slFind(l, "orange sanguine"); o == nil || o.Word != nil {
		t.Fatalf("orange sanguine: %+v", o)
	}
	if milk.UnitForms != nil {
		t.Fatalf("ml has forms: %+v", milk.UnitForms)
	}
	// The US system shows the same milk in cups.
	wantStatus(t, b.do(t, "PATCH", path, map[string]any{"unitSystem": "us"}, tok), 200)
	l = slGet(t, b, tok, l.ID)
	if m := slFind(l, "milk"); *m.Quantity != 1.8 || m.Unit != "cup" || m.UnitForms == nil || *m.UnitForms != (UnitForms{One: "cup", Other: "cups"}) {
		t.Fatalf("US milk: %v %s %+v", *m.Quantity, m.Unit, m.UnitForms)
	}
	// Taking the pancakes off leaves the sauce's milk and drops the eggs.
	wantStatus(t, b.do(t, "DELETE", path+"/recipes/"+pancakes.String(), nil, tok), 200)
	l = slGet(t, b, tok, l.ID)
	if m := slFind(l, "milk"); m == nil || len(m.Sources) != 1 || slFind(l, "eggs") != nil {
		t.Fatalf("after removal: %+v", l.Items)
	}
	// A plan's week: the servings planned scale the lines (8 of 4 doubles).
	plan := mpDefaultPlan(t, b, u)
	eight := 8.0
	if _, err := repo.CreateMealPlanEntry(context.Background(), b.db, plan.ID, u.ID, repo.MealPlanEntryInput{Day: mustDay(t, "2026-03-03"), Meal: "breakfast", RecipeID: &pancakes, Servings: &eight}); err != nil {
		t.Fatal(err)
	}
	r = b.do(t, "POST", path+"/plan", map[string]any{"from": "2026-03-02", "to": "2026-03-08"}, tok)
	wantStatus(t, r, 200)
	r.JSON(t, &l)
	if e := slFind(l, "eggs"); e == nil || *e.Quantity != 4 {
		t.Fatalf("eggs from the plan: %+v", e)
	}
}

func TestShoppingValidationChangesNothing(t *testing.T) {
	t.Parallel()
	b := setup(t)
	u, tok := b.user(t, repo.RoleUser)
	other, _ := b.user(t, repo.RoleUser)
	theirs := mpRecipe(t, b, other.ID, "Theirs", repo.VisibilityPrivate, 2, "1 egg")
	mine := mpRecipe(t, b, u.ID, "Mine", repo.VisibilityPrivate, 2, "1 egg")
	l := slList(t, b, u, "metric")
	path := "/api/shopping-lists/" + l.String()
	long := strings.Repeat("x", 501)
	cases := []struct {
		method, path string
		body         any
	}{
		{"POST", path + "/recipes", map[string]any{"recipeId": uuid.New()}},
		{"POST", path + "/recipes", map[string]any{"recipeId": theirs}},
		{"POST", path + "/recipes", map[string]any{"recipeId": mine, "servings": -1}},
		{"POST", path + "/plan", map[string]any{"from": "2026-03-08", "to": "2026-03-01"}},
		{"POST", path + "/plan", map[string]any{"from": "2026-01-01", "to": "2026-12-31"}},
		{"POST", path + "/plan", map[string]any{"from": "soon", "to": "2026-12-31"}},
		{"POST", path + "/items", map[string]any{"text": long}},
		{"POST", path + "/items", map[string]any{"text": "  "}},
		{"POST", path + "/items", map[string]any{"text": "milk", "aisle": "garden"}},
		{"POST", path + "/changes", map[string]any{"changes": []any{map[string]any{"op": "add", "text": "ok"}, map[string]any{"op": "add", "text": long}}}},
		{"PATCH", path, map[string]any{"unitSystem": "imperial"}},
		{"PATCH", path, map[string]any{"name": long}},
		{"POST", "/api/shopping-lists", map[string]any{"name": long}},
	}
	for _, c := range cases {
		r := b.do(t, c.method, c.path, c.body, tok)
		if r.Status != 400 {
			t.Errorf("%s %s %v: %d %s", c.method, c.path, c.body, r.Status, r.Body)
		}
	}
	var items, lists int
	_ = b.db.QueryRow(context.Background(), `SELECT count(*) FROM shopping_item`).Scan(&items)
	_ = b.db.QueryRow(context.Background(), `SELECT count(*) FROM shopping_list`).Scan(&lists)
	if items != 0 || lists != 1 {
		t.Fatalf("bad input changed something: %d items, %d lists", items, lists)
	}
}

// The conflict rule of the OpenAPI document: last write per item wins by
// the client's time; a deleted item stays deleted; a replayed add is applied
// once; a time in the future counts as now.
func TestShoppingConflictRule(t *testing.T) {
	t.Parallel()
	b := setup(t)
	owner, ownerTok := b.user(t, repo.RoleUser)
	member, memberTok := b.user(t, repo.RoleUser)
	l := slList(t, b, owner, "metric")
	if _, err := repo.AddShoppingListMember(context.Background(), b.db, l, member.ID); err != nil {
		t.Fatal(err)
	}
	path := "/api/shopping-lists/" + l.String()
	base := time.Now().Add(-time.Hour).UTC()
	at := func(min int) string { return base.Add(time.Duration(min) * time.Minute).Format(time.RFC3339Nano) }

	// The member, offline, adds bread (their own id) and checks eggs.
	eggs, bread := uuid.New(), uuid.New()
	r := b.do(t, "POST", path+"/items", map[string]any{"id": eggs, "text": "6 eggs", "at": at(0)}, ownerTok)
	wantStatus(t, r, 201)
	// Meanwhile the owner unchecks eggs at minute 10 after checking at 5.
	wantStatus(t, b.do(t, "PATCH", path+"/items/"+eggs.String(), map[string]any{"checked": true, "at": at(5)}, ownerTok), 200)
	wantStatus(t, b.do(t, "PATCH", path+"/items/"+eggs.String(), map[string]any{"checked": false, "at": at(10)}, ownerTok), 200)
	queued := []map[string]any{
		{"op": "add", "id": bread, "text": "bread", "at": at(7)},
		{"op": "update", "id": eggs, "checked": true, "at": at(8)}, // older than the owner's uncheck: stale
		{"op": "update", "id": bread, "checked": true, "at": at(9)},
	}
	r = b.do(t, "POST", path+"/changes", map[string]any{"changes": queued}, memberTok)
	wantStatus(t, r, 200)
	var answer struct {
		Results []ChangeResult
		List    ShoppingList
	}
	r.JSON(t, &answer)
	if got := []string{answer.Results[0].Result, answer.Results[1].Result, answer.Results[2].Result}; strings.Join(got, ",") != "applied,stale,applied" {
		t.Fatalf("results %v", got)
	}
	if e := slFind(answer.List, "eggs"); e == nil || e.Checked {
		t.Fatalf("eggs: %+v", e)
	}
	if br := slFind(answer.List, "bread"); br == nil || !br.Checked || br.ID != bread {
		t.Fatalf("bread: %+v", br)
	}
	// Replaying the same queue (the answer was lost) adds nothing.
	r = b.do(t, "POST", path+"/changes", map[string]any{"changes": queued}, memberTok)
	r.JSON(t, &answer)
	if len(answer.List.Items) != 2 {
		t.Fatalf("replay doubled items: %+v", answer.List.Items)
	}
	// Deleted stays deleted, even for a later change.
	wantStatus(t, b.do(t, "DELETE", path+"/items/"+bread.String()+"?at="+at(20), nil, ownerTok), 204)
	r = b.do(t, "PATCH", path+"/items/"+bread.String(), map[string]any{"checked": false, "at": at(30)}, memberTok)
	wantStatus(t, r, 200)
	var one itemAnswer
	r.JSON(t, &one)
	if one.Result != "deleted" || !one.Item.Deleted {
		t.Fatalf("change to a deleted item: %s", r.Body)
	}
	r = b.do(t, "POST", path+"/changes", map[string]any{"changes": []any{map[string]any{"op": "add", "id": bread, "text": "bread", "at": at(40)}}}, memberTok)
	r.JSON(t, &answer)
	if slFind(answer.List, "bread") != nil {
		t.Fatal("a deleted item came back")
	}
	// A clock in the future does not win later changes.
	wantStatus(t, b.do(t, "PATCH", path+"/items/"+eggs.String(), map[string]any{"checked": true, "at": time.Now().Add(24 * time.Hour).Format(time.RFC3339)}, memberTok), 200)
	r = b.do(t, "PATCH", path+"/items/"+eggs.String(), map[string]any{"checked": false}, ownerTok)
	r.JSON(t, &one)
	if one.Result != "applied" || one.Item.Checked {
		t.Fatalf("a future time won: %s", r.Body)
	}
	// An aisle correction is remembered for the user's next lists.
	wantStatus(t, b.do(t, "PATCH", path+"/items/"+eggs.String(), map[string]any{"aisle": "pantry"}, ownerTok), 200)
	l2 := slList(t, b, owner, "metric")
	r = b.do(t, "POST", "/api/shopping-lists/"+l2.String()+"/items", map[string]any{"text": "12 eggs"}, ownerTok)
	r.JSON(t, &one)
	if one.Item.Aisle != "pantry" {
		t.Fatalf("aisle correction forgotten: %s", r.Body)
	}
}

// A change made through one app reaches a stream opened on another (two API
// instances on one database) through PostgreSQL notifications.
func TestShoppingListEventsAcrossInstances(t *testing.T) {
	t.Parallel()
	events := NewListEvents()
	b := setup(t, func(d *Deps) { d.ListEvents = events })
	// A deadline, so a missing event fails the test instead of hanging it.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	go events.Follow(ctx, func(ctx context.Context) (*pgx.Conn, error) {
		return pgx.ConnectConfig(ctx, b.db.Config().ConnConfig.Copy())
	}, b.deps.Logger)
	u, tok := b.user(t, repo.RoleUser)
	l := slList(t, b, u, "metric")
	base := b.serve(t)
	<-events.Listening()

	s := openLiveStream(t, ctx, base, l, tok)
	wait := func(event string) {
		t.Helper()
		for line := range s.lines {
			if line == "event: "+event {
				return
			}
		}
		t.Fatalf("the stream ended before %q", event)
	}
	wait("ready")
	other := b.do(t, "POST", "/api/shopping-lists/"+l.String()+"/items", map[string]any{"text": "milk"}, tok)
	wantStatus(t, other, 201)
	wait("change")
	// A change written by another instance or process (straight into the
	// database) arrives the same way.
	if _, err := b.db.Exec(context.Background(), `UPDATE shopping_item SET checked = true WHERE list_id = $1`, l); err != nil {
		t.Fatal(err)
	}
	wait("change")
}

// Members edit items; only the owner renames, shares or deletes; reorder
// and clear-checked keep every other item.
func TestShoppingMemberRightsReorderAndClear(t *testing.T) {
	t.Parallel()
	b := setup(t)
	owner, ownerTok := b.user(t, repo.RoleUser)
	member, memberTok := b.user(t, repo.RoleUser)
	l := slList(t, b, owner, "metric")
	path := "/api/shopping-lists/" + l.String()
	r := b.do(t, "POST", path+"/members", map[string]any{"email": member.Email}, ownerTok)
	wantStatus(t, r, 201)
	wantStatus(t, b.do(t, "POST", path+"/members", map[string]any{"email": owner.Email}, ownerTok), 400)
	for _, text := range []string{"bread", "2 l milk", "apples"} {
		wantStatus(t, b.do(t, "POST", path+"/items", map[string]any{"text": text}, memberTok), 201)
	}
	wantStatus(t, b.do(t, "PATCH", path, map[string]any{"name": "Ours"}, memberTok), 403)
	wantStatus(t, b.do(t, "DELETE", path, nil, memberTok), 403)
	wantStatus(t, b.do(t, "POST", path+"/members", map[string]any{"email": owner.Email}, memberTok), 403)

	lst := slGet(t, b, memberTok, l)
	milk := slFind(lst, "milk")
	if milk == nil || *milk.Quantity != 2 || milk.Unit != "l" || milk.Aisle != "dairy" {
		t.Fatalf("typed milk: %+v", milk)
	}
	apples := *slFind(lst, "apples") // a copy: lst is decoded again below
	r = b.do(t, "POST", path+"/reorder", map[string]any{"ids": []uuid.UUID{apples.ID}}, memberTok)
	wantStatus(t, r, 200)
	r.JSON(t, &lst)
	if lst.Items[0].Text != "apples" || len(lst.Items) != 3 {
		t.Fatalf("after reorder: %+v", lst.Items)
	}
	wantStatus(t, b.do(t, "POST", path+"/reorder", map[string]any{"ids": []uuid.UUID{uuid.New()}}, memberTok), 400)
	wantStatus(t, b.do(t, "PATCH", path+"/items/"+apples.ID.String(), map[string]any{"checked": true}, memberTok), 200)
	r = b.do(t, "POST", path+"/clear-checked", nil, ownerTok)
	wantStatus(t, r, 200)
	r.JSON(t, &lst)
	if len(lst.Items) != 2 || slFind(lst, "apples") != nil {
		t.Fatalf("after clearing: %+v", lst.Items)
	}
	wantStatus(t, b.do(t, "DELETE", path+"/recipes/"+uuid.NewString(), nil, ownerTok), 404)
	// The member leaves; the list is gone for them.
	wantStatus(t, b.do(t, "DELETE", path+"/members/"+member.ID.String(), nil, memberTok), 204)
	wantStatus(t, b.do(t, "GET", path, nil, memberTok), 404)
}
