package repo_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"larder/repo"
	"larder/repo/repotest"
)

// mappingRecipe creates a recipe with ingredients in two sections and
// steps in two sections, and returns its id and its item ids in recipe order.
func mappingRecipe(t *testing.T, db repo.DBTX, owner uuid.UUID) (id uuid.UUID, ings, steps []uuid.UUID) {
	t.Helper()
	ctx := context.Background()
	id, err := repo.CreateRecipe(ctx, db, owner, repo.RecipeInput{Title: "Pie", Visibility: repo.VisibilityPrivate,
		IngredientSections: []repo.Section{
			{Name: "Crust", Items: []repo.Item{{Text: "250 g flour"}, {Text: "125 g butter"}}},
			{Name: "Filling", Items: []repo.Item{{Text: "4 apples"}}},
		},
		InstructionSections: []repo.Section{
			{Name: "Crust", Items: []repo.Item{{Text: "Rub the butter into the flour."}}},
			{Name: "Filling", Items: []repo.Item{{Text: "Slice the apples."}, {Text: "Fill and bake."}}},
		}})
	if err != nil {
		t.Fatal(err)
	}
	rec, err := repo.GetRecipe(ctx, db, id, repo.Viewer{Admin: true})
	if err != nil {
		t.Fatal(err)
	}
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
	return id, ings, steps
}

func link(i, s uuid.UUID) repo.Link { return repo.Link{IngredientID: i, StepID: s} }

func TestSetMappings(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tx := repotest.Tx(t)
	owner := repotest.CreateUser(t, tx, repo.RoleUser)
	id, ings, steps := mappingRecipe(t, tx, owner.ID)

	m, err := repo.GetMappings(ctx, tx, id)
	if err != nil || len(m.Links) != 0 || m.Edited {
		t.Fatalf("a new recipe: %+v, %v", m, err)
	}
	// Sent out of order and with a repeat: stored once each, read back in recipe order.
	in := []repo.Link{link(ings[2], steps[2]), link(ings[2], steps[1]), link(ings[0], steps[0]), link(ings[2], steps[1]), link(ings[1], steps[0])}
	if err := repo.SetMappings(ctx, tx, id, in); err != nil {
		t.Fatal(err)
	}
	want := []repo.Link{link(ings[0], steps[0]), link(ings[1], steps[0]), link(ings[2], steps[1]), link(ings[2], steps[2])}
	m, err = repo.GetMappings(ctx, tx, id)
	if err != nil || !slices.Equal(m.Links, want) || !m.Edited {
		t.Fatalf("got %+v, %v; want %v, edited", m, err, want)
	}
	// Every item present at the edit is reviewed.
	c := lockContent(t, tx, id)
	for _, it := range append(c.Ingredients, c.Steps...) {
		if !it.Reviewed {
			t.Errorf("item %s (%q) not reviewed after the hand edit", it.ID, it.Text)
		}
	}
	// An empty set removes every link and keeps the edit.
	if err := repo.SetMappings(ctx, tx, id, nil); err != nil {
		t.Fatal(err)
	}
	if m, _ = repo.GetMappings(ctx, tx, id); len(m.Links) != 0 || !m.Edited {
		t.Fatalf("after an empty set: %+v", m)
	}
}

