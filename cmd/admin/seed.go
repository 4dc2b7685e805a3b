package main

import (
	"context"
	"errors"
	"flag"
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
	"golang.org/x/crypto/bcrypt"
	"golang.org/x/sync/errgroup"

	"larder/repo"
)

func init() {
	commands["seed"] = command{
		usage: "--recipes N [--users U] [--seed S]: add N synthetic recipes (several users, mixed visibility, categories, tags, sections, shares) for benchmarks",
		run:   runSeed,
	}
}

// SeedPassword is the password of every seeded user, so a person can sign
// in as one to look around.
const SeedPassword = "Seed-password-1"

// seedChunk is how many recipes go into one transaction: large enough for
// COPY to pay off, small enough that progress shows and memory stays flat.
const seedChunk = 2000

// seedWorkers is how many chunks are written at once.
const seedWorkers = 2

type seedOptions struct {
	recipes int
	users   int
	seed    uint64
	chunk   int // recipes per transaction; seedChunk when 0
}

func runSeed(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("seed", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var o seedOptions
	fs.IntVar(&o.recipes, "recipes", 0, "how many recipes to add")
	fs.IntVar(&o.users, "users", 0, "how many users own them (default: one per 2,000 recipes, at least 5)")
	fs.Uint64Var(&o.seed, "seed", 1, "random seed; the same seed gives the same recipes")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w (usage: admin seed --recipes N [--users U] [--seed S])", err)
	}
	if o.recipes < 1 {
		return errors.New("--recipes must be a positive number (usage: admin seed --recipes N [--users U])")
	}
	if o.users == 0 {
		o.users = max(5, o.recipes/2000)
	}
	if o.users < 2 {
		return errors.New("--users must be at least 2, so that recipes can be shared")
	}
	pool, err := openDatabase(ctx)
	if err != nil {
		return err
	}
	defer pool.Close()
	return seed(ctx, pool, o, stdout)
}

