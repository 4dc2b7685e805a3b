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

// SeedRecipeImages gives the oldest recipes without an image one of these
// file-store keys each, in order, as if their owners had uploaded them.
func SeedRecipeImages(ctx context.Context, db DBTX, keys []string) error {
	_, err := db.Exec(ctx, `UPDATE recipe r SET image_key = k.key
		FROM (SELECT id, row_number() OVER (ORDER BY created_at, id) AS n FROM recipe WHERE image_key IS NULL) o
		JOIN unnest($1::text[]) WITH ORDINALITY AS k(key, n) ON k.n = o.n
		WHERE r.id = o.id`, keys)
	return wrap("seed recipe images", err)
}

// SeedMappings maps each ingredient line of the recipes without mappings
// to one step of its recipe (line i to step i modulo the steps), as a
// generated mapping would.
func SeedMappings(ctx context.Context, db DBTX) error {
	_, err := db.Exec(ctx, `INSERT INTO ingredient_instruction_mapping (recipe_id, ingredient_id, step_id)
		SELECT i.recipe_id, i.id, st.id
		FROM (SELECT id, recipe_id, row_number() OVER (PARTITION BY recipe_id ORDER BY section_id, position) - 1 AS k FROM ingredient) i
		JOIN (SELECT recipe_id, count(*) AS steps FROM instruction_step GROUP BY recipe_id) c ON c.recipe_id = i.recipe_id
		JOIN (SELECT id, recipe_id, row_number() OVER (PARTITION BY recipe_id ORDER BY section_id, position) - 1 AS k FROM instruction_step) st
		  ON st.recipe_id = i.recipe_id AND st.k = i.k % c.steps
		WHERE NOT EXISTS (SELECT 1 FROM ingredient_instruction_mapping m WHERE m.recipe_id = i.recipe_id)`)
	return wrap("seed mappings", err)
}

// SeedCookbooks adds n cookbooks owned in turn by the users: each holds up
// to 20 recipes, most include the next cookbook, every one carries a tag,
// and some have automatic filters on a category or a tag.
func SeedCookbooks(ctx context.Context, db DBTX, users []uuid.UUID, n int) error {
	steps := []struct {
		name string
		sql  string
	}{
		{"cookbooks", `INSERT INTO cookbook (owner_id, name, description, auto_filter_categories, auto_filter_tags)
		  SELECT ($1::uuid[])[1 + i % cardinality($1::uuid[])], 'Cookbook ' || i, 'Favourites, part ' || i,
		         CASE WHEN i % 5 = 0 THEN ARRAY['Dessert'] ELSE '{}' END,
		         CASE WHEN i % 7 = 0 THEN ARRAY[(SELECT name FROM tag ORDER BY name LIMIT 1)] ELSE '{}' END
		  FROM generate_series(1, $2::int) i`},
		{"cookbook recipes", `INSERT INTO cookbook_recipe (cookbook_id, recipe_id)
		  SELECT c.id, r.id
		  FROM (SELECT id, row_number() OVER (ORDER BY created_at, id) AS n, count(*) OVER () AS books FROM cookbook) c
		  JOIN (SELECT id, row_number() OVER (ORDER BY created_at, id) AS n FROM recipe) r ON r.n % c.books = c.n - 1
		  WHERE r.n <= 20 * c.books
		  ON CONFLICT DO NOTHING`},
		{"cookbook inclusions", `INSERT INTO cookbook_inclusion (parent_id, child_id)
		  SELECT a.id, b.id
		  FROM (SELECT id, row_number() OVER (ORDER BY created_at, id) AS n FROM cookbook) a
		  JOIN (SELECT id, row_number() OVER (ORDER BY created_at, id) AS n FROM cookbook) b ON b.n = a.n + 1
		  WHERE a.n % 4 <> 0
		  ON CONFLICT DO NOTHING`},
		{"cookbook tags", `INSERT INTO cookbook_tag (cookbook_id, tag_id)
		  SELECT c.id, t.id
		  FROM (SELECT id, row_number() OVER (ORDER BY created_at, id) AS n FROM cookbook) c
		  JOIN (SELECT id, row_number() OVER (ORDER BY name) AS n, count(*) OVER () AS tags FROM tag) t ON t.n = 1 + c.n % t.tags
		  ON CONFLICT DO NOTHING`},
	}
	for i, s := range steps {
		var args []any
		if i == 0 {
			args = []any{users, n}
		}
		if _, err := db.Exec(ctx, s.sql, args...); err != nil {
			return fmt.Errorf("seed %s: %w", s.name, err)
		}
	}
	return nil
}

// SeedSessions gives every user without one a signed-in session (a
// refresh token) and a pending e-mail verification token, as an
// installation in use has.
func SeedSessions(ctx context.Context, db DBTX) error {
	if _, err := db.Exec(ctx, `INSERT INTO refresh_token (id, user_id, token_hash, family_id, expires_at)
		SELECT gen_random_uuid(), u.id, sha256(u.id::text::bytea), gen_random_uuid(), now() + interval '7 days'
		FROM app_user u WHERE NOT EXISTS (SELECT 1 FROM refresh_token t WHERE t.user_id = u.id)`); err != nil {
		return fmt.Errorf("seed refresh tokens: %w", err)
	}
	_, err := db.Exec(ctx, `INSERT INTO verification_token (token_hash, user_id, purpose, expires_at)
		SELECT sha256(('v' || u.id::text)::bytea), u.id, 'verify_email', now() + interval '1 day'
		FROM app_user u WHERE NOT EXISTS (SELECT 1 FROM verification_token t WHERE t.user_id = u.id)`)
	return wrap("seed verification tokens", err)
}
