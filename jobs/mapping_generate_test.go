package jobs

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/google/uuid"
	"github.com/riverqueue/river"

	"larder/config"
	"larder/repo"
)

// mappingBundle is the job environment of the mapping job.
type mappingBundle struct {
	*jobEnv
	owner repo.User
}

func mappingSetup(t *testing.T) *mappingBundle {
	t.Helper()
	e := newJobEnv(t)
	return &mappingBundle{jobEnv: e, owner: e.user}
}

// run enqueues one job for the recipe the way the recipe handlers do,
// works it, and returns the result it recorded.
func (b *mappingBundle) run(t *testing.T, recipeID uuid.UUID) GenerateMappingsResult {
	t.Helper()
	row := b.enqueue(t, GenerateMappingsArgs{RecipeID: recipeID}, nil)
	res := workJob[GenerateMappingsArgs](t, b.db, &GenerateMappingsWorker{deps: b.deps}, row)
	if res.EventKind != river.EventKindJobCompleted {
		t.Fatalf("event %s: %v", res.EventKind, res.Job.Errors)
	}
	o := b.outcome(t, row.ID)
	if o.Code != nil {
		t.Fatalf("job failed: %s", *o.Code)
	}
	var out GenerateMappingsResult
	if err := json.Unmarshal(o.Result, &out); err != nil {
		t.Fatalf("result %s: %v", o.Result, err)
	}
	return out
}

// recipeItems reads the recipe back: ingredient and step ids in order.
func recipeItems(t *testing.T, db repo.DBTX, id uuid.UUID) (repo.Recipe, []uuid.UUID, []uuid.UUID) {
	t.Helper()
	rec, err := repo.GetRecipe(context.Background(), db, id, repo.Viewer{Admin: true})
	if err != nil {
		t.Fatal(err)
	}
	var ings, steps []uuid.UUID
	for _, s := range rec.IngredientSections {
		for _, it := range s.Items {
			ings = append(ings, it.ID)
		}
	}
	for _, s := range rec.InstructionSections {
		for _, it := range s.Items {
			steps = append(steps, it.ID)
		}
	}
	return rec, ings, steps
}

// pairs turns links into [ingredient index, step index] pairs by the ids' positions.
func pairs(t *testing.T, links []repo.Link, ings, steps []uuid.UUID) [][2]int {
	t.Helper()
	out := [][2]int{}
	for _, l := range links {
		i, s := slices.Index(ings, l.IngredientID), slices.Index(steps, l.StepID)
		if i < 0 || s < 0 {
			t.Fatalf("link %v names an item the recipe does not have", l)
		}
		out = append(out, [2]int{i, s})
	}
	return out
}

func (b *mappingBundle) mappings(t *testing.T, id uuid.UUID) ([][2]int, bool) {
	t.Helper()
	_, ings, steps := recipeItems(t, b.db, id)
	m, err := repo.GetMappings(context.Background(), b.db, id)
	if err != nil {
		t.Fatal(err)
	}
	return pairs(t, m.Links, ings, steps), m.Edited
}

func items(texts ...string) []repo.Section {
	s := repo.Section{Items: []repo.Item{}}
	for _, x := range texts {
		s.Items = append(s.Items, repo.Item{Text: x})
	}
	return []repo.Section{s}
}

func batterInput() repo.RecipeInput {
	return repo.RecipeInput{Title: "Batter", Visibility: repo.VisibilityPrivate,
		IngredientSections: items("2 cups all-purpose flour", "1 tsp salt", "3 large eggs, beaten", "100 g unsalted butter"),
		InstructionSections: items("Whisk the flour and salt in a bowl.", "Beat in the eggs.",
			"Melt the butter and stir it in.")}
}

// batterAuto is what the matcher links in batterInput: "salt" is not
// linked to the unsalted butter.
var batterAuto = [][2]int{{0, 0}, {1, 0}, {2, 1}, {3, 2}}

