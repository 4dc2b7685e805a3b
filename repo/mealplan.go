package repo

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
)

// Meal plans. A plan belongs to its owner and is shared with members (a
// household): everyone on it reads and edits its entries; only the owner
// renames or deletes it and chooses the members. To anyone else a plan
// does not exist (ErrNotFound), administrators included: plans are
// household data, not content.

// Meals of a day, in their order.
var Meals = []string{"breakfast", "lunch", "dinner", "snack"}

// MealPlan is a plan with its members.
type MealPlan struct {
	ID        uuid.UUID
	OwnerID   uuid.UUID
	Name      string
	Members   []Share
	CreatedAt time.Time
	UpdatedAt time.Time
}

const planColumns = `p.id, p.owner_id, p.name, p.created_at, p.updated_at`

func scanPlan(row pgx.Row) (MealPlan, error) {
	var p MealPlan
	err := row.Scan(&p.ID, &p.OwnerID, &p.Name, &p.CreatedAt, &p.UpdatedAt)
	return p, err
}

// ListMealPlans returns the plans the user owns, oldest first, then those
// shared with them, most recently joined first, each with its members.
func ListMealPlans(ctx context.Context, db DBTX, userID uuid.UUID) ([]MealPlan, error) {
	rows, _ := db.Query(ctx, `SELECT `+planColumns+` FROM meal_plan p
		LEFT JOIN meal_plan_member m ON m.plan_id = p.id AND m.user_id = $1
		WHERE p.owner_id = $1 OR m.user_id IS NOT NULL
		ORDER BY p.owner_id <> $1, CASE WHEN p.owner_id = $1 THEN p.created_at END, m.created_at DESC, p.id`, userID)
	plans, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (MealPlan, error) { return scanPlan(r) })
	if err != nil {
		return nil, wrap("list meal plans", err)
	}
	for i := range plans {
		if plans[i].Members, err = planMembers.list(ctx, db, plans[i].ID); err != nil {
			return nil, err
		}
	}
	return plans, nil
}

// GetMealPlan returns the plan if the user may edit it, else ErrNotFound.
func GetMealPlan(ctx context.Context, db DBTX, id, userID uuid.UUID) (MealPlan, error) {
	p, err := scanPlan(db.QueryRow(ctx, `SELECT `+planColumns+` FROM meal_plan p WHERE p.id = $1 AND `+planMembers.access("p", "$2"), id, userID))
	if err != nil {
		return MealPlan{}, wrap("get meal plan", err)
	}
	p.Members, err = planMembers.list(ctx, db, id)
	return p, err
}

