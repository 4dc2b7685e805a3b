package handlers

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"larder/ingredient"
	"larder/repo"
	"larder/shopping"
)

// Shopping lists. A list is edited by its owner and the members they add
// by email; to anyone else, administrators included, it does not exist
// (404). Adding a recipe or a plan's range merges its lines into the
// list's unchecked items (package shopping); every item keeps its sources,
// so taking a recipe off takes off exactly its share.
//
// Conflicts between devices (one of them offline for a while): every item
// change carries the client's time (at); a change older than the last one
// applied to that item is ignored (last write wins), and a deleted item
// stays deleted whatever arrives later. A time in the future counts as now,
// so a device with a fast clock cannot win every later conflict.

const (
	itemsMax   = 1000 // items of one list
	changesMax = 500  // changes in one POST /changes
)

func (s *Server) shoppingRoutes(api fiber.Router) {
	api.Get("/shopping-lists", s.requireAuth, s.listShoppingLists)
	api.Post("/shopping-lists", s.requireAuth, s.createShoppingList)
	api.Get("/shopping-lists/:id", s.requireAuth, s.getShoppingList)
	api.Patch("/shopping-lists/:id", s.requireAuth, s.updateShoppingList)
	api.Delete("/shopping-lists/:id", s.requireAuth, s.deleteShoppingList)
	api.Post("/shopping-lists/:id/members", s.requireAuth, s.shareLimit(), s.addShoppingListMember)
	api.Delete("/shopping-lists/:id/members/:userId", s.requireAuth, s.removeShoppingListMember)
	api.Post("/shopping-lists/:id/items", s.requireAuth, s.addShoppingItem)
	api.Patch("/shopping-lists/:id/items/:itemId", s.requireAuth, s.updateShoppingItem)
	api.Delete("/shopping-lists/:id/items/:itemId", s.requireAuth, s.deleteShoppingItem)
	api.Post("/shopping-lists/:id/reorder", s.requireAuth, s.reorderShoppingItems)
	api.Post("/shopping-lists/:id/clear-checked", s.requireAuth, s.clearCheckedItems)
	api.Post("/shopping-lists/:id/changes", s.requireAuth, s.applyShoppingChanges)
	api.Post("/shopping-lists/:id/recipes", s.requireAuth, s.addRecipeToList)
	api.Delete("/shopping-lists/:id/recipes/:recipeId", s.requireAuth, s.removeRecipeFromList)
	api.Post("/shopping-lists/:id/plan", s.requireAuth, s.addPlanToList)
	api.Get("/shopping-lists/:id/events", s.requireAuth, s.shoppingListEvents)
}

// ShoppingList is a list, its members and (on GET of one list) its items.
type ShoppingList struct {
	ID         uuid.UUID      `json:"id"`
	OwnerID    uuid.UUID      `json:"ownerId"`
	Name       string         `json:"name"`
	UnitSystem string         `json:"unitSystem"`
	Members    []Share        `json:"members"`
	ItemCount  int            `json:"itemCount"`
	Checked    int            `json:"checkedCount"`
	Aisles     []string       `json:"aisles"`
	Items      []ShoppingItem `json:"items,omitempty"`
	CreatedAt  time.Time      `json:"createdAt"`
	UpdatedAt  time.Time      `json:"updatedAt"`
}

// ShoppingItem is a line of a list.
type ShoppingItem struct {
	ID        uuid.UUID    `json:"id"`
	Text      string       `json:"text"`
	Food      string       `json:"food"`
	Quantity  *float64     `json:"quantity"`
	Unit      string       `json:"unit"`
	Checked   bool         `json:"checked"`
	Aisle     string       `json:"aisle"`
	Position  int          `json:"position"`
	ChangedAt time.Time    `json:"changedAt"`
	Deleted   bool         `json:"deleted"`
	Sources   []ItemSource `json:"sources"`
	// UnitForms and Word are what a client needs to write the unit and the name so they agree with
	// quantity (ingredient.EnglishForms, ingredient.NameWord): the server knows the words and the
	// language of the line the item came from, the client only picks the form.
	UnitForms *UnitForms            `json:"unitForms,omitempty"`
	Word      *ingredient.WordForms `json:"word,omitempty"`
}

// UnitForms are the two forms of a unit's word: for one, and for more than one.
type UnitForms struct {
	One   string `json:"one"`
	Other string `json:"other"`
}

