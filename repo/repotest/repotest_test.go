package repotest

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"
)

// A test's database is gone once the test ends; only the template stays.
func TestDatabaseDroppedAtCleanup(t *testing.T) {
	t.Parallel()
	var name string
	t.Run("uses a database", func(t *testing.T) {
		name = NewDatabase(t)
		DB(t) // and a pool on another one, closed before its drop
	})
	ctx := context.Background()
	admin, err := pgx.Connect(ctx, URLFor("postgres"))
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)
	var left int
	if err := admin.QueryRow(ctx, `SELECT count(*) FROM pg_database WHERE datname = $1`, name).Scan(&left); err != nil {
		t.Fatal(err)
	}
	if left != 0 {
		t.Fatalf("database %s is still there after its test", name)
	}
	tmpl, err := template(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := admin.QueryRow(ctx, `SELECT count(*) FROM pg_database WHERE datname = $1 AND datistemplate`, tmpl).Scan(&left); err != nil || left != 1 {
		t.Fatalf("template %s: %d %v", tmpl, left, err)
	}
}
