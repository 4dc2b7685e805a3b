package handlers

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/jackc/pgx/v5"

	"larder/repo"
)

// With the count cache, a total is reused until a write through the API
// drops it, and never outlives its TTL.
func TestListCacheTotals(t *testing.T) {
	t.Parallel()
	b := setup(t, func(d *Deps) { d.ListCache = NewListCache(time.Hour) })
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

func TestListCacheGenerations(t *testing.T) {
	t.Parallel()
	// In a synctest bubble the clock is fake: the sleep past the TTL
	// returns at once.
	synctest.Test(t, func(t *testing.T) {
		c := NewListCache(50 * time.Millisecond)
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
		var none *ListCache
		none.Invalidate()
		if n, _ := none.total("k", count(9)); n != 9 {
			t.Fatal(n)
		}
		if NewListCache(0) != nil {
			t.Fatal("TTL 0 must mean no cache")
		}
	})
}

// Followed, the cache hears a write made behind the API's back (a worker,
// another instance) as soon as it commits, and not before.
func TestListCacheFollowsDatabaseChanges(t *testing.T) {
	t.Parallel()
	counts := NewListCache(time.Hour)
	b := setup(t, func(d *Deps) { d.ListCache = counts })
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	connect := func(ctx context.Context) (*pgx.Conn, error) {
		return pgx.ConnectConfig(ctx, b.db.Config().ConnConfig.Copy())
	}
	go counts.Follow(ctx, connect, b.deps.Logger)
	u, tok := b.user(t, repo.RoleUser)
	total := func() int64 { return rcList(t, b, tok, url.Values{}).Total }
	waitFor := func(want int64) {
		t.Helper()
		eventually(t, fmt.Sprintf("the total to become %d", want), func() bool { return total() == want })
	}
	waitFor(0) // listening: until then every total is counted afresh anyway

	// An uncommitted insert is neither counted nor notified…
	tx, err := b.db.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx) //nolint:errcheck
	if _, err := repo.CreateRecipe(ctx, tx, u.ID, repo.RecipeInput{Title: "Behind the back", Visibility: repo.VisibilityPrivate}); err != nil {
		t.Fatal(err)
	}
	if n := total(); n != 0 {
		t.Fatalf("uncommitted row counted: %d", n)
	}
	// …and its commit reaches the cache.
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	waitFor(1)
	// So do a tag's rename (a tag filter matches names) and a delete.
	id := rcInsertWith(t, b, u.ID, repo.RecipeInput{Title: "Tagged", Tags: []string{"Soup"}})
	waitFor(2)
	soup := func() int64 { return rcList(t, b, tok, url.Values{"tag": {"broth"}}).Total }
	if n := soup(); n != 0 {
		t.Fatalf("tag broth: %d", n)
	}
	if _, err := b.db.Exec(ctx, `UPDATE tag SET name = 'Broth' WHERE name = 'Soup'`); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the renamed tag's total to be refreshed", func() bool { return soup() == 1 })
	if _, err := b.db.Exec(ctx, `DELETE FROM recipe WHERE id = $1`, id); err != nil {
		t.Fatal(err)
	}
	waitFor(1)
}

// While it cannot listen, a followed cache counts every total afresh.
func TestListCacheDeafComputesAfresh(t *testing.T) {
	t.Parallel()
	counts := NewListCache(time.Hour)
	b := setup(t, func(d *Deps) { d.ListCache = counts })
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	attempts := make(chan struct{}, 100)
	refuse := func(context.Context) (*pgx.Conn, error) {
		attempts <- struct{}{}
		return nil, errors.New("database unreachable")
	}
	go counts.Follow(ctx, refuse, b.deps.Logger)
	<-attempts
	u, tok := b.user(t, repo.RoleUser)
	for want := int64(0); want < 3; want++ {
		if n := rcList(t, b, tok, url.Values{}).Total; n != want {
			t.Fatalf("total %d, want %d: a total was reused while deaf", n, want)
		}
		rcInsert(t, b, u.ID, repo.VisibilityPrivate)
	}
}

