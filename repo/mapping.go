package repo

import (
	"context"
	"fmt"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
)

// Ingredient-to-step mappings. A link says that an instruction step uses an
// ingredient line; links go with either item (ON DELETE CASCADE).
//
// Hand edits: SetMappings (the owner's PUT) marks every item the recipe has
// at that moment as reviewed (ingredient.mapping_reviewed,
// instruction_step.mapping_reviewed) and sets recipe.mappings_edited. The
// generation job (package jobs) then keeps the stored state of every pair of
// reviewed items, and generates only pairs with an item added since.
// ClearMappingEdits, for regeneration on request, forgets all of that.
//
// Every writer locks the recipe row first (FOR NO KEY UPDATE, the lock
// UpdateRecipe's UPDATE takes), so a hand edit, a generation and a recipe
// edit of one recipe never interleave.

// Link is one ingredient-to-step link.
type Link struct {
	IngredientID uuid.UUID `db:"ingredient_id"`
	StepID       uuid.UUID `db:"step_id"`
}

// Mappings is a recipe's mapping as readers see it.
type Mappings struct {
	// Links in recipe order: by ingredient, then by step.
	Links []Link
	// Edited is true once the owner has edited the mapping by hand, until
	// they ask for regeneration.
	Edited bool
}

// GetMappings returns the recipe's links in recipe order. The caller has
// checked that the viewer may read the recipe.
func GetMappings(ctx context.Context, db DBTX, recipeID uuid.UUID) (Mappings, error) {
	var m Mappings
	if err := db.QueryRow(ctx, `SELECT mappings_edited FROM recipe WHERE id = $1`, recipeID).Scan(&m.Edited); err != nil {
		return Mappings{}, wrap("get mappings "+recipeID.String(), err)
	}
	links, err := listLinks(ctx, db, recipeID)
	if err != nil {
		return Mappings{}, fmt.Errorf("get mappings %s: %w", recipeID, err)
	}
	m.Links = links
	return m, nil
}

// listLinks returns the recipe's links ordered as the recipe shows its
// items (section, then position), so answers are deterministic.
func listLinks(ctx context.Context, db DBTX, recipeID uuid.UUID) ([]Link, error) {
	rows, _ := db.Query(ctx, `SELECT m.ingredient_id, m.step_id
		FROM ingredient_instruction_mapping m
		JOIN ingredient i ON i.id = m.ingredient_id
		JOIN ingredient_section isec ON isec.id = i.section_id
		JOIN instruction_step s ON s.id = m.step_id
		JOIN instruction_section ssec ON ssec.id = s.section_id
		WHERE m.recipe_id = $1
		ORDER BY isec.position, i.position, ssec.position, s.position`, recipeID)
	links, err := pgx.CollectRows(rows, pgx.RowToStructByName[Link])
	if err != nil {
		return nil, wrap("list mapping links", err)
	}
	return links, nil
}

// MappingItem is an ingredient line or a step as mapping generation sees it.
type MappingItem struct {
	ID   uuid.UUID `db:"id"`
	Text string    `db:"text"`
	// Section is the name of the item's section ("" when the recipe does not group its items): the
	// matcher ties same-name lines to their own part of the recipe with it.
	Section string `db:"section"`
	// Reviewed is true when the item existed at the owner's last hand edit.
	Reviewed bool `db:"mapping_reviewed"`
}

// MappingContent is what generating a recipe's mapping needs.
type MappingContent struct {
	Edited bool
	// Ingredients and Steps in recipe order (section, then position), the
	// order the matcher's indexes refer to.
	Ingredients []MappingItem
	Steps       []MappingItem
	Links       []Link
}

// LockMappingContent locks the recipe row for the rest of tx and returns its
// items and current links; ErrNotFound when the recipe is gone. Holding the
// lock until ReplaceMappings keeps a concurrent edit from changing the items
// between the read and the write.
func LockMappingContent(ctx context.Context, tx pgx.Tx, recipeID uuid.UUID) (MappingContent, error) {
	var c MappingContent
	err := tx.QueryRow(ctx, `SELECT mappings_edited FROM recipe WHERE id = $1 FOR NO KEY UPDATE`, recipeID).Scan(&c.Edited)
	if err != nil {
		return MappingContent{}, wrap("lock recipe "+recipeID.String(), err)
	}
	if c.Ingredients, err = mappingItems(ctx, tx, recipeID, ingredientTables); err != nil {
		return MappingContent{}, err
	}
	if c.Steps, err = mappingItems(ctx, tx, recipeID, instructionTables); err != nil {
		return MappingContent{}, err
	}
	if c.Links, err = listLinks(ctx, tx, recipeID); err != nil {
		return MappingContent{}, err
	}
	return c, nil
}

