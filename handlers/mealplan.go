package handlers

import (
	"errors"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"

	"larder/repo"
)

// Meal plans. A household edits one plan: the plan's owner adds members by
// email, and every member reads and edits its entries; only the owner
// renames or deletes it and chooses the members (a member may leave). To
// anyone else, administrators included, a plan does not exist (404). An
// entry's recipe is shown to each reader only while they may read it;
// otherwise the entry says recipeUnavailable and shows nothing of it.

const (
	planTextMax    = 500 // an entry's title or note, a plan's name
	planRangeMax   = 92  // days GET /api/mealplan returns at once
	planServingMax = 1000
	dateLayout     = "2006-01-02"
)

// The dates a plan may hold: wide enough for any real plan, narrow enough
// to refuse typos such as 20260-01-01.
var (
	planFirstDay = time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC)
	planLastDay  = time.Date(2999, 12, 31, 0, 0, 0, 0, time.UTC)
)

func (s *Server) mealPlanRoutes(api fiber.Router) {
	api.Get("/mealplan", s.requireAuth, s.getMealPlanRange)
	api.Post("/mealplan/entries", s.requireAuth, s.createMealPlanEntry)
	api.Get("/mealplan/entries/:id", s.requireAuth, s.getMealPlanEntry)
	api.Patch("/mealplan/entries/:id", s.requireAuth, s.updateMealPlanEntry)
	api.Post("/mealplan/entries/:id/move", s.requireAuth, s.moveMealPlanEntry)
	api.Delete("/mealplan/entries/:id", s.requireAuth, s.deleteMealPlanEntry)
	api.Get("/mealplans", s.requireAuth, s.listMealPlans)
	api.Post("/mealplans", s.requireAuth, s.createMealPlan)
	api.Get("/mealplans/:id", s.requireAuth, s.getMealPlan)
	api.Patch("/mealplans/:id", s.requireAuth, s.renameMealPlan)
	api.Delete("/mealplans/:id", s.requireAuth, s.deleteMealPlan)
	api.Post("/mealplans/:id/members", s.requireAuth, s.shareLimit(), s.addMealPlanMember)
	api.Delete("/mealplans/:id/members/:userId", s.requireAuth, s.removeMealPlanMember)
}

