package handlers

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"larder/config"
	"larder/jobs"
	"larder/repo"
)

func init() {
	emptySet := func(*testing.T, *testBundle) any { return map[string]any{"mappings": []any{}} }
	for _, vis := range rcVisibilities {
		read, own := ruleReadHidden, ruleOwnHidden
		if rcVisibleToRead[vis] {
			read, own = ruleReadPublic, ruleOwnVisible
		}
		addAuthz(
			authzCase{method: "GET", route: "/api/recipes/:id/mappings", name: vis, want: read, prepare: rcAt(vis, "/mappings", nil)},
			authzCase{method: "PUT", route: "/api/recipes/:id/mappings", name: vis, want: own, prepare: rcAt(vis, "/mappings", emptySet)},
			authzCase{method: "POST", route: "/api/recipes/:id/mappings/regenerate", name: vis, want: own,
				prepare: rcAt(vis, "/mappings/regenerate", nil)},
		)
	}
}

// startMappingWorkers works the mapping queue of b's database with the real workers.
func startMappingWorkers(t *testing.T, b *testBundle) {
	t.Helper()
	deps := &jobs.Deps{DB: b.db, Logger: b.deps.Logger, Config: b.deps.Config}
	client, err := jobs.NewClient(b.db, b.deps.Logger, jobs.NewWorkers(deps), jobs.ClientConfig{
		Concurrency: map[string]int{config.QueueMapping: 2},
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := client.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = jobs.Shutdown(client, 5*time.Second) })
}

// waitMappingJobs waits until every mapping_generate job enqueued so far has
// finished, and fails the test if one did not complete.
func waitMappingJobs(t *testing.T, b *testBundle) {
	t.Helper()
	ctx := context.Background()
	eventually(t, "every mapping job to finish", func() bool {
		var pending int
		if err := b.db.QueryRow(ctx, `SELECT count(*) FROM river_job WHERE kind = 'mapping_generate'
			AND state NOT IN ('completed', 'cancelled', 'discarded')`).Scan(&pending); err != nil {
			t.Fatal(err)
		}
		return pending == 0
	})
	var failed int
	if err := b.db.QueryRow(ctx, `SELECT count(*) FROM river_job WHERE kind = 'mapping_generate' AND state <> 'completed'`).Scan(&failed); err != nil {
		t.Fatal(err)
	}
	if failed > 0 {
		t.Fatalf("%d mapping jobs did not complete", failed)
	}
}

// mpBody is a recipe body in one section of each kind.
func mpBody(ingredients, steps []string) map[string]any {
	ings, sts := []map[string]any{}, []map[string]any{}
	for _, x := range ingredients {
		ings = append(ings, map[string]any{"text": x})
	}
	for _, x := range steps {
		sts = append(sts, map[string]any{"text": x})
	}
	return map[string]any{"title": "Batter", "visibility": "PUBLIC",
		"ingredientSections":  []map[string]any{{"name": "", "ingredients": ings}},
		"instructionSections": []map[string]any{{"name": "", "steps": sts}}}
}

// mpEditBody is rec as a PUT body: every item sent back with its id.
func mpEditBody(rec Recipe) map[string]any {
	ings, sts := []map[string]any{}, []map[string]any{}
	for _, it := range rec.IngredientSections[0].Ingredients {
		ings = append(ings, map[string]any{"id": it.ID, "text": it.Text})
	}
	for _, it := range rec.InstructionSections[0].Steps {
		sts = append(sts, map[string]any{"id": it.ID, "text": it.Text})
	}
	return map[string]any{"title": rec.Title, "visibility": rec.Visibility,
		"ingredientSections":  []map[string]any{{"name": "", "ingredients": ings}},
		"instructionSections": []map[string]any{{"name": "", "steps": sts}}}
}

func mpGet(t *testing.T, b *testBundle, tok string, id uuid.UUID) MappingSet {
	t.Helper()
	r := b.do(t, "GET", "/api/recipes/"+id.String()+"/mappings", nil, tok)
	wantStatus(t, r, 200)
	var m MappingSet
	r.JSON(t, &m)
	return m
}

