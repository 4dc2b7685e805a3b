package handlers

import (
	"context"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"golang.org/x/sync/singleflight"

	"larder/repo"
)

// ListCache keeps what recipe lists derive from all the recipes, and which
// is the same from one request to the next while no recipe changes: the
// totals of lists, and searches expanded against the lexicon.
//
// A page of GET /api/recipes costs a walk of an index that stops after 25
// rows; its total costs a visit of every matching row, 35,000 for the
// category "Dinner" at 100,000 recipes. Measured with bench/ under 16
// concurrent clients, the counts were four fifths of the time of a filtered
// or searched first page (79 against 632 requests/s without them). Paging
// through a list, and many people opening the same lists, ask for the same
// total again and again; so a total is reused while it is fresh. Expanding
// a search (repo.SearchQuery: typo and fragment matching over the lexicon)
// costs about a millisecond of the database's time, the page itself two.
//
// Freshness: every recipe write through this API (create, edit, delete,
// share, unshare) drops everything at once, so a total is exact after one's
// own changes. Writes elsewhere (another API instance, the import worker, a
// restore) reach the cache through Follow: the database notifies every
// commit that changes recipes, tags or shares (migration 0008), and the
// entries are dropped when it arrives. While Follow is not connected,
// nothing is reused; without Follow (tests), entries live for the TTL. The
// lexicon only grows with a recipe's text, so the same notifications cover
// expanded searches.
type ListCache struct {
	ttl time.Duration

	mu      sync.Mutex
	gen     uint64 // bumped by every write; entries of an older generation are stale
	entries map[string]listEntry
	// deaf is set while Follow's connection is down, when a write
	// elsewhere could go unheard.
	deaf    bool
	flights singleflight.Group
}

type listEntry struct {
	value any
	gen   uint64
	at    time.Time
}

// listCacheMax bounds memory: past it, the map is swept and, if still
// full, emptied.
const listCacheMax = 10_000

// NewListCache returns a cache keeping entries for ttl; nil (no cache) when
// ttl is not positive.
func NewListCache(ttl time.Duration) *ListCache {
	if ttl <= 0 {
		return nil
	}
	return &ListCache{ttl: ttl, entries: map[string]listEntry{}}
}

// Invalidate drops every entry. Call it after a write has committed, so a
// count started afterwards sees the write.
func (c *ListCache) Invalidate() {
	if c == nil {
		return
	}
	c.mu.Lock()
	c.gen++
	clear(c.entries)
	c.mu.Unlock()
}

// total returns the cached total for key, or computes it with count.
func (c *ListCache) total(key string, count func() (int64, error)) (int64, error) {
	return cached(c, "total\x00"+key, count)
}

// searchQuery is repo.SearchQuery for q, reused while fresh.
func (c *ListCache) searchQuery(ctx context.Context, db repo.DBTX, q string) (*repo.TextQuery, error) {
	return cached(c, "search\x00"+q, func() (*repo.TextQuery, error) { return repo.SearchQuery(ctx, db, q) })
}

// cached returns c's entry for key, or computes it with compute and keeps
// it. The generation is read before computing, so a write that commits
// meanwhile makes the result unusable rather than stale. A kept value is
// shared by every caller: it must not be changed.
func cached[V any](c *ListCache, key string, compute func() (V, error)) (V, error) {
	if c == nil {
		return compute()
	}
	now := time.Now()
	c.mu.Lock()
	if c.deaf {
		c.mu.Unlock()
		return compute()
	}
	gen := c.gen
	if e, ok := c.entries[key]; ok && e.gen == gen && now.Sub(e.at) < c.ttl {
		c.mu.Unlock()
		return e.value.(V), nil
	}
	c.mu.Unlock()

	// Requests that miss the same entry at once share one computation:
	// after a write, everyone opening the same list would otherwise all
	// count the same thousands of rows together. Only within a generation,
	// so nobody is handed a result begun before a write they already saw.
	flight := strconv.FormatUint(gen, 10) + "\x00" + key
	shared, err, _ := c.flights.Do(flight, func() (any, error) { return compute() })
	if err != nil {
		// Perhaps the request that computed it gave up (its client left,
		// cancelling its context): this one tries on its own, uncached.
		return compute()
	}
	v := shared.(V)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gen != gen {
		return v, nil // a write came in: correct for this answer, not worth keeping
	}
	if len(c.entries) >= listCacheMax {
		for k, e := range c.entries {
			if now.Sub(e.at) >= c.ttl {
				delete(c.entries, k)
			}
		}
		if len(c.entries) >= listCacheMax {
			clear(c.entries)
		}
	}
	c.entries[key] = listEntry{value: v, gen: gen, at: now}
	return v, nil
}

