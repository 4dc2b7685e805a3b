package repo

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
)

// Shopping lists. A list belongs to its owner and is shared with members,
// who read and edit it as the owner does; only the owner renames it, sets
// its unit system, deletes it and chooses its members. To anyone else a
// list does not exist (ErrNotFound).

// ShoppingList is a list with its members and counts of its items.
type ShoppingList struct {
	ID         uuid.UUID
	OwnerID    uuid.UUID
	Name       string
	UnitSystem string
	Members    []Share
	Items      int
	Checked    int
	CreatedAt  time.Time
	UpdatedAt  time.Time
}

const shoppingListColumns = `l.id, l.owner_id, l.name, l.unit_system, l.created_at, l.updated_at,
	(SELECT count(*) FROM shopping_item i WHERE i.list_id = l.id AND i.deleted_at IS NULL),
	(SELECT count(*) FROM shopping_item i WHERE i.list_id = l.id AND i.deleted_at IS NULL AND i.checked)`

func scanShoppingList(row pgx.Row) (ShoppingList, error) {
	var l ShoppingList
	err := row.Scan(&l.ID, &l.OwnerID, &l.Name, &l.UnitSystem, &l.CreatedAt, &l.UpdatedAt, &l.Items, &l.Checked)
	return l, err
}

// ListShoppingLists returns the lists the user owns or is a member of,
// most recently changed first.
func ListShoppingLists(ctx context.Context, db DBTX, userID uuid.UUID) ([]ShoppingList, error) {
	rows, _ := db.Query(ctx, `SELECT `+shoppingListColumns+` FROM shopping_list l WHERE `+listMembers.access("l", "$1")+`
		ORDER BY l.updated_at DESC, l.id`, userID)
	lists, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (ShoppingList, error) { return scanShoppingList(r) })
	if err != nil {
		return nil, wrap("list shopping lists", err)
	}
	for i := range lists {
		if lists[i].Members, err = listMembers.list(ctx, db, lists[i].ID); err != nil {
			return nil, err
		}
	}
	return lists, nil
}

// GetShoppingList returns the list if the user may edit it.
func GetShoppingList(ctx context.Context, db DBTX, id, userID uuid.UUID) (ShoppingList, error) {
	l, err := scanShoppingList(db.QueryRow(ctx, `SELECT `+shoppingListColumns+` FROM shopping_list l WHERE l.id = $1 AND `+listMembers.access("l", "$2"), id, userID))
	if err != nil {
		return l, wrap("get shopping list", err)
	}
	l.Members, err = listMembers.list(ctx, db, id)
	return l, err
}

