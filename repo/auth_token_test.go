package repo_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"larder/repo"
	"larder/repo/repotest"
)

func newRefresh(t *testing.T, db repo.DBTX, u repo.User, family uuid.UUID, hash string, expires time.Time) {
	t.Helper()
	if err := repo.CreateRefreshToken(context.Background(), db, repo.CreateRefreshTokenParams{
		ID: uuid.New(), UserID: u.ID, TokenHash: []byte(hash), FamilyID: family, ExpiresAt: expires,
	}); err != nil {
		t.Fatal(err)
	}
}

func TestRefreshTokenRotation(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tx := repotest.Tx(t)
	u := repotest.CreateUser(t, tx, repo.RoleUser)
	fam := uuid.New()
	newRefresh(t, tx, u, fam, "h1", time.Now().Add(time.Hour))
	newRefresh(t, tx, u, fam, "old", time.Now().Add(-time.Second))

	got, err := repo.RotateRefreshToken(ctx, tx, []byte("h1"), time.Now())
	if err != nil || got.UserID != u.ID || got.FamilyID != fam {
		t.Fatalf("rotate: %+v %v", got, err)
	}
	// Once only.
	if _, err := repo.RotateRefreshToken(ctx, tx, []byte("h1"), time.Now()); !errors.Is(err, repo.ErrNotFound) {
		t.Fatalf("second rotation: %v", err)
	}
	// The rotated row is kept, marked, to detect reuse.
	prev, err := repo.GetRefreshToken(ctx, tx, []byte("h1"))
	if err != nil || prev.RotatedAt == nil {
		t.Fatalf("rotated row: %+v %v", prev, err)
	}
	for _, h := range []string{"old", "unknown"} {
		if _, err := repo.RotateRefreshToken(ctx, tx, []byte(h), time.Now()); !errors.Is(err, repo.ErrNotFound) {
			t.Errorf("%s: %v", h, err)
		}
	}
	if _, err := repo.GetRefreshToken(ctx, tx, []byte("unknown")); !errors.Is(err, repo.ErrNotFound) {
		t.Fatalf("unknown: %v", err)
	}
}

// Of two requests racing with one token, exactly one rotates it.
func TestRefreshTokenRotationRace(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := repotest.DB(t)
	u := repotest.CreateUser(t, db, repo.RoleUser)
	newRefresh(t, db, u, uuid.New(), "race", time.Now().Add(time.Hour))
	var wg sync.WaitGroup
	var mu sync.Mutex
	wins := 0
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := repo.RotateRefreshToken(ctx, db, []byte("race"), time.Now()); err == nil {
				mu.Lock()
				wins++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if wins != 1 {
		t.Fatalf("%d rotations of one token", wins)
	}
}

func TestDeleteRefreshFamilyAndRevoke(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tx := repotest.Tx(t)
	u := repotest.CreateUser(t, tx, repo.RoleUser)
	f1, f2 := uuid.New(), uuid.New()
	newRefresh(t, tx, u, f1, "a1", time.Now().Add(time.Hour))
	newRefresh(t, tx, u, f1, "a2", time.Now().Add(time.Hour))
	newRefresh(t, tx, u, f2, "b1", time.Now().Add(time.Hour))
	n, err := repo.DeleteRefreshFamily(ctx, tx, []byte("a2"))
	if err != nil || n != 2 {
		t.Fatalf("delete family: %d %v", n, err)
	}
	if n, _ := repo.DeleteRefreshFamily(ctx, tx, []byte("a2")); n != 0 {
		t.Fatalf("second delete: %d", n)
	}
	if _, err := repo.GetRefreshToken(ctx, tx, []byte("b1")); err != nil {
		t.Fatalf("other family: %v", err)
	}
	after, err := repo.RevokeUserSessions(ctx, tx, u.ID)
	if err != nil || after.SessionVersion != u.SessionVersion+1 {
		t.Fatalf("revoke: %+v %v", after, err)
	}
	if _, err := repo.GetRefreshToken(ctx, tx, []byte("b1")); !errors.Is(err, repo.ErrNotFound) {
		t.Fatalf("token survived revocation: %v", err)
	}
	if _, err := repo.GetSessionUser(ctx, tx, u.ID, u.SessionVersion); !errors.Is(err, repo.ErrNotFound) {
		t.Fatal("old session version still accepted")
	}
}

func TestVerificationTokens(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tx := repotest.Tx(t)
	u := repotest.CreateUser(t, tx, repo.RoleUser)
	mk := func(hash, purpose string, expires time.Time) {
		t.Helper()
		if err := repo.CreateVerificationToken(ctx, tx, repo.CreateVerificationTokenParams{TokenHash: []byte(hash), UserID: u.ID, Purpose: purpose, ExpiresAt: expires}); err != nil {
			t.Fatal(err)
		}
	}
	later := time.Now().Add(time.Hour)
	mk("v1", repo.PurposeVerifyEmail, later)
	mk("r1", repo.PurposeResetPassword, later)
	mk("v2", repo.PurposeVerifyEmail, later) // supersedes v1, not r1

	use := func(hash, purpose string) error {
		_, err := repo.UseVerificationToken(ctx, tx, []byte(hash), purpose)
		return err
	}
	if err := use("v1", repo.PurposeVerifyEmail); !errors.Is(err, repo.ErrNotFound) {
		t.Errorf("superseded token: %v", err)
	}
	if err := use("r1", repo.PurposeVerifyEmail); !errors.Is(err, repo.ErrNotFound) {
		t.Errorf("token used for the wrong purpose: %v", err)
	}
	id, err := repo.UseVerificationToken(ctx, tx, []byte("v2"), repo.PurposeVerifyEmail)
	if err != nil || id != u.ID {
		t.Fatalf("use: %s %v", id, err)
	}
	if err := use("v2", repo.PurposeVerifyEmail); !errors.Is(err, repo.ErrNotFound) {
		t.Errorf("second use: %v", err)
	}
	mk("r2", repo.PurposeResetPassword, time.Now().Add(-time.Second))
	if err := use("r2", repo.PurposeResetPassword); !errors.Is(err, repo.ErrNotFound) {
		t.Errorf("expired token: %v", err)
	}
	mk("r3", repo.PurposeResetPassword, later)
	if err := repo.DeleteVerificationTokens(ctx, tx, u.ID, repo.PurposeResetPassword); err != nil {
		t.Fatal(err)
	}
	if err := use("r3", repo.PurposeResetPassword); !errors.Is(err, repo.ErrNotFound) {
		t.Errorf("deleted token: %v", err)
	}
	mk("r4", repo.PurposeResetPassword, later)
	if err := repo.DeleteVerificationToken(ctx, tx, []byte("r4")); err != nil {
		t.Fatal(err)
	}
	if err := use("r4", repo.PurposeResetPassword); !errors.Is(err, repo.ErrNotFound) {
		t.Errorf("deleted token: %v", err)
	}
}