// Follow listens for the database's recipe-change notifications on a
// connection of its own from connect, and drops every entry on each. It
// returns when ctx ends. If the connection fails, the cache stops reusing
// entries (it could miss a change) until Follow has connected and listens
// again, retrying with a growing pause.
func (c *ListCache) Follow(ctx context.Context, connect func(context.Context) (*pgx.Conn, error), logger *slog.Logger) {
	if c == nil {
		return
	}
	c.setDeaf(true)
	pause := time.Second
	for ctx.Err() == nil {
		err := c.listen(ctx, connect, func() { pause = time.Second })
		if ctx.Err() != nil {
			return
		}
		c.setDeaf(true)
		logger.Warn("recipe lists: lost the change notifications; computing totals and searches afresh until they are back", "err", err, "retry_in", pause)
		select {
		case <-ctx.Done():
			return
		case <-time.After(pause):
		}
		pause = min(2*pause, time.Minute)
	}
}

// listen connects, LISTENs and drops the entries on every notification
// until the connection or ctx fails. Entries are reused again only once
// LISTEN has been acknowledged: a change committed before that is then
// covered by the Invalidate of going live.
func (c *ListCache) listen(ctx context.Context, connect func(context.Context) (*pgx.Conn, error), connected func()) error {
	conn, err := connect(ctx)
	if err != nil {
		return err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := conn.Exec(ctx, "LISTEN "+repo.RecipeChangeChannel); err != nil {
		return err
	}
	connected()
	c.setDeaf(false)
	for {
		if _, err := conn.WaitForNotification(ctx); err != nil {
			return err
		}
		c.Invalidate()
	}
}

// setDeaf records whether changes can be heard; either way the entries kept
// so far are dropped, since a change may have gone unheard.
func (c *ListCache) setDeaf(deaf bool) {
	c.mu.Lock()
	c.deaf = deaf
	c.gen++
	clear(c.entries)
	c.mu.Unlock()
}

// countRecipes is the total of a recipe list: repo.CountRecipes, with
// each of the viewer's parts (repo.Viewer.ReadParts) reused while fresh.
// The PUBLIC part is the same for every caller, so one count serves
// everybody; a user's personal part (their own other recipes and those
// shared with them) is theirs.
func (s *Server) countRecipes(ctx context.Context, v repo.Viewer, f repo.RecipeFilter) (int64, error) {
	if s.ListCache != nil {
		if pick, ok := facetOf(f); ok {
			return s.countFacet(ctx, v, pick)
		}
	}
	key := filterKey(f)
	return v.SumParts(func(p repo.ReadPart) (int64, error) {
		return s.ListCache.total(p.Key+key, func() (int64, error) { return repo.CountPart(ctx, s.DB, p, f) })
	})
}

// facetOf says whether f is one category or one tag and nothing else, a
// total the facet counts answer, and returns how to read it from them.
// Only for ASCII keys: the facets hold keys lowered by the database, which
// for other letters may not lower them as Go does.
func facetOf(f repo.RecipeFilter) (func(repo.Facets) int64, bool) {
	if f.Search != nil || f.OwnerID != nil || f.Visibility != "" || (f.Category == "") == (f.Tag == "") {
		return nil, false
	}
	value := f.Category + f.Tag
	for i := range len(value) {
		if value[i] >= utf8.RuneSelf {
			return nil, false
		}
	}
	key := strings.ToLower(value)
	if f.Category != "" {
		return func(fc repo.Facets) int64 { return fc.Categories[key] }, true
	}
	return func(fc repo.Facets) int64 { return fc.Tags[key] }, true
}

// countFacet is the total of a one-category or one-tag list, from the
// facet counts of the viewer's parts: one computation serves every
// category and tag until a recipe changes.
func (s *Server) countFacet(ctx context.Context, v repo.Viewer, pick func(repo.Facets) int64) (int64, error) {
	return v.SumParts(func(p repo.ReadPart) (int64, error) {
		fc, err := cached(s.ListCache, "facets\x00"+p.Key, func() (repo.Facets, error) { return repo.CountPartFacets(ctx, s.DB, p) })
		return pick(fc), err
	})
}

// filterKey names a filter in the cache.
func filterKey(f repo.RecipeFilter) string {
	var b strings.Builder
	b.WriteString("\x00")
	if f.OwnerID != nil {
		b.WriteString(f.OwnerID.String())
	}
	for _, s := range []string{f.Visibility, f.Category, f.Tag} {
		b.WriteString("\x00" + s)
	}
	if f.Search != nil {
		b.WriteString("\x00" + f.Search.Any)
	}
	return b.String()
}
