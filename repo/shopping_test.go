package repo_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/uuid"

	"larder/repo"
	"larder/repo/repotest"
)

func TestShoppingListAccessAndItems(t *testing.T) {
	t.Parallel()
	db := repotest.Tx(t)
	ctx := context.Background()
	owner := repotest.CreateUser(t, db, repo.RoleUser)
	member := repotest.CreateUser(t, db, repo.RoleUser)
	stranger := repotest.CreateUser(t, db, repo.RoleAdmin)
	listID, err := repo.CreateShoppingList(ctx, db, owner.ID, "Week", "metric")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := repo.AddShoppingListMember(ctx, db, listID, member.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := repo.GetShoppingList(ctx, db, listID, stranger.ID); !errors.Is(err, repo.ErrNotFound) {
		t.Fatalf("an administrator who is not on the list reads it: %v", err)
	}
	lists, err := repo.ListShoppingLists(ctx, db, member.ID)
	if err != nil || len(lists) != 1 || len(lists[0].Members) != 1 {
		t.Fatalf("member's lists: %+v %v", lists, err)
	}

	q := 240.0
	it := repo.ShoppingItem{ID: uuid.New(), ListID: listID, Text: "milk", Food: "milk", Quantity: &q, Unit: "ml", Aisle: "dairy", ChangedAt: time.Now(),
		Sources: []repo.ItemSource{{Line: "1 cup milk", Quantity: ptr(1.0), Unit: "cup"}, {Line: "2 tbsp milk", Quantity: ptr(2.0), Unit: "tbsp"}}}
	if err := repo.SaveShoppingItem(ctx, db, it, true); err != nil {
		t.Fatal(err)
	}
	got, err := repo.GetShoppingItem(ctx, db, listID, it.ID)
	if err != nil || len(got.Sources) != 2 || got.Sources[0].Line != "1 cup milk" || got.Sources[1].Unit != "tbsp" {
		t.Fatalf("item: %+v %v", got, err)
	}
	// The same id on another list is refused, not taken over.
	other, _ := repo.CreateShoppingList(ctx, db, member.ID, "Mine", "us")
	it2 := it
	it2.ListID = other
	if err := repo.SaveShoppingItem(ctx, db, it2, false); !errors.Is(err, repo.ErrConflict) {
		t.Fatalf("id of another list's item: %v", err)
	}
	// Cleared items keep their row, deleted.
	got.Checked = true
	if err := repo.SaveShoppingItem(ctx, db, got, false); err != nil {
		t.Fatal(err)
	}
	if n, err := repo.ClearCheckedItems(ctx, db, listID, time.Now()); err != nil || n != 1 {
		t.Fatalf("cleared %d: %v", n, err)
	}
	if items, _ := repo.ListShoppingItems(ctx, db, listID, false); len(items) != 0 {
		t.Fatalf("cleared item still listed: %+v", items)
	}
	if gone, err := repo.GetShoppingItem(ctx, db, listID, it.ID); err != nil || gone.DeletedAt == nil {
		t.Fatalf("tombstone: %+v %v", gone, err)
	}
	// Aisle corrections are per user.
	if err := repo.SetAisleCorrection(ctx, db, owner.ID, "milk", "drinks"); err != nil {
		t.Fatal(err)
	}
	if c, _ := repo.AisleCorrections(ctx, db, member.ID); len(c) != 0 {
		t.Fatalf("another user's corrections: %v", c)
	}
	if c, _ := repo.AisleCorrections(ctx, db, owner.ID); c["milk"] != "drinks" {
		t.Fatalf("corrections: %v", c)
	}
}
