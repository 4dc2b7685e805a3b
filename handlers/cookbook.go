package handlers

import (
	"errors"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"

	"larder/repo"
)

// Cookbooks. Who may do what: a cookbook is read and written by its owner
// and by an ADMIN; to anyone else it does not exist (404), because nothing
// in the specification makes cookbooks public or shareable. The recipes a
// cookbook shows are filtered for the caller as everywhere else, so even an
// ADMIN's additions never show a cookbook's owner a recipe they may not read.

// Limits of a cookbook's fields.
const (
	cookbookNameMax        = 200
	cookbookDescriptionMax = 10_000
)

// cookbookRoutes registers the cookbook routes of docs/api.md, and two
// extensions: DELETE /cookbooks/:id/image, and GET /cookbooks/:id/recipes
// (the next pages of a cookbook's recipes without the rest of it).
func (s *Server) cookbookRoutes(api fiber.Router) {
	api.Get("/cookbooks", s.requireAuth, s.listCookbooks)
	api.Post("/cookbooks", s.requireAuth, s.createCookbook)
	api.Get("/cookbooks/:id", s.requireAuth, s.getCookbook)
	api.Put("/cookbooks/:id", s.requireAuth, s.updateCookbook)
	api.Delete("/cookbooks/:id", s.requireAuth, s.deleteCookbook)
	api.Get("/cookbooks/:id/recipes", s.requireAuth, s.listCookbookRecipes)
	api.Put("/cookbooks/:id/recipes/:recipeId", s.requireAuth, s.addCookbookRecipe)
	api.Delete("/cookbooks/:id/recipes/:recipeId", s.requireAuth, s.removeCookbookRecipe)
	api.Put("/cookbooks/:id/cookbooks/:childId", s.requireAuth, s.includeCookbook)
	api.Delete("/cookbooks/:id/cookbooks/:childId", s.requireAuth, s.excludeCookbook)
	api.Put("/cookbooks/:id/auto-filters", s.requireAuth, s.setCookbookAutoFilters)
	api.Post("/cookbooks/:id/image", s.requireAuth, s.uploadCookbookImage)
	api.Delete("/cookbooks/:id/image", s.requireAuth, s.deleteCookbookImage)
	api.Post("/cookbooks/:id/image/from-url", s.requireAuth, s.downloadCookbookImage)
}

// Cookbook is the cookbook shape of docs/api.md. The arrays are never null.
type Cookbook struct {
	ID          uuid.UUID `json:"id"`
	OwnerID     uuid.UUID `json:"ownerId"`
	Name        string    `json:"name"`
	Description string    `json:"description"`
	ImageURL    *string   `json:"imageUrl"`
	// ImageVariants are the smaller renditions the image job makes, by
	// name ("thumb", "medium") → address; {} until it has run.
	ImageVariants        map[string]string `json:"imageVariants"`
	Tags                 []string          `json:"tags"`
	AutoFilterCategories []string          `json:"autoFilterCategories"`
	AutoFilterTags       []string          `json:"autoFilterTags"`
	CreatedAt            time.Time         `json:"createdAt"`
	UpdatedAt            time.Time         `json:"updatedAt"`
}

func (s *Server) cookbookView(cb repo.Cookbook) Cookbook {
	return Cookbook{
		ID: cb.ID, OwnerID: cb.OwnerID, Name: cb.Name, Description: cb.Description,
		ImageURL: s.imageURL(cb.ImageKey, false), ImageVariants: s.variantURLs(cb.ImageKey, cb.ImageVariants, false),
		Tags: nonNilStrings(cb.Tags), AutoFilterCategories: nonNilStrings(cb.AutoFilterCategories),
		AutoFilterTags: nonNilStrings(cb.AutoFilterTags), CreatedAt: cb.CreatedAt.UTC(), UpdatedAt: cb.UpdatedAt.UTC(),
	}
}

// cookbookDetail is GET /api/cookbooks/:id: the cookbook, the first page of
// the recipes it resolves to, and the cookbooks it includes.
type cookbookDetail struct {
	Cookbook
	Recipes cookbookRecipePage `json:"recipes"`
	// Cookbooks are the directly included cookbooks and those whose tags
	// match autoFilterTags; not paged (one owner's cookbooks).
	Cookbooks []Cookbook `json:"cookbooks"`
	// RecipeIDs are the recipes of this page added to the cookbook by hand;
	// the others come from the auto-filters or from included cookbooks.
	RecipeIDs []uuid.UUID `json:"recipeIds"`
	// CookbookIDs are the cookbooks included by hand; the others of
	// Cookbooks are included by autoFilterTags.
	CookbookIDs []uuid.UUID `json:"cookbookIds"`
}

