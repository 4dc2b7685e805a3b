package repo

import (
	"context"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
)

// membership is the member table of a resource shared with a household
// (meal plans, shopping lists): the same rules over two tables. Its names
// are fixed in code (planMembers, listMembers), never taken from input:
// they are written into SQL.
type membership struct {
	table  string // the member table
	parent string // its column naming the plan or list
	noun   string // what is shared, for errors
}

var (
	planMembers = membership{table: "meal_plan_member", parent: "plan_id", noun: "meal plan"}
	listMembers = membership{table: "shopping_list_member", parent: "list_id", noun: "shopping list"}
)

// access is "user $n may edit the row aliased alias": they own it or are
// a member.
func (m membership) access(alias, n string) string {
	return `(` + alias + `.owner_id = ` + n + ` OR EXISTS (SELECT 1 FROM ` + m.table + ` m WHERE m.` + m.parent + ` = ` + alias + `.id AND m.user_id = ` + n + `))`
}

// list returns the members, first added first.
func (m membership) list(ctx context.Context, db DBTX, id uuid.UUID) ([]Share, error) {
	rows, _ := db.Query(ctx, `SELECT s.user_id, u.email, u.name, s.created_at FROM `+m.table+` s
		JOIN app_user u ON u.id = s.user_id WHERE s.`+m.parent+` = $1 ORDER BY s.created_at, s.user_id`, id)
	members, err := pgx.CollectRows(rows, pgx.RowToStructByName[Share])
	return members, wrap("list "+m.noun+" members", err)
}

// add makes the user a member; created is false when they already were.
func (m membership) add(ctx context.Context, db DBTX, id, userID uuid.UUID) (created bool, err error) {
	tag, err := db.Exec(ctx, `INSERT INTO `+m.table+` (`+m.parent+`, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`, id, userID)
	return tag.RowsAffected() == 1, wrap("add "+m.noun+" member", err)
}

// remove takes the user off; ErrNotFound when they were not a member.
func (m membership) remove(ctx context.Context, db DBTX, id, userID uuid.UUID) error {
	return execOne(ctx, db, "remove "+m.noun+" member", `DELETE FROM `+m.table+` WHERE `+m.parent+` = $1 AND user_id = $2`, id, userID)
}