func TestGenerateMappingsWorker(t *testing.T) {
	t.Parallel()
	b := mappingSetup(t)
	ctx := context.Background()
	id, err := repo.CreateRecipe(ctx, b.db, b.owner.ID, batterInput())
	if err != nil {
		t.Fatal(err)
	}
	row := b.enqueue(t, GenerateMappingsArgs{RecipeID: id}, nil)
	if row.Queue != config.QueueMapping || row.Kind != "mapping_generate" {
		t.Errorf("queue %s kind %s", row.Queue, row.Kind)
	}

	res := b.run(t, id)
	if res.RecipeID != id || res.Links != len(batterAuto) || res.HandEdited || res.RecipeDeleted {
		t.Errorf("result %+v", res)
	}
	got, edited := b.mappings(t, id)
	if !slices.Equal(got, batterAuto) || edited {
		t.Fatalf("links %v (edited %v), want %v", got, edited, batterAuto)
	}
	// Idempotent: working it again changes nothing.
	b.run(t, id)
	if again, _ := b.mappings(t, id); !slices.Equal(again, batterAuto) {
		t.Fatalf("second run: links %v, want %v", again, batterAuto)
	}
}

func TestGenerateMappingsRecipeDeleted(t *testing.T) {
	t.Parallel()
	b := mappingSetup(t)
	ctx := context.Background()
	id, err := repo.CreateRecipe(ctx, b.db, b.owner.ID, batterInput())
	if err != nil {
		t.Fatal(err)
	}
	// The recipe goes after the job was queued, before it runs.
	row := b.enqueue(t, GenerateMappingsArgs{RecipeID: id}, nil)
	if _, err := repo.DeleteRecipe(ctx, b.db, id); err != nil {
		t.Fatal(err)
	}
	res := workJob[GenerateMappingsArgs](t, b.db, &GenerateMappingsWorker{deps: b.deps}, row)
	if res.EventKind != river.EventKindJobCompleted {
		t.Fatalf("a job for a deleted recipe must complete: %v", res.EventKind)
	}
	raw := b.outcome(t, row.ID).Result
	var out GenerateMappingsResult
	if err := json.Unmarshal(raw, &out); err != nil || !out.RecipeDeleted || out.RecipeID != id {
		t.Fatalf("result %s", raw)
	}
}

// TestGenerateMappingsKeepsHandEdits walks the life of a mapping: generated,
// corrected by hand, kept across an edit that changes a step's text and
// adds items (only the new items are linked automatically), trimmed when an
// item is deleted, and replaced on regeneration.
func TestGenerateMappingsKeepsHandEdits(t *testing.T) {
	t.Parallel()
	b := mappingSetup(t)
	ctx := context.Background()
	id, err := repo.CreateRecipe(ctx, b.db, b.owner.ID, batterInput())
	if err != nil {
		t.Fatal(err)
	}
	b.run(t, id)
	_, ings, steps := recipeItems(t, b.db, id)

	// The owner unlinks the salt from step 0 and links the butter to step 1.
	hand := []repo.Link{}
	for _, p := range [][2]int{{0, 0}, {2, 1}, {3, 1}, {3, 2}} {
		hand = append(hand, repo.Link{IngredientID: ings[p[0]], StepID: steps[p[1]]})
	}
	if err := repo.SetMappings(ctx, b.db, id, hand); err != nil {
		t.Fatal(err)
	}
	wantHand := [][2]int{{0, 0}, {2, 1}, {3, 1}, {3, 2}}
	if got, edited := b.mappings(t, id); !slices.Equal(got, wantHand) || !edited {
		t.Fatalf("after the hand edit: %v (edited %v), want %v", got, edited, wantHand)
	}

	// An edit: step 1 now names the salt too (the owner's "no link" between
	// them stands), and a new ingredient and a new step arrive.
	rec, _, _ := recipeItems(t, b.db, id)
	in := batterInput()
	in.IngredientSections = rec.IngredientSections
	in.IngredientSections[0].Items = append(in.IngredientSections[0].Items, repo.Item{Text: "2 tbsp sugar"})
	in.InstructionSections = rec.InstructionSections
	in.InstructionSections[0].Items[1].Text = "Beat in the eggs and the salt."
	in.InstructionSections[0].Items = append(in.InstructionSections[0].Items,
		repo.Item{Text: "Sprinkle with the sugar and the remaining flour."})
	if err := repo.UpdateRecipe(ctx, b.db, id, in); err != nil {
		t.Fatal(err)
	}
	res := b.run(t, id)
	if !res.HandEdited {
		t.Errorf("result %+v: want handEdited", res)
	}
	// Hand links kept as they were; the new step gets the flour (an old
	// ingredient) and the sugar (a new one).
	want := [][2]int{{0, 0}, {0, 3}, {2, 1}, {3, 1}, {3, 2}, {4, 3}}
	got, edited := b.mappings(t, id)
	if !slices.Equal(got, want) || !edited {
		t.Fatalf("after the edit: %v (edited %v), want %v", got, edited, want)
	}
	b.run(t, id)
	if again, _ := b.mappings(t, id); !slices.Equal(again, want) {
		t.Fatalf("second run after the edit: %v, want %v", again, want)
	}

	// Deleting the eggs takes their links along at once.
	rec, _, _ = recipeItems(t, b.db, id)
	in.IngredientSections = rec.IngredientSections
	in.IngredientSections[0].Items = slices.Delete(in.IngredientSections[0].Items, 2, 3)
	in.InstructionSections = rec.InstructionSections
	if err := repo.UpdateRecipe(ctx, b.db, id, in); err != nil {
		t.Fatal(err)
	}
	want = [][2]int{{0, 0}, {0, 3}, {2, 1}, {2, 2}, {3, 3}} // indexes shift: butter is 2, sugar 3
	if got, _ := b.mappings(t, id); !slices.Equal(got, want) {
		t.Fatalf("after deleting the eggs: %v, want %v", got, want)
	}

	// Regeneration forgets the hand edits: the matcher's links only.
	if err := repo.ClearMappingEdits(ctx, b.db, id); err != nil {
		t.Fatal(err)
	}
	if res := b.run(t, id); res.HandEdited {
		t.Errorf("result %+v after clearing edits", res)
	}
	want = [][2]int{{0, 0}, {0, 3}, {1, 0}, {1, 1}, {2, 2}, {3, 3}}
	if got, edited := b.mappings(t, id); !slices.Equal(got, want) || edited {
		t.Fatalf("after regeneration: %v (edited %v), want %v", got, edited, want)
	}
}

