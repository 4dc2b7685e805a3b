package handlers

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"larder/ingredient"
	"larder/jobs"
	"larder/repo"
)

// Recipes. Who sees what: a PUBLIC recipe is readable by anyone, signed in
// or not; a SHARED one by its owner and the users it is shared with; a
// PRIVATE one by its owner; an ADMIN reads all. A recipe the caller may not
// read is 404 on every route, the same as one that does not exist. The
// requireOwnership routes answer 401 without a token, 404 for a recipe the
// caller may not read, and 403 for one they may read but do not own
// (DELETE lets an ADMIN through as well).

// Limits of a recipe's fields, so one request cannot store megabytes of
// text or thousands of rows.
const (
	recipeTitleMax       = 200
	recipeDescriptionMax = 10_000
	recipeURLMax         = 2048
	recipeLabelMax       = 100 // one category or tag
	recipeLabelsMax      = 30  // categories, or tags
	recipeSectionsMax    = 20  // sections of one kind
	recipeSectionNameMax = 200
	recipeIngredientsMax = 200 // over all sections
	recipeStepsMax       = 200 // over all sections
	recipeIngredientMax  = 1000
	recipeStepMax        = 5000
	recipeServingsMax    = 1000
	recipeMinutesMax     = 100_000
)

// recipeRoutes registers the recipe, share, image and tag routes.
func (s *Server) recipeRoutes(api fiber.Router) {
	api.Get("/recipes", s.optionalAuth, s.listRecipes)
	api.Post("/recipes", s.requireAuth, s.createRecipe)
	api.Get("/recipes/:id", s.optionalAuth, s.getRecipe)
	api.Put("/recipes/:id", s.requireAuth, s.updateRecipe)
	api.Delete("/recipes/:id", s.requireAuth, s.deleteRecipe)
	api.Post("/recipes/:id/image", s.requireAuth, s.uploadRecipeImage)
	api.Delete("/recipes/:id/image", s.requireAuth, s.deleteRecipeImage)
	api.Get("/recipes/:id/shares", s.requireAuth, s.listShares)
	api.Post("/recipes/:id/shares", s.requireAuth, s.shareLimit(), s.addShare)
	api.Delete("/recipes/:id/shares/:userId", s.requireAuth, s.removeShare)
	api.Get("/tags", s.optionalAuth, s.listTags)
	api.Get("/categories", s.optionalAuth, s.listCategories)
}

// RecipeSummary is a recipe as lists show it: the Recipe shape of docs/api.md
// without the ingredient and instruction sections.
type RecipeSummary struct {
	ID          uuid.UUID `json:"id"`
	OwnerID     uuid.UUID `json:"ownerId"`
	Title       string    `json:"title"`
	Description string    `json:"description"`
	Servings    *int      `json:"servings"`
	// ServingsUnit is what the servings count when they are not people
	// ("cookies", "loaves"); "" means people. ServingsUnitWord is its word
	// that agrees with the number (ingredient.YieldWord), nil when it has
	// none: the client writes the form for the scaled servings.
	ServingsUnit     string                `json:"servingsUnit"`
	ServingsUnitWord *ingredient.WordForms `json:"servingsUnitWord"`
	PrepMinutes      *int                  `json:"prepMinutes"`
	CookMinutes      *int                  `json:"cookMinutes"`
	TotalMinutes     *int                  `json:"totalMinutes"`
	SourceURL        *string               `json:"sourceUrl"`
	ImageURL         *string               `json:"imageUrl"`
	// ImageVariants are the smaller renditions the image job makes, by
	// name ("thumb", "medium") → address; {} until it has run.
	ImageVariants map[string]string `json:"imageVariants"`
	Visibility    string            `json:"visibility"`
	Categories    []string          `json:"categories"`
	Tags          []string          `json:"tags"`
	CreatedAt     time.Time         `json:"createdAt"`
	UpdatedAt     time.Time         `json:"updatedAt"`
}

// Recipe is the Recipe shape of docs/api.md.
type Recipe struct {
	RecipeSummary
	IngredientSections  []IngredientSection  `json:"ingredientSections"`
	InstructionSections []InstructionSection `json:"instructionSections"`
}

// IngredientSection is a named group of ingredients; "" for a simple recipe.
type IngredientSection struct {
	Name        string       `json:"name"`
	Ingredients []Ingredient `json:"ingredients"`
}

