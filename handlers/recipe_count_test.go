package handlers

import (
	"errors"
	"net/url"
	"testing"
	"time"

	"larder/repo"
)

// With the count cache, a total is reused until a write through the API
// drops it, and never outlives its TTL.
func TestRecipeCountCache(t *testing.T) {
	t.Parallel()
	b := setup(t, func(d *Deps) { d.RecipeCounts = NewCountCache(time.Hour) })
	u, tok := b.user(t, repo.RoleUser)
	friend, friendTok := b.user(t, repo.RoleUser)
	total := func(tok string) int64 { return rcList(t, b, tok, url.Values{}).Total }
	rcInsert(t, b, u.ID, repo.VisibilityPrivate)
	if n := total(tok); n != 1 {
		t.Fatalf("total %d", n)
	}
	// A row written behind the API's back is not seen while the total is fresh…
	rcInsert(t, b, u.ID, repo.VisibilityPrivate)
	if n := total(tok); n != 1 {
		t.Fatalf("cached total %d", n)
	}
	// …and every write through the API drops the totals.
	rcCreate(t, b, tok, map[string]any{"title": "Third", "visibility": "SHARED"})
	if n := total(tok); n != 3 {
		t.Fatalf("after create: %d", n)
	}
	// Totals are per caller and per filter.
	if n := total(friendTok); n != 0 {
		t.Fatalf("friend's total %d", n)
	}
	if p := rcList(t, b, tok, url.Values{"visibility": {"SHARED"}}); p.Total != 1 {
		t.Fatalf("filtered total %d", p.Total)
	}
	var third Recipe
	for _, it := range rcList(t, b, tok, url.Values{"visibility": {"SHARED"}}).Items {
		third.ID = it.ID
	}
	wantStatus(t, b.do(t, "POST", "/api/recipes/"+third.ID.String()+"/shares", map[string]string{"email": friend.Email}, tok), 201)
	if n := total(friendTok); n != 1 {
		t.Fatalf("friend's total after a share: %d", n)
	}
	wantStatus(t, b.do(t, "DELETE", "/api/recipes/"+third.ID.String()+"/shares/"+friend.ID.String(), nil, tok), 204)
	if n := total(friendTok); n != 0 {
		t.Fatalf("friend's total after unsharing: %d", n)
	}
	wantStatus(t, b.do(t, "DELETE", "/api/recipes/"+third.ID.String(), nil, tok), 204)
	if n := total(tok); n != 2 {
		t.Fatalf("after delete: %d", n)
	}
}

func TestCountCacheGenerations(t *testing.T) {
	t.Parallel()
	c := NewCountCache(50 * time.Millisecond)
	calls := 0
	count := func(n int64) func() (int64, error) { return func() (int64, error) { calls++; return n, nil } }
	if n, _ := c.total("k", count(1)); n != 1 {
		t.Fatal(n)
	}
	if n, _ := c.total("k", count(2)); n != 1 || calls != 1 {
		t.Fatalf("fresh: %d after %d counts", n, calls)
	}
	// A write while a count runs: that count answers its caller, and is not kept.
	n, _ := c.total("w", func() (int64, error) { c.Invalidate(); return 5, nil })
	if n != 5 {
		t.Fatal(n)
	}
	if n, _ := c.total("w", count(6)); n != 6 {
		t.Fatalf("a count overtaken by a write was kept: %d", n)
	}
	time.Sleep(60 * time.Millisecond)
	if n, _ := c.total("w", count(7)); n != 7 {
		t.Fatalf("expired total served: %d", n)
	}
	if _, err := c.total("e", func() (int64, error) { return 0, errors.New("boom") }); err == nil {
		t.Fatal("error lost")
	}
	if n, _ := c.total("e", count(8)); n != 8 {
		t.Fatalf("an error was cached: %d", n)
	}
	// No cache: always counts.
	var none *CountCache
	none.Invalidate()
	if n, _ := none.total("k", count(9)); n != 9 {
		t.Fatal(n)
	}
	if NewCountCache(0) != nil {
		t.Fatal("TTL 0 must mean no cache")
	}
}
