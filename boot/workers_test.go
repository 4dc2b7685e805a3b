package boot

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"

	"larder/config"
	"larder/importer/fetch"
	"larder/jobs"
	"larder/repo"
	"larder/repo/repotest"
)

// The workers a worker process runs (Workers, as cmd/worker and
// `api --workers` build them) reach other servers under the address rules
// of the configuration: with IMPORT_ALLOW_PRIVATE_ADDRESSES unset, a
// cookbook image "from a URL" on loopback is refused and the server never
// sees a request.
func TestWorkersRefusePrivateAddressesByDefault(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := repotest.DB(t)
	cfg, err := config.Load(func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	if cfg.ImportAllowPrivate {
		t.Fatal("private addresses must be closed by default")
	}
	cfg.Env = "test"
	dir := t.TempDir()
	cfg.DataDir, cfg.UploadPath, cfg.BackupPath = dir, dir+"/uploads", dir+"/backups"

	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	t.Cleanup(srv.Close)

	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	client, release, err := Workers(cfg, pool, logger, map[string]int{config.QueueImages: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(release)
	events, cancel := client.Subscribe(river.EventKindJobCompleted, river.EventKindJobCancelled, river.EventKindJobFailed)
	t.Cleanup(cancel)
	if err := client.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = jobs.Shutdown(client, 10*time.Second) })

	u := repotest.CreateUser(t, pool, repo.RoleUser)
	cb, err := repo.CreateCookbook(ctx, pool, u.ID, repo.CookbookInput{Name: "Pies"})
	if err != nil {
		t.Fatal(err)
	}
	if err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		_, err := jobs.QueueFromClient(client).Enqueue(ctx, tx, &u.ID,
			jobs.DownloadCookbookImageArgs{CookbookID: cb.ID, UserID: u.ID, URL: srv.URL + "/pie.png"})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	select {
	case ev := <-events:
		if ev.Kind != river.EventKindJobCancelled {
			t.Fatalf("job ended %s, want cancelled (refused)", ev.Kind)
		}
		var code *string
		if err := pool.QueryRow(ctx, `SELECT error_code FROM app_job WHERE river_job_id = $1`, ev.Job.ID).Scan(&code); err != nil {
			t.Fatal(err)
		}
		if code == nil || *code != fetch.CodeForbiddenAddress {
			got := "none"
			if code != nil {
				got = *code
			}
			t.Fatalf("error code %s, want %s", got, fetch.CodeForbiddenAddress)
		}
	case <-time.After(time.Minute): // a bound on a broken run, not a wait for time to pass
		t.Fatal("the job did not end within a minute")
	}
	if n := hits.Load(); n != 0 {
		t.Fatalf("the loopback server got %d requests", n)
	}
}
