package handlers

import (
	"net/url"
	"strings"
	"testing"

	"larder/repo"
)

func TestRecipeShares(t *testing.T) {
	t.Parallel()
	b := setup(t)
	owner, ownerTok := b.user(t, repo.RoleUser)
	friend, friendTok := b.user(t, repo.RoleUser)
	second, _ := b.user(t, repo.RoleUser)
	rec := rcCreate(t, b, ownerTok, map[string]any{"title": "Family Lasagne", "visibility": "SHARED"})
	p := "/api/recipes/" + rec.ID.String()

	// Not shared yet: the friend cannot see it anywhere.
	if r := b.do(t, "GET", p, nil, friendTok); r.Status != 404 {
		t.Fatalf("before sharing: %d", r.Status)
	}
	// By email, ignoring case: 201 with the share, then 200 when repeated.
	r := b.do(t, "POST", p+"/shares", map[string]string{"email": " " + strings.ToUpper(friend.Email) + " "}, ownerTok)
	wantStatus(t, r, 201)
	var sh Share
	r.JSON(t, &sh)
	if sh.UserID != friend.ID || sh.Email != friend.Email || sh.CreatedAt.IsZero() {
		t.Fatalf("share %+v", sh)
	}
	wantStatus(t, b.do(t, "POST", p+"/shares", map[string]string{"email": friend.Email}, ownerTok), 200)
	wantStatus(t, b.do(t, "POST", p+"/shares", map[string]string{"email": second.Email}, ownerTok), 201)

	if got := rcGet(t, b, friendTok, rec.ID); got.Title != "Family Lasagne" {
		t.Fatalf("friend reads %+v", got)
	}
	if l := rcList(t, b, friendTok, url.Values{}); len(l.Items) != 1 || l.Items[0].ID != rec.ID {
		t.Fatalf("friend's list %+v", l.Items)
	}
	var page SharePage
	b.do(t, "GET", p+"/shares?limit=1", nil, ownerTok).JSON(t, &page)
	if page.Total != 2 || len(page.Items) != 1 || page.Items[0].UserID != friend.ID || page.NextCursor == nil {
		t.Fatalf("shares page 1 %+v", page)
	}
	b.do(t, "GET", p+"/shares?limit=1&cursor="+*page.NextCursor, nil, ownerTok).JSON(t, &page)
	if len(page.Items) != 1 || page.Items[0].UserID != second.ID || page.NextCursor != nil {
		t.Fatalf("shares page 2 %+v", page)
	}
	// The friend may read but not manage the shares: visible, not owned.
	if r := b.do(t, "GET", p+"/shares", nil, friendTok); r.Status != 403 {
		t.Fatalf("friend lists shares: %d", r.Status)
	}

	// Refusals.
	tests := []struct {
		body   any
		status int
		code   string
	}{
		{map[string]string{"email": owner.Email}, 400, "invalid_request"},
		{map[string]string{"email": "nobody@example.test"}, 404, "not_found"},
		{map[string]string{"email": ""}, 400, "validation_failed"},
		{map[string]int{"email": 3}, 400, "validation_failed"},
		{"", 400, "invalid_request"},
	}
	for _, tt := range tests {
		r := b.do(t, "POST", p+"/shares", tt.body, ownerTok)
		if r.Status != tt.status || r.ErrorCode() != tt.code {
			t.Errorf("%v: %d %s", tt.body, r.Status, r.Body)
		}
	}

	// Removing the share hides the recipe from the friend again.
	wantStatus(t, b.do(t, "DELETE", p+"/shares/"+friend.ID.String(), nil, ownerTok), 204)
	if r := b.do(t, "GET", p, nil, friendTok); r.Status != 404 {
		t.Fatalf("after unsharing: %d", r.Status)
	}
	if r := b.do(t, "DELETE", p+"/shares/"+friend.ID.String(), nil, ownerTok); r.Status != 404 {
		t.Fatalf("unsharing twice: %d", r.Status)
	}
	if r := b.do(t, "DELETE", p+"/shares/not-a-user", nil, ownerTok); r.Status != 404 {
		t.Fatalf("unsharing a bad id: %d", r.Status)
	}

	// A share counts only while the recipe is SHARED: PRIVATE hides it from
	// the recipient, PUBLIC shows it to everyone.
	body := map[string]any{"title": "Family Lasagne", "visibility": "PRIVATE"}
	wantStatus(t, b.do(t, "PUT", p, body, ownerTok), 200)
	secondTok, err := b.deps.Tokens.Access(second.ID, second.Role, second.SessionVersion)
	if err != nil {
		t.Fatal(err)
	}
	if r := b.do(t, "GET", p, nil, secondTok); r.Status != 404 {
		t.Fatalf("recipient of a PRIVATE recipe: %d", r.Status)
	}
	body["visibility"] = "SHARED"
	wantStatus(t, b.do(t, "PUT", p, body, ownerTok), 200)
	wantStatus(t, b.do(t, "GET", p, nil, secondTok), 200)

	// Deleting the recipe removes its shares.
	wantStatus(t, b.do(t, "DELETE", p, nil, ownerTok), 204)
	var n int
	if err := b.db.QueryRow(t.Context(), "SELECT count(*) FROM recipe_share").Scan(&n); err != nil || n != 0 {
		t.Fatalf("%d shares left", n)
	}
}
