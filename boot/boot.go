// Package boot is the start-up the three binaries share: configuration,
// logger, and a migrated database. Only the cmd packages call it.
package boot

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"riverqueue.com/riverui"

	"larder"
	"larder/config"
	"larder/logctx"
	"larder/metrics"
	"larder/migrations"
)

// Config loads the configuration from the environment, requiring the parts
// the binary uses, or exits with a message naming every bad variable.
func Config(uses ...config.Part) config.Config {
	cfg, err := config.Load(os.Getenv, uses...)
	if err != nil {
		fmt.Fprintf(os.Stderr, "configuration error:\n%v\n", err)
		os.Exit(2)
	}
	return cfg
}

// Logger builds the process logger from LOG_LEVEL and LOG_FORMAT and makes it the default.
func Logger(cfg config.Config, component string) *slog.Logger {
	opts := &slog.HandlerOptions{Level: cfg.LogLevel}
	var h slog.Handler = slog.NewTextHandler(os.Stderr, opts)
	if cfg.LogFormat == "json" {
		h = slog.NewJSONHandler(os.Stderr, opts)
	}
	// Lines logged with a request's or a job's context carry its id.
	logger := slog.New(logctx.Handler{Handler: h}).With("component", component)
	slog.SetDefault(logger)
	logger.Info("starting", "version", larder.Version(), "config", cfg)
	return logger
}

// Database creates the database when missing, opens a pool and migrates the
// schema (River's and ours). Safe when several processes start at once.
func Database(ctx context.Context, cfg config.Config, logger *slog.Logger, maxConns int32) (*pgxpool.Pool, error) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	if err := migrations.EnsureDatabase(ctx, cfg.DatabaseURL); err != nil {
		return nil, err
	}
	pc, err := pgxpool.ParseConfig(cfg.DatabaseURL)
	if err != nil {
		return nil, fmt.Errorf("DATABASE_URL: %w", err)
	}
	if maxConns > 0 {
		pc.MaxConns = maxConns
	}
	pool, err := pgxpool.NewWithConfig(context.WithoutCancel(ctx), pc)
	if err != nil {
		return nil, fmt.Errorf("open database: %w", err)
	}
	if err := migrations.Migrate(ctx, pool); err != nil {
		pool.Close()
		return nil, err
	}
	logger.Info("database ready", "schema_version", migrations.Latest())
	return pool, nil
}

// Metrics starts the operator listener of METRICS_ADDR, serving /metrics
// until ctx ends, and returns its registry; nil when METRICS_ADDR is unset.
func Metrics(ctx context.Context, cfg config.Config, pool *pgxpool.Pool, logger *slog.Logger) (*metrics.Registry, error) {
	if cfg.MetricsAddr == "" {
		return nil, nil
	}
	reg := metrics.New()
	reg.WatchPool(pool)
	reg.WatchQueues(pool)
	ln, err := net.Listen("tcp", cfg.MetricsAddr)
	if err != nil {
		return nil, fmt.Errorf("METRICS_ADDR: %w", err)
	}
	go func() {
		if err := reg.Serve(ctx, ln, cfg.MetricsToken.Reveal(), logger); err != nil {
			logger.Error("metrics listener", "error", err)
		}
	}()
	return reg, nil
}

// RiverUI returns River UI's handler over client, mounted by the API at
// /api/admin/river for administrators, and starts its background work
// until ctx ends.
func RiverUI(ctx context.Context, client *river.Client[pgx.Tx], logger *slog.Logger) (http.Handler, error) {
	h, err := riverui.NewHandler(&riverui.HandlerOpts{
		Endpoints: riverui.NewEndpoints(client, nil),
		Logger:    logger,
		Prefix:    "/api/admin/river",
	})
	if err != nil {
		return nil, fmt.Errorf("river UI: %w", err)
	}
	if err := h.Start(ctx); err != nil {
		return nil, fmt.Errorf("river UI: %w", err)
	}
	return h, nil
}
