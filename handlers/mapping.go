package handlers

import (
	"errors"
	"fmt"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"larder/jobs"
	"larder/repo"
)

// Ingredient-to-step mappings of a recipe: which ingredient lines each step
// uses. The generation job (jobs.GenerateMappingsArgs) writes them after
// every create and edit; the owner may correct them by hand (PUT), and the
// automatic generation then keeps those corrections for the items that
// existed at the time, linking only items added later; regeneration on
// request drops the corrections. The read rules are the recipe's.

// mappingLinksMax bounds a PUT body: one link per pair of items is the most
// a recipe can have.
const mappingLinksMax = recipeIngredientsMax * recipeStepsMax

// mappingRoutes registers the mapping routes.
func (s *Server) mappingRoutes(api fiber.Router) {
	api.Get("/recipes/:id/mappings", s.optionalAuth, s.getMappings)
	api.Put("/recipes/:id/mappings", s.requireAuth, s.putMappings)
	api.Post("/recipes/:id/mappings/regenerate", s.requireAuth, s.regenerateMappings)
}

// MappingLink is one ingredient-to-step link.
type MappingLink struct {
	IngredientID uuid.UUID `json:"ingredientId"`
	StepID       uuid.UUID `json:"stepId"`
}

// MappingSet is the answer of GET and PUT /api/recipes/:id/mappings.
type MappingSet struct {
	// Mappings in recipe order: by ingredient, then by step.
	Mappings []MappingLink `json:"mappings"`
	// Edited is true while the owner's hand edits are in force.
	Edited bool `json:"edited"`
}

func mappingView(m repo.Mappings) MappingSet {
	out := MappingSet{Mappings: make([]MappingLink, len(m.Links)), Edited: m.Edited}
	for i, l := range m.Links {
		out.Mappings[i] = MappingLink{IngredientID: l.IngredientID, StepID: l.StepID}
	}
	return out
}

// getMappings answers GET /api/recipes/:id/mappings for whoever may read the recipe.
func (s *Server) getMappings(c *fiber.Ctx) error {
	rec, err := s.readableRecipe(c)
	if err != nil {
		return err
	}
	m, err := repo.GetMappings(c.UserContext(), s.DB, rec.ID)
	if errors.Is(err, repo.ErrNotFound) {
		return errNotFound("recipe")
	}
	if err != nil {
		return err
	}
	return c.JSON(mappingView(m))
}

// mappingBody is the JSON of PUT /api/recipes/:id/mappings.
type mappingBody struct {
	Mappings *[]struct {
		IngredientID *string `json:"ingredientId"`
		StepID       *string `json:"stepId"`
	} `json:"mappings"`
}

// putMappings answers PUT /api/recipes/:id/mappings (the owner): the body's
// links replace the recipe's, and are kept by later automatic generation.
// An id that is not an ingredient (or step) of this recipe is a 400 naming
// it, and nothing changes. A link sent twice counts once.
func (s *Server) putMappings(c *fiber.Ctx) error {
	rec, err := s.ownedRecipe(c, false)
	if err != nil {
		return err
	}
	links, err := parseMappingBody(c, rec)
	if err != nil {
		return err
	}
	ctx := c.UserContext()
	err = repo.SetMappings(ctx, s.DB, rec.ID, links)
	switch {
	case errors.Is(err, repo.ErrUnknownItem):
		// Checked against the recipe read above; only an edit that removed
		// items in between can get here.
		return errConflict("the recipe changed while you edited its mapping; reload it and try again")
	case errors.Is(err, repo.ErrNotFound):
		return errNotFound("recipe")
	case err != nil:
		return err
	}
	m, err := repo.GetMappings(ctx, s.DB, rec.ID)
	if err != nil {
		return err
	}
	return c.JSON(mappingView(m))
}

// parseMappingBody decodes the links of a PUT and checks that each joins an
// ingredient and a step of rec, reporting each bad one under its path
// ("mappings[2].stepId").
func parseMappingBody(c *fiber.Ctx, rec repo.Recipe) ([]repo.Link, error) {
	var b mappingBody
	fe := fieldErrors{}
	if err := decodeJSONInto(c, &b, fe); err != nil {
		return nil, err
	}
	if b.Mappings == nil {
		fe.add("mappings", "is required (an empty list removes every link)")
		return nil, fe.err()
	}
	if len(*b.Mappings) > mappingLinksMax {
		fe.add("mappings", "may have at most %d links", mappingLinksMax)
		return nil, fe.err()
	}
	ings, steps := map[uuid.UUID]bool{}, map[uuid.UUID]bool{}
	for _, sec := range rec.IngredientSections {
		for _, it := range sec.Items {
			ings[it.ID] = true
		}
	}
	for _, sec := range rec.InstructionSections {
		for _, it := range sec.Items {
			steps[it.ID] = true
		}
	}
	check := func(path string, raw *string, own map[uuid.UUID]bool, what string) uuid.UUID {
		if raw == nil || *raw == "" {
			fe.add(path, "is required")
			return uuid.Nil
		}
		id, err := uuid.Parse(*raw)
		if err != nil {
			fe.add(path, "is not an id")
			return uuid.Nil
		}
		if !own[id] {
			// The id was parsed, so echoing it cannot carry markup.
			fe.add(path, "%s is not %s of this recipe", id, what)
			return uuid.Nil
		}
		return id
	}
	links := make([]repo.Link, 0, len(*b.Mappings))
	seen := map[repo.Link]bool{}
	for i, m := range *b.Mappings {
		path := fmt.Sprintf("mappings[%d]", i)
		l := repo.Link{
			IngredientID: check(path+".ingredientId", m.IngredientID, ings, "an ingredient"),
			StepID:       check(path+".stepId", m.StepID, steps, "a step"),
		}
		if l.IngredientID != uuid.Nil && l.StepID != uuid.Nil && !seen[l] {
			seen[l] = true
			links = append(links, l)
		}
	}
	return links, fe.err()
}

// regenerateMappings answers POST /api/recipes/:id/mappings/regenerate (the
// owner): 202 with a job that replaces the whole mapping with the automatic
// one. The hand edits are dropped in the same transaction as the enqueue,
// so a hand edit made after this request (before the job runs) is kept,
// and one made before it is not: the later request wins.
func (s *Server) regenerateMappings(c *fiber.Ctx) error {
	rec, err := s.ownedRecipe(c, false)
	if err != nil {
		return err
	}
	ctx, me := c.UserContext(), caller(c)
	var jobID uuid.UUID
	err = pgx.BeginFunc(ctx, s.DB, func(tx pgx.Tx) error {
		if err := repo.ClearMappingEdits(ctx, tx, rec.ID); err != nil {
			return err
		}
		var err error
		jobID, err = s.Queue.Enqueue(ctx, tx, &me.ID, jobs.GenerateMappingsArgs{RecipeID: rec.ID})
		return err
	})
	if errors.Is(err, repo.ErrNotFound) {
		return errNotFound("recipe")
	}
	if err != nil {
		return err
	}
	return s.accepted(c, jobID)
}
