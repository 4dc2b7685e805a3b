package repo

import (
	"context"
	"fmt"
)

// IsPublicImage reports whether key is the image of a recipe anyone may
// read, a PUBLIC one (its renditions are found from it:
// filestore.VariantKey). The anonymous viewer's predicate is the one the
// partial index recipe_public_image_key_idx (migration 0051) is built on.
func IsPublicImage(ctx context.Context, db DBTX, key string) (bool, error) {
	var ok bool
	args := sqlArgs{key}
	err := db.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM recipe r WHERE r.image_key = $1 AND `+visibleTo(Viewer{}, &args)+`)`,
		args...).Scan(&ok)
	if err != nil {
		return false, fmt.Errorf("check public image: %w", err)
	}
	return ok, nil
}