// Ingredient is one ingredient line. Its id survives edits that send it
// back, so mappings to steps survive too. The rest is ingredient.Described,
// read from the text whenever the recipe is shown (output only; the text
// stays the source of truth): its parts, and the amounts the client
// scales. `admin ingredients` prints the same for a line of text.
type Ingredient struct {
	ID uuid.UUID `json:"id"`
	ingredient.Described
}

// InstructionSection is a named group of steps; "" for a simple recipe.
type InstructionSection struct {
	Name  string `json:"name"`
	Steps []Step `json:"steps"`
}

// Step is one instruction step.
type Step struct {
	ID   uuid.UUID `json:"id"`
	Text string    `json:"text"`
}

func (s *Server) recipeSummaryView(r repo.RecipeSummary) RecipeSummary {
	public := repo.ReadableByAnyone(r.Visibility)
	return RecipeSummary{
		ID: r.ID, OwnerID: r.OwnerID, Title: r.Title, Description: r.Description, Servings: r.Servings,
		ServingsUnit: r.ServingsUnit, ServingsUnitWord: ingredient.YieldWord(r.ServingsUnit),
		PrepMinutes: r.PrepMinutes, CookMinutes: r.CookMinutes, TotalMinutes: r.TotalMinutes,
		SourceURL: r.SourceURL, ImageURL: s.imageURL(r.ImageKey, public), ImageVariants: s.variantURLs(r.ImageKey, r.ImageVariants, public),
		Visibility: r.Visibility, Categories: nonNilStrings(r.Categories), Tags: nonNilStrings(r.Tags),
		CreatedAt: r.CreatedAt.UTC(), UpdatedAt: r.UpdatedAt.UTC(),
	}
}

// ingredientLines keeps the readings of recent ingredient lines: parsing was
// a fifth of the API's work in answering GET /api/recipes/:id.
var ingredientLines = ingredient.NewMemo(50_000)

func (s *Server) recipeView(r repo.Recipe) Recipe {
	v := Recipe{
		RecipeSummary:       s.recipeSummaryView(r.RecipeSummary),
		IngredientSections:  make([]IngredientSection, len(r.IngredientSections)),
		InstructionSections: make([]InstructionSection, len(r.InstructionSections)),
	}
	// The lines are read together: a line that does not show its language
	// ("1 avocado") follows the recipe's, which decides its plural.
	var lines []string
	for _, s := range r.IngredientSections {
		for _, it := range s.Items {
			lines = append(lines, it.Text)
		}
	}
	described := ingredientLines.DescribeRecipe(lines)
	for i, s := range r.IngredientSections {
		items := make([]Ingredient, len(s.Items))
		for j, it := range s.Items {
			items[j] = Ingredient{ID: it.ID, Described: described[0]}
			described = described[1:]
		}
		v.IngredientSections[i] = IngredientSection{Name: s.Name, Ingredients: items}
	}
	for i, s := range r.InstructionSections {
		items := make([]Step, len(s.Items))
		for j, it := range s.Items {
			items[j] = Step{ID: it.ID, Text: it.Text}
		}
		v.InstructionSections[i] = InstructionSection{Name: s.Name, Steps: items}
	}
	return v
}

func nonNilStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// viewer is the caller as the repository's visibility rules see it.
func viewer(c *fiber.Ctx) repo.Viewer {
	me := caller(c)
	if me == nil {
		return repo.Viewer{}
	}
	return repo.Viewer{UserID: &me.ID, Admin: me.IsAdmin()}
}

// readableRecipe returns the recipe named by :id if the caller may read it,
// else 404.
func (s *Server) readableRecipe(c *fiber.Ctx) (repo.Recipe, error) {
	id, err := uuid.Parse(c.Params("id"))
	if err != nil {
		return repo.Recipe{}, errNotFound("recipe")
	}
	rec, err := repo.GetRecipe(c.UserContext(), s.DB, id, viewer(c))
	if errors.Is(err, repo.ErrNotFound) {
		return repo.Recipe{}, errNotFound("recipe")
	}
	return rec, err
}

// ownedRecipe is requireOwnership for recipes (after requireAuth): 404 when
// the caller may not read the recipe, 403 when they may but do not own it.
// adminToo lets an ADMIN act on any recipe (DELETE).
func (s *Server) ownedRecipe(c *fiber.Ctx, adminToo bool) (repo.Recipe, error) {
	rec, err := s.readableRecipe(c)
	if err != nil {
		return rec, err
	}
	me := caller(c)
	if rec.OwnerID != me.ID && !(adminToo && me.IsAdmin()) {
		return repo.Recipe{}, errForbidden("only the recipe's owner may do this")
	}
	return rec, nil
}

