package handlers

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/google/uuid"

	"larder/repo"
	"larder/repo/repotest"
)

// rcInsert creates a recipe directly in the database: one ingredient and
// one step in an unnamed section.
func rcInsert(t *testing.T, b *testBundle, owner uuid.UUID, visibility string) uuid.UUID {
	t.Helper()
	return rcInsertWith(t, b, owner, repo.RecipeInput{Title: "Omelette", Visibility: visibility,
		IngredientSections:  []repo.Section{{Items: []repo.Item{{Text: "2 eggs"}}}},
		InstructionSections: []repo.Section{{Items: []repo.Item{{Text: "Whisk and fry."}}}}})
}

func rcInsertWith(t *testing.T, b *testBundle, owner uuid.UUID, in repo.RecipeInput) uuid.UUID {
	t.Helper()
	if in.Visibility == "" {
		in.Visibility = repo.VisibilityPrivate
	}
	id, err := repo.CreateRecipe(context.Background(), b.db, owner, in)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// rcBody is a valid recipe body with two sections of each kind.
func rcBody(title string) map[string]any {
	return map[string]any{
		"title": title, "description": "Weeknight standby.", "servings": 4, "prepMinutes": 10, "cookMinutes": 25,
		"totalMinutes": 35, "sourceUrl": "https://example.com/r/1", "visibility": "PUBLIC",
		"categories": []string{"Dinner", "Italian"}, "tags": []string{"Quick", "Family"},
		"ingredientSections": []map[string]any{
			{"name": "Sauce", "ingredients": []map[string]any{{"text": "400g tomatoes"}, {"text": "1 onion"}}},
			{"name": "To serve", "ingredients": []map[string]any{{"text": "basil"}}},
		},
		"instructionSections": []map[string]any{
			{"name": "", "steps": []map[string]any{{"text": "Soften the onion."}, {"text": "Add the tomatoes."}}},
		},
	}
}

func rcCreate(t *testing.T, b *testBundle, tok string, body any) Recipe {
	t.Helper()
	r := b.do(t, "POST", "/api/recipes", body, tok)
	wantStatus(t, r, 201)
	var rec Recipe
	r.JSON(t, &rec)
	return rec
}

func rcGet(t *testing.T, b *testBundle, tok string, id uuid.UUID) Recipe {
	t.Helper()
	r := b.do(t, "GET", "/api/recipes/"+id.String(), nil, tok)
	wantStatus(t, r, 200)
	var rec Recipe
	r.JSON(t, &rec)
	return rec
}

// Who may use which route, for recipes of each visibility. "other" is a
// signed-in user the recipe is not shared with; recipients are tested in
// TestRecipeReadRules.
var (
	// Reading: a PUBLIC recipe is everyone's; any other is hidden (404)
	// from all but its owner and admins.
	ruleReadPublic = rulePublic
	ruleReadHidden = map[string]int{anon: hidden, other: hidden, owner: allowed, admin: allowed}
	// requireOwnership: 401 without a token, 403 for a recipe the caller
	// may read but does not own, 404 for one they may not read.
	ruleOwnVisible = map[string]int{anon: unauthorized, other: forbidden, owner: allowed, admin: forbidden}
	ruleOwnHidden  = map[string]int{anon: unauthorized, other: hidden, owner: allowed, admin: forbidden}
	// DELETE lets an admin through as well.
	ruleDelVisible = map[string]int{anon: unauthorized, other: forbidden, owner: allowed, admin: allowed}
	ruleDelHidden  = map[string]int{anon: unauthorized, other: hidden, owner: allowed, admin: allowed}
	rcVisibilities = []string{repo.VisibilityPublic, repo.VisibilityShared, repo.VisibilityPrivate}
	// rcVisibleToRead: the visibilities a user other than the owner reads.
	rcVisibleToRead = map[string]bool{repo.VisibilityPublic: true}
)

// rcAt prepares a fresh recipe of the visibility and returns its path plus suffix.
func rcAt(visibility, suffix string, body func(t *testing.T, b *testBundle) any) func(*testing.T, *testBundle, repo.User) (string, any) {
	return func(t *testing.T, b *testBundle, u repo.User) (string, any) {
		id := rcInsert(t, b, u.ID, visibility)
		var v any
		if body != nil {
			v = body(t, b)
		}
		return "/api/recipes/" + id.String() + suffix, v
	}
}

func init() {
	addAuthz(
		authzCase{method: "GET", route: "/api/recipes", want: rulePublic},
		authzCase{method: "POST", route: "/api/recipes", want: ruleAuth,
			prepare: func(*testing.T, *testBundle, repo.User) (string, any) { return "/api/recipes", rcBody("Stew") }},
		authzCase{method: "GET", route: "/api/tags", want: rulePublic},
	)
	putBody := func(*testing.T, *testBundle) any { return rcBody("Renamed") }
	shareBody := func(t *testing.T, b *testBundle) any {
		return map[string]string{"email": repotest.CreateUser(t, b.db, repo.RoleUser).Email}
	}
	for _, vis := range rcVisibilities {
		read, own, del := ruleReadHidden, ruleOwnHidden, ruleDelHidden
		if rcVisibleToRead[vis] {
			read, own, del = ruleReadPublic, ruleOwnVisible, ruleDelVisible
		}
		addAuthz(
			authzCase{method: "GET", route: "/api/recipes/:id", name: vis, want: read, prepare: rcAt(vis, "", nil)},
			authzCase{method: "PUT", route: "/api/recipes/:id", name: vis, want: own, prepare: rcAt(vis, "", putBody)},
			authzCase{method: "DELETE", route: "/api/recipes/:id", name: vis, want: del, prepare: rcAt(vis, "", nil)},
			// A JSON body is refused with 415 once the rules let it through.
			authzCase{method: "POST", route: "/api/recipes/:id/image", name: vis, want: own, prepare: rcAt(vis, "/image", nil)},
			authzCase{method: "DELETE", route: "/api/recipes/:id/image", name: vis, want: own, prepare: rcAt(vis, "/image", nil)},
			authzCase{method: "GET", route: "/api/recipes/:id/shares", name: vis, want: own, prepare: rcAt(vis, "/shares", nil)},
			authzCase{method: "POST", route: "/api/recipes/:id/shares", name: vis, want: own, prepare: rcAt(vis, "/shares", shareBody)},
			authzCase{method: "DELETE", route: "/api/recipes/:id/shares/:userId", name: vis, want: own,
				prepare: func(t *testing.T, b *testBundle, u repo.User) (string, any) {
					id := rcInsert(t, b, u.ID, vis)
					to := repotest.CreateUser(t, b.db, repo.RoleUser)
					if _, _, err := repo.AddShare(context.Background(), b.db, id, to.ID); err != nil {
						t.Fatal(err)
					}
					return fmt.Sprintf("/api/recipes/%s/shares/%s", id, to.ID), nil
				}},
		)
	}
}

func TestRecipeCreateReadUpdate(t *testing.T) {
	t.Parallel()
	b := setup(t)
	u, tok := b.user(t, repo.RoleUser)

	r := b.do(t, "POST", "/api/recipes", rcBody("Tomato Pasta"), tok)
	wantStatus(t, r, 201)
	var rec Recipe
	r.JSON(t, &rec)
	if loc := r.Header.Get("Location"); loc != "/api/recipes/"+rec.ID.String() {
		t.Errorf("Location %q", loc)
	}
	if rec.OwnerID != u.ID || rec.Title != "Tomato Pasta" || *rec.Servings != 4 || *rec.TotalMinutes != 35 ||
		rec.Visibility != "PUBLIC" || *rec.SourceURL != "https://example.com/r/1" || rec.ImageURL != nil ||
		len(rec.ImageVariants) != 0 || strings.Join(rec.Categories, ",") != "Dinner,Italian" ||
		strings.Join(rec.Tags, ",") != "Family,Quick" {
		t.Fatalf("created %+v", rec)
	}
	if len(rec.IngredientSections) != 2 || rec.IngredientSections[0].Name != "Sauce" ||
		len(rec.IngredientSections[0].Ingredients) != 2 || rec.IngredientSections[1].Ingredients[0].Text != "basil" ||
		len(rec.InstructionSections) != 1 || rec.InstructionSections[0].Name != "" || len(rec.InstructionSections[0].Steps) != 2 {
		t.Fatalf("sections %+v %+v", rec.IngredientSections, rec.InstructionSections)
	}
	if got := rcGet(t, b, "", rec.ID); got.Title != rec.Title || got.IngredientSections[0].Ingredients[1].ID != rec.IngredientSections[0].Ingredients[1].ID {
		t.Fatalf("read back %+v", got)
	}

	// The edit keeps "1 onion" (moved to another section and reworded) and
	// the second step by sending their ids, drops the rest, adds new items.
	onion := rec.IngredientSections[0].Ingredients[1].ID
	step2 := rec.InstructionSections[0].Steps[1].ID
	edit := map[string]any{
		"title": "Tomato and Onion Pasta", "servings": 2, "visibility": "PRIVATE", "tags": []string{"quick"},
		"ingredientSections": []map[string]any{
			{"name": "", "ingredients": []map[string]any{{"text": "300g spaghetti"}, {"id": onion, "text": "1 red onion"}}},
		},
		"instructionSections": []map[string]any{
			{"name": "Sauce", "steps": []map[string]any{{"id": step2, "text": "Add the tomatoes; simmer."}}},
			{"name": "Pasta", "steps": []map[string]any{{"text": "Boil the spaghetti."}}},
		},
	}
	r = b.do(t, "PUT", "/api/recipes/"+rec.ID.String(), edit, tok)
	wantStatus(t, r, 200)
	var ed Recipe
	r.JSON(t, &ed)
	ing := ed.IngredientSections
	if len(ing) != 1 || len(ing[0].Ingredients) != 2 || ing[0].Ingredients[1].ID != onion || ing[0].Ingredients[1].Text != "1 red onion" ||
		ing[0].Ingredients[0].ID == uuid.Nil {
		t.Fatalf("ingredients after edit %+v", ing)
	}
	ins := ed.InstructionSections
	if len(ins) != 2 || ins[0].Steps[0].ID != step2 || ins[1].Name != "Pasta" || ins[1].Steps[0].Text != "Boil the spaghetti." {
		t.Fatalf("steps after edit %+v", ins)
	}
	// Fields left out take their defaults; the tag reuses the existing one's spelling.
	if ed.Description != "" || ed.SourceURL != nil || ed.PrepMinutes != nil || len(ed.Categories) != 0 ||
		strings.Join(ed.Tags, ",") != "Quick" || ed.Visibility != "PRIVATE" || !ed.UpdatedAt.After(rec.UpdatedAt) {
		t.Fatalf("edited %+v", ed)
	}
	var rows int
	if err := b.db.QueryRow(context.Background(), `SELECT (SELECT count(*) FROM ingredient WHERE recipe_id = $1) +
		(SELECT count(*) FROM instruction_step WHERE recipe_id = $1) + (SELECT count(*) FROM ingredient_section WHERE recipe_id = $1)`,
		rec.ID).Scan(&rows); err != nil || rows != 2+2+1 {
		t.Fatalf("rows left after edit: %d %v", rows, err)
	}
	// Now PRIVATE: hidden from anonymous readers.
	if r := b.do(t, "GET", "/api/recipes/"+rec.ID.String(), nil, ""); r.Status != 404 || r.ErrorCode() != "not_found" {
		t.Fatalf("private recipe to anonymous: %d", r.Status)
	}

	// An id that is not one of this recipe's items is refused, naming it.
	otherRec := rcCreate(t, b, tok, rcBody("Other"))
	bad := rcBody("X")
	bad["ingredientSections"] = []map[string]any{{"name": "", "ingredients": []map[string]any{
		{"id": otherRec.IngredientSections[0].Ingredients[0].ID, "text": "stolen"}}}}
	r = b.do(t, "PUT", "/api/recipes/"+rec.ID.String(), bad, tok)
	if r.Status != 400 || !strings.Contains(string(r.Body), `"ingredientSections[0].ingredients[0].id"`) {
		t.Fatalf("foreign item id: %d %s", r.Status, r.Body)
	}
	// A step id in the ingredients is not an ingredient of this recipe either.
	bad["ingredientSections"] = []map[string]any{{"name": "", "ingredients": []map[string]any{{"id": step2, "text": "x"}}}}
	if r := b.do(t, "PUT", "/api/recipes/"+rec.ID.String(), bad, tok); r.Status == 200 {
		t.Fatalf("a step id accepted as an ingredient id")
	}
	if got := rcGet(t, b, tok, rec.ID); got.Title != "Tomato and Onion Pasta" {
		t.Fatalf("a refused edit changed the recipe: %q", got.Title)
	}
}

func TestRecipeValidation(t *testing.T) {
	t.Parallel()
	b := setup(t)
	_, tok := b.user(t, repo.RoleUser)
	long := strings.Repeat("x", 201)
	items := func(n int) []map[string]any {
		out := make([]map[string]any, n)
		for i := range out {
			out[i] = map[string]any{"text": fmt.Sprintf("item %d", i)}
		}
		return out
	}
	tests := []struct {
		name  string
		edit  func(m map[string]any)
		field string
	}{
		{"no title", func(m map[string]any) { delete(m, "title") }, "title"},
		{"blank title", func(m map[string]any) { m["title"] = "   " }, "title"},
		{"long title", func(m map[string]any) { m["title"] = long }, "title"},
		{"zero servings", func(m map[string]any) { m["servings"] = 0 }, "servings"},
		{"fractional servings", func(m map[string]any) { m["servings"] = 2.5 }, "servings"},
		{"servings as text", func(m map[string]any) { m["servings"] = "four" }, "servings"},
		{"long servings unit", func(m map[string]any) { m["servingsUnit"] = strings.Repeat("u", 41) }, "servingsUnit"},
		{"servings unit of two lines", func(m map[string]any) { m["servingsUnit"] = "cookies\nand crumbs" }, "servingsUnit"},
		{"servings unit as a number", func(m map[string]any) { m["servingsUnit"] = 12 }, "servingsUnit"},
		{"servings unit without servings", func(m map[string]any) { delete(m, "servings"); m["servingsUnit"] = "cookies" }, "servingsUnit"},
		{"negative prep time", func(m map[string]any) { m["prepMinutes"] = -5 }, "prepMinutes"},
		{"negative cook time", func(m map[string]any) { m["cookMinutes"] = -1 }, "cookMinutes"},
		{"huge total time", func(m map[string]any) { m["totalMinutes"] = 1e12 }, "totalMinutes"},
		{"bad visibility", func(m map[string]any) { m["visibility"] = "FRIENDS" }, "visibility"},
		{"lower-case visibility", func(m map[string]any) { m["visibility"] = "public" }, "visibility"},
		{"javascript source", func(m map[string]any) { m["sourceUrl"] = "javascript:alert(1)" }, "sourceUrl"},
		{"relative source", func(m map[string]any) { m["sourceUrl"] = "/recipes/1" }, "sourceUrl"},
		{"long category", func(m map[string]any) { m["categories"] = []string{strings.Repeat("c", 101)} }, "categories[0]"},
		{"too many tags", func(m map[string]any) {
			tags := make([]string, 31)
			for i := range tags {
				tags[i] = fmt.Sprint("t", i)
			}
			m["tags"] = tags
		}, "tags"},
		{"blank ingredient", func(m map[string]any) {
			m["ingredientSections"] = []map[string]any{{"name": "", "ingredients": []map[string]any{{"text": "1 egg"}, {"text": " "}}}}
		}, "ingredientSections[0].ingredients[1].text"},
		{"long step", func(m map[string]any) {
			m["instructionSections"] = []map[string]any{{"name": "", "steps": []map[string]any{{"text": strings.Repeat("s", 5001)}}}}
		}, "instructionSections[0].steps[0].text"},
		{"too many ingredients", func(m map[string]any) {
			m["ingredientSections"] = []map[string]any{{"name": "a", "ingredients": items(150)}, {"name": "b", "ingredients": items(51)}}
		}, "ingredientSections"},
		{"too many sections", func(m map[string]any) {
			s := make([]map[string]any, 21)
			for i := range s {
				s[i] = map[string]any{"name": fmt.Sprint(i), "steps": items(1)}
			}
			m["instructionSections"] = s
		}, "instructionSections"},
	}
	for _, tt := range tests {
		body := rcBody("Valid")
		tt.edit(body)
		r := b.do(t, "POST", "/api/recipes", body, tok)
		if r.Status != 400 || r.ErrorCode() != "validation_failed" || !strings.Contains(string(r.Body), `"`+tt.field+`":`) {
			t.Errorf("%s: %d %s", tt.name, r.Status, r.Body)
		}
	}
	var n int
	if err := b.db.QueryRow(context.Background(), "SELECT count(*) FROM recipe").Scan(&n); err != nil || n != 0 {
		t.Fatalf("refused bodies stored %d recipes (%v)", n, err)
	}
	// Blank and repeated labels are dropped; an empty source is no source.
	body := rcBody("Tidy")
	body["categories"] = []string{" Dinner ", "dinner", "", "Lunch"}
	body["sourceUrl"] = ""
	rec := rcCreate(t, b, tok, body)
	if strings.Join(rec.Categories, ",") != "Dinner,Lunch" || rec.SourceURL != nil {
		t.Fatalf("cleaned %+v", rec)
	}
	// A minimal recipe: a title only.
	min := rcCreate(t, b, tok, map[string]any{"title": "Toast"})
	if min.Visibility != "PRIVATE" || min.Servings != nil || min.IngredientSections == nil || len(min.IngredientSections) != 0 ||
		min.Categories == nil || min.Tags == nil {
		t.Fatalf("minimal %+v", min)
	}
}

func TestRecipeReadRules(t *testing.T) {
	t.Parallel()
	b := setup(t)
	owner, ownerTok := b.user(t, repo.RoleUser)
	recipient, recipientTok := b.user(t, repo.RoleUser)
	_, strangerTok := b.user(t, repo.RoleUser)
	_, adminTok := b.user(t, repo.RoleAdmin)
	ids := map[string]uuid.UUID{}
	for _, v := range rcVisibilities {
		ids[v] = rcInsert(t, b, owner.ID, v)
		// Every one of them is shared with the recipient; only SHARED lets that count.
		if _, _, err := repo.AddShare(context.Background(), b.db, ids[v], recipient.ID); err != nil {
			t.Fatal(err)
		}
	}
	want := map[string]map[string]int{ // caller → visibility → status
		"anonymous": {"PUBLIC": 200, "SHARED": 404, "PRIVATE": 404},
		"stranger":  {"PUBLIC": 200, "SHARED": 404, "PRIVATE": 404},
		"recipient": {"PUBLIC": 200, "SHARED": 200, "PRIVATE": 404},
		"owner":     {"PUBLIC": 200, "SHARED": 200, "PRIVATE": 200},
		"admin":     {"PUBLIC": 200, "SHARED": 200, "PRIVATE": 200},
	}
	toks := map[string]string{"anonymous": "", "stranger": strangerTok, "recipient": recipientTok, "owner": ownerTok, "admin": adminTok}
	for who, byVis := range want {
		var listed RecipePage
		b.do(t, "GET", "/api/recipes", nil, toks[who]).JSON(t, &listed)
		inList := map[uuid.UUID]bool{}
		for _, it := range listed.Items {
			inList[it.ID] = true
		}
		for vis, status := range byVis {
			if r := b.do(t, "GET", "/api/recipes/"+ids[vis].String(), nil, toks[who]); r.Status != status {
				t.Errorf("%s reads %s: %d, want %d", who, vis, r.Status, status)
			}
			if inList[ids[vis]] != (status == 200) {
				t.Errorf("%s lists %s: %v", who, vis, inList[ids[vis]])
			}
		}
		if int(listed.Total) != len(listed.Items) {
			t.Errorf("%s: total %d for %d items", who, listed.Total, len(listed.Items))
		}
	}
	// A recipient may read a SHARED recipe but not change it: 403, not 404.
	r := b.do(t, "PUT", "/api/recipes/"+ids["SHARED"].String(), rcBody("Mine now"), recipientTok)
	if r.Status != 403 || r.ErrorCode() != "forbidden" {
		t.Fatalf("recipient edits: %d %s", r.Status, r.Body)
	}
	if r := b.do(t, "DELETE", "/api/recipes/"+ids["SHARED"].String(), nil, recipientTok); r.Status != 403 {
		t.Fatalf("recipient deletes: %d", r.Status)
	}
	// Ids that are not UUIDs are simply not found.
	if r := b.do(t, "GET", "/api/recipes/not-a-uuid", nil, ownerTok); r.Status != 404 {
		t.Fatalf("bad id: %d", r.Status)
	}
	// An admin may delete any recipe.
	wantStatus(t, b.do(t, "DELETE", "/api/recipes/"+ids["PRIVATE"].String(), nil, adminTok), 204)
	if r := b.do(t, "GET", "/api/recipes/"+ids["PRIVATE"].String(), nil, ownerTok); r.Status != 404 {
		t.Fatalf("deleted recipe: %d", r.Status)
	}
}

// Creating and editing a recipe enqueue its mapping generation in the same
// transaction as the write: the job exists exactly when the write does.
func TestRecipeWritesEnqueueMappingGeneration(t *testing.T) {
	t.Parallel()
	b := setup(t)
	u, tok := b.user(t, repo.RoleUser)
	ctx := context.Background()
	jobsFor := func(id uuid.UUID) int {
		t.Helper()
		var n int
		err := b.db.QueryRow(ctx, `SELECT count(*) FROM river_job r JOIN app_job a ON a.river_job_id = r.id
			WHERE r.kind = 'mapping_generate' AND r.queue = 'mapping' AND r.args->>'recipeId' = $1 AND a.user_id = $2`,
			id.String(), u.ID).Scan(&n)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	rec := rcCreate(t, b, tok, rcBody("Curry"))
	if n := jobsFor(rec.ID); n != 1 {
		t.Fatalf("after create: %d mapping jobs", n)
	}
	wantStatus(t, b.do(t, "PUT", "/api/recipes/"+rec.ID.String(), rcBody("Better Curry"), tok), 200)
	if n := jobsFor(rec.ID); n != 2 {
		t.Fatalf("after edit: %d mapping jobs", n)
	}

	// Make the enqueue fail: the recipe write must not survive it.
	if _, err := b.db.Exec(ctx, `CREATE FUNCTION refuse_mapping_job() RETURNS trigger LANGUAGE plpgsql AS
		$$ BEGIN IF NEW.kind = 'mapping_generate' THEN RAISE EXCEPTION 'queue unavailable'; END IF; RETURN NEW; END $$;
		CREATE TRIGGER refuse_mapping_job BEFORE INSERT ON river_job FOR EACH ROW EXECUTE FUNCTION refuse_mapping_job()`); err != nil {
		t.Fatal(err)
	}
	if r := b.do(t, "POST", "/api/recipes", rcBody("Lost Curry"), tok); r.Status != 500 || strings.Contains(string(r.Body), "queue unavailable") {
		t.Fatalf("create with a failing enqueue: %d %s", r.Status, r.Body)
	}
	if r := b.do(t, "PUT", "/api/recipes/"+rec.ID.String(), rcBody("Lost Edit"), tok); r.Status != 500 {
		t.Fatalf("edit with a failing enqueue: %d", r.Status)
	}
	var titles []string
	rows, _ := b.db.Query(ctx, "SELECT title FROM recipe ORDER BY title")
	for rows.Next() {
		var s string
		_ = rows.Scan(&s)
		titles = append(titles, s)
	}
	if rows.Err() != nil || strings.Join(titles, ",") != "Better Curry" {
		t.Fatalf("recipes after failed writes: %v %v", titles, rows.Err())
	}
	if got := rcGet(t, b, tok, rec.ID); got.IngredientSections[0].Ingredients[0].Text != "400g tomatoes" {
		t.Fatalf("failed edit left %+v", got.IngredientSections)
	}
}
