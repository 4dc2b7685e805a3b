package repo

import (
	"context"
	"fmt"
)

// IsPublicImage reports whether key is the image of a PUBLIC recipe (its
// renditions are found from it: filestore.VariantKey).
func IsPublicImage(ctx context.Context, db DBTX, key string) (bool, error) {
	var ok bool
	err := db.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM recipe WHERE image_key = $1 AND visibility = 'PUBLIC')`, key).Scan(&ok)
	if err != nil {
		return false, fmt.Errorf("check public image: %w", err)
	}
	return ok, nil
}
