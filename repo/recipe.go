package repo

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
)

// Recipe visibility values.
const (
	VisibilityPrivate = "PRIVATE"
	VisibilityShared  = "SHARED"
	VisibilityPublic  = "PUBLIC"
)

// ErrUnknownItem means an edit named an ingredient or step id that is not
// one of the recipe's own (or a stale one another edit has removed).
var ErrUnknownItem = errors.New("unknown ingredient or step id")

// Item is one ingredient line or instruction step.
type Item struct {
	ID   uuid.UUID
	Text string
}

// Section is a named group of ingredients or steps. A simple recipe has one
// section whose name is "".
type Section struct {
	Name  string
	Items []Item
}

// RecipeSummary is a recipe without its ingredients and steps: what lists
// show. Read from summaryColumns by position (scanTargets).
type RecipeSummary struct {
	ID           uuid.UUID
	OwnerID      uuid.UUID
	Title        string
	Description  string
	Servings     *int
	ServingsUnit string // what the servings count when not people ("cookies", "loaves"); "" is people
	PrepMinutes  *int
	CookMinutes  *int
	TotalMinutes *int
	SourceURL    *string
	ImageKey     *string
	// ImageVariants maps a rendition's name ("thumb", "medium") to its key.
	ImageVariants map[string]string
	Visibility    string
	Categories    []string
	Tags          []string
	CreatedAt     time.Time
	UpdatedAt     time.Time
}

// Recipe is a whole recipe.
type Recipe struct {
	RecipeSummary
	IngredientSections  []Section
	InstructionSections []Section
}

// summaryColumns are the columns of RecipeSummary for a query over recipe r,
// in the order of RecipeSummary.scanTargets.
const summaryColumns = `r.id, r.owner_id, r.title, r.description, r.servings, r.servings_unit, r.prep_minutes, r.cook_minutes,
	r.total_minutes, r.source_url, r.image_key, r.image_variants, r.visibility, r.categories, r.created_at, r.updated_at,
	r.tag_names AS tags`

// scanTargets are the destinations of summaryColumns, in their order.
// Scanned by position: pgx's scan by field name costs a reflection walk of
// the struct per row, a tenth of the API's work in reading a recipe.
func (s *RecipeSummary) scanTargets() []any {
	return []any{&s.ID, &s.OwnerID, &s.Title, &s.Description, &s.Servings, &s.ServingsUnit, &s.PrepMinutes, &s.CookMinutes,
		&s.TotalMinutes, &s.SourceURL, &s.ImageKey, &s.ImageVariants, &s.Visibility, &s.Categories, &s.CreatedAt, &s.UpdatedAt,
		&s.Tags}
}

// scanSummary reads a row that starts with summaryColumns and has nothing more.
func scanSummary(row pgx.CollectableRow) (RecipeSummary, error) {
	var s RecipeSummary
	err := row.Scan(s.scanTargets()...)
	return s, err
}

// sqlArgs collects the arguments of a query built at run time.
type sqlArgs []any

// add appends v and returns its placeholder.
func (a *sqlArgs) add(v any) string {
	*a = append(*a, v)
	return "$" + strconv.Itoa(len(*a))
}

// recipeRow is what GetRecipe's one query returns, in recipeSelect's
// order: the summary, and the sections and items as parallel arrays (each
// item carries the position of its section), as recipe_content holds them
// (migration 0012), so a whole recipe is one round trip, one recipe row and
// one recipe_content row.
type recipeRow struct {
	RecipeSummary
	IngredientSections  []string
	IngredientItemSecs  []int32
	IngredientIDs       []uuid.UUID
	IngredientTexts     []string
	InstructionSections []string
	InstructionItemSecs []int32
	InstructionIDs      []uuid.UUID
	InstructionTexts    []string
}

const recipeSelect = `SELECT ` + summaryColumns + `,
	coalesce(c.ingredient_sections, '{}'), coalesce(c.ingredient_item_sections, '{}'),
	coalesce(c.ingredient_ids, '{}'), coalesce(c.ingredient_texts, '{}'),
	coalesce(c.instruction_sections, '{}'), coalesce(c.instruction_item_sections, '{}'),
	coalesce(c.instruction_ids, '{}'), coalesce(c.instruction_texts, '{}')
FROM recipe r LEFT JOIN recipe_content c ON c.recipe_id = r.id
WHERE r.id = $1`