// DefaultMealPlan is the plan a user opens without naming one: the plan
// they joined last (their household's), else their oldest own plan,
// created ("Meal plan") when they have none.
func DefaultMealPlan(ctx context.Context, db DBTX, userID uuid.UUID) (plan MealPlan, err error) {
	// Two first requests at once (the planner and the home page) must not
	// each create a plan: the user's lock serializes the check and the insert.
	err = pgx.BeginFunc(ctx, db, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended('meal_plan:' || $1::text, 0))`, userID); err != nil {
			return err
		}
		plan, err = defaultMealPlan(ctx, tx, userID)
		return err
	})
	return plan, wrap("default meal plan", err)
}

func defaultMealPlan(ctx context.Context, db DBTX, userID uuid.UUID) (MealPlan, error) {
	var id uuid.UUID
	err := db.QueryRow(ctx, `SELECT id FROM (
			(SELECT m.plan_id AS id, 0 AS rank, m.created_at FROM meal_plan_member m WHERE m.user_id = $1 ORDER BY m.created_at DESC LIMIT 1)
			UNION ALL
			(SELECT p.id, 1, p.created_at FROM meal_plan p WHERE p.owner_id = $1 ORDER BY p.created_at LIMIT 1)
		) c ORDER BY rank LIMIT 1`, userID).Scan(&id)
	if errors.Is(err, pgx.ErrNoRows) {
		return CreateMealPlan(ctx, db, userID, "Meal plan")
	}
	if err != nil {
		return MealPlan{}, err
	}
	return GetMealPlan(ctx, db, id, userID)
}

// CreateMealPlan creates a plan owned by the user.
func CreateMealPlan(ctx context.Context, db DBTX, ownerID uuid.UUID, name string) (MealPlan, error) {
	p, err := scanPlan(db.QueryRow(ctx, `INSERT INTO meal_plan AS p (owner_id, name) VALUES ($1, $2) RETURNING `+planColumns, ownerID, name))
	p.Members = []Share{}
	return p, wrap("create meal plan", err)
}

// RenameMealPlan renames the plan.
func RenameMealPlan(ctx context.Context, db DBTX, id uuid.UUID, name string) error {
	return execOne(ctx, db, "rename meal plan", `UPDATE meal_plan SET name = $2, updated_at = now() WHERE id = $1`, id, name)
}

// DeleteMealPlan deletes the plan and its entries.
func DeleteMealPlan(ctx context.Context, db DBTX, id uuid.UUID) error {
	return execOne(ctx, db, "delete meal plan", `DELETE FROM meal_plan WHERE id = $1`, id)
}

// AddMealPlanMember shares the plan with the user; created is false when
// they were already a member.
func AddMealPlanMember(ctx context.Context, db DBTX, planID, userID uuid.UUID) (created bool, err error) {
	return planMembers.add(ctx, db, planID, userID)
}

// RemoveMealPlanMember takes the user off the plan; ErrNotFound when they
// were not on it.
func RemoveMealPlanMember(ctx context.Context, db DBTX, planID, userID uuid.UUID) error {
	return planMembers.remove(ctx, db, planID, userID)
}

// execOne runs a statement that must change one row; ErrNotFound otherwise.
func execOne(ctx context.Context, db DBTX, op, sql string, args ...any) error {
	tag, err := db.Exec(ctx, sql, args...)
	if err != nil {
		return wrap(op, err)
	}
	if tag.RowsAffected() == 0 {
		return wrap(op, pgx.ErrNoRows)
	}
	return nil
}

// MealPlanEntry is a meal of a plan: a recipe or a note (Title). Recipe is
// nil when the entry has no recipe, or when its recipe was deleted or the
// reader may no longer see it: then RecipeUnavailable is set, and nothing
// of the recipe is returned.
type MealPlanEntry struct {
	ID                uuid.UUID
	PlanID            uuid.UUID
	Day               time.Time
	Meal              string
	Position          int
	Recipe            *RecipeSummary
	RecipeUnavailable bool
	Title             string
	Servings          *float64
	Note              string
	CreatedAt         time.Time
	UpdatedAt         time.Time
}

// MealPlanEntryInput is what an entry is created or updated with.
type MealPlanEntryInput struct {
	Day      time.Time
	Meal     string
	RecipeID *uuid.UUID
	Title    string
	Servings *float64
	Note     string
}

// entrySelect reads entries of plan p with their recipes as the viewer
// may see them: the recipe is joined only when visible.
func entrySelect(v Viewer, args *sqlArgs) string {
	return `SELECT e.id, e.plan_id, e.day, e.meal, e.position, e.has_recipe, e.title, e.servings::float8, e.note,
		e.created_at, e.updated_at, r.id IS NOT NULL, ` + summaryColumns + `
		FROM meal_plan_entry e JOIN meal_plan p ON p.id = e.plan_id
		LEFT JOIN recipe r ON r.id = e.recipe_id AND ` + visibleTo(v, args)
}

func scanEntry(row pgx.CollectableRow) (MealPlanEntry, error) {
	var e MealPlanEntry
	var hasRecipe, visible bool
	var s RecipeSummary // filled only when the recipe is visible: the columns are NULL otherwise
	var (
		id, owner                 *uuid.UUID
		title, desc, vis          *string
		created, updated          *time.Time
		variants                  map[string]string
		cats, tags                []string
		servings, prep, cook, tot *int
		source, image, unit       *string
	)
	err := row.Scan(&e.ID, &e.PlanID, &e.Day, &e.Meal, &e.Position, &hasRecipe, &e.Title, &e.Servings, &e.Note,
		&e.CreatedAt, &e.UpdatedAt, &visible,
		&id, &owner, &title, &desc, &servings, &unit, &prep, &cook, &tot, &source, &image, &variants, &vis, &cats, &created, &updated, &tags)
	if err != nil {
		return e, err
	}
	if visible {
		s.ID, s.OwnerID, s.Title, s.Description, s.Visibility = *id, *owner, *title, *desc, *vis
		s.Servings, s.PrepMinutes, s.CookMinutes, s.TotalMinutes, s.SourceURL, s.ImageKey = servings, prep, cook, tot, source, image
		s.ImageVariants, s.Categories, s.Tags, s.CreatedAt, s.UpdatedAt = variants, cats, tags, *created, *updated
		s.ServingsUnit = *unit
		e.Recipe = &s
	}
	e.RecipeUnavailable = hasRecipe && !visible
	return e, nil
}

// ListMealPlanEntries returns the plan's entries from day from to day to
// (both included), by day, meal and position.
func ListMealPlanEntries(ctx context.Context, db DBTX, planID uuid.UUID, from, to time.Time, v Viewer) ([]MealPlanEntry, error) {
	args := sqlArgs{planID, from, to}
	sql := entrySelect(v, &args) + ` WHERE e.plan_id = $1 AND e.day BETWEEN $2 AND $3
		ORDER BY e.day, array_position(ARRAY['breakfast','lunch','dinner','snack'], e.meal), e.position, e.created_at`
	rows, _ := db.Query(ctx, sql, args...)
	entries, err := pgx.CollectRows(rows, scanEntry)
	return entries, wrap("list meal plan entries", err)
}

// GetMealPlanEntry returns the entry if the user may edit its plan.
func GetMealPlanEntry(ctx context.Context, db DBTX, id, userID uuid.UUID, v Viewer) (MealPlanEntry, error) {
	args := sqlArgs{id, userID}
	sql := entrySelect(v, &args) + ` WHERE e.id = $1 AND ` + planMembers.access("p", "$2")
	rows, _ := db.Query(ctx, sql, args...)
	e, err := pgx.CollectExactlyOneRow(rows, scanEntry)
	return e, wrap("get meal plan entry", err)
}

// CreateMealPlanEntry adds an entry at the end of its meal.
func CreateMealPlanEntry(ctx context.Context, db DBTX, planID, createdBy uuid.UUID, in MealPlanEntryInput) (uuid.UUID, error) {
	var id uuid.UUID
	err := db.QueryRow(ctx, `INSERT INTO meal_plan_entry (plan_id, day, meal, position, has_recipe, recipe_id, title, servings, note, created_by)
		VALUES ($1, $2, $3, (SELECT COALESCE(max(position) + 1, 0) FROM meal_plan_entry WHERE plan_id = $1 AND day = $2 AND meal = $3),
			$4::uuid IS NOT NULL, $4, $5, $6, $7, $8) RETURNING id`,
		planID, in.Day, in.Meal, in.RecipeID, in.Title, in.Servings, in.Note, createdBy).Scan(&id)
	return id, wrap("create meal plan entry", err)
}

// UpdateMealPlanEntry replaces the entry's fields. An entry moved to
// another day or meal goes to the end of it.
func UpdateMealPlanEntry(ctx context.Context, db DBTX, id uuid.UUID, in MealPlanEntryInput) error {
	return execOne(ctx, db, "update meal plan entry", `UPDATE meal_plan_entry e SET
		position = CASE WHEN e.day = $2 AND e.meal = $3 THEN e.position
			ELSE (SELECT COALESCE(max(o.position) + 1, 0) FROM meal_plan_entry o WHERE o.plan_id = e.plan_id AND o.day = $2 AND o.meal = $3) END,
		day = $2, meal = $3, has_recipe = $4::uuid IS NOT NULL, recipe_id = $4, title = $5, servings = $6, note = $7, updated_at = now()
		WHERE id = $1`, id, in.Day, in.Meal, in.RecipeID, in.Title, in.Servings, in.Note)
}

// KeepMealPlanEntryRecipe is UpdateMealPlanEntry for an entry whose recipe
// stays as it is (even one its editor may not see any more).
func KeepMealPlanEntryRecipe(ctx context.Context, db DBTX, id uuid.UUID, in MealPlanEntryInput) error {
	return execOne(ctx, db, "update meal plan entry", `UPDATE meal_plan_entry e SET
		position = CASE WHEN e.day = $2 AND e.meal = $3 THEN e.position
			ELSE (SELECT COALESCE(max(o.position) + 1, 0) FROM meal_plan_entry o WHERE o.plan_id = e.plan_id AND o.day = $2 AND o.meal = $3) END,
		day = $2, meal = $3, title = $4, servings = $5, note = $6, updated_at = now()
		WHERE id = $1`, id, in.Day, in.Meal, in.Title, in.Servings, in.Note)
}

// DeleteMealPlanEntry deletes the entry.
func DeleteMealPlanEntry(ctx context.Context, db DBTX, id uuid.UUID) error {
	return execOne(ctx, db, "delete meal plan entry", `DELETE FROM meal_plan_entry WHERE id = $1`, id)
}

// PlannedRecipe is a recipe of a plan's range, with the servings it is
// planned for (nil: as the recipe is written).
type PlannedRecipe struct {
	RecipeID uuid.UUID
	Servings *float64
}

// ListPlannedRecipes returns the recipes planned from day from to day to,
// one per entry, that the viewer may read.
func ListPlannedRecipes(ctx context.Context, db DBTX, planID uuid.UUID, from, to time.Time, v Viewer) ([]PlannedRecipe, error) {
	args := sqlArgs{planID, from, to}
	rows, _ := db.Query(ctx, `SELECT e.recipe_id, e.servings::float8 FROM meal_plan_entry e JOIN recipe r ON r.id = e.recipe_id
		WHERE e.plan_id = $1 AND e.day BETWEEN $2 AND $3 AND `+visibleTo(v, &args)+`
		ORDER BY e.day, array_position(ARRAY['breakfast','lunch','dinner','snack'], e.meal), e.position`, args...)
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (PlannedRecipe, error) {
		var p PlannedRecipe
		err := r.Scan(&p.RecipeID, &p.Servings)
		return p, err
	})
	return out, wrap("list planned recipes", err)
}
