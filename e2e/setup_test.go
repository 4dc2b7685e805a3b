// Package e2e drives Debian's Chromium through the built web client against
// the real service: the Fiber app and the River workers in this process, on
// a fresh PostgreSQL database, with a loopback SMTP server for the emails.
package e2e

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"larder/config"
	"larder/handlers"
	"larder/importer"
	"larder/importer/fetch"
	"larder/jobs"
	"larder/mailer"
	"larder/mailer/mailertest"
	"larder/repo/repotest"
	"larder/storage"
	"larder/token"
	"larder/web"
)

// chromiumPath is Debian's Chromium; no browser is downloaded.
const chromiumPath = "/usr/bin/chromium"

// requirements skips the test when the client is not built or Chromium is
// missing, except in CI, where both must be there and the test must run.
func requirements(t *testing.T) {
	t.Helper()
	ci := os.Getenv("CI") == "true"
	if web.Dist() == nil {
		if !ci {
			t.Skip("web/dist is not built (cd web && npm ci && npm run build)")
		}
		t.Fatal("web/dist is not built, and CI=true requires the end-to-end tests to run")
	}
	if _, err := os.Stat(chromiumPath); err != nil {
		if !ci {
			t.Skipf("%s is missing: %v", chromiumPath, err)
		}
		t.Fatalf("%s is missing, and CI=true requires the end-to-end tests to run: %v", chromiumPath, err)
	}
}

// service is one running instance of Larder.
type service struct {
	URL  string
	DB   *pgxpool.Pool
	SMTP *mailertest.Server
	Cfg  config.Config
}

// startService builds the service the way cmd/api --workers does, on a
// fresh database, and serves it on a loopback listener. Everything stops
// when the test ends.
func startService(t *testing.T) *service {
	t.Helper()
	name := repotest.NewDatabase(t)
	pcfg, err := pgxpool.ParseConfig(repotest.URLFor(name))
	if err != nil {
		t.Fatal(err)
	}
	pcfg.MaxConns = 16 // the workers, the API and a restore's own transaction
	pool, err := pgxpool.NewWithConfig(context.Background(), pcfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close) // registered after the drop, so it runs first

	smtp := mailertest.NewServer(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + ln.Addr().String()

	cfg, err := config.Load(func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cfg.Env = "test"
	cfg.DataDir, cfg.UploadPath, cfg.BackupPath = dir, dir+"/uploads", dir+"/backups"
	cfg.DatabaseURL = repotest.URLFor(name)
	cfg.AppURL, cfg.APIURL = base, base // email links point at this listener
	cfg.AuthRateLimit = 10000
	cfg.ImportAllowPrivate = true // the recipe page is on loopback
	cfg.SMTP = smtp.Config()

	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	if os.Getenv("TEST_LOG") != "" {
		logger = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}

	// Workers as boot.Workers builds them, without the import browser: the
	// test page carries JSON-LD, which the plain importer reads.
	fc := fetch.New(fetch.Options{AllowPrivate: cfg.ImportAllowPrivate})
	t.Cleanup(fc.CloseIdleConnections)
	// The stores as cmd/api opens them: images in the generation the
	// database names (a restore switches it).
	stores, err := storage.Open(cfg, pool)
	if err != nil {
		t.Fatal(err)
	}
	presence, err := jobs.OpenPresence(context.Background(), pool, logger)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(presence.Close) // after the workers have stopped
	deps := &jobs.Deps{DB: pool, Logger: logger, Config: cfg, Mailer: mailer.New(cfg.SMTP, logger),
		Storage: stores, Fetcher: fc, Importer: &importer.Importer{Fetch: fc}, Presence: presence}
	queues := map[string]int{}
	for _, q := range []string{config.QueueImport, config.QueueImages, config.QueueMapping, config.QueueEmail, config.QueueBackup} {
		queues[q] = 2
	}
	client, err := jobs.NewClient(pool, logger, jobs.NewWorkers(deps), jobs.ClientConfig{Concurrency: queues, Presence: presence})
	if err != nil {
		t.Fatal(err)
	}
	if err := client.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := jobs.Shutdown(client, 5*time.Second); err != nil {
			t.Errorf("stop workers: %v", err)
		}
	})

	// Live shopping lists, fed by the database's notifications as in cmd/api.
	listEvents := handlers.NewListEvents()
	followCtx, stopFollow := context.WithCancel(context.Background())
	go listEvents.Follow(followCtx, func(ctx context.Context) (*pgx.Conn, error) {
		return pgx.ConnectConfig(ctx, pool.Config().ConnConfig.Copy())
	}, logger)

	app := handlers.New(handlers.Deps{
		Config: cfg,
		DB:     pool,
		Queue:  jobs.QueueFromClient(client),
		Tokens: &token.Issuer{AccessSecret: []byte("e2e-access-secret"), RefreshSecret: []byte("e2e-refresh-secret"),
			AccessTTL: 15 * time.Minute, RefreshTTL: 7 * 24 * time.Hour},
		Logger:       logger,
		Version:      "e2e",
		Web:          web.Dist(),
		Storage:      stores,
		ListEvents:   listEvents,
		PasswordCost: 4, // bcrypt's minimum: the journey signs in several times
	})
	served := make(chan error, 1)
	go func() { served <- app.Listener(ln) }()
	t.Cleanup(func() {
		if err := app.ShutdownWithTimeout(5 * time.Second); err != nil {
			t.Errorf("stop http: %v", err)
		}
		if err := <-served; err != nil && !errors.Is(err, net.ErrClosed) {
			t.Errorf("serve: %v", err)
		}
	})
	// Registered last, so it runs first: the open event streams end, and the
	// shutdown above does not wait for them.
	t.Cleanup(stopFollow)

	// Wait until the listener answers, so the browser's first load is not a race.
	deadline := time.Now().Add(10 * time.Second)
	for {
		resp, err := http.Get(base + "/api/health")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the service at %s did not answer /api/health: %v", base, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	return &service{URL: base, DB: pool, SMTP: smtp, Cfg: cfg}
}