// ItemSource is a contribution to an item's amount.
type ItemSource struct {
	RecipeID    *uuid.UUID `json:"recipeId"`
	RecipeTitle string     `json:"recipeTitle"`
	Servings    *float64   `json:"servings"`
	Line        string     `json:"line"`
	Quantity    *float64   `json:"quantity"`
	Unit        string     `json:"unit"`
}

func shoppingListView(l repo.ShoppingList) ShoppingList {
	out := ShoppingList{ID: l.ID, OwnerID: l.OwnerID, Name: l.Name, UnitSystem: l.UnitSystem, Members: make([]Share, len(l.Members)),
		ItemCount: l.Items, Checked: l.Checked, Aisles: shopping.Aisles, CreatedAt: l.CreatedAt.UTC(), UpdatedAt: l.UpdatedAt.UTC()}
	for i, m := range l.Members {
		out.Members[i] = shareView(m)
	}
	return out
}

func shoppingItemView(it repo.ShoppingItem) ShoppingItem {
	out := ShoppingItem{ID: it.ID, Text: it.Text, Food: it.Food, Quantity: it.Quantity, Unit: it.Unit, Checked: it.Checked,
		Aisle: it.Aisle, Position: it.Position, ChangedAt: it.ChangedAt.UTC(), Deleted: it.DeletedAt != nil,
		Sources: make([]ItemSource, len(it.Sources))}
	for i, s := range it.Sources {
		out.Sources[i] = ItemSource(s)
	}
	switch {
	case it.Quantity == nil:
	case it.Unit != "":
		if one, other, ok := ingredient.EnglishForms(it.Unit, true); ok {
			out.UnitForms = &UnitForms{One: one, Other: other}
		}
	default:
		// The item is named as the first line that made it wrote the food, in that line's language.
		line := it.Text
		if len(it.Sources) > 0 {
			line = it.Sources[0].Line
		}
		out.Word = ingredient.NameWord(it.Text, line)
	}
	return out
}

// toMerge and fromMerge carry items between the store and package shopping.
func toMerge(it repo.ShoppingItem) *shopping.Item {
	out := &shopping.Item{ID: it.ID, Text: it.Text, Food: it.Food, Checked: it.Checked, Aisle: it.Aisle}
	for _, s := range it.Sources {
		out.Sources = append(out.Sources, shopping.Source(s))
	}
	return out
}

// withTotal sets the item's amount from its sources in the list's system.
func withTotal(it *repo.ShoppingItem, system string) {
	if q, u, ok := shopping.Total(toMerge(*it).Sources, system); ok {
		it.Quantity, it.Unit = &q, u
	} else {
		it.Quantity, it.Unit = nil, ""
	}
}

// ---- lists

func (s *Server) listShoppingLists(c *fiber.Ctx) error {
	lists, err := repo.ListShoppingLists(c.UserContext(), s.DB, caller(c).ID)
	if err != nil {
		return err
	}
	out := make([]ShoppingList, len(lists))
	for i, l := range lists {
		out[i] = shoppingListView(l)
	}
	return c.JSON(fiber.Map{"items": out})
}

func unitSystemField(fe fieldErrors, v string) string {
	if v == "" {
		return shopping.AsWritten
	}
	if !slices.Contains(shopping.Systems, v) {
		fe.add("unitSystem", "must be one of %s", strings.Join(shopping.Systems, ", "))
	}
	return v
}

func (s *Server) createShoppingList(c *fiber.Ctx) error {
	var b struct {
		Name       string `json:"name"`
		UnitSystem string `json:"unitSystem"`
	}
	if err := decodeJSON(c, &b); err != nil {
		return err
	}
	fe := fieldErrors{}
	name, system := nameField(fe, b.Name), unitSystemField(fe, b.UnitSystem)
	if err := fe.err(); err != nil {
		return err
	}
	id, err := repo.CreateShoppingList(c.UserContext(), s.DB, caller(c).ID, name, system)
	if err != nil {
		return err
	}
	return s.writeList(c, id, fiber.StatusCreated)
}

// editableList returns the list named by :id if the caller is on it (404
// otherwise); ownerOnly makes it 403 for members.
func (s *Server) editableList(c *fiber.Ctx, db repo.DBTX, ownerOnly bool) (repo.ShoppingList, error) {
	id, err := uuidParam(c, "id", "shopping list")
	if err != nil {
		return repo.ShoppingList{}, err
	}
	var l repo.ShoppingList
	if tx, ok := db.(pgx.Tx); ok {
		l, err = repo.LockShoppingList(c.UserContext(), tx, id, caller(c).ID)
	} else {
		l, err = repo.GetShoppingList(c.UserContext(), db, id, caller(c).ID)
	}
	if errors.Is(err, repo.ErrNotFound) {
		return l, errNotFound("shopping list")
	}
	if err == nil && ownerOnly && l.OwnerID != caller(c).ID {
		return l, errForbidden("only the list's owner may do this")
	}
	return l, err
}