// getRecipe answers GET /api/recipes/:id.
func (s *Server) getRecipe(c *fiber.Ctx) error {
	rec, err := s.readableRecipe(c)
	if err != nil {
		return err
	}
	out, err := s.recipeRead(c, rec)
	if err != nil {
		return err
	}
	return c.JSON(out)
}

// createRecipe answers POST /api/recipes: 201 with the recipe. Its mapping
// generation is enqueued in the same transaction as the insert.
func (s *Server) createRecipe(c *fiber.Ctx) error {
	in, err := parseRecipeBody(c, nil)
	if err != nil {
		return err
	}
	ctx, me := c.UserContext(), caller(c)
	var id uuid.UUID
	err = pgx.BeginFunc(ctx, s.DB, func(tx pgx.Tx) error {
		var err error
		if id, err = repo.CreateRecipe(ctx, tx, me.ID, in); err != nil {
			return err
		}
		_, err = s.Queue.Enqueue(ctx, tx, &me.ID, jobs.GenerateMappingsArgs{RecipeID: id})
		return err
	})
	if err != nil {
		return err
	}
	s.ListCache.Invalidate()
	rec, err := repo.GetRecipe(ctx, s.DB, id, viewer(c))
	if err != nil {
		return err
	}
	c.Location("/api/recipes/" + id.String())
	return c.Status(fiber.StatusCreated).JSON(s.recipeView(rec))
}

// updateRecipe answers PUT /api/recipes/:id: the body replaces the recipe
// (fields left out take their defaults, as on create). Items sent with the
// id they were given keep it; its mapping generation is enqueued in the
// same transaction as the write.
func (s *Server) updateRecipe(c *fiber.Ctx) error {
	rec, err := s.ownedRecipe(c, false)
	if err != nil {
		return err
	}
	in, err := parseRecipeBody(c, &rec)
	if err != nil {
		return err
	}
	ctx, me := c.UserContext(), caller(c)
	err = pgx.BeginFunc(ctx, s.DB, func(tx pgx.Tx) error {
		if err := repo.UpdateRecipe(ctx, tx, rec.ID, in); err != nil {
			return err
		}
		_, err := s.Queue.Enqueue(ctx, tx, &me.ID, jobs.GenerateMappingsArgs{RecipeID: rec.ID})
		return err
	})
	switch {
	case errors.Is(err, repo.ErrUnknownItem):
		// Checked against the recipe read above; only an edit that removed
		// items in between can get here.
		return errConflict("the recipe changed while you edited it; reload it and try again")
	case errors.Is(err, repo.ErrNotFound):
		return errNotFound("recipe")
	case err != nil:
		return err
	}
	s.ListCache.Invalidate()
	rec, err = repo.GetRecipe(ctx, s.DB, rec.ID, viewer(c))
	if err != nil {
		return err
	}
	return c.JSON(s.recipeView(rec))
}

// deleteRecipe answers DELETE /api/recipes/:id (the owner or an ADMIN):
// 204, and the recipe's stored images are deleted once the row is gone.
func (s *Server) deleteRecipe(c *fiber.Ctx) error {
	rec, err := s.ownedRecipe(c, true)
	if err != nil {
		return err
	}
	img, err := repo.DeleteRecipe(c.UserContext(), s.DB, rec.ID)
	if errors.Is(err, repo.ErrNotFound) {
		return errNotFound("recipe")
	}
	if err != nil {
		return err
	}
	s.ListCache.Invalidate()
	s.deleteImageFiles(c.UserContext(), img)
	return c.SendStatus(fiber.StatusNoContent)
}

// recipeBody is the JSON of POST and PUT /api/recipes.
type recipeBody struct {
	Title               *string               `json:"title"`
	Description         *string               `json:"description"`
	Servings            *float64              `json:"servings"`
	ServingsUnit        *string               `json:"servingsUnit"`
	PrepMinutes         *float64              `json:"prepMinutes"`
	CookMinutes         *float64              `json:"cookMinutes"`
	TotalMinutes        *float64              `json:"totalMinutes"`
	SourceURL           *string               `json:"sourceUrl"`
	Visibility          *string               `json:"visibility"`
	Categories          []string              `json:"categories"`
	Tags                []string              `json:"tags"`
	IngredientSections  []sectionBody         `json:"ingredientSections"`
	InstructionSections []instructionSectBody `json:"instructionSections"`
}

