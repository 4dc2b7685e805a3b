package repo

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
)

// Cookbook access: a cookbook is read and written by its owner and by an
// admin, nobody else (nothing in the specification makes cookbooks public).
// The handlers check it; the functions here take ids that have passed.

var (
	// ErrCookbookCycle means an inclusion would make a cookbook include
	// itself, directly or through its descendants.
	ErrCookbookCycle = errors.New("the cookbook would include itself")
	// ErrCookbookOwner means an inclusion names cookbooks of two owners. All
	// cookbooks of one tree share an owner, so that resolving a tree never
	// shows anyone a cookbook of somebody else's.
	ErrCookbookOwner = errors.New("a cookbook can only include cookbooks of the same owner")
)

// Cookbook is a row of cookbook with its tag names.
type Cookbook struct {
	ID          uuid.UUID `db:"id"`
	OwnerID     uuid.UUID `db:"owner_id"`
	Name        string    `db:"name"`
	Description string    `db:"description"`
	ImageKey    *string   `db:"image_key"`
	// ImageVariants maps a rendition's name ("thumb", "medium") to its key.
	ImageVariants map[string]string `db:"image_variants"`
	// Tags are the cookbook's tags (CookbookTag), ordered by name without
	// regard to case. Other cookbooks' autoFilterTags match them.
	Tags                 []string  `db:"tags"`
	AutoFilterCategories []string  `db:"auto_filter_categories"`
	AutoFilterTags       []string  `db:"auto_filter_tags"`
	CreatedAt            time.Time `db:"created_at"`
	UpdatedAt            time.Time `db:"updated_at"`
}

// cookbookColumns are the columns of Cookbook for a query over cookbook c.
const cookbookColumns = `c.id, c.owner_id, c.name, c.description, c.image_key, c.image_variants,
	ARRAY(SELECT t.name FROM cookbook_tag ct JOIN tag t ON t.id = ct.tag_id WHERE ct.cookbook_id = c.id ORDER BY lower(t.name)) AS tags,
	c.auto_filter_categories, c.auto_filter_tags, c.created_at, c.updated_at`

// CookbookInput is a new cookbook. The handler has validated it (names
// trimmed, no empty or case-insensitively repeated tag or filter).
type CookbookInput struct {
	Name                 string
	Description          string
	Tags                 []string
	AutoFilterCategories []string
	AutoFilterTags       []string
}

// CookbookUpdate changes some fields of a cookbook; a nil field is left as it is.
type CookbookUpdate struct {
	Name                 *string
	Description          *string
	Tags                 *[]string
	AutoFilterCategories *[]string
	AutoFilterTags       *[]string
}

// CreateCookbook inserts a cookbook owned by ownerID, with its tags, and returns it.
func CreateCookbook(ctx context.Context, db DBTX, ownerID uuid.UUID, in CookbookInput) (Cookbook, error) {
	var cb Cookbook
	err := pgx.BeginFunc(ctx, db, func(tx pgx.Tx) error {
		var id uuid.UUID
		err := tx.QueryRow(ctx, `INSERT INTO cookbook (owner_id, name, description, auto_filter_categories, auto_filter_tags)
			VALUES ($1, $2, $3, $4, $5) RETURNING id`,
			ownerID, in.Name, in.Description, nonNil(in.AutoFilterCategories), nonNil(in.AutoFilterTags)).Scan(&id)
		if err != nil {
			return err
		}
		if err := setTags(ctx, tx, cookbookTags, id, in.Tags); err != nil {
			return err
		}
		cb, err = GetCookbook(ctx, tx, id)
		return err
	})
	return cb, wrap("create cookbook", err)
}

// GetCookbook returns the cookbook; the caller checks who may see it.
func GetCookbook(ctx context.Context, db DBTX, id uuid.UUID) (Cookbook, error) {
	rows, _ := db.Query(ctx, `SELECT `+cookbookColumns+` FROM cookbook c WHERE c.id = $1`, id)
	cb, err := pgx.CollectExactlyOneRow(rows, pgx.RowToStructByName[Cookbook])
	return cb, wrap("get cookbook "+id.String(), err)
}

