package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"

	"github.com/jackc/pgx/v5/pgxpool"

	"larder/boot"
	"larder/migrations"
)

func init() {
	commands["migrate"] = command{usage: "create the database if missing and apply every migration", run: runMigrate}
}

func runMigrate(ctx context.Context, _ []string, stdout io.Writer) error {
	pool, err := openDatabase(ctx)
	if err != nil {
		return err
	}
	defer pool.Close()
	fmt.Fprintf(stdout, "database migrated to schema version %d\n", migrations.Latest())
	return nil
}

// openDatabase opens the configured database, created and migrated, logging
// only warnings so command output stays readable.
func openDatabase(ctx context.Context) (*pgxpool.Pool, error) {
	cfg := boot.Config()
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	return boot.Database(ctx, cfg, logger, 4)
}
