package migrations_test

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"testing"

	"larder/migrations"
	"larder/repo/repotest"
)

func TestMigrateIsIdempotentAndFillsGaps(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := repotest.DB(t)
	v, err := migrations.Version(ctx, pool)
	if err != nil || v != migrations.Latest() {
		t.Fatalf("template at version %d (%v), want %d", v, err, migrations.Latest())
	}
	// Forget a middle migration whose effect is harmless to repeat: it must be applied again.
	all, _ := migrations.All()
	if len(all) < 2 {
		t.Skip("only one migration")
	}
	if _, err := pool.Exec(ctx, "DELETE FROM schema_migration WHERE version = 1"); err != nil {
		t.Fatal(err)
	}
	err = migrations.Migrate(ctx, pool)
	if err == nil {
		t.Fatal("re-applying 0001 over its own tables should fail, proving the gap was seen")
	}
	if _, err := pool.Exec(ctx, "INSERT INTO schema_migration (version, name) VALUES (1, 'init')"); err != nil {
		t.Fatal(err)
	}
	if err := migrations.Migrate(ctx, pool); err != nil {
		t.Fatalf("second run: %v", err)
	}
}

// Several processes starting at once on an empty database: each migration
// runs exactly once and every caller succeeds.
func TestMigrateConcurrently(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	name := fmt.Sprintf("larder_empty_%d", time.Now().UnixNano())
	admin, err := pgx.Connect(ctx, repotest.URLFor("postgres"))
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		c, err := pgx.Connect(ctx, repotest.URLFor("postgres"))
		if err == nil {
			_, _ = c.Exec(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
			c.Close(ctx)
		}
	})
	errs := make(chan error, 4)
	for range 4 {
		go func() {
			pool, err := pgxpool.New(ctx, repotest.URLFor(name))
			if err != nil {
				errs <- err
				return
			}
			defer pool.Close()
			errs <- migrations.Migrate(ctx, pool)
		}()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	pool, err := pgxpool.New(ctx, repotest.URLFor(name))
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	var n, distinct int
	if err := pool.QueryRow(ctx, "SELECT count(*), count(DISTINCT version) FROM schema_migration").Scan(&n, &distinct); err != nil {
		t.Fatal(err)
	}
	if all, _ := migrations.All(); n != len(all) || distinct != n {
		t.Fatalf("%d rows, %d versions, want %d", n, distinct, len(all))
	}
}