// UpdateCookbook applies the set fields of u and returns the cookbook.
func UpdateCookbook(ctx context.Context, db DBTX, id uuid.UUID, u CookbookUpdate) (Cookbook, error) {
	var cb Cookbook
	err := pgx.BeginFunc(ctx, db, func(tx pgx.Tx) error {
		var cats, tags []string
		if u.AutoFilterCategories != nil {
			cats = nonNil(*u.AutoFilterCategories)
		}
		if u.AutoFilterTags != nil {
			tags = nonNil(*u.AutoFilterTags)
		}
		// A nil Go slice is SQL NULL, which coalesce turns into "unchanged".
		tag, err := tx.Exec(ctx, `UPDATE cookbook SET name = coalesce($2, name), description = coalesce($3, description),
			auto_filter_categories = coalesce($4, auto_filter_categories), auto_filter_tags = coalesce($5, auto_filter_tags),
			updated_at = now()
			WHERE id = $1`, id, u.Name, u.Description, cats, tags)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return pgx.ErrNoRows
		}
		if u.Tags != nil {
			if err := setTags(ctx, tx, cookbookTags, id, *u.Tags); err != nil {
				return err
			}
		}
		cb, err = GetCookbook(ctx, tx, id)
		return err
	})
	return cb, wrap("update cookbook "+id.String(), err)
}

// DeleteCookbook deletes the cookbook and its links (its recipe links,
// inclusions either way and tags go with it by their foreign keys; the
// recipes and the child cookbooks stay). It returns its image (nil if it
// had none), for the caller to delete from the file store once the
// transaction has committed.
func DeleteCookbook(ctx context.Context, db DBTX, id uuid.UUID) (*StoredImage, error) {
	var key *string
	var variants map[string]string
	err := db.QueryRow(ctx, `DELETE FROM cookbook WHERE id = $1 RETURNING image_key, image_variants`, id).Scan(&key, &variants)
	if err != nil {
		return nil, wrap("delete cookbook "+id.String(), err)
	}
	return storedImage(key, variants), nil
}

// CookbookCursor is where a page of cookbooks ends.
type CookbookCursor struct {
	CreatedAt time.Time
	ID        uuid.UUID
}

// CookbookPage is one page of ListCookbooks.
type CookbookPage struct {
	Items []Cookbook
	// Next is the cursor of the following page; nil on the last one.
	Next  *CookbookCursor
	Total int64
}

// ListCookbooks returns the cookbooks of ownerID, newest first, after the
// cursor, at most limit of them.
func ListCookbooks(ctx context.Context, db DBTX, ownerID uuid.UUID, limit int, after *CookbookCursor) (CookbookPage, error) {
	var page CookbookPage
	if err := db.QueryRow(ctx, `SELECT count(*) FROM cookbook WHERE owner_id = $1`, ownerID).Scan(&page.Total); err != nil {
		return page, wrap("count cookbooks", err)
	}
	args := sqlArgs{ownerID}
	sql := `SELECT ` + cookbookColumns + ` FROM cookbook c WHERE c.owner_id = $1`
	if after != nil {
		sql += ` AND (c.created_at, c.id) < (` + args.add(after.CreatedAt) + `::timestamptz, ` + args.add(after.ID) + `::uuid)`
	}
	sql += ` ORDER BY c.created_at DESC, c.id DESC LIMIT ` + strconv.Itoa(limit+1)
	rows, _ := db.Query(ctx, sql, args...)
	items, err := pgx.CollectRows(rows, pgx.RowToStructByName[Cookbook])
	if err != nil {
		return page, wrap("list cookbooks", err)
	}
	if len(items) > limit {
		items = items[:limit]
		last := items[limit-1]
		page.Next = &CookbookCursor{CreatedAt: last.CreatedAt, ID: last.ID}
	}
	page.Items = items
	return page, nil
}

