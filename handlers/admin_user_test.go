package handlers

import (
	"context"
	"net/url"
	"sync"
	"testing"

	"github.com/google/uuid"

	"larder/repo"
	"larder/repo/repotest"
)

func init() {
	addAuthz(
		authzCase{method: "GET", route: "/api/admin/users", want: ruleAdmin},
		authzCase{method: "PATCH", route: "/api/admin/users/:id", want: ruleAdmin,
			prepare: func(t *testing.T, b *testBundle, _ repo.User) (string, any) {
				target := repotest.CreateUser(t, b.db, repo.RoleUser)
				return "/api/admin/users/" + target.ID.String(), map[string]string{"role": "USER"}
			}},
	)
}

func TestAdminListUsers(t *testing.T) {
	t.Parallel()
	b := setup(t)
	_, adminTok := b.user(t, repo.RoleAdmin)
	var made []repo.User
	for range 4 {
		made = append(made, repotest.CreateUser(t, b.db, repo.RoleUser))
	}
	named, err := repo.CreateUser(context.Background(), b.db, repo.CreateUserParams{Email: "julia@kitchen.test", Name: "Julia Child"})
	if err != nil {
		t.Fatal(err)
	}

	// Walk every page of two.
	var seen []User
	cursor := ""
	for pages := 0; ; pages++ {
		if pages > 5 {
			t.Fatal("pagination does not end")
		}
		q := url.Values{"limit": {"2"}}
		if cursor != "" {
			q.Set("cursor", cursor)
		}
		r := b.do(t, "GET", "/api/admin/users?"+q.Encode(), nil, adminTok)
		wantStatus(t, r, 200)
		var page struct {
			Items      []User
			NextCursor *string
			Total      int
		}
		r.JSON(t, &page)
		if page.Total != 6 || len(page.Items) > 2 {
			t.Fatalf("page: total %d, %d items", page.Total, len(page.Items))
		}
		seen = append(seen, page.Items...)
		if page.NextCursor == nil {
			break
		}
		cursor = *page.NextCursor
	}
	if len(seen) != 6 {
		t.Fatalf("walked %d users, want 6", len(seen))
	}
	ids := map[uuid.UUID]bool{}
	for i, u := range seen {
		if ids[u.ID] {
			t.Fatalf("%s listed twice", u.ID)
		}
		ids[u.ID] = true
		if i > 0 && u.CreatedAt.After(seen[i-1].CreatedAt) {
			t.Fatal("not newest first")
		}
	}
	for _, u := range append(made, named) {
		if !ids[u.ID] {
			t.Fatalf("%s missing", u.Email)
		}
	}

	// Filters.
	var page struct {
		Items      []User
		Total      int
		NextCursor *string
	}
	b.do(t, "GET", "/api/admin/users?q=JULIA", nil, adminTok).JSON(t, &page)
	if page.Total != 1 || len(page.Items) != 1 || page.Items[0].ID != named.ID || page.NextCursor != nil {
		t.Fatalf("q=JULIA: %+v", page)
	}
	b.do(t, "GET", "/api/admin/users?q=kitchen.test", nil, adminTok).JSON(t, &page)
	if page.Total != 1 {
		t.Fatalf("q by email: %+v", page)
	}
	b.do(t, "GET", "/api/admin/users?role=ADMIN", nil, adminTok).JSON(t, &page)
	if page.Total != 1 || page.Items[0].Role != "ADMIN" {
		t.Fatalf("role=ADMIN: %+v", page)
	}
	b.do(t, "GET", "/api/admin/users?q=nobody-has-this", nil, adminTok).JSON(t, &page)
	if page.Total != 0 || page.Items == nil {
		t.Fatalf("empty result must be [], not null: %+v", page)
	}

	for _, q := range []string{"limit=0", "limit=101", "limit=x", "cursor=@@@", "cursor=" + url.QueryEscape("bm90IGEgY3Vyc29y"), "role=CHEF"} {
		if r := b.do(t, "GET", "/api/admin/users?"+q, nil, adminTok); r.Status != 400 || r.ErrorCode() != "validation_failed" {
			t.Errorf("%s: %d %s", q, r.Status, r.Body)
		}
	}
}

func TestAdminSetRole(t *testing.T) {
	t.Parallel()
	b := setup(t)
	root, rootTok := b.user(t, repo.RoleAdmin)
	u, userTok := b.user(t, repo.RoleUser)
	patch := func(id, role, tok string) response {
		return b.do(t, "PATCH", "/api/admin/users/"+id, map[string]string{"role": role}, tok)
	}

	// The last administrator cannot demote themselves.
	if r := patch(root.ID.String(), "USER", rootTok); r.Status != 409 || r.ErrorCode() != "conflict" {
		t.Fatalf("demoting the last admin: %d %s", r.Status, r.Body)
	}

	// Promote: the new role applies at once, with the token the user already has.
	r := patch(u.ID.String(), "ADMIN", rootTok)
	wantStatus(t, r, 200)
	var out struct{ User User }
	r.JSON(t, &out)
	if out.User.ID != u.ID || out.User.Role != "ADMIN" {
		t.Fatalf("promoted %+v", out.User)
	}
	wantStatus(t, b.do(t, "GET", "/api/admin/users", nil, userTok), 200)

	// With two administrators, one may step down; then the other is the last.
	wantStatus(t, patch(root.ID.String(), "USER", rootTok), 200)
	if r := b.do(t, "GET", "/api/admin/users", nil, rootTok); r.Status != 403 {
		t.Fatalf("demoted admin still admin: %d", r.Status)
	}
	if r := patch(u.ID.String(), "USER", userTok); r.Status != 409 {
		t.Fatalf("demoting the new last admin: %d", r.Status)
	}

	tests := []struct {
		id, role string
		status   int
	}{
		{uuid.NewString(), "USER", 404},
		{"not-a-uuid", "USER", 404},
		{root.ID.String(), "CHEF", 400},
		{root.ID.String(), "", 400},
	}
	for _, tt := range tests {
		if r := patch(tt.id, tt.role, userTok); r.Status != tt.status {
			t.Errorf("%s %q: %d %s", tt.id, tt.role, r.Status, r.Body)
		}
	}
}

// Two administrators demoting each other at the same moment: one wins, and
// an administrator remains.
func TestAdminConcurrentDemotions(t *testing.T) {
	t.Parallel()
	b := setup(t)
	a1, tok1 := b.user(t, repo.RoleAdmin)
	a2, tok2 := b.user(t, repo.RoleAdmin)
	var wg sync.WaitGroup
	statuses := make([]int, 2)
	for i, c := range []struct {
		target uuid.UUID
		tok    string
	}{{a2.ID, tok1}, {a1.ID, tok2}} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i] = b.do(t, "PATCH", "/api/admin/users/"+c.target.String(), map[string]string{"role": "USER"}, c.tok).Status
		}()
	}
	wg.Wait()
	var admins int
	_ = b.db.QueryRow(context.Background(), `SELECT count(*) FROM app_user WHERE role = 'ADMIN'`).Scan(&admins)
	if admins != 1 {
		t.Fatalf("%d admins left (statuses %v)", admins, statuses)
	}
}