// mpPairs turns links into [ingredient index, step index] pairs of rec.
func mpPairs(t *testing.T, rec Recipe, links []MappingLink) [][2]int {
	t.Helper()
	out := [][2]int{}
	for _, l := range links {
		i := slices.IndexFunc(rec.IngredientSections[0].Ingredients, func(x Ingredient) bool { return x.ID == l.IngredientID })
		s := slices.IndexFunc(rec.InstructionSections[0].Steps, func(x Step) bool { return x.ID == l.StepID })
		if i < 0 || s < 0 {
			t.Fatalf("link %v names an item the recipe does not show", l)
		}
		out = append(out, [2]int{i, s})
	}
	return out
}

// mpLinks turns [ingredient index, step index] pairs of rec into a PUT body.
func mpLinks(rec Recipe, pairs ...[2]int) map[string]any {
	links := []map[string]any{}
	for _, p := range pairs {
		links = append(links, map[string]any{
			"ingredientId": rec.IngredientSections[0].Ingredients[p[0]].ID,
			"stepId":       rec.InstructionSections[0].Steps[p[1]].ID,
		})
	}
	return map[string]any{"mappings": links}
}

var (
	mpIngredients = []string{"2 cups all-purpose flour", "1 tsp salt", "3 large eggs, beaten", "100 g unsalted butter"}
	mpSteps       = []string{"Whisk the flour and salt in a bowl.", "Beat in the eggs.", "Melt the butter and stir it in."}
	// What the matcher links in them; "salt" is not linked to the unsalted butter.
	mpAuto = [][2]int{{0, 0}, {1, 0}, {2, 1}, {3, 2}}
)

