// Package repo holds every SQL statement of the service. Functions take a
// DBTX, so the same call works on the pool and inside a transaction. repo
// imports none of our packages.
package repo

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// DBTX is what every repo function needs: a *pgxpool.Pool, a *pgx.Conn or a pgx.Tx.
type DBTX interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
	CopyFrom(ctx context.Context, table pgx.Identifier, columns []string, rows pgx.CopyFromSource) (int64, error)
	Begin(ctx context.Context) (pgx.Tx, error)
}

var (
	// ErrNotFound means the row does not exist (or the caller may not see it).
	ErrNotFound = errors.New("not found")
	// ErrConflict means a unique constraint refused the write.
	ErrConflict = errors.New("conflict")
)

// wrap names the operation and turns driver errors into the package's
// sentinels, keeping the original in the chain for logs.
func wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, pgx.ErrNoRows) {
		return fmt.Errorf("%s: %w", op, ErrNotFound)
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch pgErr.Code {
		case "23505": // unique_violation
			return fmt.Errorf("%s: %w (%s)", op, ErrConflict, pgErr.ConstraintName)
		case "23503": // foreign_key_violation: the referenced row is gone
			return fmt.Errorf("%s: %w (%s)", op, ErrNotFound, pgErr.ConstraintName)
		}
	}
	return fmt.Errorf("%s: %w", op, err)
}
