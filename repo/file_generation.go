package repo

import (
	"context"
	"fmt"
)

// FileGeneration returns the generation of stored files the database
// names (see migration 0050): "" or "gen-<16 hex digits>".
func FileGeneration(ctx context.Context, db DBTX) (string, error) {
	var g string
	if err := db.QueryRow(ctx, `SELECT generation FROM file_generation`).Scan(&g); err != nil {
		return "", fmt.Errorf("read file generation: %w", err)
	}
	return g, nil
}

// SetFileGeneration switches the generation, in the restore transaction.
func SetFileGeneration(ctx context.Context, db DBTX, g string) error {
	if _, err := db.Exec(ctx, `UPDATE file_generation SET generation = $1`, g); err != nil {
		return fmt.Errorf("switch file generation: %w", err)
	}
	return nil
}
