// Command api serves the HTTP API and the web client. It only inserts jobs,
// unless started with --workers, which also runs every queue's workers in
// the same process (for single-machine installs).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"

	"larder"
	"larder/boot"
	"larder/config"
	"larder/handlers"
	"larder/jobs"
	"larder/storage"
	"larder/token"
	"larder/web"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "api:", err)
		os.Exit(1)
	}
}

func run() error {
	cfg := boot.Config(config.Tokens)
	fs := flag.NewFlagSet("api", flag.ExitOnError)
	withWorkers := fs.Bool("workers", false, "also run every queue's workers in this process")
	healthcheck := fs.Bool("healthcheck", false, "check this process's dependencies (and, for the API, its /api/ready) and exit 0 when healthy: the container health check")
	grace := fs.Duration("shutdown-grace", 30*time.Second, "how long in-flight requests and jobs may finish after SIGTERM")
	_ = fs.Parse(os.Args[1:])
	if *healthcheck {
		if err := boot.Healthcheck(cfg, true); err != nil {
			return fmt.Errorf("healthcheck: %w", err)
		}
		return nil
	}

	logger := boot.Logger(cfg, "api")
	generated, err := config.EnsureSecrets(&cfg)
	if err != nil {
		return err
	}
	if generated {
		logger.Warn("JWT_SECRET or JWT_REFRESH_SECRET not set: using secrets generated for development and kept under DATA_DIR", "data_dir", cfg.DataDir)
	}

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	pool, err := boot.Database(ctx, cfg, logger, 0)
	if err != nil {
		return err
	}
	defer pool.Close()

	reg, err := boot.Metrics(ctx, cfg, pool, logger)
	if err != nil {
		return err
	}
	var client *river.Client[pgx.Tx]
	queue, err := jobs.NewQueue(pool, logger)
	if err != nil {
		return err
	}
	if *withWorkers {
		var closeDeps func()
		client, closeDeps, err = boot.Workers(cfg, pool, logger, cfg.QueueConcurrency, reg)
		if err != nil {
			return err
		}
		defer closeDeps()
		if err := client.Start(context.WithoutCancel(ctx)); err != nil {
			return fmt.Errorf("start workers: %w", err)
		}
		queue = jobs.QueueFromClient(client)
		logger.Info("running workers in process", "queues", cfg.QueueConcurrency)
	}

	riverUI, err := boot.RiverUI(ctx, queue.Client(), logger)
	if err != nil {
		return err
	}
	stores, err := storage.Open(cfg, pool)
	if err != nil {
		return err
	}
	// Large uploads are spooled under DATA_DIR, where the sweep finds what
	// a killed process left.
	if err := boot.UseScratchAsTempDir(stores.Scratch); err != nil {
		return err
	}
	go boot.SweepScratch(ctx, stores.Scratch, logger)
	lists := handlers.NewListCache(cfg.RecipeListCache)
	go lists.Follow(ctx, func(ctx context.Context) (*pgx.Conn, error) {
		return pgx.ConnectConfig(ctx, pool.Config().ConnConfig.Copy())
	}, logger)

	listEvents := handlers.NewListEvents()
	go listEvents.Follow(ctx, func(ctx context.Context) (*pgx.Conn, error) {
		return pgx.ConnectConfig(ctx, pool.Config().ConnConfig.Copy())
	}, logger)

	webFS := web.Dist()
	if webFS == nil {
		logger.Warn("the web client is not built (run: npm --prefix web ci && npm --prefix web run build); serving the API only")
	}
	app := handlers.New(handlers.Deps{
		Config:     cfg,
		DB:         pool,
		Queue:      queue,
		Tokens:     tokenIssuer(cfg),
		Logger:     logger,
		Version:    larder.Version(),
		Web:        webFS,
		Storage:    stores,
		Metrics:    reg,
		RiverUI:    riverUI,
		ListCache:  lists,
		ListEvents: listEvents,
	})

	ln, err := net.Listen("tcp", cfg.ListenAddr)
	if err != nil {
		return fmt.Errorf("LISTEN_ADDR: %w", err)
	}
	logger.Info("listening", "addr", ln.Addr().String())
	served := make(chan error, 1)
	go func() { served <- app.Listener(ln) }()

	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	logger.Info("stopping: in-flight requests get a grace period", "grace", *grace)
	var errs []error
	if err := app.ShutdownWithTimeout(*grace); err != nil {
		errs = append(errs, fmt.Errorf("http shutdown: %w", err))
	}
	if client != nil {
		if err := jobs.Shutdown(client, *grace); err != nil {
			errs = append(errs, fmt.Errorf("workers shutdown: %w", err))
		}
	}
	return errors.Join(errs...)
}

// tokenIssuer signs and verifies the service's tokens as the configuration
// says: access tokens with JWT_SECRET for JWT_EXPIRES_IN (15 minutes by
// default), refresh tokens with JWT_REFRESH_SECRET for
// JWT_REFRESH_EXPIRES_IN (7 days). A function of its own so that a test
// holds the running service, not only the configuration, to those lifetimes.
func tokenIssuer(cfg config.Config) *token.Issuer {
	return &token.Issuer{
		AccessSecret: []byte(cfg.JWTSecret.Reveal()), RefreshSecret: []byte(cfg.JWTRefreshSecret.Reveal()),
		AccessTTL: cfg.JWTExpiresIn, RefreshTTL: cfg.JWTRefreshExpiresIn,
	}
}