// wholeList reads the list with its items as the caller sees it now.
func (s *Server) wholeList(c *fiber.Ctx, listID uuid.UUID) (ShoppingList, error) {
	ctx := c.UserContext()
	l, err := repo.GetShoppingList(ctx, s.DB, listID, caller(c).ID)
	if err != nil {
		return ShoppingList{}, err
	}
	items, err := repo.ListShoppingItems(ctx, s.DB, listID, false)
	if err != nil {
		return ShoppingList{}, err
	}
	v := shoppingListView(l)
	v.Items = make([]ShoppingItem, len(items))
	for i, it := range items {
		v.Items[i] = shoppingItemView(it)
	}
	return v, nil
}

// writeList answers with the whole list as it is now.
func (s *Server) writeList(c *fiber.Ctx, listID uuid.UUID, status int) error {
	v, err := s.wholeList(c, listID)
	if err != nil {
		return err
	}
	return c.Status(status).JSON(v)
}

func (s *Server) getShoppingList(c *fiber.Ctx) error {
	l, err := s.editableList(c, s.DB, false)
	if err != nil {
		return err
	}
	return s.writeList(c, l.ID, fiber.StatusOK)
}

// updateShoppingList answers PATCH /api/shopping-lists/:id {name?,
// unitSystem?} (owner only). A new unit system shows every amount anew.
func (s *Server) updateShoppingList(c *fiber.Ctx) error {
	var b struct {
		Name       *string `json:"name"`
		UnitSystem *string `json:"unitSystem"`
	}
	if err := decodeJSON(c, &b); err != nil {
		return err
	}
	return s.inTx(c, func(tx pgx.Tx) (uuid.UUID, error) {
		l, err := s.editableList(c, tx, true)
		if err != nil {
			return uuid.Nil, err
		}
		fe := fieldErrors{}
		name, system := l.Name, l.UnitSystem
		if b.Name != nil {
			name = nameField(fe, *b.Name)
		}
		if b.UnitSystem != nil {
			if system = *b.UnitSystem; !slices.Contains(shopping.Systems, system) {
				fe.add("unitSystem", "must be one of %s", strings.Join(shopping.Systems, ", "))
			}
		}
		if err := fe.err(); err != nil {
			return uuid.Nil, err
		}
		ctx := c.UserContext()
		if err := repo.UpdateShoppingList(ctx, tx, l.ID, name, system); err != nil {
			return uuid.Nil, err
		}
		if system != l.UnitSystem {
			items, err := repo.ListShoppingItems(ctx, tx, l.ID, false)
			if err != nil {
				return uuid.Nil, err
			}
			for i := range items {
				withTotal(&items[i], system)
			}
			if err := repo.SaveShoppingItems(ctx, tx, items, false); err != nil {
				return uuid.Nil, err
			}
		}
		return l.ID, nil
	})
}

// inTx runs fn in a transaction and answers with the list whose id it returns.
func (s *Server) inTx(c *fiber.Ctx, fn func(tx pgx.Tx) (uuid.UUID, error)) error {
	var id uuid.UUID
	err := pgx.BeginFunc(c.UserContext(), s.DB, func(tx pgx.Tx) error {
		var err error
		id, err = fn(tx)
		return err
	})
	if err != nil {
		return err
	}
	return s.writeList(c, id, fiber.StatusOK)
}