type itemBody struct {
	ID   *string `json:"id"`
	Text *string `json:"text"`
}

type sectionBody struct {
	Name  string     `json:"name"`
	Items []itemBody `json:"ingredients"`
}

type instructionSectBody struct {
	Name  string     `json:"name"`
	Items []itemBody `json:"steps"`
}

// parseRecipeBody decodes and validates a recipe body; every problem is
// reported under its field's path ("ingredientSections[1].ingredients[0].text"),
// shape and content problems together. existing is the recipe being
// edited: item ids must be its own; on create (nil) item ids are ignored.
// Its steps: decode, the recipe's own fields, then each list of sections.
func parseRecipeBody(c *fiber.Ctx, existing *repo.Recipe) (repo.RecipeInput, error) {
	var b recipeBody
	fe := fieldErrors{}
	if err := decodeJSONInto(c, &b, fe); err != nil {
		return repo.RecipeInput{}, err
	}
	in := recipeFields(fe, b)
	items := newItemIDs(existing)
	ingNames, ingItems := make([]string, len(b.IngredientSections)), make([][]itemBody, len(b.IngredientSections))
	for i, s := range b.IngredientSections {
		ingNames[i], ingItems[i] = s.Name, s.Items
	}
	insNames, insItems := make([]string, len(b.InstructionSections)), make([][]itemBody, len(b.InstructionSections))
	for i, s := range b.InstructionSections {
		insNames[i], insItems[i] = s.Name, s.Items
	}
	in.IngredientSections = items.sections(fe, "ingredientSections", "ingredients", ingNames, ingItems, recipeIngredientsMax, recipeIngredientMax)
	in.InstructionSections = items.sections(fe, "instructionSections", "steps", insNames, insItems, recipeStepsMax, recipeStepMax)
	return in, fe.err()
}

// recipeFields checks the recipe's own fields: title, description, times,
// source, visibility, categories and tags.
func recipeFields(fe fieldErrors, b recipeBody) repo.RecipeInput {
	in := repo.RecipeInput{Visibility: repo.VisibilityPrivate}
	if b.Title == nil || strings.TrimSpace(*b.Title) == "" {
		fe.add("title", "is required")
	} else {
		in.Title = strings.TrimSpace(*b.Title)
		checkLength(fe, "title", in.Title, recipeTitleMax)
	}
	if b.Description != nil {
		in.Description = strings.TrimSpace(*b.Description)
		checkLength(fe, "description", in.Description, recipeDescriptionMax)
	}
	in.Servings = wholeNumber(fe, "servings", b.Servings, 1, recipeServingsMax, "must be a whole number of servings, 1 or more")
	if b.ServingsUnit != nil {
		in.ServingsUnit = strings.TrimSpace(*b.ServingsUnit)
		switch {
		case !repo.ServingsUnitOK(in.ServingsUnit):
			fe.add("servingsUnit", "must be one line of at most %d characters", repo.ServingsUnitMax)
		case in.ServingsUnit != "" && b.Servings == nil:
			// a unit counts servings; alone it would say nothing
			fe.add("servingsUnit", "needs a number of servings")
		}
	}
	in.PrepMinutes = wholeNumber(fe, "prepMinutes", b.PrepMinutes, 0, recipeMinutesMax, "must be a whole number of minutes, 0 or more")
	in.CookMinutes = wholeNumber(fe, "cookMinutes", b.CookMinutes, 0, recipeMinutesMax, "must be a whole number of minutes, 0 or more")
	in.TotalMinutes = wholeNumber(fe, "totalMinutes", b.TotalMinutes, 0, recipeMinutesMax, "must be a whole number of minutes, 0 or more")
	if b.SourceURL != nil && strings.TrimSpace(*b.SourceURL) != "" {
		u := strings.TrimSpace(*b.SourceURL)
		if p, err := url.Parse(u); err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
			fe.add("sourceUrl", "must be an http or https address")
		} else if len(u) > recipeURLMax {
			fe.add("sourceUrl", "must be at most %d characters", recipeURLMax)
		} else {
			in.SourceURL = &u
		}
	}
	if b.Visibility != nil {
		switch v := *b.Visibility; v {
		case repo.VisibilityPrivate, repo.VisibilityShared, repo.VisibilityPublic:
			in.Visibility = v
		default:
			fe.add("visibility", "must be PRIVATE, SHARED or PUBLIC")
		}
	}
	in.Categories = cleanLabels(fe, "categories", b.Categories)
	in.Tags = cleanLabels(fe, "tags", b.Tags)
	return in
}