// cookbookRecipePage is a page of a cookbook's recipes in the list shape of docs/api.md.
type cookbookRecipePage struct {
	Items      []RecipeSummary `json:"items"`
	NextCursor *string         `json:"nextCursor"`
	Total      int64           `json:"total"`
}

// cookbookFor is requireOwnership for cookbooks: it returns the cookbook
// named by the route parameter if the caller owns it or is an ADMIN, and a
// 404 otherwise, the same as for a cookbook that does not exist.
func (s *Server) cookbookFor(c *fiber.Ctx, param string) (repo.Cookbook, error) {
	id, err := uuid.Parse(c.Params(param))
	if err != nil {
		return repo.Cookbook{}, errNotFound("cookbook")
	}
	cb, err := repo.GetCookbook(c.UserContext(), s.DB, id)
	if errors.Is(err, repo.ErrNotFound) {
		return repo.Cookbook{}, errNotFound("cookbook")
	}
	if err != nil {
		return repo.Cookbook{}, err
	}
	if me := caller(c); me == nil || (cb.OwnerID != me.ID && !me.IsAdmin()) {
		return repo.Cookbook{}, errNotFound("cookbook")
	}
	return cb, nil
}

// cookbookListPage is a page of cookbooks in the list shape of docs/api.md.
type cookbookListPage struct {
	Items      []Cookbook `json:"items"`
	NextCursor *string    `json:"nextCursor"`
	Total      int64      `json:"total"`
}

// listCookbooks pages through the caller's own cookbooks, newest first.
// owner=me is accepted (it is what the list always is).
func (s *Server) listCookbooks(c *fiber.Ctx) error {
	fe := fieldErrors{}
	limit, after := timeListQuery(c, fe, "owner")
	if o := c.Query("owner"); o != "" && o != "me" {
		fe.add("owner", "can only be me: the list holds the caller's own cookbooks")
	}
	if err := fe.err(); err != nil {
		return err
	}
	var cur *repo.CookbookCursor
	if after != nil {
		cur = &repo.CookbookCursor{CreatedAt: after.CreatedAt, ID: after.ID}
	}
	page, err := repo.ListCookbooks(c.UserContext(), s.DB, caller(c).ID, limit, cur)
	if err != nil {
		return err
	}
	out := cookbookListPage{Items: make([]Cookbook, 0, len(page.Items)), Total: page.Total}
	for _, cb := range page.Items {
		out.Items = append(out.Items, s.cookbookView(cb))
	}
	if page.Next != nil {
		out.NextCursor = encodeCursor(timeCursor{CreatedAt: page.Next.CreatedAt, ID: page.Next.ID})
	}
	return c.JSON(out)
}

// cookbookBody is the body of POST and PUT /api/cookbooks[/:id]. A field
// left out (or null) of a PUT keeps its value.
type cookbookBody struct {
	Name                 *string   `json:"name"`
	Description          *string   `json:"description"`
	Tags                 *[]string `json:"tags"`
	AutoFilterCategories *[]string `json:"autoFilterCategories"`
	AutoFilterTags       *[]string `json:"autoFilterTags"`
}

// validate checks and normalizes the body: text trimmed, labels of each
// list cleaned like a recipe's.
// requireName is set for a create and for a PUT, which names the cookbook.
func (b *cookbookBody) validate(fe fieldErrors, requireName bool) {
	if b.Name == nil {
		if requireName {
			fe.add("name", "is required")
		}
	} else {
		n := strings.TrimSpace(*b.Name)
		switch {
		case n == "":
			fe.add("name", "is required")
		case utf8.RuneCountInString(n) > cookbookNameMax:
			fe.add("name", "must be at most %d characters", cookbookNameMax)
		}
		b.Name = &n
	}
	if b.Description != nil {
		d := strings.TrimSpace(*b.Description)
		if utf8.RuneCountInString(d) > cookbookDescriptionMax {
			fe.add("description", "must be at most %d characters", cookbookDescriptionMax)
		}
		b.Description = &d
	}
	b.Tags = cleanCookbookLabels(fe, "tags", b.Tags)
	b.AutoFilterCategories = cleanCookbookLabels(fe, "autoFilterCategories", b.AutoFilterCategories)
	b.AutoFilterTags = cleanCookbookLabels(fe, "autoFilterTags", b.AutoFilterTags)
}

// cleanCookbookLabels cleans a list of names that may be absent (nil) as
// a recipe's categories and tags are (cleanLabels): trimmed, empty names
// dropped, a repeat (ignoring case) kept once with its first spelling.
func cleanCookbookLabels(fe fieldErrors, field string, labels *[]string) *[]string {
	if labels == nil {
		return nil
	}
	clean := cleanLabels(fe, field, *labels)
	return &clean
}

