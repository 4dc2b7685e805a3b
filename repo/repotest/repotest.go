// Package repotest gives tests real, migrated PostgreSQL databases. The
// schema is migrated once into a template database (named after a hash of
// the migrations, so a schema change builds a new one) and every test gets
// its own clone, so tests run in parallel and never see each other's rows.
package repotest

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"larder/migrations"
)

// ServerURL is the PostgreSQL server tests use, from TEST_DATABASE_URL or the
// local default. Its database part is ignored.
func ServerURL() string {
	if v := os.Getenv("TEST_DATABASE_URL"); v != "" {
		return v
	}
	return "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"
}

// URLFor returns ServerURL pointed at database name.
func URLFor(name string) string {
	u, err := url.Parse(ServerURL())
	if err != nil {
		panic(err)
	}
	u.Path = "/" + name
	return u.String()
}

var (
	templateOnce sync.Once
	templateName string
	templateErr  error
)

// template returns the name of the migrated template database, building it
// on first use. An advisory lock serializes the build across the test
// binaries that `go test ./...` runs in parallel.
func template(ctx context.Context) (string, error) {
	templateOnce.Do(func() {
		templateName, templateErr = buildTemplate(ctx)
	})
	return templateName, templateErr
}

func buildTemplate(ctx context.Context) (string, error) {
	all, err := migrations.All()
	if err != nil {
		return "", err
	}
	h := sha256.New()
	h.Write([]byte("river-v0.51.1")) // River's migrations are part of the template too
	for _, m := range all {
		fmt.Fprintf(h, "%d %s %s\n", m.Version, m.Name, m.SQL)
	}
	name := "larder_tmpl_" + hex.EncodeToString(h.Sum(nil))[:16]

	admin, err := pgx.Connect(ctx, URLFor("postgres"))
	if err != nil {
		return "", fmt.Errorf("repotest: connect to PostgreSQL at %s: %w", ServerURL(), err)
	}
	defer admin.Close(ctx)
	if _, err := admin.Exec(ctx, "SELECT pg_advisory_lock(8675309)"); err != nil {
		return "", err
	}
	defer admin.Exec(ctx, "SELECT pg_advisory_unlock(8675309)") //nolint:errcheck

	var exists bool
	if err := admin.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", name).Scan(&exists); err != nil {
		return "", err
	}
	if exists {
		return name, nil
	}
	// Build under a scratch name and rename when complete, so a crash never
	// leaves a half-migrated template behind under the real name.
	building := name + "_building"
	if _, err := admin.Exec(ctx, "DROP DATABASE IF EXISTS "+building+" WITH (FORCE)"); err != nil {
		return "", err
	}
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+building); err != nil {
		return "", err
	}
	pool, err := pgxpool.New(ctx, URLFor(building))
	if err != nil {
		return "", err
	}
	err = migrations.Migrate(ctx, pool)
	pool.Close()
	if err != nil {
		return "", fmt.Errorf("repotest: migrate template: %w", err)
	}
	if _, err := admin.Exec(ctx, "ALTER DATABASE "+building+" RENAME TO "+name); err != nil {
		return "", err
	}
	if _, err := admin.Exec(ctx, "ALTER DATABASE "+name+" WITH is_template = true"); err != nil {
		return "", err
	}
	return name, nil
}

// NewDatabase clones the template into a fresh database and returns its
// name. The database is dropped when the test ends.
func NewDatabase(t testing.TB) string {
	t.Helper()
	ctx := context.Background()
	tmpl, err := template(ctx)
	if err != nil {
		t.Fatal(err)
	}
	admin, err := pgx.Connect(ctx, URLFor("postgres"))
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	name := "larder_test_" + hex.EncodeToString(b)
	// CREATE DATABASE refuses while another session is cloning the same
	// template ("source database is being accessed"); retry briefly.
	for attempt := 0; ; attempt++ {
		_, err = admin.Exec(ctx, "CREATE DATABASE "+name+" TEMPLATE "+tmpl)
		var pgErr *pgconn.PgError
		if err == nil || !errors.As(err, &pgErr) || pgErr.Code != "55006" || attempt > 100 {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err != nil {
		t.Fatalf("repotest: clone template: %v", err)
	}
	t.Cleanup(func() {
		admin, err := pgx.Connect(ctx, URLFor("postgres"))
		if err != nil {
			t.Errorf("repotest: drop %s: %v", name, err)
			return
		}
		defer admin.Close(ctx)
		if _, err := admin.Exec(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			t.Errorf("repotest: drop %s: %v", name, err)
		}
	})
	return name
}

// DB returns a pool on a fresh migrated database of the test's own.
func DB(t testing.TB) *pgxpool.Pool {
	t.Helper()
	name := NewDatabase(t)
	cfg, err := pgxpool.ParseConfig(URLFor(name))
	if err != nil {
		t.Fatal(err)
	}
	cfg.MaxConns = 8
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close) // registered after the drop, so it runs first
	return pool
}

// Tx returns a transaction on a fresh database, rolled back when the test
// ends. Nested Begin calls on it open savepoints, so code under test can run
// its own transactions inside.
func Tx(t testing.TB) pgx.Tx {
	t.Helper()
	pool := DB(t)
	tx, err := pool.Begin(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = tx.Rollback(context.Background()) })
	return tx
}
