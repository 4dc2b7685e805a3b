package boot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"

	"larder/config"
	"larder/importer"
	"larder/importer/browser"
	"larder/importer/fetch"
	"larder/jobs"
	"larder/mailer"
	"larder/metrics"
	"larder/storage"
)

// Workers builds the job dependencies and a River client working the given
// queues (name → concurrency). close releases what the dependencies hold
// (the browser, connections, the presence session); call it after the
// client has stopped.
func Workers(cfg config.Config, pool *pgxpool.Pool, logger *slog.Logger, queues map[string]int, reg *metrics.Registry) (client *river.Client[pgx.Tx], close func(), err error) {
	// One fetcher for every job that reaches other servers, so they share
	// its connection pool and its address rules.
	fc := fetch.New(fetch.Options{AllowPrivate: cfg.ImportAllowPrivate})
	im := &importer.Importer{Fetch: fc}
	if queues[config.QueueImport] > 0 {
		// Each import job renders at most one page at a time, so as many
		// tabs as the queue runs jobs are never waited for.
		r, err := browser.New(browser.Options{Fetch: fc, MaxTabs: queues[config.QueueImport], ExecPath: cfg.ChromiumPath, NoSandbox: !cfg.ChromiumSandbox})
		switch {
		case errors.Is(err, browser.ErrNotInstalled):
			logger.Warn("imports run without a browser: pages that refuse plain clients or need JavaScript will fail",
				"chromium_path", cfg.ChromiumPath, "error", err)
		case err != nil:
			return nil, nil, fmt.Errorf("start the import browser: %w", err)
		default:
			im.Browser = r
		}
	}
	release := func() {
		if im.Browser != nil {
			if err := im.Browser.Close(); err != nil {
				logger.Warn("close the import browser", "error", err)
			}
		}
		fc.CloseIdleConnections()
	}

	stores, err := storage.Open(cfg, pool)
	if err != nil {
		release()
		return nil, nil, err
	}
	// The process's proof of life, named by its River client ID: a restore
	// whose worker dies before it starts reads as interrupted at once.
	presence, err := jobs.OpenPresence(context.Background(), pool, logger)
	if err != nil {
		release()
		return nil, nil, err
	}
	closeAll := func() {
		presence.Close()
		release()
	}
	deps := &jobs.Deps{DB: pool, Logger: logger, Config: cfg, Mailer: mailer.New(cfg.SMTP, logger),
		Storage: stores, Fetcher: fc, Importer: im, Metrics: reg, Presence: presence}
	client, err = jobs.NewClient(pool, logger, jobs.NewWorkers(deps), jobs.ClientConfig{
		Concurrency: queues,
		RescueAfter: cfg.JobRescueAfter,
		Periodic:    jobs.PeriodicJobs(deps),
		Metrics:     reg,
		Presence:    presence,
	})
	if err != nil {
		closeAll()
		return nil, nil, err
	}
	return client, closeAll, nil
}