// AddCookbookRecipe puts the recipe in the cookbook, if v may read the
// recipe (ErrNotFound otherwise, as for a recipe that does not exist).
// Adding a recipe that is already there changes nothing; added says which.
func AddCookbookRecipe(ctx context.Context, db DBTX, cookbookID, recipeID uuid.UUID, v Viewer) (added bool, err error) {
	err = pgx.BeginFunc(ctx, db, func(tx pgx.Tx) error {
		args := sqlArgs{recipeID}
		var readable bool
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM recipe r WHERE r.id = $1 AND `+visibleTo(v, &args)+`)`,
			args...).Scan(&readable); err != nil {
			return err
		}
		if !readable {
			return pgx.ErrNoRows
		}
		tag, err := tx.Exec(ctx, `INSERT INTO cookbook_recipe (cookbook_id, recipe_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`,
			cookbookID, recipeID)
		if err != nil {
			return err
		}
		if added = tag.RowsAffected() == 1; added {
			return touchCookbook(ctx, tx, cookbookID)
		}
		return nil
	})
	return added, wrap("add recipe to cookbook", err)
}

// RemoveCookbookRecipe takes the recipe out of the cookbook (the recipe
// stays); ErrNotFound when it was not in it. Whether the caller may still
// read the recipe does not matter: one may always tidy one's own cookbook.
func RemoveCookbookRecipe(ctx context.Context, db DBTX, cookbookID, recipeID uuid.UUID) error {
	err := pgx.BeginFunc(ctx, db, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `DELETE FROM cookbook_recipe WHERE cookbook_id = $1 AND recipe_id = $2`, cookbookID, recipeID)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return pgx.ErrNoRows
		}
		return touchCookbook(ctx, tx, cookbookID)
	})
	return wrap("remove recipe from cookbook", err)
}

// inclusionLockClass is the first key of the advisory lock IncludeCookbook
// takes per owner ("ckbk"); the second is a hash of the owner's id.
const inclusionLockClass = 0x636b626b

// IncludeCookbook makes parentID include childID. It refuses with
// ErrCookbookCycle when the child is the parent or the parent is already
// among the child's descendants (through direct or automatic inclusions),
// and with ErrCookbookOwner when the two have different owners. Including a
// cookbook that is already included changes nothing; added says which.
//
// The check and the insert hold a transaction-scoped advisory lock on the
// owner (every cookbook of a tree has the same owner), so two requests
// racing, A⊃B against B⊃A, run one after the other: the second one's check
// reads, in a fresh snapshot taken after the lock, the link the first one
// committed, and is refused. Without the lock both checks could pass
// before either insert is visible, and the cycle would be stored.
func IncludeCookbook(ctx context.Context, db DBTX, parentID, childID uuid.UUID) (added bool, err error) {
	if parentID == childID {
		return false, wrap("include cookbook", ErrCookbookCycle)
	}
	err = pgx.BeginFunc(ctx, db, func(tx pgx.Tx) error {
		var parentOwner, childOwner *uuid.UUID
		err := tx.QueryRow(ctx, `SELECT (SELECT owner_id FROM cookbook WHERE id = $1), (SELECT owner_id FROM cookbook WHERE id = $2)`,
			parentID, childID).Scan(&parentOwner, &childOwner)
		if err != nil {
			return err
		}
		if parentOwner == nil || childOwner == nil {
			return pgx.ErrNoRows
		}
		if *parentOwner != *childOwner {
			return ErrCookbookOwner
		}
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1, hashtext($2::text))`, inclusionLockClass, *parentOwner); err != nil {
			return err
		}
		var cycle bool
		if err := tx.QueryRow(ctx, `WITH RECURSIVE book(id) AS (
				SELECT $1::uuid
				UNION
				SELECT e.id FROM book b CROSS JOIN LATERAL (`+childrenOf("b.id")+`) e
			)
			SELECT EXISTS (SELECT 1 FROM book WHERE id = $2)`, childID, parentID).Scan(&cycle); err != nil {
			return err
		}
		if cycle {
			return ErrCookbookCycle
		}
		tag, err := tx.Exec(ctx, `INSERT INTO cookbook_inclusion (parent_id, child_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`,
			parentID, childID)
		if err != nil {
			return err
		}
		if added = tag.RowsAffected() == 1; added {
			return touchCookbook(ctx, tx, parentID)
		}
		return nil
	})
	return added, wrap("include cookbook", err)
}

// ExcludeCookbook removes the direct inclusion of childID in parentID (both
// cookbooks stay); ErrNotFound when there is none. A cookbook included
// automatically, by its tags, is not affected.
func ExcludeCookbook(ctx context.Context, db DBTX, parentID, childID uuid.UUID) error {
	err := pgx.BeginFunc(ctx, db, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `DELETE FROM cookbook_inclusion WHERE parent_id = $1 AND child_id = $2`, parentID, childID)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return pgx.ErrNoRows
		}
		return touchCookbook(ctx, tx, parentID)
	})
	return wrap("exclude cookbook", err)
}

// touchCookbook records that the cookbook's content changed.
func touchCookbook(ctx context.Context, tx pgx.Tx, id uuid.UUID) error {
	_, err := tx.Exec(ctx, `UPDATE cookbook SET updated_at = now() WHERE id = $1`, id)
	return err
}