// GetRecipe returns the recipe if v may read it; ErrNotFound otherwise, so
// that a recipe the viewer may not see is indistinguishable from none.
func GetRecipe(ctx context.Context, db DBTX, id uuid.UUID, v Viewer) (Recipe, error) {
	args := sqlArgs{id}
	rows, _ := db.Query(ctx, recipeSelect+" AND "+visibleTo(v, &args), args...)
	row, err := pgx.CollectExactlyOneRow(rows, func(r pgx.CollectableRow) (recipeRow, error) {
		var row recipeRow
		err := r.Scan(append(row.scanTargets(), &row.IngredientSections, &row.IngredientItemSecs, &row.IngredientIDs,
			&row.IngredientTexts, &row.InstructionSections, &row.InstructionItemSecs, &row.InstructionIDs, &row.InstructionTexts)...)
		return row, err
	})
	if err != nil {
		return Recipe{}, wrap("get recipe "+id.String(), err)
	}
	rec := Recipe{RecipeSummary: row.RecipeSummary}
	if rec.IngredientSections, err = assemble(row.IngredientSections, row.IngredientItemSecs, row.IngredientIDs, row.IngredientTexts); err != nil {
		return Recipe{}, fmt.Errorf("get recipe %s: ingredients: %w", id, err)
	}
	if rec.InstructionSections, err = assemble(row.InstructionSections, row.InstructionItemSecs, row.InstructionIDs, row.InstructionTexts); err != nil {
		return Recipe{}, fmt.Errorf("get recipe %s: instructions: %w", id, err)
	}
	return rec, nil
}

// assemble turns the parallel arrays of recipeSelect back into sections.
// Section positions are always written as 0..n-1 (see writeSections).
func assemble(names []string, secs []int32, ids []uuid.UUID, texts []string) ([]Section, error) {
	out := make([]Section, len(names))
	for i, n := range names {
		out[i] = Section{Name: n, Items: []Item{}}
	}
	for i := range ids {
		p := int(secs[i])
		if p < 0 || p >= len(out) {
			return nil, fmt.Errorf("item %s is in section %d of %d", ids[i], p, len(out))
		}
		out[p].Items = append(out[p].Items, Item{ID: ids[i], Text: texts[i]})
	}
	return out, nil
}

// ServingsUnitMax is the longest servings unit, in characters: a short
// noun phrase ("9-inch pies"). The API refuses a longer one, the importer
// leaves out a longer one it reads, and migration 0460 checks it too.
const ServingsUnitMax = 40

// ServingsUnitOK reports whether a trimmed text can be a servings unit:
// one line of at most ServingsUnitMax characters. The API and the
// importers both ask it.
func ServingsUnitOK(u string) bool {
	return utf8.RuneCountInString(u) <= ServingsUnitMax && !strings.ContainsFunc(u, unicode.IsControl)
}

// RecipeInput is what creating or editing a recipe writes. The handler has
// validated it; the database's checks are the last line.
type RecipeInput struct {
	Title        string
	Description  string
	Servings     *int
	ServingsUnit string // "" for people
	PrepMinutes  *int
	CookMinutes  *int
	TotalMinutes *int
	SourceURL    *string
	Visibility   string
	Categories   []string
	// Tags are names; a tag is created on first use, matched without regard to case.
	Tags                []string
	IngredientSections  []Section
	InstructionSections []Section
}

// CreateRecipe inserts a recipe owned by ownerID with its sections, items and
// tags, and its search document, atomically. Item IDs of in are ignored:
// every item of a new recipe gets a new id.
func CreateRecipe(ctx context.Context, db DBTX, ownerID uuid.UUID, in RecipeInput) (uuid.UUID, error) {
	var id uuid.UUID
	err := pgx.BeginFunc(ctx, db, func(tx pgx.Tx) error {
		err := tx.QueryRow(ctx, `INSERT INTO recipe (owner_id, title, description, servings, prep_minutes, cook_minutes,
			total_minutes, source_url, visibility, categories, servings_unit)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id`,
			ownerID, in.Title, in.Description, in.Servings, in.PrepMinutes, in.CookMinutes, in.TotalMinutes,
			in.SourceURL, in.Visibility, nonNil(in.Categories), in.ServingsUnit).Scan(&id)
		if err != nil {
			return err
		}
		return writeContent(ctx, tx, id, in, false)
	})
	return id, wrap("create recipe", err)
}

// UpdateRecipe replaces the recipe's fields, sections, items and tags. An
// item whose ID is set keeps that id (and so its mappings); it must be one
// of the recipe's own items of the same kind, else ErrUnknownItem. Items left
// out are deleted; items with uuid.Nil are new.
func UpdateRecipe(ctx context.Context, db DBTX, id uuid.UUID, in RecipeInput) error {
	err := pgx.BeginFunc(ctx, db, func(tx pgx.Tx) error {
		// The row lock serializes concurrent edits of one recipe, which
		// would otherwise interleave their section and position rewrites.
		tag, err := tx.Exec(ctx, `UPDATE recipe SET title = $2, description = $3, servings = $4, prep_minutes = $5,
			cook_minutes = $6, total_minutes = $7, source_url = $8, visibility = $9, categories = $10, servings_unit = $11, updated_at = now()
			WHERE id = $1`,
			id, in.Title, in.Description, in.Servings, in.PrepMinutes, in.CookMinutes, in.TotalMinutes,
			in.SourceURL, in.Visibility, nonNil(in.Categories), in.ServingsUnit)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return pgx.ErrNoRows
		}
		return writeContent(ctx, tx, id, in, true)
	})
	return wrap("update recipe "+id.String(), err)
}

