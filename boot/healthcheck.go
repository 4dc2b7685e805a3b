package boot

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/jackc/pgx/v5"

	"larder/config"
	"larder/storage"
)

// Healthcheck is the binaries' --healthcheck: container images have no
// curl, so the binary itself answers the container engine's probe with its
// exit status. The API asks its own /api/ready (database, schema, store).
// A worker has no HTTP port: it asks its metrics listener when
// METRICS_ADDR is set, and otherwise checks what it needs to work, the
// database and the file store.
func Healthcheck(cfg config.Config, api bool) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if api {
		return probe(ctx, localURL(cfg.ListenAddr)+"/api/ready", "")
	}
	if cfg.MetricsAddr != "" {
		return probe(ctx, localURL(cfg.MetricsAddr)+"/metrics", cfg.MetricsToken.Reveal())
	}
	conn, err := pgx.Connect(ctx, cfg.DatabaseURL)
	if err != nil {
		return fmt.Errorf("database: %w", err)
	}
	defer conn.Close(ctx)
	stores, err := storage.Open(cfg, conn)
	if err != nil {
		return err
	}
	return stores.Check(ctx)
}

// localURL is the loopback address of a listen address (":8080" →
// http://127.0.0.1:8080).
func localURL(listen string) string {
	host, port, err := net.SplitHostPort(listen)
	if err != nil || host == "" || host == "0.0.0.0" || host == "::" {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port)
}

func probe(ctx context.Context, url, token string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s answered %s", url, resp.Status)
	}
	return nil
}