func mappingItems(ctx context.Context, db DBTX, recipeID uuid.UUID, t sectionTables) ([]MappingItem, error) {
	rows, _ := db.Query(ctx, `SELECT i.id, i.text, s.name AS section, i.mapping_reviewed FROM `+t.item+` i
		JOIN `+t.section+` s ON s.id = i.section_id
		WHERE i.recipe_id = $1 ORDER BY s.position, i.position`, recipeID)
	items, err := pgx.CollectRows(rows, pgx.RowToStructByName[MappingItem])
	if err != nil {
		return nil, wrap("list "+t.item+" for mapping", err)
	}
	return items, nil
}

// ReplaceMappings makes the recipe's links exactly links. It does not
// check them: the caller holds the lock of LockMappingContent and built
// links from the items it returned. It leaves the hand-edit state alone.
func ReplaceMappings(ctx context.Context, tx pgx.Tx, recipeID uuid.UUID, links []Link) error {
	if _, err := tx.Exec(ctx, `DELETE FROM ingredient_instruction_mapping WHERE recipe_id = $1`, recipeID); err != nil {
		return wrap("replace mappings: delete", err)
	}
	if err := insertLinks(ctx, tx, recipeID, links); err != nil {
		return wrap("replace mappings: insert", err)
	}
	return nil
}

func insertLinks(ctx context.Context, tx pgx.Tx, recipeID uuid.UUID, links []Link) error {
	if len(links) == 0 {
		return nil
	}
	ings, steps := make([]uuid.UUID, len(links)), make([]uuid.UUID, len(links))
	for i, l := range links {
		ings[i], steps[i] = l.IngredientID, l.StepID
	}
	_, err := tx.Exec(ctx, `INSERT INTO ingredient_instruction_mapping (recipe_id, ingredient_id, step_id)
		SELECT $1, v.ingredient_id, v.step_id FROM unnest($2::uuid[], $3::uuid[]) AS v(ingredient_id, step_id)
		ON CONFLICT DO NOTHING`, recipeID, ings, steps)
	return err
}

// SetMappings is the owner's hand edit: it makes the recipe's links exactly
// links, marks every current ingredient and step as reviewed and sets
// mappings_edited, atomically. Every link must join an ingredient and a step
// of this recipe, else ErrUnknownItem and nothing changes (the handler
// checks first; this catches an edit that removed items in between).
// ErrNotFound when the recipe is gone.
func SetMappings(ctx context.Context, db DBTX, recipeID uuid.UUID, links []Link) error {
	err := pgx.BeginFunc(ctx, db, func(tx pgx.Tx) error {
		c, err := LockMappingContent(ctx, tx, recipeID)
		if err != nil {
			return err
		}
		ings, steps := map[uuid.UUID]bool{}, map[uuid.UUID]bool{}
		for _, it := range c.Ingredients {
			ings[it.ID] = true
		}
		for _, it := range c.Steps {
			steps[it.ID] = true
		}
		for _, l := range links {
			if !ings[l.IngredientID] || !steps[l.StepID] {
				return ErrUnknownItem
			}
		}
		if err := ReplaceMappings(ctx, tx, recipeID, links); err != nil {
			return err
		}
		return setReviewed(ctx, tx, recipeID, true)
	})
	return wrap("set mappings of recipe "+recipeID.String(), err)
}

// ClearMappingEdits forgets the owner's hand edits, so the next generation
// replaces the whole mapping with the automatic one. The links stay until
// then. ErrNotFound when the recipe is gone.
func ClearMappingEdits(ctx context.Context, db DBTX, recipeID uuid.UUID) error {
	err := pgx.BeginFunc(ctx, db, func(tx pgx.Tx) error {
		var id uuid.UUID
		if err := tx.QueryRow(ctx, `SELECT id FROM recipe WHERE id = $1 FOR NO KEY UPDATE`, recipeID).Scan(&id); err != nil {
			return err
		}
		return setReviewed(ctx, tx, recipeID, false)
	})
	return wrap("clear mapping edits of recipe "+recipeID.String(), err)
}

// setReviewed sets mappings_edited and the reviewed flag of every item of
// the recipe to v. Only rows whose flag differs are written.
func setReviewed(ctx context.Context, tx pgx.Tx, recipeID uuid.UUID, v bool) error {
	for _, q := range []string{
		`UPDATE recipe SET mappings_edited = $2 WHERE id = $1 AND mappings_edited <> $2`,
		`UPDATE ingredient SET mapping_reviewed = $2 WHERE recipe_id = $1 AND mapping_reviewed <> $2`,
		`UPDATE instruction_step SET mapping_reviewed = $2 WHERE recipe_id = $1 AND mapping_reviewed <> $2`,
	} {
		if _, err := tx.Exec(ctx, q, recipeID, v); err != nil {
			return err
		}
	}
	return nil
}