func TestMergeLinks(t *testing.T) {
	t.Parallel()
	i0, i1, i2 := uuid.New(), uuid.New(), uuid.New()
	s0, s1 := uuid.New(), uuid.New()
	item := func(id uuid.UUID, reviewed bool) repo.MappingItem {
		return repo.MappingItem{ID: id, Reviewed: reviewed}
	}
	l := func(i, s uuid.UUID) repo.Link { return repo.Link{IngredientID: i, StepID: s} }
	tests := []struct {
		name  string
		c     repo.MappingContent
		auto  []repo.Link
		wants []repo.Link
	}{
		{
			name: "no hand edits: the automatic links, stored ones dropped",
			c: repo.MappingContent{Ingredients: []repo.MappingItem{item(i0, true), item(i1, true)},
				Steps: []repo.MappingItem{item(s0, true)}, Links: []repo.Link{l(i1, s0)}},
			auto:  []repo.Link{l(i0, s0)},
			wants: []repo.Link{l(i0, s0)},
		},
		{
			name: "hand edits: reviewed pairs keep their state, link or none",
			c: repo.MappingContent{Edited: true, Ingredients: []repo.MappingItem{item(i0, true), item(i1, true)},
				Steps: []repo.MappingItem{item(s0, true), item(s1, true)}, Links: []repo.Link{l(i1, s0)}},
			auto:  []repo.Link{l(i0, s0), l(i0, s1)},
			wants: []repo.Link{l(i1, s0)},
		},
		{
			name: "hand edits: pairs with a new item follow the matcher, in recipe order",
			c: repo.MappingContent{Edited: true,
				Ingredients: []repo.MappingItem{item(i0, true), item(i1, true), item(i2, false)},
				Steps:       []repo.MappingItem{item(s0, true), item(s1, false)},
				Links:       []repo.Link{l(i1, s0), l(i2, s0)}},
			auto:  []repo.Link{l(i0, s0), l(i0, s1), l(i2, s1)},
			wants: []repo.Link{l(i0, s1), l(i1, s0), l(i2, s1)},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := mergeLinks(tt.c, tt.auto); !slices.Equal(got, tt.wants) {
				t.Fatalf("got %v, want %v", got, tt.wants)
			}
		})
	}
}