// TestMappingsLifecycle: a create produces the mapping (by its job); the
// owner corrects it; an edit elsewhere keeps the corrections and links only
// the new items; deleting an item removes its links; regeneration (a job)
// replaces the corrections with the automatic links.
func TestMappingsLifecycle(t *testing.T) {
	t.Parallel()
	b := setup(t)
	startMappingWorkers(t, b)
	_, tok := b.user(t, repo.RoleUser)

	rec := rcCreate(t, b, tok, mpBody(mpIngredients, mpSteps))
	waitMappingJobs(t, b)
	m := mpGet(t, b, tok, rec.ID)
	if got := mpPairs(t, rec, m.Mappings); !slices.Equal(got, mpAuto) || m.Edited {
		t.Fatalf("after create: %v (edited %v), want %v", got, m.Edited, mpAuto)
	}
	// Anyone may read the mapping of a PUBLIC recipe.
	if anon := mpGet(t, b, "", rec.ID); !slices.Equal(anon.Mappings, m.Mappings) {
		t.Fatalf("anonymous read %v, want %v", anon.Mappings, m.Mappings)
	}

	// The owner drops salt→step 0 and adds butter→step 1.
	hand := [][2]int{{0, 0}, {2, 1}, {3, 1}, {3, 2}}
	r := b.do(t, "PUT", "/api/recipes/"+rec.ID.String()+"/mappings", mpLinks(rec, hand...), tok)
	wantStatus(t, r, 200)
	r.JSON(t, &m)
	if got := mpPairs(t, rec, m.Mappings); !slices.Equal(got, hand) || !m.Edited {
		t.Fatalf("PUT answered %v (edited %v), want %v", got, m.Edited, hand)
	}

	// An edit elsewhere: step 1 now names the salt too, and a new
	// ingredient and a new step arrive.
	edit := mpEditBody(rec)
	ings := edit["ingredientSections"].([]map[string]any)[0]["ingredients"].([]map[string]any)
	sts := edit["instructionSections"].([]map[string]any)[0]["steps"].([]map[string]any)
	sts[1]["text"] = "Beat in the eggs and the salt."
	ings = append(ings, map[string]any{"text": "2 tbsp sugar"})
	sts = append(sts, map[string]any{"text": "Sprinkle with the sugar and the remaining flour."})
	edit["ingredientSections"].([]map[string]any)[0]["ingredients"] = ings
	edit["instructionSections"].([]map[string]any)[0]["steps"] = sts
	r = b.do(t, "PUT", "/api/recipes/"+rec.ID.String(), edit, tok)
	wantStatus(t, r, 200)
	r.JSON(t, &rec)
	waitMappingJobs(t, b)
	m = mpGet(t, b, tok, rec.ID)
	want := [][2]int{{0, 0}, {0, 3}, {2, 1}, {3, 1}, {3, 2}, {4, 3}}
	if got := mpPairs(t, rec, m.Mappings); !slices.Equal(got, want) || !m.Edited {
		t.Fatalf("after the edit: %v (edited %v), want %v (hand links kept, new items linked)", got, m.Edited, want)
	}

	// Deleting the eggs removes their links at once, job or no job.
	edit = mpEditBody(rec)
	ings = edit["ingredientSections"].([]map[string]any)[0]["ingredients"].([]map[string]any)
	edit["ingredientSections"].([]map[string]any)[0]["ingredients"] = slices.Delete(ings, 2, 3)
	r = b.do(t, "PUT", "/api/recipes/"+rec.ID.String(), edit, tok)
	wantStatus(t, r, 200)
	r.JSON(t, &rec)
	want = [][2]int{{0, 0}, {0, 3}, {2, 1}, {2, 2}, {3, 3}}
	if got := mpPairs(t, rec, mpGet(t, b, tok, rec.ID).Mappings); !slices.Equal(got, want) {
		t.Fatalf("after deleting the eggs: %v, want %v", got, want)
	}
	waitMappingJobs(t, b)
	if got := mpPairs(t, rec, mpGet(t, b, tok, rec.ID).Mappings); !slices.Equal(got, want) {
		t.Fatalf("after deleting the eggs and the job: %v, want %v", got, want)
	}

	// Regeneration: a job that replaces everything with the matcher's links.
	r = b.do(t, "POST", "/api/recipes/"+rec.ID.String()+"/mappings/regenerate", nil, tok)
	wantStatus(t, r, 202)
	var accepted struct{ Job Job }
	r.JSON(t, &accepted)
	// The worker may already have picked it up: any state but a failure.
	if accepted.Job.Kind != "mapping_generate" || accepted.Job.Error != nil {
		t.Fatalf("job %+v", accepted.Job)
	}
	job := completedJob(t, b, tok, accepted.Job.ID)
	var result struct {
		RecipeID   uuid.UUID
		Links      int
		HandEdited bool
	}
	if err := json.Unmarshal(job.Result, &result); err != nil || result.RecipeID != rec.ID || result.HandEdited {
		t.Fatalf("job result %s: %v", job.Result, err)
	}
	want = [][2]int{{0, 0}, {0, 3}, {1, 0}, {1, 1}, {2, 2}, {3, 3}}
	m = mpGet(t, b, tok, rec.ID)
	if got := mpPairs(t, rec, m.Mappings); !slices.Equal(got, want) || m.Edited || result.Links != len(want) {
		t.Fatalf("after regeneration: %v (edited %v, result %+v), want %v", got, m.Edited, result, want)
	}
}

