package repo

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// Share is a recipe shared with a user. It lets that user read the recipe
// while its visibility is SHARED.
type Share struct {
	UserID    uuid.UUID `db:"user_id"`
	Email     string    `db:"email"`
	Name      string    `db:"name"`
	CreatedAt time.Time `db:"created_at"`
}

// ShareCursor is where a page of shares ends.
type ShareCursor struct {
	CreatedAt time.Time
	UserID    uuid.UUID
}

const shareSelect = `SELECT s.user_id, u.email, u.name, s.created_at FROM recipe_share s JOIN app_user u ON u.id = s.user_id`

// ListShares returns the recipe's shares, oldest first, after the cursor;
// next is nil on the last page.
func ListShares(ctx context.Context, db DBTX, recipeID uuid.UUID, limit int, after *ShareCursor) (items []Share, next *ShareCursor, total int64, err error) {
	if err := db.QueryRow(ctx, `SELECT count(*) FROM recipe_share WHERE recipe_id = $1`, recipeID).Scan(&total); err != nil {
		return nil, nil, 0, wrap("count shares", err)
	}
	args := sqlArgs{recipeID}
	sql := shareSelect + ` WHERE s.recipe_id = $1`
	if after != nil {
		sql += ` AND (s.created_at, s.user_id) > (` + args.add(after.CreatedAt) + `::timestamptz, ` + args.add(after.UserID) + `::uuid)`
	}
	sql += ` ORDER BY s.created_at, s.user_id LIMIT ` + strconv.Itoa(limit+1)
	rows, _ := db.Query(ctx, sql, args...)
	items, err = pgx.CollectRows(rows, pgx.RowToStructByName[Share])
	if err != nil {
		return nil, nil, 0, wrap("list shares", err)
	}
	if len(items) > limit {
		items = items[:limit]
		next = &ShareCursor{CreatedAt: items[limit-1].CreatedAt, UserID: items[limit-1].UserID}
	}
	return items, next, total, nil
}

// MaxShares is how many users one recipe can be shared with: its
// shared_with must fit, with the rest of its entry, in recipe_list_idx
// (migration 0011, whose share trigger enforces it).
const MaxShares = 50

// ErrTooManyShares refuses a share beyond MaxShares.
var ErrTooManyShares = errors.New("too many shares")

// AddShare shares the recipe with the user. Sharing again is not an error:
// created is false and the existing share is returned. A recipe already
// shared with MaxShares users is ErrTooManyShares.
func AddShare(ctx context.Context, db DBTX, recipeID, userID uuid.UUID) (share Share, created bool, err error) {
	tag, err := db.Exec(ctx, `INSERT INTO recipe_share (recipe_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`, recipeID, userID)
	if pgErr := (*pgconn.PgError)(nil); errors.As(err, &pgErr) && pgErr.ConstraintName == "recipe_share_max" {
		return Share{}, false, fmt.Errorf("add share: %w", ErrTooManyShares)
	}
	if err != nil {
		return Share{}, false, wrap("add share", err)
	}
	rows, _ := db.Query(ctx, shareSelect+` WHERE s.recipe_id = $1 AND s.user_id = $2`, recipeID, userID)
	share, err = pgx.CollectExactlyOneRow(rows, pgx.RowToStructByName[Share])
	return share, tag.RowsAffected() == 1, wrap("get share", err)
}

// RemoveShare stops sharing the recipe with the user; ErrNotFound when it was not shared.
func RemoveShare(ctx context.Context, db DBTX, recipeID, userID uuid.UUID) error {
	tag, err := db.Exec(ctx, `DELETE FROM recipe_share WHERE recipe_id = $1 AND user_id = $2`, recipeID, userID)
	if err != nil {
		return wrap("remove share", err)
	}
	if tag.RowsAffected() == 0 {
		return wrap("remove share", pgx.ErrNoRows)
	}
	return nil
}
