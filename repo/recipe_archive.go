package repo

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
)

// FindDuplicateRecipe returns a recipe of owner that an imported recipe
// would duplicate: the one with the same source address, or, when the
// imported recipe has none, the one with the same title and the same
// ingredient lines (in order, without regard to case). ok is false when
// there is none. Call it in the transaction that creates the recipe, after
// LockRecipeImport, so that two imports of the same recipe cannot both
// miss each other.
func FindDuplicateRecipe(ctx context.Context, db DBTX, owner uuid.UUID, sourceURL *string, title string, ingredients []string) (uuid.UUID, bool, error) {
	var id uuid.UUID
	var err error
	if sourceURL != nil && *sourceURL != "" {
		err = db.QueryRow(ctx, `SELECT id FROM recipe WHERE owner_id = $1 AND source_url = $2 ORDER BY created_at LIMIT 1`,
			owner, *sourceURL).Scan(&id)
	} else {
		err = db.QueryRow(ctx, `
			SELECT r.id FROM recipe r
			WHERE r.owner_id = $1 AND lower(r.title) = lower($2)
			  AND lower(coalesce((SELECT string_agg(i.text, E'\n' ORDER BY s.position, i.position)
			                      FROM ingredient i JOIN ingredient_section s ON s.id = i.section_id
			                      WHERE i.recipe_id = r.id), '')) = lower($3)
			ORDER BY r.created_at LIMIT 1`, owner, title, strings.Join(ingredients, "\n")).Scan(&id)
	}
	if errors.Is(err, pgx.ErrNoRows) {
		return uuid.Nil, false, nil
	}
	if err != nil {
		return uuid.Nil, false, wrap("find duplicate recipe", err)
	}
	return id, true, nil
}

// LockRecipeImport serializes, until the transaction ends, the imports of
// one owner's recipe with the same key (its source address, or its title),
// so that the duplicate check and the insert are one step.
func LockRecipeImport(ctx context.Context, tx pgx.Tx, owner uuid.UUID, key string) error {
	_, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended($1, 17))`, owner.String()+"\n"+strings.ToLower(key))
	return wrap("lock recipe import", err)
}

// SetJobProgressDetail records a running job's progress (0..1) with what it
// reports besides (GET /api/jobs/:id shows it as "detail").
func SetJobProgressDetail(ctx context.Context, db DBTX, riverJobID int64, progress float64, detail any) error {
	raw, err := json.Marshal(detail)
	if err != nil {
		return wrap("encode job progress detail", err)
	}
	_, err = db.Exec(ctx, `UPDATE app_job SET progress = $2, progress_detail = $3 WHERE river_job_id = $1`, riverJobID, progress, raw)
	return wrap("set job progress detail", err)
}
