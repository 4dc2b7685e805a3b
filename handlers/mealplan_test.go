package handlers

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"larder/repo"
	"larder/repo/repotest"
)

// ruleHousehold: a plan or list exists only for its owner and members;
// anyone else, administrators included, gets 404.
var ruleHousehold = map[string]int{anon: unauthorized, other: hidden, owner: allowed, admin: hidden}

// mpRecipe creates a recipe with ingredient lines directly in the database.
func mpRecipe(t *testing.T, b *testBundle, owner uuid.UUID, title, visibility string, servings int, lines ...string) uuid.UUID {
	t.Helper()
	items := make([]repo.Item, len(lines))
	for i, l := range lines {
		items[i] = repo.Item{Text: l}
	}
	id, err := repo.CreateRecipe(context.Background(), b.db, owner, repo.RecipeInput{
		Title: title, Visibility: visibility, Servings: &servings,
		IngredientSections:  []repo.Section{{Items: items}},
		InstructionSections: []repo.Section{{Items: []repo.Item{{Text: "Cook."}}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func mpDefaultPlan(t *testing.T, b *testBundle, u repo.User) repo.MealPlan {
	t.Helper()
	p, err := repo.DefaultMealPlan(context.Background(), b.db, u.ID)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func mpEntry(t *testing.T, b *testBundle, u repo.User, day string) uuid.UUID {
	t.Helper()
	p := mpDefaultPlan(t, b, u)
	id, err := repo.CreateMealPlanEntry(context.Background(), b.db, p.ID, u.ID, repo.MealPlanEntryInput{
		Day: mustDay(t, day), Meal: "dinner", Title: "Soup"})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func init() {
	plan := func(suffix string, body any) func(*testing.T, *testBundle, repo.User) (string, any) {
		return func(t *testing.T, b *testBundle, u repo.User) (string, any) {
			return "/api/mealplans/" + mpDefaultPlan(t, b, u).ID.String() + suffix, body
		}
	}
	entry := func(suffix string, body any) func(*testing.T, *testBundle, repo.User) (string, any) {
		return func(t *testing.T, b *testBundle, u repo.User) (string, any) {
			return "/api/mealplan/entries/" + mpEntry(t, b, u, "2026-03-02").String() + suffix, body
		}
	}
	addAuthz(
		// Without planId each caller reads and writes their own default plan.
		authzCase{method: "GET", route: "/api/mealplan", want: ruleAuth,
			prepare: func(*testing.T, *testBundle, repo.User) (string, any) {
				return "/api/mealplan?from=2026-03-02&to=2026-03-08", nil
			}},
		authzCase{method: "GET", route: "/api/mealplan", name: "a named plan", want: ruleHousehold,
			prepare: func(t *testing.T, b *testBundle, u repo.User) (string, any) {
				return "/api/mealplan?from=2026-03-02&to=2026-03-08&planId=" + mpDefaultPlan(t, b, u).ID.String(), nil
			}},
		authzCase{method: "POST", route: "/api/mealplan/entries", want: ruleAuth,
			prepare: func(*testing.T, *testBundle, repo.User) (string, any) {
				return "/api/mealplan/entries", map[string]any{"date": "2026-03-02", "meal": "lunch", "title": "Soup"}
			}},
		authzCase{method: "POST", route: "/api/mealplan/entries", name: "into a named plan", want: ruleHousehold,
			prepare: func(t *testing.T, b *testBundle, u repo.User) (string, any) {
				return "/api/mealplan/entries", map[string]any{"planId": mpDefaultPlan(t, b, u).ID, "date": "2026-03-02", "meal": "lunch", "title": "Soup"}
			}},
		authzCase{method: "GET", route: "/api/mealplan/entries/:id", want: ruleHousehold, prepare: entry("", nil)},
		authzCase{method: "PATCH", route: "/api/mealplan/entries/:id", want: ruleHousehold, prepare: entry("", map[string]any{"note": "x"})},
		authzCase{method: "POST", route: "/api/mealplan/entries/:id/move", want: ruleHousehold, prepare: entry("/move", map[string]any{"date": "2026-03-03", "meal": "lunch"})},
		authzCase{method: "DELETE", route: "/api/mealplan/entries/:id", want: ruleHousehold, prepare: entry("", nil)},
		authzCase{method: "GET", route: "/api/mealplans", want: ruleAuth},
		authzCase{method: "POST", route: "/api/mealplans", want: ruleAuth,
			prepare: func(*testing.T, *testBundle, repo.User) (string, any) {
				return "/api/mealplans", map[string]any{"name": "Ours"}
			}},
		authzCase{method: "GET", route: "/api/mealplans/:id", want: ruleHousehold, prepare: plan("", nil)},
		authzCase{method: "PATCH", route: "/api/mealplans/:id", want: ruleHousehold, prepare: plan("", map[string]any{"name": "Ours"})},
		authzCase{method: "DELETE", route: "/api/mealplans/:id", want: ruleHousehold, prepare: plan("", nil)},
		authzCase{method: "POST", route: "/api/mealplans/:id/members", want: ruleHousehold,
			prepare: func(t *testing.T, b *testBundle, u repo.User) (string, any) {
				friend := repotest.CreateUser(t, b.db, repo.RoleUser)
				return "/api/mealplans/" + mpDefaultPlan(t, b, u).ID.String() + "/members", map[string]any{"email": friend.Email}
			}},
		authzCase{method: "DELETE", route: "/api/mealplans/:id/members/:userId", want: ruleHousehold,
			prepare: func(t *testing.T, b *testBundle, u repo.User) (string, any) {
				friend := repotest.CreateUser(t, b.db, repo.RoleUser)
				p := mpDefaultPlan(t, b, u)
				if _, err := repo.AddMealPlanMember(context.Background(), b.db, p.ID, friend.ID); err != nil {
					t.Fatal(err)
				}
				return "/api/mealplans/" + p.ID.String() + "/members/" + friend.ID.String(), nil
			}},
	)
}

func mustDay(t *testing.T, s string) time.Time {
	t.Helper()
	d, err := time.Parse(dateLayout, s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// A household: the owner shares the plan, the member plans on it; what the
// member may do and what they see of recipes they may not read.
func TestMealPlanHousehold(t *testing.T) {
	t.Parallel()
	b := setup(t)
	owner, ownerTok := b.user(t, repo.RoleUser)
	member, memberTok := b.user(t, repo.RoleUser)
	_, strangerTok := b.user(t, repo.RoleUser)

	r := b.do(t, "GET", "/api/mealplans", nil, ownerTok)
	wantStatus(t, r, 200)
	var plans struct{ Items []MealPlan }
	r.JSON(t, &plans)
	if len(plans.Items) != 1 {
		t.Fatalf("plans: %s", r.Body)
	}
	plan := plans.Items[0]
	wantStatus(t, b.do(t, "POST", "/api/mealplans/"+plan.ID.String()+"/members", map[string]any{"email": member.Email}, ownerTok), 201)
	wantStatus(t, b.do(t, "POST", "/api/mealplans/"+plan.ID.String()+"/members", map[string]any{"email": member.Email}, ownerTok), 200)
	if r := b.do(t, "POST", "/api/mealplans/"+plan.ID.String()+"/members", map[string]any{"email": "nobody@example.test"}, ownerTok); r.Status != 404 {
		t.Fatalf("unknown email: %d", r.Status)
	}

	stew := mpRecipe(t, b, owner.ID, "Stew", repo.VisibilityShared, 4, "1 kg beef")
	if _, _, err := repo.AddShare(context.Background(), b.db, stew, member.ID); err != nil {
		t.Fatal(err)
	}
	// The member's default plan is now the household's: they add without planId.
	r = b.do(t, "POST", "/api/mealplan/entries", map[string]any{"date": "2026-03-04", "meal": "dinner", "recipeId": stew}, memberTok)
	wantStatus(t, r, 201)
	var e MealPlanEntry
	r.JSON(t, &e)
	if e.PlanID != plan.ID || e.Servings == nil || *e.Servings != 4 || e.Recipe == nil || e.Recipe.Title != "Stew" {
		t.Fatalf("entry: %s", r.Body)
	}
	// Member rights: edit entries, not the plan.
	wantStatus(t, b.do(t, "POST", "/api/mealplan/entries/"+e.ID.String()+"/move", map[string]any{"date": "2026-03-05", "meal": "lunch"}, memberTok), 200)
	wantStatus(t, b.do(t, "PATCH", "/api/mealplans/"+plan.ID.String(), map[string]any{"name": "x"}, memberTok), 403)
	wantStatus(t, b.do(t, "DELETE", "/api/mealplans/"+plan.ID.String(), nil, memberTok), 403)
	wantStatus(t, b.do(t, "GET", "/api/mealplan/entries/"+e.ID.String(), nil, strangerTok), 404)

	// The owner stops sharing the recipe: the member sees the entry, not the recipe.
	if err := repo.RemoveShare(context.Background(), b.db, stew, member.ID); err != nil {
		t.Fatal(err)
	}
	r = b.do(t, "GET", "/api/mealplan?from=2026-03-01&to=2026-03-31", nil, memberTok)
	wantStatus(t, r, 200)
	if strings.Contains(string(r.Body), "Stew") || strings.Contains(string(r.Body), stew.String()) {
		t.Fatalf("the plan leaks the recipe: %s", r.Body)
	}
	var rng MealPlanRange
	r.JSON(t, &rng)
	if len(rng.Entries) != 1 || !rng.Entries[0].RecipeUnavailable || rng.Entries[0].Date != "2026-03-05" || rng.Entries[0].Meal != "lunch" {
		t.Fatalf("range: %s", r.Body)
	}
	// Editing the note keeps the recipe the member cannot see.
	wantStatus(t, b.do(t, "PATCH", "/api/mealplan/entries/"+e.ID.String(), map[string]any{"note": "double it"}, memberTok), 200)
	r = b.do(t, "GET", "/api/mealplan/entries/"+e.ID.String(), nil, ownerTok)
	r.JSON(t, &e)
	if e.Recipe == nil || e.Note != "double it" {
		t.Fatalf("owner's view after the member's edit: %s", r.Body)
	}
	// The member leaves.
	wantStatus(t, b.do(t, "DELETE", "/api/mealplans/"+plan.ID.String()+"/members/"+member.ID.String(), nil, memberTok), 204)
	wantStatus(t, b.do(t, "GET", "/api/mealplans/"+plan.ID.String(), nil, memberTok), 404)
}

// Bad input is a 400 naming the field, and changes nothing.
func TestMealPlanValidation(t *testing.T) {
	t.Parallel()
	b := setup(t)
	owner, tok := b.user(t, repo.RoleUser)
	other, _ := b.user(t, repo.RoleUser)
	private := mpRecipe(t, b, other.ID, "Theirs", repo.VisibilityPrivate, 2, "1 egg")
	mine := mpRecipe(t, b, owner.ID, "Mine", repo.VisibilityPrivate, 2, "1 egg")
	long := strings.Repeat("a", 501)
	cases := []struct {
		name  string
		body  map[string]any
		field string
	}{
		{"unknown recipe", map[string]any{"date": "2026-03-02", "meal": "dinner", "recipeId": uuid.New()}, "recipeId"},
		{"recipe of someone else", map[string]any{"date": "2026-03-02", "meal": "dinner", "recipeId": private}, "recipeId"},
		{"negative servings", map[string]any{"date": "2026-03-02", "meal": "dinner", "recipeId": mine, "servings": -2}, "servings"},
		{"zero servings", map[string]any{"date": "2026-03-02", "meal": "dinner", "recipeId": mine, "servings": 0}, "servings"},
		{"bad date", map[string]any{"date": "2026-02-30", "meal": "dinner", "title": "x"}, "date"},
		{"date out of range", map[string]any{"date": "20260-01-01", "meal": "dinner", "title": "x"}, "date"},
		{"year out of range", map[string]any{"date": "1066-10-14", "meal": "dinner", "title": "x"}, "date"},
		{"unknown meal", map[string]any{"date": "2026-03-02", "meal": "brunch", "title": "x"}, "meal"},
		{"no recipe nor title", map[string]any{"date": "2026-03-02", "meal": "dinner"}, "title"},
		{"title too long", map[string]any{"date": "2026-03-02", "meal": "dinner", "title": long}, "title"},
		{"note too long", map[string]any{"date": "2026-03-02", "meal": "dinner", "title": "x", "note": long}, "note"},
	}
	for _, c := range cases {
		r := b.do(t, "POST", "/api/mealplan/entries", c.body, tok)
		if r.Status != 400 || r.ErrorCode() != "validation_failed" || !strings.Contains(string(r.Body), `"`+c.field+`"`) {
			t.Errorf("%s: %d %s", c.name, r.Status, r.Body)
		}
	}
	r := b.do(t, "GET", "/api/mealplan?from=2026-01-01&to=2026-12-31", nil, tok)
	wantStatus(t, r, 400)
	var n int
	if err := b.db.QueryRow(context.Background(), `SELECT count(*) FROM meal_plan_entry`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("entries after bad input: %d %v", n, err)
	}
	for _, q := range []string{"from=2026-03-02&to=2026-06-02", "from=2026-03-08&to=2026-03-02", "from=x&to=2026-03-02", "to=2026-03-02"} {
		if r := b.do(t, "GET", "/api/mealplan?"+q, nil, tok); r.Status != 400 {
			t.Errorf("%s: %d", q, r.Status)
		}
	}
	wantStatus(t, b.do(t, "GET", "/api/mealplan?from=2026-03-01&to=2026-05-31", nil, tok), 200) // 92 days
	// An entry edited with bad input keeps its values.
	r = b.do(t, "POST", "/api/mealplan/entries", map[string]any{"date": "2026-03-02", "meal": "dinner", "recipeId": mine}, tok)
	wantStatus(t, r, 201)
	var e MealPlanEntry
	r.JSON(t, &e)
	for _, body := range []map[string]any{{"servings": -1}, {"recipeId": private}, {"title": long}, {"date": "nope"}} {
		if r := b.do(t, "PATCH", "/api/mealplan/entries/"+e.ID.String(), body, tok); r.Status != 400 {
			t.Errorf("PATCH %v: %d", body, r.Status)
		}
	}
	r = b.do(t, "GET", "/api/mealplan/entries/"+e.ID.String(), nil, tok)
	if got := fmt.Sprint(string(r.Body)); !strings.Contains(got, `"servings":2`) || !strings.Contains(got, mine.String()) {
		t.Fatalf("entry changed by bad input: %s", r.Body)
	}
}
