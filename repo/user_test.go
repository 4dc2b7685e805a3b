package repo_test

import (
	"context"
	"errors"
	"testing"

	"github.com/google/uuid"

	"larder/repo"
	"larder/repo/repotest"
)

func TestUserIdentityAndLinking(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tx := repotest.Tx(t)
	hash := "$2a$04$x"
	verified, err := repo.CreateUser(ctx, tx, repo.CreateUserParams{Email: "v@example.test", PasswordHash: &hash, EmailVerified: true})
	if err != nil {
		t.Fatal(err)
	}
	unverified, err := repo.CreateUser(ctx, tx, repo.CreateUserParams{Email: "u@example.test", PasswordHash: &hash})
	if err != nil {
		t.Fatal(err)
	}
	if verified.Provider() != "local" {
		t.Errorf("provider %q", verified.Provider())
	}

	l1, err := repo.LinkUserIdentity(ctx, tx, verified.ID, "acme", "s1")
	if err != nil || l1.PasswordHash == nil || l1.Provider() != "acme" {
		t.Fatalf("link verified account: %+v %v", l1, err)
	}
	// An unverified account loses the password of whoever registered it.
	l2, err := repo.LinkUserIdentity(ctx, tx, unverified.ID, "acme", "s2")
	if err != nil || l2.PasswordHash != nil || !l2.EmailVerified {
		t.Fatalf("link unverified account: %+v %v", l2, err)
	}
	got, err := repo.GetUserByIdentity(ctx, tx, "acme", "s2")
	if err != nil || got.ID != unverified.ID {
		t.Fatalf("by identity: %+v %v", got, err)
	}
	if _, err := repo.GetUserByIdentity(ctx, tx, "other", "s2"); !errors.Is(err, repo.ErrNotFound) {
		t.Fatalf("other provider: %v", err)
	}
	// One subject, one account.
	if _, err := repo.LinkUserIdentity(ctx, tx, verified.ID, "acme", "s2"); !errors.Is(err, repo.ErrConflict) {
		t.Fatalf("subject linked twice: %v", err)
	}
}

func TestSetUserPasswordAndVerify(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tx := repotest.Tx(t)
	u, err := repo.CreateUser(ctx, tx, repo.CreateUserParams{Email: "p@example.test"})
	if err != nil {
		t.Fatal(err)
	}
	v, err := repo.MarkEmailVerified(ctx, tx, u.ID)
	if err != nil || !v.EmailVerified {
		t.Fatalf("verify: %+v %v", v, err)
	}
	p, err := repo.SetUserPassword(ctx, tx, u.ID, "$2a$04$new")
	if err != nil || p.PasswordHash == nil || *p.PasswordHash != "$2a$04$new" {
		t.Fatalf("set password: %+v %v", p, err)
	}
	if _, err := repo.MarkEmailVerified(ctx, tx, uuid.New()); !errors.Is(err, repo.ErrNotFound) {
		t.Fatalf("unknown user: %v", err)
	}
}

func TestSetUserRoleKeepsAnAdmin(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := repotest.DB(t)
	a := repotest.CreateUser(t, db, repo.RoleAdmin)
	u := repotest.CreateUser(t, db, repo.RoleUser)
	if _, err := repo.SetUserRole(ctx, db, a.ID, repo.RoleUser); !errors.Is(err, repo.ErrLastAdmin) {
		t.Fatalf("demote the last admin: %v", err)
	}
	if got, _ := repo.SetUserRole(ctx, db, u.ID, repo.RoleAdmin); got.Role != repo.RoleAdmin {
		t.Fatalf("promote: %+v", got)
	}
	if got, err := repo.SetUserRole(ctx, db, a.ID, repo.RoleUser); err != nil || got.Role != repo.RoleUser {
		t.Fatalf("demote one of two: %+v %v", got, err)
	}
	if _, err := repo.SetUserRole(ctx, db, uuid.New(), repo.RoleUser); !errors.Is(err, repo.ErrNotFound) {
		t.Fatalf("unknown user: %v", err)
	}
	// Setting ADMIN on the last admin is not a demotion.
	if _, err := repo.SetUserRole(ctx, db, u.ID, repo.RoleAdmin); err != nil {
		t.Fatal(err)
	}
}

func TestUpsertAdmin(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tx := repotest.Tx(t)
	u, created, err := repo.UpsertAdmin(ctx, tx, "boss@example.test", "Boss", "$2a$04$a")
	if err != nil || !created || u.Role != repo.RoleAdmin || !u.EmailVerified || u.Name != "Boss" {
		t.Fatalf("create: %+v %v %v", u, created, err)
	}
	again, created, err := repo.UpsertAdmin(ctx, tx, "BOSS@example.test", "", "$2a$04$b")
	if err != nil || created || again.ID != u.ID || again.Name != "Boss" || *again.PasswordHash != "$2a$04$b" || again.SessionVersion != u.SessionVersion+1 {
		t.Fatalf("promote: %+v %v %v", again, created, err)
	}
}

func TestListUsers(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tx := repotest.Tx(t)
	for range 3 {
		repotest.CreateUser(t, tx, repo.RoleUser)
	}
	repotest.CreateUser(t, tx, repo.RoleAdmin)
	page, total, err := repo.ListUsers(ctx, tx, repo.ListUsersParams{Limit: 3})
	if err != nil || total != 4 || len(page) != 3 {
		t.Fatalf("first page: %d of %d, %v", len(page), total, err)
	}
	last := page[2]
	rest, _, err := repo.ListUsers(ctx, tx, repo.ListUsersParams{Limit: 3, After: &repo.UserCursor{CreatedAt: last.CreatedAt, ID: last.ID}})
	if err != nil || len(rest) != 1 {
		t.Fatalf("second page: %d, %v", len(rest), err)
	}
	for _, p := range page {
		if p.ID == rest[0].ID {
			t.Fatal("a user on two pages")
		}
	}
	admins, total, _ := repo.ListUsers(ctx, tx, repo.ListUsersParams{Limit: 10, Role: repo.RoleAdmin})
	if total != 1 || len(admins) != 1 {
		t.Fatalf("admins: %d", total)
	}
	// q is a plain substring: LIKE wildcards match only themselves.
	if _, total, _ := repo.ListUsers(ctx, tx, repo.ListUsersParams{Limit: 10, Query: "%"}); total != 0 {
		t.Fatalf("q=%%: %d", total)
	}
}