// writeContent writes everything of a recipe that lives outside its row,
// then the search document derived from it.
func writeContent(ctx context.Context, tx pgx.Tx, id uuid.UUID, in RecipeInput, existing bool) error {
	if err := writeSections(ctx, tx, id, ingredientTables, in.IngredientSections, existing); err != nil {
		return err
	}
	if err := writeSections(ctx, tx, id, instructionTables, in.InstructionSections, existing); err != nil {
		return err
	}
	if err := setTags(ctx, tx, recipeTags, id, in.Tags); err != nil {
		return err
	}
	return RefreshRecipeSearch(ctx, tx, []uuid.UUID{id})
}

// sectionTables names the two tables of one kind of content.
type sectionTables struct{ section, item string }

var (
	ingredientTables  = sectionTables{section: "ingredient_section", item: "ingredient"}
	instructionTables = sectionTables{section: "instruction_section", item: "instruction_step"}
)

// writeSections makes the recipe's sections of one kind equal to sections.
// Sections are identified by position (0..n-1); items by id, so an item the
// client sent back keeps its id even when it moves to another section.
func writeSections(ctx context.Context, tx pgx.Tx, recipeID uuid.UUID, t sectionTables, sections []Section, existing bool) error {
	names := make([]string, len(sections))
	for i, s := range sections {
		names[i] = s.Name
	}
	sectionIDs := make([]uuid.UUID, len(sections))
	if len(sections) > 0 {
		rows, _ := tx.Query(ctx, `INSERT INTO `+t.section+` (recipe_id, position, name)
			SELECT $1, ord - 1, name FROM unnest($2::text[]) WITH ORDINALITY AS s(name, ord)
			ON CONFLICT (recipe_id, position) DO UPDATE SET name = excluded.name
			RETURNING position, id`, recipeID, names)
		var pos int32
		var sid uuid.UUID
		_, err := pgx.ForEachRow(rows, []any{&pos, &sid}, func() error {
			sectionIDs[pos] = sid
			return nil
		})
		if err != nil {
			return fmt.Errorf("write %s: %w", t.section, err)
		}
	}

	var kept, added struct {
		ids, sections []uuid.UUID
		positions     []int32
		texts         []string
	}
	for si, s := range sections {
		for pi, it := range s.Items {
			dst := &added
			if existing && it.ID != uuid.Nil {
				dst = &kept
				dst.ids = append(dst.ids, it.ID)
			}
			dst.sections = append(dst.sections, sectionIDs[si])
			dst.positions = append(dst.positions, int32(pi))
			dst.texts = append(dst.texts, it.Text)
		}
	}
	if existing {
		// Positions are unique per section and checked row by row, so the
		// kept items first move to negative positions, out of the way of
		// the new ones.
		if _, err := tx.Exec(ctx, `UPDATE `+t.item+` SET position = -1 - position WHERE recipe_id = $1`, recipeID); err != nil {
			return fmt.Errorf("write %s: %w", t.item, err)
		}
		if _, err := tx.Exec(ctx, `DELETE FROM `+t.item+` WHERE recipe_id = $1 AND NOT (id = ANY($2))`, recipeID, nonNilIDs(kept.ids)); err != nil {
			return fmt.Errorf("write %s: %w", t.item, err)
		}
		if len(kept.ids) > 0 {
			tag, err := tx.Exec(ctx, `UPDATE `+t.item+` i SET section_id = v.section_id, position = v.position, text = v.text
				FROM unnest($2::uuid[], $3::uuid[], $4::int[], $5::text[]) AS v(id, section_id, position, text)
				WHERE i.id = v.id AND i.recipe_id = $1`,
				recipeID, kept.ids, kept.sections, kept.positions, kept.texts)
			if err != nil {
				return fmt.Errorf("write %s: %w", t.item, err)
			}
			if tag.RowsAffected() != int64(len(kept.ids)) {
				return ErrUnknownItem
			}
		}
	}
	if len(added.texts) > 0 {
		_, err := tx.Exec(ctx, `INSERT INTO `+t.item+` (recipe_id, section_id, position, text)
			SELECT $1, v.section_id, v.position, v.text FROM unnest($2::uuid[], $3::int[], $4::text[]) AS v(section_id, position, text)`,
			recipeID, added.sections, added.positions, added.texts)
		if err != nil {
			return fmt.Errorf("write %s: %w", t.item, err)
		}
	}
	if existing {
		if _, err := tx.Exec(ctx, `DELETE FROM `+t.section+` WHERE recipe_id = $1 AND position >= $2`, recipeID, len(sections)); err != nil {
			return fmt.Errorf("write %s: %w", t.section, err)
		}
	}
	return nil
}

// DeleteRecipe deletes a recipe with everything that hangs off it, and
// returns its image (nil if it had none), for the caller to delete from the
// file store once the transaction has committed.
func DeleteRecipe(ctx context.Context, db DBTX, id uuid.UUID) (*StoredImage, error) {
	var key *string
	var variants map[string]string
	err := db.QueryRow(ctx, `DELETE FROM recipe WHERE id = $1 RETURNING image_key, image_variants`, id).Scan(&key, &variants)
	if err != nil {
		return nil, wrap("delete recipe "+id.String(), err)
	}
	return storedImage(key, variants), nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func nonNilIDs(s []uuid.UUID) []uuid.UUID {
	if s == nil {
		return []uuid.UUID{}
	}
	return s
}