func TestPutMappingsValidation(t *testing.T) {
	t.Parallel()
	b := setup(t)
	u, tok := b.user(t, repo.RoleUser)
	rec := rcCreate(t, b, tok, mpBody(mpIngredients, mpSteps))
	other := rcGet(t, b, tok, rcInsert(t, b, u.ID, repo.VisibilityPrivate)) // the same owner's other recipe
	path := "/api/recipes/" + rec.ID.String() + "/mappings"

	before := mpLinks(rec, [2]int{0, 0}, [2]int{3, 2})
	wantStatus(t, b.do(t, "PUT", path, before, tok), 200)
	ing := func(i int) string { return rec.IngredientSections[0].Ingredients[i].ID.String() }
	step := func(i int) string { return rec.InstructionSections[0].Steps[i].ID.String() }
	foreignIng := other.IngredientSections[0].Ingredients[0].ID.String()
	foreignStep := other.InstructionSections[0].Steps[0].ID.String()

	tests := []struct {
		name  string
		body  any
		field string // the field named in the error
		names string // an id the message must name
	}{
		{"another recipe's ingredient", map[string]any{"mappings": []map[string]string{
			{"ingredientId": ing(1), "stepId": step(1)}, {"ingredientId": foreignIng, "stepId": step(0)}}},
			"mappings[1].ingredientId", foreignIng},
		{"another recipe's step", map[string]any{"mappings": []map[string]string{{"ingredientId": ing(1), "stepId": foreignStep}}},
			"mappings[0].stepId", foreignStep},
		{"a step id as the ingredient", map[string]any{"mappings": []map[string]string{{"ingredientId": step(0), "stepId": step(1)}}},
			"mappings[0].ingredientId", step(0)},
		{"an ingredient id as the step", map[string]any{"mappings": []map[string]string{{"ingredientId": ing(0), "stepId": ing(1)}}},
			"mappings[0].stepId", ing(1)},
		{"an unknown id", map[string]any{"mappings": []map[string]string{{"ingredientId": uuid.Nil.String()[:35] + "1", "stepId": step(1)}}},
			"mappings[0].ingredientId", "00000000-0000-0000-0000-000000000001"},
		{"not an id", map[string]any{"mappings": []map[string]string{{"ingredientId": "flour", "stepId": step(1)}}},
			"mappings[0].ingredientId", ""},
		{"a missing step", map[string]any{"mappings": []map[string]string{{"ingredientId": ing(0)}}},
			"mappings[0].stepId", ""},
		{"no mappings", map[string]any{"links": []any{}}, "mappings", ""},
		{"mappings of the wrong type", map[string]any{"mappings": "all"}, "mappings", ""},
	}
	for _, tt := range tests {
		r := b.do(t, "PUT", path, tt.body, tok)
		if r.Status != 400 || r.ErrorCode() != "validation_failed" {
			t.Errorf("%s: status %d %s, want 400 validation_failed", tt.name, r.Status, r.Body)
			continue
		}
		var e struct {
			Error struct{ Fields map[string]string } `json:"error"`
		}
		r.JSON(t, &e)
		msg, ok := e.Error.Fields[tt.field]
		if !ok || !strings.Contains(msg, tt.names) {
			t.Errorf("%s: fields %v, want %s naming %q", tt.name, e.Error.Fields, tt.field, tt.names)
		}
	}
	// Nothing changed.
	m := mpGet(t, b, tok, rec.ID)
	if got := mpPairs(t, rec, m.Mappings); !slices.Equal(got, [][2]int{{0, 0}, {3, 2}}) || !m.Edited {
		t.Fatalf("after refused PUTs: %v (edited %v)", got, m.Edited)
	}
	if om := mpGet(t, b, tok, other.ID); len(om.Mappings) != 0 || om.Edited {
		t.Fatalf("the other recipe's mapping changed: %+v", om)
	}
	// A link sent twice counts once; an empty list removes every link.
	r := b.do(t, "PUT", path, mpLinks(rec, [2]int{1, 0}, [2]int{1, 0}), tok)
	wantStatus(t, r, 200)
	if r.JSON(t, &m); len(m.Mappings) != 1 {
		t.Fatalf("a repeated link: %+v", m)
	}
	wantStatus(t, b.do(t, "PUT", path, map[string]any{"mappings": []any{}}, tok), 200)
	if m := mpGet(t, b, tok, rec.ID); len(m.Mappings) != 0 || !m.Edited {
		t.Fatalf("after an empty PUT: %+v", m)
	}
}