// A search is expanded against the lexicon once and reused until a recipe
// changes: a word that a new recipe brings is then found by its typos too.
func TestListCacheReusesSearchExpansion(t *testing.T) {
	t.Parallel()
	b := setup(t, func(d *Deps) { d.ListCache = NewListCache(time.Hour) })
	u, tok := b.user(t, repo.RoleUser)
	rcInsertWith(t, b, u.ID, repo.RecipeInput{Title: "Lemon tart"})
	search := func(q string) int {
		return len(rcList(t, b, tok, url.Values{"q": {q}}).Items)
	}
	if n := search("sumak"); n != 0 {
		t.Fatalf("sumak before any sumac: %d", n)
	}
	// Written behind the API's back and unheard (no Follow): the expansion
	// made before, without "sumac" in the lexicon, is reused.
	rcInsertWith(t, b, u.ID, repo.RecipeInput{Title: "Sumac chicken"})
	if n := search("sumak"); n != 0 {
		t.Fatalf("the expansion was not reused: %d", n)
	}
	// A write through the API drops it; the typo now finds both.
	rcCreate(t, b, tok, map[string]any{"title": "Sumac onions"})
	if n := search("sumak"); n != 2 {
		t.Fatalf("sumak after a write: %d", n)
	}
}

// Requests missing the same entry at once share one computation; a
// computation that fails is not shared as a failure.
func TestListCacheSharesConcurrentMisses(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		c := NewListCache(time.Hour)
		release := make(chan struct{})
		var mu sync.Mutex
		calls := 0
		count := func() (int64, error) {
			mu.Lock()
			calls++
			mu.Unlock()
			<-release
			return 42, nil
		}
		var wg sync.WaitGroup
		results := make(chan int64, 8)
		for range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				n, err := c.total("k", count)
				if err != nil {
					t.Error(err)
				}
				results <- n
			}()
		}
		synctest.Wait() // every request has reached the flight and waits in it
		close(release)
		wg.Wait()
		close(results)
		for n := range results {
			if n != 42 {
				t.Fatalf("got %d", n)
			}
		}
		if calls != 1 {
			t.Fatalf("%d computations for 8 concurrent misses", calls)
		}

		failed := false
		n, err := c.total("f", func() (int64, error) {
			if !failed {
				failed = true
				return 0, errors.New("cancelled")
			}
			return 7, nil
		})
		if err != nil || n != 7 {
			t.Fatalf("after a failed shared computation: %d %v", n, err)
		}
	})
}

// One-category and one-tag totals come from the facet counts: right for
// each viewer, matched without regard to case, and renewed by writes.
func TestListCacheFacetTotals(t *testing.T) {
	t.Parallel()
	b := setup(t, func(d *Deps) { d.ListCache = NewListCache(time.Hour) })
	_, tok := b.user(t, repo.RoleUser)
	friend, friendTok := b.user(t, repo.RoleUser)
	_, adminTok := b.user(t, repo.RoleAdmin)
	total := func(tok string, q url.Values) int64 { return rcList(t, b, tok, q).Total }
	dinner := url.Values{"category": {"DINNER"}}
	quick := url.Values{"tag": {"quick"}}
	rcCreate(t, b, tok, map[string]any{"title": "Public stew", "visibility": "PUBLIC", "categories": []string{"Dinner"}, "tags": []string{"Quick"}})
	shared := rcCreate(t, b, tok, map[string]any{"title": "Shared pie", "visibility": "SHARED", "categories": []string{"dinner"}})
	rcCreate(t, b, tok, map[string]any{"title": "Private soup", "visibility": "PRIVATE", "categories": []string{"Dinner", "Soup"}, "tags": []string{"QUICK"}})
	for _, tc := range []struct {
		who  string
		tok  string
		q    url.Values
		want int64
	}{
		{"owner", tok, dinner, 3}, {"friend", friendTok, dinner, 1}, {"anonymous", "", dinner, 1}, {"admin", adminTok, dinner, 3},
		{"owner", tok, quick, 2}, {"friend", friendTok, quick, 1}, {"anonymous", "", quick, 1},
	} {
		if n := total(tc.tok, tc.q); n != tc.want {
			t.Errorf("%s, %v: total %d, want %d", tc.who, tc.q, n, tc.want)
		}
	}
	wantStatus(t, b.do(t, "POST", "/api/recipes/"+shared.ID.String()+"/shares", map[string]string{"email": friend.Email}, tok), 201)
	if n := total(friendTok, dinner); n != 2 {
		t.Errorf("friend's dinner total after a share: %d", n)
	}
	rcCreate(t, b, tok, map[string]any{"title": "Another stew", "visibility": "PUBLIC", "categories": []string{"Dinner"}})
	if n := total("", dinner); n != 2 {
		t.Errorf("public dinner total after a create: %d", n)
	}
	// Filters the facets do not answer still count exactly.
	if n := total(tok, url.Values{"category": {"dinner"}, "visibility": {"PRIVATE"}}); n != 1 {
		t.Errorf("dinner and PRIVATE: %d", n)
	}
}