// MealPlan is a plan and who shares it.
type MealPlan struct {
	ID        uuid.UUID `json:"id"`
	OwnerID   uuid.UUID `json:"ownerId"`
	Name      string    `json:"name"`
	Members   []Share   `json:"members"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
}

func mealPlanView(p repo.MealPlan) MealPlan {
	out := MealPlan{ID: p.ID, OwnerID: p.OwnerID, Name: p.Name, Members: make([]Share, len(p.Members)),
		CreatedAt: p.CreatedAt.UTC(), UpdatedAt: p.UpdatedAt.UTC()}
	for i, m := range p.Members {
		out.Members[i] = shareView(m)
	}
	return out
}

// MealPlanEntry is one meal of a plan.
type MealPlanEntry struct {
	ID                uuid.UUID      `json:"id"`
	PlanID            uuid.UUID      `json:"planId"`
	Date              string         `json:"date"`
	Meal              string         `json:"meal"`
	Position          int            `json:"position"`
	Recipe            *RecipeSummary `json:"recipe"`
	RecipeUnavailable bool           `json:"recipeUnavailable"`
	Title             string         `json:"title"`
	Servings          *float64       `json:"servings"`
	Note              string         `json:"note"`
	CreatedAt         time.Time      `json:"createdAt"`
	UpdatedAt         time.Time      `json:"updatedAt"`
}

func (s *Server) mealPlanEntryView(e repo.MealPlanEntry) MealPlanEntry {
	out := MealPlanEntry{ID: e.ID, PlanID: e.PlanID, Date: e.Day.Format(dateLayout), Meal: e.Meal, Position: e.Position,
		RecipeUnavailable: e.RecipeUnavailable, Title: e.Title, Servings: e.Servings, Note: e.Note,
		CreatedAt: e.CreatedAt.UTC(), UpdatedAt: e.UpdatedAt.UTC()}
	if e.Recipe != nil {
		r := s.recipeSummaryView(*e.Recipe)
		out.Recipe = &r
	}
	return out
}

// MealPlanRange is the answer of GET /api/mealplan.
type MealPlanRange struct {
	Plan    MealPlan        `json:"plan"`
	From    string          `json:"from"`
	To      string          `json:"to"`
	Entries []MealPlanEntry `json:"entries"`
}

// parseDay reads a date field (YYYY-MM-DD) within the plan's range of dates.
func parseDay(fe fieldErrors, field, v string) time.Time {
	if v == "" {
		fe.add(field, "is required (YYYY-MM-DD)")
		return time.Time{}
	}
	d, err := time.Parse(dateLayout, v)
	if err != nil {
		fe.add(field, "must be a date as YYYY-MM-DD")
		return time.Time{}
	}
	if d.Before(planFirstDay) || d.After(planLastDay) {
		fe.add(field, "must be between %s and %s", planFirstDay.Format(dateLayout), planLastDay.Format(dateLayout))
	}
	return d
}

// dayRange reads from and to (both included) and checks the range: to not
// before from, at most max days.
func dayRange(fe fieldErrors, from, to string, max int) (time.Time, time.Time) {
	f, t := parseDay(fe, "from", from), parseDay(fe, "to", to)
	if len(fe) > 0 {
		return f, t
	}
	switch days := int(t.Sub(f).Hours()/24) + 1; {
	case days < 1:
		fe.add("to", "must not be before from")
	case days > max:
		fe.add("to", "the range is %d days, more than the %d one request may ask for", days, max)
	}
	return f, t
}

func uuidParam(c *fiber.Ctx, name, what string) (uuid.UUID, error) {
	id, err := uuid.Parse(c.Params(name))
	if err != nil {
		return uuid.Nil, errNotFound(what)
	}
	return id, nil
}

// planFor returns the plan named by the planId query or body value, or the
// caller's default plan when empty; 404 for a plan they may not edit.
func (s *Server) planFor(c *fiber.Ctx, planID string) (repo.MealPlan, error) {
	ctx, me := c.UserContext(), caller(c)
	if planID == "" {
		return repo.DefaultMealPlan(ctx, s.DB, me.ID)
	}
	id, err := uuid.Parse(planID)
	if err != nil {
		return repo.MealPlan{}, errNotFound("meal plan")
	}
	p, err := repo.GetMealPlan(ctx, s.DB, id, me.ID)
	if errors.Is(err, repo.ErrNotFound) {
		return p, errNotFound("meal plan")
	}
	return p, err
}

// getMealPlanRange answers GET /api/mealplan?from=&to=[&planId=].
func (s *Server) getMealPlanRange(c *fiber.Ctx) error {
	fe := fieldErrors{}
	from, to := dayRange(fe, c.Query("from"), c.Query("to"), planRangeMax)
	if err := fe.err(); err != nil {
		return err
	}
	plan, err := s.planFor(c, c.Query("planId"))
	if err != nil {
		return err
	}
	entries, err := repo.ListMealPlanEntries(c.UserContext(), s.DB, plan.ID, from, to, viewer(c))
	if err != nil {
		return err
	}
	out := MealPlanRange{Plan: mealPlanView(plan), From: from.Format(dateLayout), To: to.Format(dateLayout),
		Entries: make([]MealPlanEntry, len(entries))}
	for i, e := range entries {
		out.Entries[i] = s.mealPlanEntryView(e)
	}
	return c.JSON(out)
}

// entryBody is the body of POST /mealplan/entries and PATCH
// /mealplan/entries/:id; in a PATCH a field left out keeps its value, and
// recipeId null (or title) turns the entry into a note.
type entryBody struct {
	PlanID   string   `json:"planId"`
	Date     *string  `json:"date"`
	Meal     *string  `json:"meal"`
	RecipeID *string  `json:"recipeId"`
	Title    *string  `json:"title"`
	Servings *float64 `json:"servings"`
	Note     *string  `json:"note"`
}

// entryInput validates b over the entry's current values (zero for a new
// one). recipeChanged says whether the body names a recipe to check.
func (s *Server) entryInput(c *fiber.Ctx, b entryBody, cur repo.MealPlanEntryInput, raw map[string]any) (in repo.MealPlanEntryInput, recipeChanged bool, err error) {
	in = cur
	fe := fieldErrors{}
	if b.Date != nil || raw == nil {
		in.Day = parseDay(fe, "date", deref(b.Date))
	}
	if b.Meal != nil || raw == nil {
		in.Meal = deref(b.Meal)
		if !slices.Contains(repo.Meals, in.Meal) {
			fe.add("meal", "must be one of %s", strings.Join(repo.Meals, ", "))
		}
	}
	if b.Title != nil {
		in.Title = strings.TrimSpace(*b.Title)
	}
	if b.Note != nil {
		in.Note = strings.TrimSpace(*b.Note)
	}
	for field, v := range map[string]string{"title": in.Title, "note": in.Note} {
		if utf8.RuneCountInString(v) > planTextMax {
			fe.add(field, "must be at most %d characters", planTextMax)
		}
	}
	_, servingsSent := raw["servings"]
	if b.Servings != nil {
		in.Servings = b.Servings
		if *b.Servings <= 0 || *b.Servings > planServingMax {
			fe.add("servings", "must be more than 0 and at most %d", planServingMax)
		}
	} else if servingsSent {
		in.Servings = nil
	}
	_, recipeSent := raw["recipeId"]
	if raw == nil || recipeSent {
		recipeChanged = true
		in.RecipeID = nil
		if b.RecipeID != nil {
			id, perr := uuid.Parse(*b.RecipeID)
			if perr != nil {
				fe.add("recipeId", "must be the id of a recipe you can read")
			} else {
				rec, gerr := repo.GetRecipe(c.UserContext(), s.DB, id, viewer(c))
				switch {
				case errors.Is(gerr, repo.ErrNotFound):
					fe.add("recipeId", "must be the id of a recipe you can read")
				case gerr != nil:
					return in, false, gerr
				default:
					in.RecipeID = &id
					if b.Servings == nil && !servingsSent && rec.Servings != nil && (raw == nil || cur.RecipeID == nil || *cur.RecipeID != id) {
						v := float64(*rec.Servings) // servings default to the recipe's
						in.Servings = &v
					}
				}
			}
		}
	}
	if recipeChanged && in.RecipeID == nil && in.Title == "" && fe["recipeId"] == "" {
		fe.add("title", "is required when the entry has no recipe")
	}
	return in, recipeChanged, fe.err()
}

// createMealPlanEntry answers POST /api/mealplan/entries: 201 with the entry.
func (s *Server) createMealPlanEntry(c *fiber.Ctx) error {
	var b entryBody
	if err := decodeJSON(c, &b); err != nil {
		return err
	}
	in, _, err := s.entryInput(c, b, repo.MealPlanEntryInput{}, nil)
	if err != nil {
		return err
	}
	plan, err := s.planFor(c, b.PlanID)
	if err != nil {
		return err
	}
	ctx, me := c.UserContext(), caller(c)
	id, err := repo.CreateMealPlanEntry(ctx, s.DB, plan.ID, me.ID, in)
	if err != nil {
		return err
	}
	e, err := repo.GetMealPlanEntry(ctx, s.DB, id, me.ID, viewer(c))
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(s.mealPlanEntryView(e))
}

// editableEntry returns the entry named by :id if the caller may edit its
// plan, else 404.
func (s *Server) editableEntry(c *fiber.Ctx) (repo.MealPlanEntry, error) {
	id, err := uuidParam(c, "id", "meal plan entry")
	if err != nil {
		return repo.MealPlanEntry{}, err
	}
	e, err := repo.GetMealPlanEntry(c.UserContext(), s.DB, id, caller(c).ID, viewer(c))
	if errors.Is(err, repo.ErrNotFound) {
		return e, errNotFound("meal plan entry")
	}
	return e, err
}

func (s *Server) getMealPlanEntry(c *fiber.Ctx) error {
	e, err := s.editableEntry(c)
	if err != nil {
		return err
	}
	return c.JSON(s.mealPlanEntryView(e))
}

// currentInput is an entry's values as an input, its recipe as stored.
func currentInput(e repo.MealPlanEntry) repo.MealPlanEntryInput {
	in := repo.MealPlanEntryInput{Day: e.Day, Meal: e.Meal, Title: e.Title, Servings: e.Servings, Note: e.Note}
	if e.Recipe != nil {
		in.RecipeID = &e.Recipe.ID
	}
	return in
}

// updateMealPlanEntry answers PATCH /api/mealplan/entries/:id.
func (s *Server) updateMealPlanEntry(c *fiber.Ctx) error {
	e, err := s.editableEntry(c)
	if err != nil {
		return err
	}
	var b entryBody
	if err := decodeJSON(c, &b); err != nil {
		return err
	}
	raw := map[string]any{}
	_ = decodeJSON(c, &raw)
	if b.PlanID != "" {
		return errInvalid("planId: an entry cannot move to another plan; create it there instead")
	}
	in, recipeChanged, err := s.entryInput(c, b, currentInput(e), raw)
	if err != nil {
		return err
	}
	return s.saveEntry(c, e.ID, in, recipeChanged)
}

// saveEntry writes the entry and answers with it. An edit that does not
// name a recipe keeps the stored one, even one the editor cannot see.
func (s *Server) saveEntry(c *fiber.Ctx, id uuid.UUID, in repo.MealPlanEntryInput, recipeChanged bool) error {
	ctx := c.UserContext()
	var err error
	if recipeChanged {
		err = repo.UpdateMealPlanEntry(ctx, s.DB, id, in)
	} else {
		err = repo.KeepMealPlanEntryRecipe(ctx, s.DB, id, in)
	}
	if errors.Is(err, repo.ErrNotFound) {
		return errNotFound("meal plan entry")
	}
	if err != nil {
		return err
	}
	e, err := repo.GetMealPlanEntry(ctx, s.DB, id, caller(c).ID, viewer(c))
	if err != nil {
		return err
	}
	return c.JSON(s.mealPlanEntryView(e))
}

// moveMealPlanEntry answers POST /api/mealplan/entries/:id/move {date, meal}.
func (s *Server) moveMealPlanEntry(c *fiber.Ctx) error {
	e, err := s.editableEntry(c)
	if err != nil {
		return err
	}
	var b struct {
		Date string `json:"date"`
		Meal string `json:"meal"`
	}
	if err := decodeJSON(c, &b); err != nil {
		return err
	}
	fe := fieldErrors{}
	in := currentInput(e)
	in.Day = parseDay(fe, "date", b.Date)
	in.Meal = b.Meal
	if !slices.Contains(repo.Meals, b.Meal) {
		fe.add("meal", "must be one of %s", strings.Join(repo.Meals, ", "))
	}
	if err := fe.err(); err != nil {
		return err
	}
	return s.saveEntry(c, e.ID, in, false)
}

func (s *Server) deleteMealPlanEntry(c *fiber.Ctx) error {
	e, err := s.editableEntry(c)
	if err != nil {
		return err
	}
	if err := repo.DeleteMealPlanEntry(c.UserContext(), s.DB, e.ID); err != nil && !errors.Is(err, repo.ErrNotFound) {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

// listMealPlans answers GET /api/mealplans: the caller's plans, then those
// shared with them. A user with none gets their first plan here.
func (s *Server) listMealPlans(c *fiber.Ctx) error {
	ctx, me := c.UserContext(), caller(c)
	if _, err := repo.DefaultMealPlan(ctx, s.DB, me.ID); err != nil {
		return err
	}
	plans, err := repo.ListMealPlans(ctx, s.DB, me.ID)
	if err != nil {
		return err
	}
	out := make([]MealPlan, len(plans))
	for i, p := range plans {
		out[i] = mealPlanView(p)
	}
	return c.JSON(fiber.Map{"items": out})
}

// nameBody reads {name} for a plan or list: trimmed, 1 to 500 characters.
func nameField(fe fieldErrors, name string) string {
	name = strings.TrimSpace(name)
	if name == "" {
		fe.add("name", "is required")
	} else if utf8.RuneCountInString(name) > planTextMax {
		fe.add("name", "must be at most %d characters", planTextMax)
	}
	return name
}

// nameBody reads {name}, a plan's.
func nameBody(c *fiber.Ctx) (string, error) {
	var b struct {
		Name string `json:"name"`
	}
	if err := decodeJSON(c, &b); err != nil {
		return "", err
	}
	fe := fieldErrors{}
	name := nameField(fe, b.Name)
	return name, fe.err()
}

func (s *Server) createMealPlan(c *fiber.Ctx) error {
	name, err := nameBody(c)
	if err != nil {
		return err
	}
	p, err := repo.CreateMealPlan(c.UserContext(), s.DB, caller(c).ID, name)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(mealPlanView(p))
}

// editablePlan returns the plan named by :id if the caller is on it (404
// otherwise); ownerOnly makes it 403 for members.
func (s *Server) editablePlan(c *fiber.Ctx, ownerOnly bool) (repo.MealPlan, error) {
	id, err := uuidParam(c, "id", "meal plan")
	if err != nil {
		return repo.MealPlan{}, err
	}
	p, err := s.planFor(c, id.String())
	if err != nil {
		return p, err
	}
	if ownerOnly && p.OwnerID != caller(c).ID {
		return p, errForbidden("only the plan's owner may do this")
	}
	return p, nil
}

func (s *Server) getMealPlan(c *fiber.Ctx) error {
	p, err := s.editablePlan(c, false)
	if err != nil {
		return err
	}
	return c.JSON(mealPlanView(p))
}

func (s *Server) renameMealPlan(c *fiber.Ctx) error {
	p, err := s.editablePlan(c, true)
	if err != nil {
		return err
	}
	name, err := nameBody(c)
	if err != nil {
		return err
	}
	if err := repo.RenameMealPlan(c.UserContext(), s.DB, p.ID, name); err != nil {
		return err
	}
	p, err = repo.GetMealPlan(c.UserContext(), s.DB, p.ID, caller(c).ID)
	if err != nil {
		return err
	}
	return c.JSON(mealPlanView(p))
}

func (s *Server) deleteMealPlan(c *fiber.Ctx) error {
	p, err := s.editablePlan(c, true)
	if err != nil {
		return err
	}
	if err := repo.DeleteMealPlan(c.UserContext(), s.DB, p.ID); err != nil && !errors.Is(err, repo.ErrNotFound) {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

// ownerIsMember is the answer to an owner who adds themselves to their
// own plan or list.
const ownerIsMember = "the owner is always on it: share with someone else"

// addMealPlanMember answers POST /api/mealplans/:id/members {email} (owner
// only): 201 with the plan, 200 when the user was already a member.
func (s *Server) addMealPlanMember(c *fiber.Ctx) error {
	p, err := s.editablePlan(c, true)
	if err != nil {
		return err
	}
	u, err := s.shareRecipient(c, p.OwnerID, ownerIsMember)
	if err != nil {
		return err
	}
	created, err := repo.AddMealPlanMember(c.UserContext(), s.DB, p.ID, u.ID)
	if err != nil {
		return err
	}
	p, err = repo.GetMealPlan(c.UserContext(), s.DB, p.ID, caller(c).ID)
	if err != nil {
		return err
	}
	return c.Status(createdStatus(created)).JSON(mealPlanView(p))
}

func createdStatus(created bool) int {
	if created {
		return fiber.StatusCreated
	}
	return fiber.StatusOK
}

// removeMealPlanMember answers DELETE /api/mealplans/:id/members/:userId:
// the owner removes anyone, a member removes themselves (leaves).
func (s *Server) removeMealPlanMember(c *fiber.Ctx) error {
	p, err := s.editablePlan(c, false)
	if err != nil {
		return err
	}
	userID, err := uuidParam(c, "userId", "member")
	if err != nil {
		return err
	}
	if me := caller(c).ID; me != p.OwnerID && me != userID {
		return errForbidden("only the plan's owner may remove other members")
	}
	err = repo.RemoveMealPlanMember(c.UserContext(), s.DB, p.ID, userID)
	if errors.Is(err, repo.ErrNotFound) {
		return errNotFound("member")
	}
	if err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}
