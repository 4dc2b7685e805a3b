package repo

import (
	"context"
	"fmt"
	"strings"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
)

// The statements of `admin seed`, which fills a database with synthetic
// recipes for benchmarks: bulk writes the service itself never makes.

// EnsureSeedUsers creates the verified users with these emails and names
// (or finds them, on a second run) and returns their ids in email order.
func EnsureSeedUsers(ctx context.Context, db DBTX, emails, names []string, passwordHash string) ([]uuid.UUID, error) {
	if _, err := db.Exec(ctx, `INSERT INTO app_user (email, name, password_hash, email_verified)
		SELECT e, n, $3, true FROM unnest($1::text[], $2::text[]) AS u(e, n)
		ON CONFLICT DO NOTHING`, emails, names, passwordHash); err != nil {
		return nil, fmt.Errorf("create seed users: %w", err)
	}
	lower := make([]string, len(emails))
	for i, e := range emails {
		lower[i] = strings.ToLower(e)
	}
	rows, _ := db.Query(ctx, `SELECT id FROM app_user WHERE lower(email) = ANY($1) ORDER BY email`, lower)
	ids, err := pgx.CollectRows(rows, pgx.RowTo[uuid.UUID])
	return ids, wrap("read seed users", err)
}

// SeedRows are the rows of a batch of recipes, table by table, in the
// columns of SeedColumns, for CopySeedRecipes.
type SeedRows struct {
	IDs                                    []uuid.UUID
	Recipes, IngSections, Ingredients      [][]any
	InsSections, Steps, RecipeTags, Shares [][]any
}

// SeedColumns are the columns of each SeedRows table, in order.
var SeedColumns = struct{ Recipe, Section, Item, RecipeTag, Share []string }{
	Recipe:    []string{"id", "owner_id", "title", "description", "servings", "prep_minutes", "cook_minutes", "total_minutes", "source_url", "visibility", "categories", "created_at", "updated_at"},
	Section:   []string{"id", "recipe_id", "position", "name"},
	Item:      []string{"id", "recipe_id", "section_id", "position", "text"},
	RecipeTag: []string{"recipe_id", "tag_id"},
	Share:     []string{"recipe_id", "user_id", "created_at"},
}

// CopySeedRecipes writes a batch with COPY, then the recipes' search
// documents by the same SQL as every other write (RefreshRecipeSearch).
func CopySeedRecipes(ctx context.Context, tx pgx.Tx, r SeedRows) error {
	for _, t := range []struct {
		table string
		cols  []string
		rows  [][]any
	}{
		{"recipe", SeedColumns.Recipe, r.Recipes},
		{"ingredient_section", SeedColumns.Section, r.IngSections},
		{"ingredient", SeedColumns.Item, r.Ingredients},
		{"instruction_section", SeedColumns.Section, r.InsSections},
		{"instruction_step", SeedColumns.Item, r.Steps},
		{"recipe_tag", SeedColumns.RecipeTag, r.RecipeTags},
		{"recipe_share", SeedColumns.Share, r.Shares},
	} {
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{t.table}, t.cols, pgx.CopyFromRows(t.rows)); err != nil {
			return fmt.Errorf("copy %s: %w", t.table, err)
		}
	}
	return RefreshRecipeSearch(ctx, tx, r.IDs)
}

// AnalyzeRecipeTables refreshes the planner's statistics of the recipe
// tables after a bulk load, with a vacuum too when vacuum is set (and, with
// compact, a VACUUM FULL of recipe first: a bulk load writes each recipe
// row twice, row then search document, leaving half the table dead).
func AnalyzeRecipeTables(ctx context.Context, db DBTX, vacuum, compact bool) error {
	if compact {
		if _, err := db.Exec(ctx, "VACUUM (FULL) recipe"); err != nil {
			return fmt.Errorf("vacuum full recipe: %w", err)
		}
	}
	cmd := "ANALYZE "
	if vacuum {
		cmd = "VACUUM (ANALYZE) "
	}
	for _, t := range []string{"recipe", "ingredient_section", "ingredient", "instruction_section", "instruction_step",
		"recipe_tag", "recipe_share", "tag", "search_term"} {
		if _, err := db.Exec(ctx, cmd+t); err != nil {
			return fmt.Errorf("%s%s: %w", strings.ToLower(cmd), t, err)
		}
	}
	return nil
}