// TestMappingsShareRecipient: a user a SHARED recipe is shared with reads
// its mapping but may not change it; PRIVATE hides it from them again.
func TestMappingsShareRecipient(t *testing.T) {
	t.Parallel()
	b := setup(t)
	owner, _ := b.user(t, repo.RoleUser)
	friend, friendTok := b.user(t, repo.RoleUser)
	id := rcInsert(t, b, owner.ID, repo.VisibilityShared)
	if _, _, err := repo.AddShare(context.Background(), b.db, id, friend.ID); err != nil {
		t.Fatal(err)
	}
	path := "/api/recipes/" + id.String() + "/mappings"
	wantStatus(t, b.do(t, "GET", path, nil, friendTok), 200)
	wantStatus(t, b.do(t, "PUT", path, map[string]any{"mappings": []any{}}, friendTok), 403)
	wantStatus(t, b.do(t, "POST", path+"/regenerate", nil, friendTok), 403)

	if _, err := b.db.Exec(context.Background(), `UPDATE recipe SET visibility = 'PRIVATE' WHERE id = $1`, id); err != nil {
		t.Fatal(err)
	}
	for _, r := range []response{
		b.do(t, "GET", path, nil, friendTok),
		b.do(t, "PUT", path, map[string]any{"mappings": []any{}}, friendTok),
		b.do(t, "POST", path+"/regenerate", nil, friendTok),
	} {
		if r.Status != 404 || r.ErrorCode() != "not_found" {
			t.Errorf("a PRIVATE recipe shared earlier: status %d %s, want 404", r.Status, r.Body)
		}
	}
	// A recipe that does not exist, or a malformed id, is 404 too.
	wantStatus(t, b.do(t, "GET", "/api/recipes/"+uuid.NewString()+"/mappings", nil, friendTok), 404)
	wantStatus(t, b.do(t, "GET", "/api/recipes/nope/mappings", nil, friendTok), 404)
}

// TestRecipeShowsParsedIngredients: each ingredient carries its parsed
// parts beside the unchanged text.
func TestRecipeShowsParsedIngredients(t *testing.T) {
	t.Parallel()
	b := setup(t)
	_, tok := b.user(t, repo.RoleUser)
	rec := rcCreate(t, b, tok, mpBody([]string{"2 large eggs, beaten", "1 1/2 cups milk", "2-3 tbsp sugar", "salt to taste"}, mpSteps))
	r := b.do(t, "GET", "/api/recipes/"+rec.ID.String(), nil, tok)
	wantStatus(t, r, 200)
	var raw struct {
		IngredientSections []struct {
			Ingredients []struct {
				Text   string
				Parsed map[string]any
			}
		}
	}
	r.JSON(t, &raw)
	got := raw.IngredientSections[0].Ingredients
	want := []struct {
		text   string
		parsed string
	}{
		{"2 large eggs, beaten", `map[name:eggs notes:large; beaten quantity:2]`},
		{"1 1/2 cups milk", `map[name:milk quantity:1.5 unit:cup]`},
		{"2-3 tbsp sugar", `map[name:sugar quantity:2 quantityMax:3 unit:tbsp]`},
		{"salt to taste", `map[name:salt notes:to taste]`},
	}
	if len(got) != len(want) {
		t.Fatalf("ingredients %+v", got)
	}
	for i, w := range want {
		if got[i].Text != w.text || fmt.Sprint(got[i].Parsed) != w.parsed {
			t.Errorf("ingredient %d: text %q parsed %v, want %q %s", i, got[i].Text, got[i].Parsed, w.text, w.parsed)
		}
	}
}

// TestMappingsOfDeletedRecipe: a job enqueued for a recipe deleted before
// it runs completes without error.
func TestMappingsOfDeletedRecipe(t *testing.T) {
	t.Parallel()
	b := setup(t)
	_, tok := b.user(t, repo.RoleUser)
	rec := rcCreate(t, b, tok, mpBody(mpIngredients, mpSteps))
	wantStatus(t, b.do(t, "DELETE", "/api/recipes/"+rec.ID.String(), nil, tok), 204)
	startMappingWorkers(t, b)
	waitMappingJobs(t, b)
	var n int
	if err := b.db.QueryRow(context.Background(), `SELECT count(*) FROM ingredient_instruction_mapping`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("%d links left, %v", n, err)
	}
}
