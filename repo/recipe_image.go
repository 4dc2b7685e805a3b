package repo

import (
	"context"
	"errors"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
)

// StoredImage is an image in the file store: the key of the re-encoded
// upload and the keys of the renditions recorded for it.
type StoredImage struct {
	Key      string
	Variants map[string]string
}

func storedImage(key *string, variants map[string]string) *StoredImage {
	if key == nil {
		return nil
	}
	return &StoredImage{Key: *key, Variants: variants}
}

// SetRecipeImage makes key the recipe's image (nil removes it), drops the
// renditions of the previous image, and returns the previous image (nil if
// there was none), for the caller to delete from the file store once the
// change has committed: deleting earlier would leave the row naming
// missing files if the transaction then failed.
func SetRecipeImage(ctx context.Context, db DBTX, id uuid.UUID, key *string) (*StoredImage, error) {
	var oldKey *string
	var oldVariants map[string]string
	// The locked read of the old values and the update are one statement,
	// so two uploads racing on one recipe each learn exactly the image they
	// replaced, and every replaced file is deleted once.
	err := db.QueryRow(ctx, `UPDATE recipe r SET image_key = $2, image_variants = '{}', updated_at = now()
		FROM (SELECT id, image_key, image_variants FROM recipe WHERE id = $1 FOR UPDATE) old
		WHERE r.id = old.id
		RETURNING old.image_key, old.image_variants`, id, key).Scan(&oldKey, &oldVariants)
	if err != nil {
		return nil, wrap("set recipe image "+id.String(), err)
	}
	return storedImage(oldKey, oldVariants), nil
}

// GetRecipeImageKey returns the key of the recipe's image, nil when it has none.
func GetRecipeImageKey(ctx context.Context, db DBTX, id uuid.UUID) (*string, error) {
	var key *string
	err := db.QueryRow(ctx, `SELECT image_key FROM recipe WHERE id = $1`, id).Scan(&key)
	return key, wrap("get recipe image "+id.String(), err)
}

// SetRecipeImageVariants records the renditions of the recipe's image, only
// while that image is still key. ok is false when the recipe is gone or its
// image has been replaced or removed since: the renditions are then of no
// use and the caller deletes them. replaced lists the keys of renditions
// recorded earlier (by a previous attempt of the same job), to delete.
func SetRecipeImageVariants(ctx context.Context, db DBTX, id uuid.UUID, key string, variants map[string]string) (replaced []string, ok bool, err error) {
	var old map[string]string
	err = db.QueryRow(ctx, `UPDATE recipe r SET image_variants = $3
		FROM (SELECT id, image_variants FROM recipe WHERE id = $1 AND image_key = $2 FOR UPDATE) old
		WHERE r.id = old.id
		RETURNING old.image_variants`, id, key, variants).Scan(&old)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, wrap("set recipe image variants "+id.String(), err)
	}
	for name, k := range old {
		if variants[name] != k {
			replaced = append(replaced, k)
		}
	}
	return replaced, true, nil
}

// imageKeys lists the stored files of one image: the original and the
// renditions recorded for it. Nothing for no image.
func imageKeys(key *string, variants map[string]string) []string {
	var keys []string
	if key != nil {
		keys = append(keys, *key)
	}
	for _, k := range variants {
		keys = append(keys, k)
	}
	return keys
}