func lockContent(t *testing.T, db repo.DBTX, id uuid.UUID) repo.MappingContent {
	t.Helper()
	var c repo.MappingContent
	err := pgx.BeginFunc(context.Background(), db, func(tx pgx.Tx) error {
		var err error
		c, err = repo.LockMappingContent(context.Background(), tx, id)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestSetMappingsRefusesOtherItems(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tx := repotest.Tx(t)
	owner := repotest.CreateUser(t, tx, repo.RoleUser)
	id, ings, steps := mappingRecipe(t, tx, owner.ID)
	_, otherIngs, otherSteps := mappingRecipe(t, tx, owner.ID)
	before := []repo.Link{link(ings[0], steps[0])}
	if err := repo.SetMappings(ctx, tx, id, before); err != nil {
		t.Fatal(err)
	}
	for name, links := range map[string][]repo.Link{
		"another recipe's ingredient": {link(ings[1], steps[0]), link(otherIngs[0], steps[0])},
		"another recipe's step":       {link(ings[1], otherSteps[1])},
		"a step as the ingredient":    {link(steps[0], steps[1])},
		"an ingredient as the step":   {link(ings[0], ings[1])},
		"an unknown id":               {link(uuid.New(), steps[0])},
	} {
		err := repo.SetMappings(ctx, tx, id, links)
		if !errors.Is(err, repo.ErrUnknownItem) {
			t.Errorf("%s: got %v, want ErrUnknownItem", name, err)
		}
		if m, _ := repo.GetMappings(ctx, tx, id); !slices.Equal(m.Links, before) {
			t.Errorf("%s: links changed to %v", name, m.Links)
		}
	}
	if err := repo.SetMappings(ctx, tx, uuid.New(), nil); !errors.Is(err, repo.ErrNotFound) {
		t.Errorf("unknown recipe: got %v, want ErrNotFound", err)
	}
	if _, err := repo.GetMappings(ctx, tx, uuid.New()); !errors.Is(err, repo.ErrNotFound) {
		t.Errorf("unknown recipe: got %v, want ErrNotFound", err)
	}
}

// TestMappingReviewedFlags: items added by a later edit are not reviewed;
// items sent back keep their flag; deleted items take their links along;
// ClearMappingEdits forgets the review and keeps the links.
func TestMappingReviewedFlags(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tx := repotest.Tx(t)
	owner := repotest.CreateUser(t, tx, repo.RoleUser)
	id, ings, steps := mappingRecipe(t, tx, owner.ID)
	if err := repo.SetMappings(ctx, tx, id, []repo.Link{link(ings[0], steps[0]), link(ings[2], steps[1]), link(ings[2], steps[2])}); err != nil {
		t.Fatal(err)
	}

	// The edit keeps the flour and butter (the butter's text changes), drops
	// the apples, adds pears, and keeps every step.
	rec, err := repo.GetRecipe(ctx, tx, id, repo.Viewer{Admin: true})
	if err != nil {
		t.Fatal(err)
	}
	in := repo.RecipeInput{Title: rec.Title, Visibility: rec.Visibility, InstructionSections: rec.InstructionSections,
		IngredientSections: []repo.Section{
			{Name: "Crust", Items: []repo.Item{{ID: ings[0], Text: "250 g flour"}, {ID: ings[1], Text: "150 g cold butter"}}},
			{Name: "Filling", Items: []repo.Item{{Text: "3 pears"}}},
		}}
	if err := repo.UpdateRecipe(ctx, tx, id, in); err != nil {
		t.Fatal(err)
	}
	c := lockContent(t, tx, id)
	if len(c.Ingredients) != 3 || !c.Edited {
		t.Fatalf("content %+v", c)
	}
	for i, want := range []bool{true, true, false} {
		if c.Ingredients[i].Reviewed != want {
			t.Errorf("ingredient %d (%q): reviewed %v, want %v", i, c.Ingredients[i].Text, c.Ingredients[i].Reviewed, want)
		}
	}
	if want := []repo.Link{link(ings[0], steps[0])}; !slices.Equal(c.Links, want) {
		t.Errorf("links after deleting the apples: %v, want %v", c.Links, want)
	}

	if err := repo.ClearMappingEdits(ctx, tx, id); err != nil {
		t.Fatal(err)
	}
	c = lockContent(t, tx, id)
	if c.Edited || len(c.Links) != 1 {
		t.Errorf("after clearing: edited %v, links %v", c.Edited, c.Links)
	}
	for _, it := range append(c.Ingredients, c.Steps...) {
		if it.Reviewed {
			t.Errorf("item %q still reviewed after clearing", it.Text)
		}
	}
	if err := repo.ClearMappingEdits(ctx, tx, uuid.New()); !errors.Is(err, repo.ErrNotFound) {
		t.Errorf("unknown recipe: got %v, want ErrNotFound", err)
	}
}