// ShoppingListSessionAlive reports whether the user of a session may still
// read the list: the session has not ended (sessionVersion is the user's
// current one, so the user was neither deleted nor signed out everywhere)
// and the list exists with the user as its owner or a member. One query,
// for a live stream to ask again and again.
func ShoppingListSessionAlive(ctx context.Context, db DBTX, listID, userID uuid.UUID, sessionVersion int) (bool, error) {
	var ok bool
	err := db.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM shopping_list l JOIN app_user u ON u.id = $2 AND u.session_version = $3
		WHERE l.id = $1 AND `+listMembers.access("l", "$2")+`)`, listID, userID, sessionVersion).Scan(&ok)
	return ok, wrap("check shopping list access", err)
}

// LockShoppingList is GetShoppingList that also locks the list's row until
// the transaction ends, so that two merges into one list do not interleave.
func LockShoppingList(ctx context.Context, tx pgx.Tx, id, userID uuid.UUID) (ShoppingList, error) {
	if _, err := tx.Exec(ctx, `SELECT 1 FROM shopping_list l WHERE l.id = $1 AND `+listMembers.access("l", "$2")+` FOR UPDATE`, id, userID); err != nil {
		return ShoppingList{}, wrap("lock shopping list", err)
	}
	return GetShoppingList(ctx, tx, id, userID)
}

// CreateShoppingList creates a list owned by the user.
func CreateShoppingList(ctx context.Context, db DBTX, ownerID uuid.UUID, name, unitSystem string) (uuid.UUID, error) {
	var id uuid.UUID
	err := db.QueryRow(ctx, `INSERT INTO shopping_list (owner_id, name, unit_system) VALUES ($1, $2, $3) RETURNING id`,
		ownerID, name, unitSystem).Scan(&id)
	return id, wrap("create shopping list", err)
}

// UpdateShoppingList sets the list's name and unit system.
func UpdateShoppingList(ctx context.Context, db DBTX, id uuid.UUID, name, unitSystem string) error {
	return execOne(ctx, db, "update shopping list", `UPDATE shopping_list SET name = $2, unit_system = $3, updated_at = now() WHERE id = $1`,
		id, name, unitSystem)
}

// TouchShoppingList marks the list changed (lists are ordered by it).
func TouchShoppingList(ctx context.Context, db DBTX, id uuid.UUID) error {
	return execOne(ctx, db, "touch shopping list", `UPDATE shopping_list SET updated_at = now() WHERE id = $1`, id)
}

// DeleteShoppingList deletes the list and its items.
func DeleteShoppingList(ctx context.Context, db DBTX, id uuid.UUID) error {
	return execOne(ctx, db, "delete shopping list", `DELETE FROM shopping_list WHERE id = $1`, id)
}

// AddShoppingListMember shares the list with the user; created is false
// when they were already a member.
func AddShoppingListMember(ctx context.Context, db DBTX, listID, userID uuid.UUID) (created bool, err error) {
	return listMembers.add(ctx, db, listID, userID)
}

// RemoveShoppingListMember takes the user off the list; ErrNotFound when
// they were not on it.
func RemoveShoppingListMember(ctx context.Context, db DBTX, listID, userID uuid.UUID) error {
	return listMembers.remove(ctx, db, listID, userID)
}

// ShoppingItem is a line of a list. Quantity and Unit are the sum of its
// sources as the shopping package computed it (nil: no amount). ChangedAt
// is the client time of the last change applied; DeletedAt is set on a
// deleted item, which stays deleted.
type ShoppingItem struct {
	ID        uuid.UUID
	ListID    uuid.UUID
	Text      string
	Food      string
	Quantity  *float64
	Unit      string
	Checked   bool
	Aisle     string
	Position  int
	ChangedAt time.Time
	DeletedAt *time.Time
	Sources   []ItemSource
}

// ItemSource is where part of an item came from: a recipe line scaled to
// the servings it was added for, or the user (RecipeID nil).
type ItemSource struct {
	RecipeID    *uuid.UUID
	RecipeTitle string
	Servings    *float64
	Line        string
	Quantity    *float64
	Unit        string
}

const itemColumns = `i.id, i.list_id, i.text, i.food, i.quantity, i.unit, i.checked, i.aisle, i.position, i.changed_at, i.deleted_at`

func scanItem(row pgx.CollectableRow) (ShoppingItem, error) {
	var it ShoppingItem
	err := row.Scan(&it.ID, &it.ListID, &it.Text, &it.Food, &it.Quantity, &it.Unit, &it.Checked, &it.Aisle, &it.Position, &it.ChangedAt, &it.DeletedAt)
	return it, err
}

// ListShoppingItems returns the list's items with their sources, by
// position; deleted ones only when withDeleted.
func ListShoppingItems(ctx context.Context, db DBTX, listID uuid.UUID, withDeleted bool) ([]ShoppingItem, error) {
	sql := `SELECT ` + itemColumns + ` FROM shopping_item i WHERE i.list_id = $1`
	if !withDeleted {
		sql += ` AND i.deleted_at IS NULL`
	}
	rows, _ := db.Query(ctx, sql+` ORDER BY i.position, i.created_at, i.id`, listID)
	items, err := pgx.CollectRows(rows, scanItem)
	if err != nil {
		return nil, wrap("list shopping items", err)
	}
	byID := make(map[uuid.UUID]*ShoppingItem, len(items))
	for k := range items {
		items[k].Sources = []ItemSource{}
		byID[items[k].ID] = &items[k]
	}
	rows, _ = db.Query(ctx, `SELECT s.item_id, s.recipe_id, s.recipe_title, s.servings::float8, s.line, s.quantity, s.unit
		FROM shopping_item_source s JOIN shopping_item i ON i.id = s.item_id
		WHERE i.list_id = $1 ORDER BY s.created_at, s.id`, listID)
	var itemID uuid.UUID
	var src ItemSource
	_, err = pgx.ForEachRow(rows, []any{&itemID, &src.RecipeID, &src.RecipeTitle, &src.Servings, &src.Line, &src.Quantity, &src.Unit}, func() error {
		if it := byID[itemID]; it != nil {
			it.Sources = append(it.Sources, src)
		}
		return nil
	})
	return items, wrap("list shopping item sources", err)
}

// GetShoppingItem returns an item of the list, deleted or not.
func GetShoppingItem(ctx context.Context, db DBTX, listID, id uuid.UUID) (ShoppingItem, error) {
	rows, _ := db.Query(ctx, `SELECT `+itemColumns+` FROM shopping_item i WHERE i.list_id = $1 AND i.id = $2`, listID, id)
	it, err := pgx.CollectExactlyOneRow(rows, scanItem)
	if err != nil {
		return it, wrap("get shopping item", err)
	}
	rows, _ = db.Query(ctx, `SELECT s.recipe_id, s.recipe_title, s.servings::float8, s.line, s.quantity, s.unit
		FROM shopping_item_source s WHERE s.item_id = $1 ORDER BY s.created_at, s.id`, id)
	it.Sources, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (ItemSource, error) {
		var s ItemSource
		err := r.Scan(&s.RecipeID, &s.RecipeTitle, &s.Servings, &s.Line, &s.Quantity, &s.Unit)
		return s, err
	})
	return it, wrap("get shopping item sources", err)
}

// SaveShoppingItem writes the item, creating it if new; with sources
// true, its Sources replace the stored ones. An item of another list with
// the same id is ErrConflict.
func SaveShoppingItem(ctx context.Context, db DBTX, it ShoppingItem, sources bool) error {
	tx, ok := db.(pgx.Tx)
	if !ok {
		return pgx.BeginFunc(ctx, db, func(tx pgx.Tx) error { return SaveShoppingItems(ctx, tx, []ShoppingItem{it}, sources) })
	}
	return SaveShoppingItems(ctx, tx, []ShoppingItem{it}, sources)
}

// SaveShoppingItems is SaveShoppingItem for several items in one round
// trip: a week's list writes some thirty items at once.
func SaveShoppingItems(ctx context.Context, tx pgx.Tx, items []ShoppingItem, sources bool) error {
	if len(items) == 0 {
		return nil
	}
	b := &pgx.Batch{}
	for _, it := range items {
		b.Queue(`INSERT INTO shopping_item (id, list_id, text, food, quantity, unit, checked, aisle, position, changed_at, deleted_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
		ON CONFLICT (id) DO UPDATE SET text = $3, food = $4, quantity = $5, unit = $6, checked = $7, aisle = $8,
			position = $9, changed_at = $10, deleted_at = $11
		WHERE shopping_item.list_id = $2`,
			it.ID, it.ListID, it.Text, it.Food, it.Quantity, it.Unit, it.Checked, it.Aisle, it.Position, it.ChangedAt, it.DeletedAt)
		if !sources {
			continue
		}
		b.Queue(`DELETE FROM shopping_item_source WHERE item_id = $1`, it.ID)
		// One statement for all of them: a merged item has a source per recipe.
		n := len(it.Sources)
		recipes, titles, servings := make([]*uuid.UUID, n), make([]string, n), make([]*float64, n)
		lines, quantities, units := make([]string, n), make([]*float64, n), make([]string, n)
		for i, s := range it.Sources {
			recipes[i], titles[i], servings[i], lines[i], quantities[i], units[i] = s.RecipeID, s.RecipeTitle, s.Servings, s.Line, s.Quantity, s.Unit
		}
		// created_at steps by a microsecond per source, so they read back in order.
		b.Queue(`INSERT INTO shopping_item_source (item_id, recipe_id, recipe_title, servings, line, quantity, unit, created_at)
		SELECT $1, r, t, s, l, q, u, now() + make_interval(secs => o / 1e6)
		FROM unnest($2::uuid[], $3::text[], $4::numeric[], $5::text[], $6::float8[], $7::text[]) WITH ORDINALITY AS x(r, t, s, l, q, u, o)`,
			it.ID, recipes, titles, servings, lines, quantities, units)
	}
	res := tx.SendBatch(ctx, b)
	defer res.Close()
	for _, it := range items {
		tag, err := res.Exec()
		if err != nil {
			return wrap("save shopping item", err)
		}
		if tag.RowsAffected() == 0 {
			return fmt.Errorf("save shopping item %s: %w", it.ID, ErrConflict)
		}
		if sources {
			for range 2 {
				if _, err := res.Exec(); err != nil {
					return wrap("replace shopping item sources", err)
				}
			}
		}
	}
	return wrap("save shopping items", res.Close())
}

// NextItemPosition is the position after the list's last item.
func NextItemPosition(ctx context.Context, db DBTX, listID uuid.UUID) (int, error) {
	var n int
	err := db.QueryRow(ctx, `SELECT COALESCE(max(position) + 1, 0) FROM shopping_item WHERE list_id = $1`, listID).Scan(&n)
	return n, wrap("next item position", err)
}

// ClearCheckedItems deletes the list's checked items, at time at.
func ClearCheckedItems(ctx context.Context, db DBTX, listID uuid.UUID, at time.Time) (int64, error) {
	tag, err := db.Exec(ctx, `UPDATE shopping_item SET deleted_at = $2, changed_at = $2
		WHERE list_id = $1 AND checked AND deleted_at IS NULL`, listID, at)
	return tag.RowsAffected(), wrap("clear checked items", err)
}

// AisleCorrections returns the user's aisles by food key.
func AisleCorrections(ctx context.Context, db DBTX, userID uuid.UUID) (map[string]string, error) {
	rows, _ := db.Query(ctx, `SELECT food, aisle FROM shopping_aisle_correction WHERE user_id = $1`, userID)
	out := map[string]string{}
	var food, aisle string
	_, err := pgx.ForEachRow(rows, []any{&food, &aisle}, func() error { out[food] = aisle; return nil })
	return out, wrap("aisle corrections", err)
}

// SetAisleCorrection remembers the user's aisle for a food.
func SetAisleCorrection(ctx context.Context, db DBTX, userID uuid.UUID, food, aisle string) error {
	_, err := db.Exec(ctx, `INSERT INTO shopping_aisle_correction (user_id, food, aisle) VALUES ($1, $2, $3)
		ON CONFLICT (user_id, food) DO UPDATE SET aisle = $3, updated_at = now()`, userID, food, aisle)
	return wrap("set aisle correction", err)
}

// ShoppingListChannel is the notification channel of list changes; the
// payload is the list's id (migration 0040).
const ShoppingListChannel = "shopping_list_change"