// itemIDs checks the item ids a client sends back: on an edit they must be
// the recipe's own, each once; on create there are none to keep.
type itemIDs struct {
	editing bool
	own     map[uuid.UUID]bool
	seen    map[uuid.UUID]bool
}

func newItemIDs(existing *repo.Recipe) *itemIDs {
	ids := &itemIDs{editing: existing != nil, own: map[uuid.UUID]bool{}, seen: map[uuid.UUID]bool{}}
	if existing != nil {
		for _, s := range existing.IngredientSections {
			for _, it := range s.Items {
				ids.own[it.ID] = true
			}
		}
		for _, s := range existing.InstructionSections {
			for _, it := range s.Items {
				ids.own[it.ID] = true
			}
		}
	}
	return ids
}

// sections checks one list of sections (ingredients or steps) and returns it.
func (ids *itemIDs) sections(fe fieldErrors, field, itemsName string, names []string, items [][]itemBody, maxItems, maxText int) []repo.Section {
	if len(names) > recipeSectionsMax {
		fe.add(field, "may have at most %d sections", recipeSectionsMax)
		return nil
	}
	out := make([]repo.Section, len(names))
	count := 0
	for i, name := range names {
		path := fmt.Sprintf("%s[%d]", field, i)
		out[i] = repo.Section{Name: strings.TrimSpace(name), Items: []repo.Item{}}
		checkLength(fe, path+".name", out[i].Name, recipeSectionNameMax)
		for j, it := range items[i] {
			ipath := fmt.Sprintf("%s.%s[%d]", path, itemsName, j)
			count++
			var item repo.Item
			if it.Text == nil || strings.TrimSpace(*it.Text) == "" {
				fe.add(ipath+".text", "is required")
			} else {
				item.Text = strings.TrimSpace(*it.Text)
				checkLength(fe, ipath+".text", item.Text, maxText)
			}
			item.ID = ids.check(fe, ipath+".id", it.ID)
			out[i].Items = append(out[i].Items, item)
		}
	}
	if count > maxItems {
		fe.add(field, "may have at most %d %s in all", maxItems, itemsName)
	}
	return out
}

// check returns the id an item keeps, uuid.Nil for a new item.
func (ids *itemIDs) check(fe fieldErrors, path string, raw *string) uuid.UUID {
	if !ids.editing || raw == nil || *raw == "" {
		return uuid.Nil
	}
	id, err := uuid.Parse(*raw)
	switch {
	case err != nil:
		fe.add(path, "is not an id")
	case !ids.own[id]:
		fe.add(path, "is not one of this recipe's items; leave it out for a new one")
	case ids.seen[id]:
		fe.add(path, "appears twice")
	default:
		ids.seen[id] = true
		return id
	}
	return uuid.Nil
}

// checkLength adds a field error when s has more than max characters.
func checkLength(fe fieldErrors, field, s string, max int) {
	if utf8.RuneCountInString(s) > max {
		fe.add(field, "must be at most %d characters", max)
	}
}

// wholeNumber checks an optional JSON number: nil stays nil; anything else
// must be a whole number in [lo, hi].
func wholeNumber(fe fieldErrors, field string, v *float64, lo, hi int, msg string) *int {
	if v == nil {
		return nil
	}
	switch {
	case *v < float64(lo) || *v != float64(int64(*v)):
		fe.add(field, "%s", msg)
		return nil
	case *v > float64(hi):
		fe.add(field, "must be at most %d", hi)
		return nil
	}
	n := int(*v)
	return &n
}

// cleanLabels trims categories or tags, drops empty ones and repeats (the
// first spelling wins, without regard to case) and checks their number and
// length.
func cleanLabels(fe fieldErrors, field string, labels []string) []string {
	out := []string{}
	seen := map[string]bool{}
	for i, l := range labels {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		if utf8.RuneCountInString(l) > recipeLabelMax {
			fe.add(fmt.Sprintf("%s[%d]", field, i), "must be at most %d characters", recipeLabelMax)
			continue
		}
		if k := strings.ToLower(l); !seen[k] {
			seen[k] = true
			out = append(out, l)
		}
	}
	if len(out) > recipeLabelsMax {
		fe.add(field, "may have at most %d entries", recipeLabelsMax)
	}
	return out
}