func (s *Server) deleteShoppingList(c *fiber.Ctx) error {
	l, err := s.editableList(c, s.DB, true)
	if err != nil {
		return err
	}
	if err := repo.DeleteShoppingList(c.UserContext(), s.DB, l.ID); err != nil && !errors.Is(err, repo.ErrNotFound) {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

func (s *Server) addShoppingListMember(c *fiber.Ctx) error {
	l, err := s.editableList(c, s.DB, true)
	if err != nil {
		return err
	}
	u, err := s.shareRecipient(c, l.OwnerID, ownerIsMember)
	if err != nil {
		return err
	}
	created, err := repo.AddShoppingListMember(c.UserContext(), s.DB, l.ID, u.ID)
	if err != nil {
		return err
	}
	return s.writeList(c, l.ID, createdStatus(created))
}

// removeShoppingListMember: the owner removes anyone, a member themselves.
func (s *Server) removeShoppingListMember(c *fiber.Ctx) error {
	l, err := s.editableList(c, s.DB, false)
	if err != nil {
		return err
	}
	userID, err := uuidParam(c, "userId", "member")
	if err != nil {
		return err
	}
	if me := caller(c).ID; me != l.OwnerID && me != userID {
		return errForbidden("only the list's owner may remove other members")
	}
	err = repo.RemoveShoppingListMember(c.UserContext(), s.DB, l.ID, userID)
	if errors.Is(err, repo.ErrNotFound) {
		return errNotFound("member")
	}
	if err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

// ---- items and their changes

// itemChange is one change to an item: the body of POST /items (op add),
// PATCH /items/:itemId (op update), and an element of POST /changes.
type itemChange struct {
	Op       string     `json:"op"`
	ID       *uuid.UUID `json:"id"`
	Text     *string    `json:"text"`
	Checked  *bool      `json:"checked"`
	Aisle    *string    `json:"aisle"`
	Quantity *float64   `json:"quantity"`
	Unit     *string    `json:"unit"`
	At       *time.Time `json:"at"`
	// amountSet is whether quantity was sent (null clears it).
	amountSet bool
}

// Outcomes of a change.
const (
	changeApplied = "applied"
	changeStale   = "stale"   // an item changed later than this change was made
	changeDeleted = "deleted" // the item is deleted and stays so
)

// validateChange checks a change's fields; prefix names the change in
// field errors of a batch ("changes[3].").
func validateChange(fe fieldErrors, prefix string, ch *itemChange) {
	if !slices.Contains([]string{"add", "update", "delete"}, ch.Op) {
		fe.add(prefix+"op", "must be add, update or delete")
	}
	if ch.Op != "add" && ch.ID == nil {
		fe.add(prefix+"id", "is required")
	}
	if ch.Text != nil {
		t := strings.TrimSpace(*ch.Text)
		ch.Text = &t
		if t == "" {
			fe.add(prefix+"text", "must not be empty")
		} else if utf8.RuneCountInString(t) > planTextMax {
			fe.add(prefix+"text", "must be at most %d characters", planTextMax)
		}
	} else if ch.Op == "add" {
		fe.add(prefix+"text", "is required")
	}
	if ch.Aisle != nil && !shopping.IsAisle(*ch.Aisle) {
		fe.add(prefix+"aisle", "must be one of %s", strings.Join(shopping.Aisles, ", "))
	}
	if ch.Quantity != nil && (*ch.Quantity <= 0 || *ch.Quantity > 1e6) {
		fe.add(prefix+"quantity", "must be more than 0 and at most 1000000")
	}
	if ch.Unit != nil && utf8.RuneCountInString(*ch.Unit) > 20 {
		fe.add(prefix+"unit", "must be at most 20 characters")
	}
}

// applyChange applies one validated change to the list inside tx under the
// conflict rule, and returns its outcome and the item as it now is.
func (s *Server) applyChange(c *fiber.Ctx, tx pgx.Tx, l repo.ShoppingList, ch itemChange, now time.Time) (string, repo.ShoppingItem, error) {
	ctx, me := c.UserContext(), caller(c)
	at := now
	if ch.At != nil && ch.At.Before(now) {
		at = *ch.At
	}
	var cur repo.ShoppingItem
	var err error
	if ch.ID != nil {
		cur, err = repo.GetShoppingItem(ctx, tx, l.ID, *ch.ID)
		if err != nil && !errors.Is(err, repo.ErrNotFound) {
			return "", cur, err
		}
	}
	exists := err == nil && ch.ID != nil
	switch {
	case ch.Op == "add" && exists:
		// Replayed: the add arrived before (a retry after a lost answer).
		return changeApplied, cur, nil
	case ch.Op != "add" && !exists:
		return "", cur, errNotFound("item")
	case exists && cur.DeletedAt != nil:
		return changeDeleted, cur, nil
	case exists && at.Before(cur.ChangedAt):
		return changeStale, cur, nil
	}
	if ch.Op == "add" {
		if l.Items >= itemsMax {
			return "", cur, errConflict("a list holds at most %d items: clear the checked ones first", itemsMax)
		}
		id := uuid.New()
		if ch.ID != nil {
			id = *ch.ID
		}
		pos, err := repo.NextItemPosition(ctx, tx, l.ID)
		if err != nil {
			return "", cur, err
		}
		saved, err := repo.AisleCorrections(ctx, tx, me.ID)
		if err != nil {
			return "", cur, err
		}
		corrections := shopping.SavedCorrections(saved)
		// What is typed stays as typed: one item, never merged into another
		// (its id may be the client's, which an offline device refers to).
		// Its name is the food the reader finds ("2 l milk" → milk, 2 l);
		// the line as typed stays in its source.
		add := shopping.ManualAddition(*ch.Text)
		text := *ch.Text
		if add.Food != "" {
			text = add.Food
		}
		cur = repo.ShoppingItem{ID: id, ListID: l.ID, Text: text, Food: shopping.FoodKey(add.Food), Position: pos,
			Sources: []repo.ItemSource{repo.ItemSource(add.Source)}}
		cur.Aisle = shopping.Aisle(cur.Food, corrections)
		l.Items++
	}
	sources := ch.Op == "add"
	if ch.Op == "delete" {
		cur.DeletedAt = &at
	}
	if ch.Text != nil && ch.Op != "add" {
		cur.Text = *ch.Text
	}
	if ch.Checked != nil {
		cur.Checked = *ch.Checked
	}
	if ch.Aisle != nil {
		cur.Aisle = *ch.Aisle
		if cur.Food != "" {
			if err := repo.SetAisleCorrection(ctx, tx, me.ID, cur.Food, cur.Aisle); err != nil {
				return "", cur, err
			}
		}
	}
	if ch.amountSet || ch.Unit != nil {
		// An amount typed over a merged one replaces its sources: the item
		// is now what the user says it is.
		unit := cur.Unit
		if ch.Unit != nil {
			unit = strings.TrimSpace(*ch.Unit)
		}
		q := cur.Quantity
		if ch.amountSet {
			q = ch.Quantity
		}
		cur.Sources = []repo.ItemSource{{Line: cur.Text, Quantity: q, Unit: unit}}
		sources = true
	}
	withTotal(&cur, l.UnitSystem)
	cur.ChangedAt = at
	if err := repo.SaveShoppingItem(ctx, tx, cur, sources); err != nil {
		if errors.Is(err, repo.ErrConflict) {
			return "", cur, errConflict("the id %s is taken", cur.ID)
		}
		return "", cur, err
	}
	return changeApplied, cur, nil
}

// decodeChange reads one change body, noting whether quantity was sent.
func decodeChange(c *fiber.Ctx, op string) (itemChange, error) {
	var ch itemChange
	if err := decodeJSON(c, &ch); err != nil {
		return ch, err
	}
	var raw map[string]any
	_ = decodeJSON(c, &raw)
	_, ch.amountSet = raw["quantity"]
	ch.Op = op
	return ch, nil
}

// itemAnswer is the answer to a single item change.
type itemAnswer struct {
	Result string       `json:"result"`
	Item   ShoppingItem `json:"item"`
}

func (s *Server) oneChange(c *fiber.Ctx, ch itemChange, created bool) error {
	fe := fieldErrors{}
	validateChange(fe, "", &ch)
	if err := fe.err(); err != nil {
		return err
	}
	var result string
	var item repo.ShoppingItem
	err := pgx.BeginFunc(c.UserContext(), s.DB, func(tx pgx.Tx) error {
		l, err := s.editableList(c, tx, false)
		if err != nil {
			return err
		}
		result, item, err = s.applyChange(c, tx, l, ch, time.Now())
		if err == nil {
			err = repo.TouchShoppingList(c.UserContext(), tx, l.ID)
		}
		return err
	})
	if err != nil {
		return err
	}
	status := fiber.StatusOK
	if created && result == changeApplied {
		status = fiber.StatusCreated
	}
	if ch.Op == "delete" && result == changeApplied {
		return c.SendStatus(fiber.StatusNoContent)
	}
	return c.Status(status).JSON(itemAnswer{Result: result, Item: shoppingItemView(item)})
}

// addShoppingItem answers POST /api/shopping-lists/:id/items {id?, text, at?}.
func (s *Server) addShoppingItem(c *fiber.Ctx) error {
	ch, err := decodeChange(c, "add")
	if err != nil {
		return err
	}
	return s.oneChange(c, ch, true)
}

func (s *Server) itemIDParam(c *fiber.Ctx, ch *itemChange) error {
	id, err := uuidParam(c, "itemId", "item")
	ch.ID = &id
	return err
}

// updateShoppingItem answers PATCH /api/shopping-lists/:id/items/:itemId.
func (s *Server) updateShoppingItem(c *fiber.Ctx) error {
	ch, err := decodeChange(c, "update")
	if err != nil {
		return err
	}
	if err := s.itemIDParam(c, &ch); err != nil {
		return err
	}
	return s.oneChange(c, ch, false)
}

// deleteShoppingItem answers DELETE /api/shopping-lists/:id/items/:itemId[?at=].
func (s *Server) deleteShoppingItem(c *fiber.Ctx) error {
	ch := itemChange{Op: "delete"}
	if v := c.Query("at"); v != "" {
		at, err := time.Parse(time.RFC3339Nano, v)
		if err != nil {
			fe := fieldErrors{}
			fe.add("at", "must be a time as RFC 3339")
			return fe.err()
		}
		ch.At = &at
	}
	if err := s.itemIDParam(c, &ch); err != nil {
		return err
	}
	return s.oneChange(c, ch, false)
}

// ChangeResult is the outcome of one change of POST /changes.
type ChangeResult struct {
	ID     uuid.UUID `json:"id"`
	Result string    `json:"result"`
}

// applyShoppingChanges answers POST /api/shopping-lists/:id/changes
// {changes: [...]}: the changes a device queued while offline, applied in
// order under the conflict rule, all or nothing. The answer holds each
// change's outcome and the list as it now is.
func (s *Server) applyShoppingChanges(c *fiber.Ctx) error {
	var b struct {
		Changes []itemChange `json:"changes"`
	}
	if err := decodeJSON(c, &b); err != nil {
		return err
	}
	var raw struct {
		Changes []map[string]any `json:"changes"`
	}
	_ = decodeJSON(c, &raw)
	fe := fieldErrors{}
	if len(b.Changes) > changesMax {
		fe.add("changes", "at most %d changes at once", changesMax)
	}
	for i := range b.Changes {
		if i < len(raw.Changes) {
			_, b.Changes[i].amountSet = raw.Changes[i]["quantity"]
		}
		validateChange(fe, "changes["+strconv.Itoa(i)+"].", &b.Changes[i])
	}
	if err := fe.err(); err != nil {
		return err
	}
	results := make([]ChangeResult, 0, len(b.Changes))
	var listID uuid.UUID
	err := pgx.BeginFunc(c.UserContext(), s.DB, func(tx pgx.Tx) error {
		l, err := s.editableList(c, tx, false)
		if err != nil {
			return err
		}
		listID = l.ID
		now := time.Now()
		for _, ch := range b.Changes {
			result, item, err := s.applyChange(c, tx, l, ch, now)
			var apiErr *Error
			if errors.As(err, &apiErr) && apiErr.Status == fiber.StatusNotFound {
				// An item this list never had (or another list's): nothing to
				// apply; the device drops the change.
				result, err = changeDeleted, nil
				item.ID = *ch.ID
			}
			if err != nil {
				return err
			}
			if ch.Op == "add" {
				l.Items++
			}
			results = append(results, ChangeResult{ID: item.ID, Result: result})
		}
		return repo.TouchShoppingList(c.UserContext(), tx, l.ID)
	})
	if err != nil {
		return err
	}
	v, err := s.wholeList(c, listID)
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"results": results, "list": v})
}

// reorderShoppingItems answers POST /api/shopping-lists/:id/reorder {ids}:
// the items in that order first, the others after them as they were.
func (s *Server) reorderShoppingItems(c *fiber.Ctx) error {
	var b struct {
		IDs []uuid.UUID `json:"ids"`
	}
	if err := decodeJSON(c, &b); err != nil {
		return err
	}
	if len(b.IDs) > itemsMax {
		return errInvalid("ids: at most %d", itemsMax)
	}
	return s.inTx(c, func(tx pgx.Tx) (uuid.UUID, error) {
		l, err := s.editableList(c, tx, false)
		if err != nil {
			return uuid.Nil, err
		}
		ctx := c.UserContext()
		items, err := repo.ListShoppingItems(ctx, tx, l.ID, false)
		if err != nil {
			return uuid.Nil, err
		}
		rank := map[uuid.UUID]int{}
		for i, id := range b.IDs {
			if _, dup := rank[id]; dup {
				fe := fieldErrors{}
				fe.add("ids", "names %s twice", id)
				return uuid.Nil, fe.err()
			}
			rank[id] = i
		}
		known := 0
		for _, it := range items {
			if _, ok := rank[it.ID]; ok {
				known++
			}
		}
		if known != len(b.IDs) {
			fe := fieldErrors{}
			fe.add("ids", "must name items of this list")
			return uuid.Nil, fe.err()
		}
		slices.SortStableFunc(items, func(a, b repo.ShoppingItem) int {
			ra, aok := rank[a.ID]
			rb, bok := rank[b.ID]
			switch {
			case aok && bok:
				return ra - rb
			case aok:
				return -1
			case bok:
				return 1
			}
			return 0
		})
		var moved []repo.ShoppingItem
		for i, it := range items {
			if it.Position != i {
				it.Position = i
				moved = append(moved, it)
			}
		}
		if err := repo.SaveShoppingItems(ctx, tx, moved, false); err != nil {
			return uuid.Nil, err
		}
		return l.ID, repo.TouchShoppingList(ctx, tx, l.ID)
	})
}

func (s *Server) clearCheckedItems(c *fiber.Ctx) error {
	return s.inTx(c, func(tx pgx.Tx) (uuid.UUID, error) {
		l, err := s.editableList(c, tx, false)
		if err != nil {
			return uuid.Nil, err
		}
		if _, err := repo.ClearCheckedItems(c.UserContext(), tx, l.ID, time.Now()); err != nil {
			return uuid.Nil, err
		}
		return l.ID, repo.TouchShoppingList(c.UserContext(), tx, l.ID)
	})
}

// ---- recipes and plans

// recipeAdditions reads a recipe's ingredient lines scaled to servings
// (nil: as written) into additions for the list.
func recipeAdditions(rec repo.Recipe, servings *float64) []shopping.Addition {
	factor := 1.0
	if servings != nil && rec.Servings != nil && *rec.Servings > 0 {
		factor = *servings / float64(*rec.Servings)
	}
	var out []shopping.Addition
	for _, sec := range rec.IngredientSections {
		for _, it := range sec.Items {
			a := shopping.AdditionFromLine(it.Text, factor, &rec.ID, rec.Title, servings)
			if a.Food == "" && a.Source.Quantity == nil && strings.HasSuffix(strings.TrimSpace(it.Text), ":") {
				continue // a heading ("For the sauce:") pasted among the lines
			}
			out = append(out, a)
		}
	}
	return out
}

// mergeInto merges additions into the list's unchecked items and stores
// what changed, inside tx (the list is locked).
func (s *Server) mergeInto(c *fiber.Ctx, tx pgx.Tx, l repo.ShoppingList, additions []shopping.Addition) error {
	ctx, me := c.UserContext(), caller(c)
	stored, err := repo.ListShoppingItems(ctx, tx, l.ID, false)
	if err != nil {
		return err
	}
	saved, err := repo.AisleCorrections(ctx, tx, me.ID)
	if err != nil {
		return err
	}
	corrections := shopping.SavedCorrections(saved)
	items := make([]*shopping.Item, len(stored))
	byID := map[uuid.UUID]repo.ShoppingItem{}
	for i, it := range stored {
		items[i] = toMerge(it)
		byID[it.ID] = it
	}
	pos, err := repo.NextItemPosition(ctx, tx, l.ID)
	if err != nil {
		return err
	}
	now := time.Now()
	touched := shopping.Merge(items, additions, corrections, uuid.New)
	created := 0
	for _, it := range touched {
		if _, ok := byID[it.ID]; !ok {
			created++
		}
	}
	if len(stored)+created > itemsMax {
		return errConflict("the list would hold %d items, more than the %d a list may: clear the checked ones first", len(stored)+created, itemsMax)
	}
	rows := make([]repo.ShoppingItem, 0, len(touched))
	for _, it := range touched {
		row, ok := byID[it.ID]
		if !ok {
			row = repo.ShoppingItem{ID: it.ID, ListID: l.ID, Text: it.Text, Food: it.Food, Aisle: it.Aisle, Position: pos}
			pos++
		}
		row.Sources = row.Sources[:0:0]
		for _, src := range it.Sources {
			row.Sources = append(row.Sources, repo.ItemSource(src))
		}
		withTotal(&row, l.UnitSystem)
		row.ChangedAt = now
		rows = append(rows, row)
	}
	if err := repo.SaveShoppingItems(ctx, tx, rows, true); err != nil {
		return err
	}
	return repo.TouchShoppingList(ctx, tx, l.ID)
}

// addRecipeToList answers POST /api/shopping-lists/:id/recipes {recipeId,
// servings?}: the recipe's lines scaled to servings (default: as written).
func (s *Server) addRecipeToList(c *fiber.Ctx) error {
	var b struct {
		RecipeID string   `json:"recipeId"`
		Servings *float64 `json:"servings"`
	}
	if err := decodeJSON(c, &b); err != nil {
		return err
	}
	fe := fieldErrors{}
	var rec repo.Recipe
	if id, err := uuid.Parse(b.RecipeID); err != nil {
		fe.add("recipeId", "must be the id of a recipe you can read")
	} else if rec, err = repo.GetRecipe(c.UserContext(), s.DB, id, viewer(c)); errors.Is(err, repo.ErrNotFound) {
		fe.add("recipeId", "must be the id of a recipe you can read")
	} else if err != nil {
		return err
	}
	if b.Servings != nil && (*b.Servings <= 0 || *b.Servings > planServingMax) {
		fe.add("servings", "must be more than 0 and at most %d", planServingMax)
	}
	if err := fe.err(); err != nil {
		return err
	}
	return s.inTx(c, func(tx pgx.Tx) (uuid.UUID, error) {
		l, err := s.editableList(c, tx, false)
		if err != nil {
			return uuid.Nil, err
		}
		return l.ID, s.mergeInto(c, tx, l, recipeAdditions(rec, b.Servings))
	})
}

// addPlanToList answers POST /api/shopping-lists/:id/plan {planId?, from,
// to}: every recipe of the plan's range (that the caller may read), each
// at the servings it is planned for.
func (s *Server) addPlanToList(c *fiber.Ctx) error {
	var b struct {
		PlanID string `json:"planId"`
		From   string `json:"from"`
		To     string `json:"to"`
	}
	if err := decodeJSON(c, &b); err != nil {
		return err
	}
	fe := fieldErrors{}
	from, to := dayRange(fe, b.From, b.To, planRangeMax)
	if err := fe.err(); err != nil {
		return err
	}
	plan, err := s.planFor(c, b.PlanID)
	if err != nil {
		return err
	}
	ctx := c.UserContext()
	planned, err := repo.ListPlannedRecipes(ctx, s.DB, plan.ID, from, to, viewer(c))
	if err != nil {
		return err
	}
	var additions []shopping.Addition
	recipes := map[uuid.UUID]repo.Recipe{}
	for _, p := range planned {
		rec, ok := recipes[p.RecipeID]
		if !ok {
			if rec, err = repo.GetRecipe(ctx, s.DB, p.RecipeID, viewer(c)); err != nil {
				if errors.Is(err, repo.ErrNotFound) {
					continue // made invisible meanwhile
				}
				return err
			}
			recipes[p.RecipeID] = rec
		}
		additions = append(additions, recipeAdditions(rec, p.Servings)...)
	}
	return s.inTx(c, func(tx pgx.Tx) (uuid.UUID, error) {
		l, err := s.editableList(c, tx, false)
		if err != nil {
			return uuid.Nil, err
		}
		return l.ID, s.mergeInto(c, tx, l, additions)
	})
}

// removeRecipeFromList answers DELETE /api/shopping-lists/:id/recipes/:recipeId:
// the recipe's share of every item goes; items that were only its go too.
func (s *Server) removeRecipeFromList(c *fiber.Ctx) error {
	recipeID, err := uuidParam(c, "recipeId", "recipe")
	if err != nil {
		return err
	}
	return s.inTx(c, func(tx pgx.Tx) (uuid.UUID, error) {
		l, err := s.editableList(c, tx, false)
		if err != nil {
			return uuid.Nil, err
		}
		ctx := c.UserContext()
		stored, err := repo.ListShoppingItems(ctx, tx, l.ID, false)
		if err != nil {
			return uuid.Nil, err
		}
		items := make([]*shopping.Item, len(stored))
		byID := map[uuid.UUID]repo.ShoppingItem{}
		for i, it := range stored {
			items[i] = toMerge(it)
			byID[it.ID] = it
		}
		changed, gone := shopping.RemoveRecipe(items, recipeID)
		if len(changed)+len(gone) == 0 {
			return uuid.Nil, errNotFound("recipe on this list")
		}
		now := time.Now()
		var kept, dropped []repo.ShoppingItem
		for _, it := range changed {
			row := byID[it.ID]
			row.Sources = row.Sources[:0:0]
			for _, src := range it.Sources {
				row.Sources = append(row.Sources, repo.ItemSource(src))
			}
			withTotal(&row, l.UnitSystem)
			row.ChangedAt = now
			kept = append(kept, row)
		}
		for _, it := range gone {
			row := byID[it.ID]
			row.DeletedAt, row.ChangedAt = &now, now
			dropped = append(dropped, row)
		}
		if err := repo.SaveShoppingItems(ctx, tx, kept, true); err != nil {
			return uuid.Nil, err
		}
		if err := repo.SaveShoppingItems(ctx, tx, dropped, false); err != nil {
			return uuid.Nil, err
		}
		return l.ID, repo.TouchShoppingList(ctx, tx, l.ID)
	})
}
