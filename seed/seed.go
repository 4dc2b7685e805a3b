// Package seed fills a database with synthetic users, recipes and, on
// request, images, mappings, cookbooks and sessions: the data of
// `admin seed` and of every benchmark under bench/, so that they measure
// the same shape of installation.
package seed

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"golang.org/x/sync/errgroup"

	"larder/password"
	"larder/repo"
)

// Password is the password of every seeded user, so a person can sign
// in as one to look around.
const Password = "Seed-password-1"

// defaultChunk is how many recipes go into one transaction: large enough for
// COPY to pay off, small enough that progress shows and memory stays flat.
const defaultChunk = 2000

// workers is how many chunks are written at once.
const workers = 2

// Options says what Run adds. Recipes, users and tags always; the rest
// when asked, for benchmarks that need a whole installation (bench/backup).
type Options struct {
	Recipes int
	Users   int    // at least 2, so that recipes can be shared
	Seed    uint64 // the same seed gives the same recipes
	Chunk   int    // recipes per transaction; 2,000 when 0

	Images    []string // file-store keys, one each for the oldest recipes without an image
	Mappings  bool     // map every ingredient line to a step
	Cookbooks int      // cookbooks to add, with recipes, inclusions and tags
	Sessions  bool     // a refresh token and a verification token per user
}