// cookbookValue is *p, or the zero value for nil.
func cookbookValue[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// createCookbook answers 201 with the new cookbook, owned by the caller.
func (s *Server) createCookbook(c *fiber.Ctx) error {
	var body cookbookBody
	if err := decodeJSON(c, &body); err != nil {
		return err
	}
	fe := fieldErrors{}
	body.validate(fe, true)
	if err := fe.err(); err != nil {
		return err
	}
	cb, err := repo.CreateCookbook(c.UserContext(), s.DB, caller(c).ID, repo.CookbookInput{
		Name: *body.Name, Description: cookbookValue(body.Description), Tags: cookbookValue(body.Tags),
		AutoFilterCategories: cookbookValue(body.AutoFilterCategories), AutoFilterTags: cookbookValue(body.AutoFilterTags),
	})
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(s.cookbookView(cb))
}

// getCookbook answers the cookbook with the first page of its recipes
// (limit, cursor) and its included cookbooks.
func (s *Server) getCookbook(c *fiber.Ctx) error {
	cb, err := s.cookbookFor(c, "id")
	if err != nil {
		return err
	}
	recipes, direct, err := s.cookbookRecipes(c, cb.ID)
	if err != nil {
		return err
	}
	included, err := repo.ListIncludedCookbooks(c.UserContext(), s.DB, cb.ID)
	if err != nil {
		return err
	}
	out := cookbookDetail{Cookbook: s.cookbookView(cb), Recipes: recipes, Cookbooks: []Cookbook{}, RecipeIDs: direct, CookbookIDs: []uuid.UUID{}}
	for _, ic := range included {
		out.Cookbooks = append(out.Cookbooks, s.cookbookView(ic.Cookbook))
		if ic.Direct {
			out.CookbookIDs = append(out.CookbookIDs, ic.ID)
		}
	}
	return c.JSON(out)
}

// listCookbookRecipes answers one page of the cookbook's recipes, the
// same as the recipes of GET /api/cookbooks/:id: for the next pages.
func (s *Server) listCookbookRecipes(c *fiber.Ctx) error {
	cb, err := s.cookbookFor(c, "id")
	if err != nil {
		return err
	}
	page, _, err := s.cookbookRecipes(c, cb.ID)
	if err != nil {
		return err
	}
	return c.JSON(page)
}

// cookbookRecipes resolves one page of the cookbook's recipes for the caller.
func (s *Server) cookbookRecipes(c *fiber.Ctx, id uuid.UUID) (cookbookRecipePage, []uuid.UUID, error) {
	fe := fieldErrors{}
	limit, after := timeListQuery(c, fe)
	if err := fe.err(); err != nil {
		return cookbookRecipePage{}, nil, err
	}
	var cur *repo.RecipeCursor
	if after != nil {
		cur = &repo.RecipeCursor{CreatedAt: after.CreatedAt, ID: after.ID}
	}
	page, err := repo.ListCookbookRecipes(c.UserContext(), s.DB, id, viewer(c), limit, cur)
	if err != nil {
		return cookbookRecipePage{}, nil, err
	}
	out := cookbookRecipePage{Items: make([]RecipeSummary, 0, len(page.Items)), Total: page.Total}
	for _, r := range page.Items {
		out.Items = append(out.Items, s.recipeSummaryView(r))
	}
	if page.Next != nil {
		out.NextCursor = encodeCursor(timeCursor{CreatedAt: page.Next.CreatedAt, ID: page.Next.ID})
	}
	return out, page.Direct, nil
}

// updateCookbook changes the fields the body names (name is required) and
// answers the cookbook.
func (s *Server) updateCookbook(c *fiber.Ctx) error {
	cb, err := s.cookbookFor(c, "id")
	if err != nil {
		return err
	}
	var body cookbookBody
	if err := decodeJSON(c, &body); err != nil {
		return err
	}
	fe := fieldErrors{}
	body.validate(fe, true)
	if err := fe.err(); err != nil {
		return err
	}
	cb, err = repo.UpdateCookbook(c.UserContext(), s.DB, cb.ID, repo.CookbookUpdate{
		Name: body.Name, Description: body.Description, Tags: body.Tags,
		AutoFilterCategories: body.AutoFilterCategories, AutoFilterTags: body.AutoFilterTags,
	})
	if errors.Is(err, repo.ErrNotFound) {
		return errNotFound("cookbook") // deleted meanwhile
	}
	if err != nil {
		return err
	}
	return c.JSON(s.cookbookView(cb))
}

// setCookbookAutoFilters sets autoFilterCategories and autoFilterTags
// ({autoFilterCategories, autoFilterTags}; one left out keeps its value)
// and answers the cookbook.
func (s *Server) setCookbookAutoFilters(c *fiber.Ctx) error {
	cb, err := s.cookbookFor(c, "id")
	if err != nil {
		return err
	}
	var body cookbookBody
	if err := decodeJSON(c, &body); err != nil {
		return err
	}
	fe := fieldErrors{}
	if body.AutoFilterCategories == nil && body.AutoFilterTags == nil {
		fe.add("autoFilterCategories", "send autoFilterCategories, autoFilterTags or both (arrays of names)")
	}
	body = cookbookBody{AutoFilterCategories: body.AutoFilterCategories, AutoFilterTags: body.AutoFilterTags}
	body.validate(fe, false)
	if err := fe.err(); err != nil {
		return err
	}
	cb, err = repo.UpdateCookbook(c.UserContext(), s.DB, cb.ID, repo.CookbookUpdate{
		AutoFilterCategories: body.AutoFilterCategories, AutoFilterTags: body.AutoFilterTags,
	})
	if errors.Is(err, repo.ErrNotFound) {
		return errNotFound("cookbook")
	}
	if err != nil {
		return err
	}
	return c.JSON(s.cookbookView(cb))
}

// deleteCookbook deletes the cookbook and its links, never its recipes or
// the cookbooks it includes, then its image files; 204.
func (s *Server) deleteCookbook(c *fiber.Ctx) error {
	cb, err := s.cookbookFor(c, "id")
	if err != nil {
		return err
	}
	img, err := repo.DeleteCookbook(c.UserContext(), s.DB, cb.ID)
	if errors.Is(err, repo.ErrNotFound) {
		return errNotFound("cookbook")
	}
	if err != nil {
		return err
	}
	s.deleteImageFiles(c.UserContext(), img)
	return c.SendStatus(fiber.StatusNoContent)
}

// addCookbookRecipe puts a recipe the caller may read in the cookbook;
// 204, also when it was there already. A recipe the caller may not read is
// 404, as if it did not exist.
func (s *Server) addCookbookRecipe(c *fiber.Ctx) error {
	cb, err := s.cookbookFor(c, "id")
	if err != nil {
		return err
	}
	recipeID, err := uuid.Parse(c.Params("recipeId"))
	if err != nil {
		return errNotFound("recipe")
	}
	if _, err := repo.AddCookbookRecipe(c.UserContext(), s.DB, cb.ID, recipeID, viewer(c)); errors.Is(err, repo.ErrNotFound) {
		return errNotFound("recipe")
	} else if err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

// removeCookbookRecipe takes a recipe out of the cookbook (the recipe
// stays); 204, or 404 when it was not in it. A recipe that only a filter
// or an included cookbook brings in cannot be removed this way.
func (s *Server) removeCookbookRecipe(c *fiber.Ctx) error {
	cb, err := s.cookbookFor(c, "id")
	if err != nil {
		return err
	}
	recipeID, err := uuid.Parse(c.Params("recipeId"))
	if err != nil {
		return errNotFound("recipe")
	}
	if err := repo.RemoveCookbookRecipe(c.UserContext(), s.DB, cb.ID, recipeID); errors.Is(err, repo.ErrNotFound) {
		return errNotFound("recipe in this cookbook")
	} else if err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

// includeCookbook makes the cookbook include the child, a cookbook the
// caller may also use; 204, also when it was included already. 409 when
// the child is the cookbook itself or already includes it, directly or
// through its descendants (automatic inclusions count).
func (s *Server) includeCookbook(c *fiber.Ctx) error {
	cb, err := s.cookbookFor(c, "id")
	if err != nil {
		return err
	}
	child, err := s.cookbookFor(c, "childId")
	if err != nil {
		return err
	}
	_, err = repo.IncludeCookbook(c.UserContext(), s.DB, cb.ID, child.ID)
	switch {
	case errors.Is(err, repo.ErrCookbookCycle):
		return errConflict("a cookbook cannot include itself, directly or through the cookbooks it includes")
	case errors.Is(err, repo.ErrCookbookOwner):
		// Only an ADMIN, who sees every cookbook, can get here.
		return errInvalid("a cookbook can only include cookbooks of the same owner")
	case errors.Is(err, repo.ErrNotFound):
		return errNotFound("cookbook") // one was deleted meanwhile
	case err != nil:
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

// excludeCookbook removes the direct inclusion of the child (both
// cookbooks stay); 204, or 404 when it was not included by hand.
func (s *Server) excludeCookbook(c *fiber.Ctx) error {
	cb, err := s.cookbookFor(c, "id")
	if err != nil {
		return err
	}
	childID, err := uuid.Parse(c.Params("childId"))
	if err != nil {
		return errNotFound("cookbook")
	}
	if err := repo.ExcludeCookbook(c.UserContext(), s.DB, cb.ID, childID); errors.Is(err, repo.ErrNotFound) {
		return errNotFound("included cookbook")
	} else if err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}
