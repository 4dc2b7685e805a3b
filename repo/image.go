package repo

import (
	"context"
	"errors"
	"fmt"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
)

// ImageOwner is a kind of row that has an image: its image_key column names
// the re-encoded upload in the file store, and image_variants the
// renditions the image job made of it. The functions below build their SQL
// from the owner's table, which is one of the constants of table, never
// input.
type ImageOwner string

// The kinds of rows with an image.
const (
	RecipeImage   ImageOwner = "recipe"
	CookbookImage ImageOwner = "cookbook"
)

// Valid reports whether o is one of the constants.
func (o ImageOwner) Valid() bool {
	_, err := o.table()
	return err == nil
}

func (o ImageOwner) table() (string, error) {
	switch o {
	case RecipeImage:
		return "recipe", nil
	case CookbookImage:
		return "cookbook", nil
	}
	return "", fmt.Errorf("%q is not a kind of row with an image", string(o))
}

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

// SetImage makes key the image of the owner's row id (nil removes it),
// drops the renditions of the previous image, and returns the previous
// image (nil if there was none), for the caller to delete from the file
// store once the change has committed: deleting earlier would leave the row
// naming missing files if the transaction then failed.
func SetImage(ctx context.Context, db DBTX, owner ImageOwner, id uuid.UUID, key *string) (*StoredImage, error) {
	table, err := owner.table()
	if err != nil {
		return nil, err
	}
	var oldKey *string
	var oldVariants map[string]string
	// The locked read of the old values and the update are one statement,
	// so two uploads racing on one row each learn exactly the image they
	// replaced, and every replaced file is deleted once.
	err = db.QueryRow(ctx, `UPDATE `+table+` r SET image_key = $2, image_variants = '{}', updated_at = now()
		FROM (SELECT id, image_key, image_variants FROM `+table+` WHERE id = $1 FOR UPDATE) old
		WHERE r.id = old.id
		RETURNING old.image_key, old.image_variants`, id, key).Scan(&oldKey, &oldVariants)
	if err != nil {
		return nil, wrap("set "+table+" image "+id.String(), err)
	}
	return storedImage(oldKey, oldVariants), nil
}

// GetImageKey returns the key of the image of the owner's row id, nil when
// it has none.
func GetImageKey(ctx context.Context, db DBTX, owner ImageOwner, id uuid.UUID) (*string, error) {
	table, err := owner.table()
	if err != nil {
		return nil, err
	}
	var key *string
	err = db.QueryRow(ctx, `SELECT image_key FROM `+table+` WHERE id = $1`, id).Scan(&key)
	return key, wrap("get "+table+" image "+id.String(), err)
}

// SetImageIfNone makes key the image of the owner's row id if it has none
// (an imported image). It reports false, changing nothing, when the row is
// gone or has an image by now: the owner may have uploaded one while the
// imported image was downloading, and theirs wins.
func SetImageIfNone(ctx context.Context, db DBTX, owner ImageOwner, id uuid.UUID, key string) (bool, error) {
	table, err := owner.table()
	if err != nil {
		return false, err
	}
	tag, err := db.Exec(ctx, `UPDATE `+table+` SET image_key = $2, image_variants = '{}', updated_at = now()
		WHERE id = $1 AND image_key IS NULL`, id, key)
	if err != nil {
		return false, wrap("set imported image of "+table+" "+id.String(), err)
	}
	return tag.RowsAffected() == 1, nil
}

// SetImageVariants records the renditions of the image of the owner's row
// id, only while that image is still key. ok is false when the row is gone
// or its image has been replaced or removed since: the renditions are then
// of no use and the caller deletes them. replaced lists the keys of
// renditions recorded earlier (by a previous attempt of the same job), to
// delete.
func SetImageVariants(ctx context.Context, db DBTX, owner ImageOwner, id uuid.UUID, key string, variants map[string]string) (replaced []string, ok bool, err error) {
	table, err := owner.table()
	if err != nil {
		return nil, false, err
	}
	var old map[string]string
	err = db.QueryRow(ctx, `UPDATE `+table+` r SET image_variants = $3
		FROM (SELECT id, image_variants FROM `+table+` WHERE id = $1 AND image_key = $2 FOR UPDATE) old
		WHERE r.id = old.id
		RETURNING old.image_variants`, id, key, variants).Scan(&old)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, wrap("set "+table+" image variants "+id.String(), err)
	}
	for name, k := range old {
		if variants[name] != k {
			replaced = append(replaced, k)
		}
	}
	return replaced, true, nil
}