// Run writes the users, then the recipes chunk by chunk, each chunk in one
// transaction: COPY for the rows, then the search documents computed by
// the same SQL as every other write (repo.RefreshRecipeSearch); then what
// else o asks for. It reports progress to out.
func Run(ctx context.Context, pool *pgxpool.Pool, o Options, out io.Writer) error {
	if o.Recipes < 1 {
		return errors.New("seed: the number of recipes must be positive")
	}
	if o.Users < 2 {
		return errors.New("seed: at least 2 users are needed, so that recipes can be shared")
	}
	start := time.Now()
	users, err := seedUsers(ctx, pool, o.Users)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "users: %d (seed-1@larder.test … seed-%d@larder.test, password %s)\n", len(users), len(users), Password)
	tags, err := repo.EnsureTags(ctx, pool, TagNames)
	if err != nil {
		return err
	}
	// Recipes were added over the last three years, oldest first. Chunks
	// are made and written by two workers at once (the machine's two
	// cores: one makes rows while PostgreSQL indexes the other's); each
	// chunk has its own random stream, so a seed gives the same recipes
	// whatever the interleaving.
	now := time.Now().UTC()
	span := 3 * 365 * 24 * time.Hour
	if o.Chunk <= 0 {
		o.Chunk = defaultChunk
	}
	chunks := (o.Recipes + o.Chunk - 1) / o.Chunk
	next := make(chan int)
	var done atomic.Int64
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() error {
		defer close(next)
		for i := range chunks {
			select {
			case next <- i:
			case <-gctx.Done():
				return gctx.Err()
			}
		}
		return nil
	})
	var mu sync.Mutex
	for range workers {
		g.Go(func() error {
			for ci := range next {
				first, n := ci*o.Chunk, min(o.Chunk, o.Recipes-ci*o.Chunk)
				rng := rand.New(rand.NewPCG(o.Seed, uint64(ci)))
				var c seedRows
				for i := range n {
					at := now.Add(-span + time.Duration(float64(span)*float64(first+i)/float64(o.Recipes)))
					c.add(rng, users, tags, at)
				}
				if err := pgx.BeginFunc(gctx, pool, func(tx pgx.Tx) error { return repo.CopySeedRecipes(gctx, tx, c.SeedRows) }); err != nil {
					return fmt.Errorf("write recipes %d–%d: %w", first+1, first+n, err)
				}
				total := done.Add(int64(n))
				// Autovacuum may be off or slow to notice a bulk load; without
				// statistics the planner takes the growing tables for small
				// ones and the search refresh turns quadratic.
				// Geometric steps keep the cost of these (seconds each at
				// 100,000 recipes) small next to the load itself.
				if chunk := total / int64(o.Chunk); total%int64(o.Chunk) == 0 && (chunk == 1 || chunk == 4 || chunk == 16 || chunk == 64) {
					if err := repo.AnalyzeRecipeTables(gctx, pool, false, false); err != nil {
						return err
					}
				}
				el := time.Since(start)
				mu.Lock()
				fmt.Fprintf(out, "recipes: %d/%d (%.0f/s, %s)\n", total, o.Recipes, float64(total)/el.Seconds(), el.Round(time.Millisecond))
				mu.Unlock()
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	// Each recipe row was written twice (COPY, then its search document),
	// so half the table is dead space: compact it, as a restore would
	// leave it. Then fresh statistics, so the planner knows the new rows at
	// once, and a vacuum, so counts can use index-only scans.
	if err := extras(ctx, pool, o, users); err != nil {
		return err
	}
	fmt.Fprintln(out, "compacting and analyzing…")
	if err := repo.AnalyzeRecipeTables(ctx, pool, true, true); err != nil {
		return err
	}
	fmt.Fprintf(out, "done: %d recipes in %s\n", o.Recipes, time.Since(start).Round(time.Millisecond))
	return nil
}

// extras writes what o asks for beyond recipes.
func extras(ctx context.Context, pool *pgxpool.Pool, o Options, users []uuid.UUID) error {
	if len(o.Images) > 0 {
		if err := repo.SeedRecipeImages(ctx, pool, o.Images); err != nil {
			return err
		}
	}
	if o.Mappings {
		if err := repo.SeedMappings(ctx, pool); err != nil {
			return err
		}
	}
	if o.Cookbooks > 0 {
		if err := repo.SeedCookbooks(ctx, pool, users, o.Cookbooks); err != nil {
			return err
		}
	}
	if o.Sessions {
		return repo.SeedSessions(ctx, pool)
	}
	return nil
}

// seedUsers creates (or finds, on a second run) the seed users, with the
// password hashed as every account's is.
func seedUsers(ctx context.Context, pool *pgxpool.Pool, n int) ([]uuid.UUID, error) {
	hash, err := password.Hash(Password, password.DefaultCost)
	if err != nil {
		return nil, err
	}
	emails := make([]string, n)
	names := make([]string, n)
	for i := range n {
		emails[i] = fmt.Sprintf("seed-%d@larder.test", i+1)
		names[i] = firstNames[i%len(firstNames)] + " " + lastNames[(i/len(firstNames))%len(lastNames)]
	}
	return repo.EnsureSeedUsers(ctx, pool, emails, names, hash)
}

// seedRows holds one chunk's rows, table by table, for COPY.
type seedRows struct{ repo.SeedRows }

// add makes one recipe.
func (c *seedRows) add(rng *rand.Rand, users, tags []uuid.UUID, at time.Time) {
	id := newID()
	owner := users[rng.IntN(len(users))]
	d := newDish(rng)

	visibility := repo.VisibilityPrivate
	switch p := rng.IntN(100); {
	case p < 40:
		visibility = repo.VisibilityPublic
	case p < 60:
		visibility = repo.VisibilityShared
	}
	var servings, prep, cook, total *int
	if rng.IntN(10) > 0 {
		servings = ptr(1 + rng.IntN(8))
	}
	if rng.IntN(10) > 1 {
		p, k := 5*(1+rng.IntN(8)), 5*rng.IntN(25)
		prep, cook, total = ptr(p), ptr(k), ptr(p+k)
	}
	var source *string
	if rng.IntN(3) == 0 {
		source = ptr(fmt.Sprintf("https://cooking.example.com/recipes/%s-%d", slug(d.title), rng.IntN(100000)))
	}
	c.IDs = append(c.IDs, id)
	c.Recipes = append(c.Recipes, []any{id, owner, d.title, d.description, servings, prep, cook, total, source,
		visibility, d.categories, at, at})

	for si, s := range d.ingredients {
		sid := newID()
		c.IngSections = append(c.IngSections, []any{sid, id, int32(si), s.name})
		for pi, text := range s.items {
			c.Ingredients = append(c.Ingredients, []any{newID(), id, sid, int32(pi), text})
		}
	}
	for si, s := range d.steps {
		sid := newID()
		c.InsSections = append(c.InsSections, []any{sid, id, int32(si), s.name})
		for pi, text := range s.items {
			c.Steps = append(c.Steps, []any{newID(), id, sid, int32(pi), text})
		}
	}
	for _, ti := range rng.Perm(len(tags))[:rng.IntN(5)] {
		c.RecipeTags = append(c.RecipeTags, []any{id, tags[ti]})
	}
	if visibility == repo.VisibilityShared {
		for _, ui := range rng.Perm(len(users))[:1+rng.IntN(min(3, len(users)-1))] {
			if users[ui] != owner {
				c.Shares = append(c.Shares, []any{id, users[ui], at})
			}
		}
	}
}

// newID returns a time-ordered (version 7) UUID. Random (version 4) ids,
// which the service itself uses, scatter a bulk load's index inserts over
// every page of indexes far larger than memory: COPY of ingredient lines
// then took 200 µs a row at 100,000 recipes. Ordered ids append instead.
func newID() uuid.UUID { return uuid.Must(uuid.NewV7()) }

func ptr[T any](v T) *T { return &v }

func slug(s string) string {
	return strings.Trim(strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			return r
		case r >= 'A' && r <= 'Z':
			return r + 'a' - 'A'
		}
		return '-'
	}, s), "-")
}