// seed writes the users, then the recipes chunk by chunk, each chunk in one
// transaction: COPY for the rows, then the search documents computed by
// the same SQL as every other write (repo.RefreshRecipeSearch).
func seed(ctx context.Context, pool *pgxpool.Pool, o seedOptions, out io.Writer) error {
	start := time.Now()
	users, err := seedUsers(ctx, pool, o.users)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "users: %d (seed-1@larder.test … seed-%d@larder.test, password %s)\n", len(users), len(users), SeedPassword)
	tags, err := seedTags(ctx, pool)
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
	if o.chunk <= 0 {
		o.chunk = seedChunk
	}
	chunks := (o.recipes + o.chunk - 1) / o.chunk
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
	for range seedWorkers {
		g.Go(func() error {
			for ci := range next {
				first, n := ci*o.chunk, min(o.chunk, o.recipes-ci*o.chunk)
				rng := rand.New(rand.NewPCG(o.seed, uint64(ci)))
				var c seedRows
				for i := range n {
					at := now.Add(-span + time.Duration(float64(span)*float64(first+i)/float64(o.recipes)))
					c.add(rng, users, tags, at)
				}
				if err := pgx.BeginFunc(gctx, pool, func(tx pgx.Tx) error { return c.write(gctx, tx) }); err != nil {
					return fmt.Errorf("write recipes %d–%d: %w", first+1, first+n, err)
				}
				total := done.Add(int64(n))
				// Autovacuum may be off or slow to notice a bulk load; without
				// statistics the planner takes the growing tables for small
				// ones and the search refresh turns quadratic.
				// Geometric steps keep the cost of these (seconds each at
				// 100,000 recipes) small next to the load itself.
				if chunk := total / int64(o.chunk); total%int64(o.chunk) == 0 && (chunk == 1 || chunk == 4 || chunk == 16 || chunk == 64) {
					if err := analyzeSeedTables(gctx, pool, false); err != nil {
						return err
					}
				}
				el := time.Since(start)
				mu.Lock()
				fmt.Fprintf(out, "recipes: %d/%d (%.0f/s, %s)\n", total, o.recipes, float64(total)/el.Seconds(), el.Round(time.Millisecond))
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
	fmt.Fprintln(out, "compacting and analyzing…")
	if _, err := pool.Exec(ctx, "VACUUM (FULL) recipe"); err != nil {
		return fmt.Errorf("vacuum full recipe: %w", err)
	}
	if err := analyzeSeedTables(ctx, pool, true); err != nil {
		return err
	}
	fmt.Fprintf(out, "done: %d recipes in %s\n", o.recipes, time.Since(start).Round(time.Millisecond))
	return nil
}

// seedUsers creates (or finds, on a second run) the seed users.
func seedUsers(ctx context.Context, pool *pgxpool.Pool, n int) ([]uuid.UUID, error) {
	hash, err := bcrypt.GenerateFromPassword([]byte(SeedPassword), bcrypt.DefaultCost)
	if err != nil {
		return nil, err
	}
	emails := make([]string, n)
	names := make([]string, n)
	for i := range n {
		emails[i] = fmt.Sprintf("seed-%d@larder.test", i+1)
		names[i] = firstNames[i%len(firstNames)] + " " + lastNames[(i/len(firstNames))%len(lastNames)]
	}
	if _, err := pool.Exec(ctx, `INSERT INTO app_user (email, name, password_hash, email_verified)
		SELECT e, n, $3, true FROM unnest($1::text[], $2::text[]) AS u(e, n)
		ON CONFLICT DO NOTHING`, emails, names, string(hash)); err != nil {
		return nil, fmt.Errorf("create users: %w", err)
	}
	rows, _ := pool.Query(ctx, `SELECT id FROM app_user WHERE lower(email) = ANY($1) ORDER BY email`, emails)
	ids, err := pgx.CollectRows(rows, pgx.RowTo[uuid.UUID])
	if err != nil {
		return nil, fmt.Errorf("read users: %w", err)
	}
	return ids, nil
}

// seedTags creates the tag vocabulary and returns its ids.
func seedTags(ctx context.Context, pool *pgxpool.Pool) ([]uuid.UUID, error) {
	if _, err := pool.Exec(ctx, `INSERT INTO tag (name) SELECT unnest($1::text[]) ON CONFLICT DO NOTHING`, tagNames); err != nil {
		return nil, fmt.Errorf("create tags: %w", err)
	}
	lower := make([]string, len(tagNames))
	for i, t := range tagNames {
		lower[i] = strings.ToLower(t)
	}
	rows, _ := pool.Query(ctx, `SELECT t.id FROM unnest($1::text[]) WITH ORDINALITY AS v(n, ord) JOIN tag t ON lower(t.name) = v.n ORDER BY v.ord`, lower)
	ids, err := pgx.CollectRows(rows, pgx.RowTo[uuid.UUID])
	if err != nil {
		return nil, fmt.Errorf("read tags: %w", err)
	}
	return ids, nil
}

// seedRows holds one chunk's rows, table by table, for COPY.
type seedRows struct {
	ids                                    []uuid.UUID
	recipes, ingSections, ingredients      [][]any
	insSections, steps, recipeTags, shares [][]any
}

var (
	recipeCols  = []string{"id", "owner_id", "title", "description", "servings", "prep_minutes", "cook_minutes", "total_minutes", "source_url", "visibility", "categories", "created_at", "updated_at"}
	sectionCols = []string{"id", "recipe_id", "position", "name"}
	itemCols    = []string{"id", "recipe_id", "section_id", "position", "text"}
)

func (c *seedRows) write(ctx context.Context, tx pgx.Tx) error {
	for _, t := range []struct {
		table string
		cols  []string
		rows  [][]any
	}{
		{"recipe", recipeCols, c.recipes},
		{"ingredient_section", sectionCols, c.ingSections},
		{"ingredient", itemCols, c.ingredients},
		{"instruction_section", sectionCols, c.insSections},
		{"instruction_step", itemCols, c.steps},
		{"recipe_tag", []string{"recipe_id", "tag_id"}, c.recipeTags},
		{"recipe_share", []string{"recipe_id", "user_id", "created_at"}, c.shares},
	} {
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{t.table}, t.cols, pgx.CopyFromRows(t.rows)); err != nil {
			return fmt.Errorf("copy %s: %w", t.table, err)
		}
	}
	return repo.RefreshRecipeSearch(ctx, tx, c.ids)
}

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
	c.ids = append(c.ids, id)
	c.recipes = append(c.recipes, []any{id, owner, d.title, d.description, servings, prep, cook, total, source,
		visibility, d.categories, at, at})

	for si, s := range d.ingredients {
		sid := newID()
		c.ingSections = append(c.ingSections, []any{sid, id, int32(si), s.name})
		for pi, text := range s.items {
			c.ingredients = append(c.ingredients, []any{newID(), id, sid, int32(pi), text})
		}
	}
	for si, s := range d.steps {
		sid := newID()
		c.insSections = append(c.insSections, []any{sid, id, int32(si), s.name})
		for pi, text := range s.items {
			c.steps = append(c.steps, []any{newID(), id, sid, int32(pi), text})
		}
	}
	for _, ti := range rng.Perm(len(tags))[:rng.IntN(5)] {
		c.recipeTags = append(c.recipeTags, []any{id, tags[ti]})
	}
	if visibility == repo.VisibilityShared {
		for _, ui := range rng.Perm(len(users))[:1+rng.IntN(min(3, len(users)-1))] {
			if users[ui] != owner {
				c.shares = append(c.shares, []any{id, users[ui], at})
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

// analyzeSeedTables refreshes the planner's statistics of the tables the
// seed fills, with a vacuum too when vacuum is set.
func analyzeSeedTables(ctx context.Context, pool *pgxpool.Pool, vacuum bool) error {
	cmd := "ANALYZE "
	if vacuum {
		cmd = "VACUUM (ANALYZE) "
	}
	for _, t := range []string{"recipe", "ingredient_section", "ingredient", "instruction_section", "instruction_step",
		"recipe_tag", "recipe_share", "tag", "search_term"} {
		if _, err := pool.Exec(ctx, cmd+t); err != nil {
			return fmt.Errorf("%s%s: %w", strings.ToLower(cmd), t, err)
		}
	}
	return nil
}
