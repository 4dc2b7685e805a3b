package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/jackc/pgx/v5/pgxpool"

	"larder/backup"
	"larder/cmd/cmdtest"
	"larder/config"
	"larder/handlers"
	"larder/jobs"
	"larder/repo"
	"larder/repo/repotest"
	"larder/token"
)

// These tests run the real worker binary as a separate process against a
// test database, while the API runs in the test process: the production
// shape of the service, where the two share only PostgreSQL.

var workerBinary string

func TestMain(m *testing.M) { cmdtest.Main(m, "worker", &workerBinary) }

type bundle struct {
	dbName   string
	db       *pgxpool.Pool
	uploads  string
	backups  string
	app      *fiber.App
	tokenFor func(repo.User) string
	user     repo.User
	admin    repo.User
}

func setup(t *testing.T) *bundle {
	t.Helper()
	name := repotest.NewDatabase(t)
	cfg, err := config.Load(func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	uploads, backups := t.TempDir(), t.TempDir()
	cfg.UploadPath, cfg.BackupPath = uploads, backups
	cfg.ImportAllowPrivate = true // the image site is an httptest server on loopback
	api, err := pgxpool.New(context.Background(), repotest.URLFor(name))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(api.Close) // runs before the database is dropped
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	queue, err := jobs.NewQueue(api, logger)
	if err != nil {
		t.Fatal(err)
	}
	tokens := &token.Issuer{AccessSecret: []byte("a-secret"), RefreshSecret: []byte("r-secret"), AccessTTL: time.Hour, RefreshTTL: time.Hour}
	app := handlers.New(handlers.Deps{Config: cfg, DB: api, Queue: queue, Tokens: tokens, Logger: logger, Version: "test"})
	u := repotest.CreateUser(t, api, repo.RoleUser)
	admin := repotest.CreateUser(t, api, repo.RoleAdmin)
	return &bundle{dbName: name, db: api, uploads: uploads, backups: backups, app: app, user: u, admin: admin, tokenFor: func(u repo.User) string {
		tok, err := tokens.Access(u.ID, u.Role, u.SessionVersion)
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}}
}

func (b *bundle) call(t *testing.T, method, path string, body any) (int, map[string]any) {
	t.Helper()
	return b.callAs(t, b.user, method, path, body)
}

// callAs is call with user's token.
func (b *bundle) callAs(t *testing.T, user repo.User, method, path string, body any) (int, map[string]any) {
	t.Helper()
	var r io.Reader
	if body != nil {
		raw, _ := json.Marshal(body)
		r = bytes.NewReader(raw)
	}
	req := httptest.NewRequest(method, path, r)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+b.tokenFor(user))
	resp, err := b.app.Test(req, -1)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}

// startWorker runs the worker binary on the test database, working queues;
// env adds to (or overrides) its environment.
func (b *bundle) startWorker(t *testing.T, queues string, env ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(workerBinary, "--queues", queues, "--shutdown-grace", "5s")
	cmd.Env = append(os.Environ(),
		"DATABASE_URL="+repotest.URLFor(b.dbName),
		"UPLOAD_PATH="+b.uploads,
		"BACKUP_PATH="+b.backups,
		"DATA_DIR="+t.TempDir(),
		"IMPORT_ALLOW_PRIVATE_ADDRESSES=true",
		// A killed worker's job is rescued after the longer of the two:
		// seconds here, not the kinds' own minutes.
		"JOB_RESCUE_AFTER=2s",
		"JOB_TIME_LIMIT=5s",
		"LOG_LEVEL=warn",
	)
	cmd.Env = append(cmd.Env, env...) // the last of a name wins
	var logs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			_, _ = cmd.Process.Wait()
		}
		if t.Failed() {
			t.Logf("worker log:\n%s", logs.String())
		}
	})
	return cmd
}

// enqueueImageDownload creates a cookbook and asks the API to download its
// image from url: a real job inserted by a real route.
func (b *bundle) enqueueImageDownload(t *testing.T, url string) string {
	t.Helper()
	status, cb := b.call(t, "POST", "/api/cookbooks", map[string]any{"name": "Weeknights"})
	if status != 201 {
		t.Fatalf("create cookbook: %d %v", status, cb)
	}
	status, body := b.call(t, "POST", "/api/cookbooks/"+cb["id"].(string)+"/image/from-url", map[string]any{"url": url})
	if status != 202 {
		t.Fatalf("image from url: %d %v", status, body)
	}
	return body["job"].(map[string]any)["id"].(string)
}

// jobState reads a job as an administrator, who sees every user's jobs.
func (b *bundle) jobState(t *testing.T, id string) (string, map[string]any) {
	t.Helper()
	status, job := b.callAs(t, b.admin, "GET", "/api/jobs/"+id, nil)
	if status != 200 {
		t.Fatalf("get job: %d %v", status, job)
	}
	return job["state"].(string), job
}

func pngBytes(t *testing.T) []byte {
	img := image.NewRGBA(image.Rect(0, 0, 64, 48))
	for i := range img.Pix {
		img.Pix[i] = byte(i)
	}
	img.Set(0, 0, color.RGBA{255, 0, 0, 255})
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestJobMovesFromQueuedToRunningToCompleted(t *testing.T) {
	t.Parallel()
	b := setup(t)
	var requests atomic.Int32
	release := make(chan struct{})
	img := pngBytes(t)
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		<-release // hold the job in "running" until the test has seen it
		w.Header().Set("Content-Type", "image/png")
		_, _ = w.Write(img)
	}))
	defer site.Close()
	defer func() {
		select {
		case <-release:
		default:
			close(release)
		}
	}()

	id := b.enqueueImageDownload(t, site.URL+"/photo.png")
	if state, _ := b.jobState(t, id); state != "queued" {
		t.Fatalf("before any worker runs: %s, want queued", state)
	}

	b.startWorker(t, "images")
	cmdtest.WaitFor(t, "the worker to fetch the image", 30*time.Second, func() bool { return requests.Load() > 0 })
	if state, _ := b.jobState(t, id); state != "running" {
		t.Fatalf("while the worker fetches: %s, want running", state)
	}
	close(release)
	var job map[string]any
	cmdtest.WaitFor(t, "the job to complete", 30*time.Second, func() bool {
		var state string
		state, job = b.jobState(t, id)
		return state == "completed"
	})
	if job["result"] == nil || job["finishedAt"] == nil || job["error"] != nil {
		t.Fatalf("completed job: %v", job)
	}
}

func TestKilledWorkerDoesNotLoseItsJob(t *testing.T) {
	t.Parallel()
	b := setup(t)
	var requests atomic.Int32
	img := pngBytes(t)
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if requests.Add(1) == 1 {
			<-r.Context().Done() // the first worker dies mid-download
			return
		}
		w.Header().Set("Content-Type", "image/png")
		_, _ = w.Write(img)
	}))
	defer site.Close()

	id := b.enqueueImageDownload(t, site.URL+"/photo.png")
	first := b.startWorker(t, "images")
	cmdtest.WaitFor(t, "the first worker to start the job", 30*time.Second, func() bool { return requests.Load() == 1 })
	if state, _ := b.jobState(t, id); state != "running" {
		t.Fatalf("before the kill: %s, want running", state)
	}
	if err := first.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_, _ = first.Process.Wait()
	if state, _ := b.jobState(t, id); state != "running" {
		t.Fatalf("right after the kill River still thinks it runs: got %s", state)
	}

	// A second worker takes over leadership, River's rescuer finds the job
	// stuck past JOB_RESCUE_AFTER and JOB_TIME_LIMIT and makes it available
	// again: on its first run once the dead leader's term expires (15 s),
	// or on a later one (every 30 s, fixed in River).
	b.startWorker(t, "images")
	var job map[string]any
	// Well under the kinds' own 2 minutes: JOB_TIME_LIMIT must bound the wait.
	cmdtest.WaitFor(t, "another worker to complete the rescued job", 75*time.Second, func() bool {
		var state string
		state, job = b.jobState(t, id)
		return state == "completed"
	})
	if requests.Load() < 2 {
		t.Fatalf("the job completed without a second attempt (%d requests)", requests.Load())
	}
	if !strings.Contains(fmt.Sprint(job["result"]), "cookbookId") {
		t.Fatalf("result: %v", job["result"])
	}
}

// A worker killed while it writes a backup loses nothing: the half-written
// archive is never listed as a backup, and once JOB_TIME_LIMIT has passed
// another worker takes the job over and writes a whole one. (Without a
// time limit of its own, River would leave the job running for ever.)
func TestKilledWorkerDoesNotLoseItsBackup(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	status, body := b.callAs(t, b.admin, "POST", "/api/backups", nil)
	if status != 202 {
		t.Fatalf("create backup: %d %v", status, body)
	}
	id := body["job"].(map[string]any)["id"].(string)

	// Hold the first worker in the middle of its archive: it reports its
	// progress after the first table it dumps, synchronously, and that
	// update waits for this lock on the job's row.
	hold, err := b.db.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer hold.Rollback(ctx) //nolint:errcheck
	if _, err := hold.Exec(ctx, `SELECT 1 FROM app_job WHERE id = $1 FOR UPDATE`, id); err != nil {
		t.Fatal(err)
	}
	first := b.startWorker(t, "backup")
	cmdtest.WaitFor(t, "the first worker to be writing the archive", 30*time.Second, func() bool {
		var waiting bool
		if err := b.db.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_stat_activity
			WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE 'UPDATE app_job SET progress%')`).Scan(&waiting); err != nil {
			t.Fatal(err)
		}
		return waiting && len(tempFiles(t, b.backups)) > 0
	})
	if state, _ := b.jobState(t, id); state != "running" {
		t.Fatalf("before the kill: %s, want running", state)
	}
	if err := first.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_, _ = first.Process.Wait()
	if err := hold.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	// What the dead worker wrote stays, hidden: it is no backup.
	partial := tempFiles(t, b.backups)
	if len(partial) == 0 {
		t.Fatal("the killed worker left no partial archive: the test did not kill it mid-write")
	}
	if status, page := b.callAs(t, b.admin, "GET", "/api/backups", nil); status != 200 || page["total"] != float64(0) {
		t.Fatalf("after the kill the backups are %d %v, want none", status, page)
	}

	// As in TestKilledWorkerDoesNotLoseItsJob: another worker leads, and
	// its rescuer hands the job back once JOB_TIME_LIMIT (5 s, not the
	// kind's own hours) has passed.
	b.startWorker(t, "backup")
	var job map[string]any
	cmdtest.WaitFor(t, "another worker to complete the rescued backup", 75*time.Second, func() bool {
		var state string
		state, job = b.jobState(t, id)
		return state == "completed" || state == "failed"
	})
	if job["state"] != "completed" {
		t.Fatalf("rescued backup: %v", job)
	}
	name := job["result"].(map[string]any)["name"].(string)
	status, page := b.callAs(t, b.admin, "GET", "/api/backups", nil)
	items, _ := page["items"].([]any)
	if status != 200 || len(items) != 1 || items[0].(map[string]any)["name"] != name {
		t.Fatalf("backups after the rescue: %d %v, want just %s", status, page, name)
	}
	m, err := backup.Verify(filepath.Join(b.backups, name), backup.DefaultLimits)
	if err != nil {
		t.Fatalf("the rescued attempt's archive: %v", err)
	}
	if len(m.Tables) == 0 {
		t.Fatal("the rescued attempt's archive has no tables")
	}
}

// tempFiles lists the files being written (or left half-written) in dir.
func tempFiles(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".tmp-") {
			out = append(out, e.Name())
		}
	}
	return out
}

// A worker killed in the middle of a restore changes nothing and holds
// nothing: the API serves again within seconds (the lock went with the
// worker's session), the job reads as failed with code interrupted at
// once, though River still has it running (its rescuer would end it only
// after the kind's time limit, an hour here), and the administrator's
// second try, meanwhile, restores the backup.
func TestKilledWorkerDuringRestoreChangesNothing(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	// This worker's restore must outlast the test's hold on it; the
	// rescuer, on the next worker, keeps the usual 5 s.
	first := b.startWorker(t, "backup", "JOB_TIME_LIMIT=60s")
	name := b.createBackup(t)
	// Written after the backup: a restore removes it, a failed one must not.
	later := repotest.CreateUser(t, b.db, repo.RoleUser)

	// Hold the restore in its transaction: it waits to empty a table this
	// session reads.
	hold, err := b.db.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer hold.Rollback(ctx) //nolint:errcheck
	if _, err := hold.Exec(ctx, `LOCK TABLE recipe IN ACCESS SHARE MODE`); err != nil {
		t.Fatal(err)
	}
	restoreJob := b.startRestore(t, name)
	cmdtest.WaitFor(t, "the restore to wait for the table", 30*time.Second, func() bool {
		var waiting bool
		if err := b.db.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_stat_activity
			WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid())`).Scan(&waiting); err != nil {
			t.Fatal(err)
		}
		restoring, err := repo.RestoreInProgress(ctx, b.db)
		if err != nil {
			t.Fatal(err)
		}
		return waiting && restoring
	})
	// The API looks for the restore lock once a second; until it has seen
	// it, a request reading the tables would wait for the restore, so the
	// test asks for one that reads none.
	cmdtest.WaitFor(t, "the API to answer 503", 5*time.Second, func() bool {
		status, _ := b.call(t, "GET", "/api/openapi.json", nil)
		return status == 503
	})
	if err := first.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_, _ = first.Process.Wait()
	// The restore's session ends as soon as PostgreSQL sees its worker
	// gone, though the statement it ran was still waiting.
	cmdtest.WaitFor(t, "the API to serve again", 15*time.Second, func() bool {
		status, _ := b.call(t, "GET", "/api/openapi.json", nil)
		return status == 200
	})
	// Its transaction went too: nothing waits on its locks.
	if status, _ := b.call(t, "GET", "/api/recipes", nil); status != 200 {
		t.Fatalf("after the kill: %d", status)
	}
	if err := hold.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := repo.GetUser(ctx, b.db, later.ID); err != nil {
		t.Fatalf("the killed restore changed the data: %v", err)
	}
	b.requireRestoreInterrupted(t, restoreJob)
	b.restoreAgain(t, name, later, restoreJob)
}

// A worker killed right after River handed it a restore, before the
// restore claimed the job (restores claim on the worker's presence
// session, see jobs.Presence), has run nothing: the job reads as running
// while that worker lives, and as failed with code interrupted as soon as
// PostgreSQL has seen it die, though River still has it running (its
// rescuer would end it only after the kind's time limit); nothing was
// changed and the administrator's second try restores the backup.
func TestKilledWorkerBeforeItsRestoreStartedChangesNothing(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	maker := b.startWorker(t, "backup")
	name := b.createBackup(t)
	// Stopped, so the restore waits in the queue until the test is ready.
	if err := maker.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := maker.Wait(); err != nil {
		t.Fatalf("the backup worker's stop: %v", err)
	}
	later := repotest.CreateUser(t, b.db, repo.RoleUser)
	restoreJob := b.startRestore(t, name)

	// Hold the next worker's restore just before its claim: the claim
	// updates the job's row, and waits for this lock on it.
	hold, err := b.db.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer hold.Rollback(ctx) //nolint:errcheck
	if _, err := hold.Exec(ctx, `SELECT 1 FROM app_job WHERE id = $1 FOR UPDATE`, restoreJob); err != nil {
		t.Fatal(err)
	}
	// Its rescuer must not end the job while the test holds it.
	taker := b.startWorker(t, "backup", "JOB_TIME_LIMIT=60s")
	cmdtest.WaitFor(t, "the restore to wait to claim its job", 30*time.Second, func() bool {
		var waiting bool
		if err := b.db.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_stat_activity
			WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE 'UPDATE app_job%SET restore_lock_pid%')`).Scan(&waiting); err != nil {
			t.Fatal(err)
		}
		return waiting
	})
	if state, job := b.jobState(t, restoreJob); state != "running" {
		t.Fatalf("while its worker lives: %s %v, want running", state, job)
	}
	if err := taker.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_, _ = taker.Process.Wait()
	// PostgreSQL ends the presence session once it sees the worker gone,
	// though its statement was still waiting for the row.
	cmdtest.WaitFor(t, "the restore to read as interrupted", 15*time.Second, func() bool {
		state, _ := b.jobState(t, restoreJob)
		return state != "running"
	})
	b.requireRestoreInterrupted(t, restoreJob)
	if err := hold.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	// The claim can never follow: the job still reads as interrupted and
	// nothing was changed.
	b.requireRestoreInterrupted(t, restoreJob)
	if _, err := repo.GetUser(ctx, b.db, later.ID); err != nil {
		t.Fatalf("the killed restore changed the data: %v", err)
	}
	b.restoreAgain(t, name, later, restoreJob)
}

// createBackup makes a backup through the API, with a worker that works
// the backup queue, and returns its name.
func (b *bundle) createBackup(t *testing.T) string {
	t.Helper()
	status, body := b.callAs(t, b.admin, "POST", "/api/backups", nil)
	if status != 202 {
		t.Fatalf("create backup: %d %v", status, body)
	}
	backupJob := body["job"].(map[string]any)["id"].(string)
	var job map[string]any
	cmdtest.WaitFor(t, "the backup", 60*time.Second, func() bool {
		var state string
		state, job = b.jobState(t, backupJob)
		return state == "completed"
	})
	return job["result"].(map[string]any)["name"].(string)
}

// startRestore asks the API to restore backup name and returns the job's id.
func (b *bundle) startRestore(t *testing.T, name string) string {
	t.Helper()
	status, body := b.callAs(t, b.admin, "POST", "/api/backups/"+name+"/restore", nil)
	if status != 202 {
		t.Fatalf("restore: %d %v", status, body)
	}
	return body["job"].(map[string]any)["id"].(string)
}

// riverState is River's state of the job with public id.
func (b *bundle) riverState(t *testing.T, id string) string {
	t.Helper()
	var s string
	if err := b.db.QueryRow(context.Background(), `SELECT r.state::text FROM app_job j JOIN river_job r ON r.id = j.river_job_id
		WHERE j.id = $1`, id).Scan(&s); err != nil {
		t.Fatal(err)
	}
	return s
}

// requireRestoreInterrupted checks that the restore job id, whose worker
// was killed, reads as failed with code interrupted while River still has
// it running: the status is honest before River's rescuer gets to it.
func (b *bundle) requireRestoreInterrupted(t *testing.T, id string) {
	t.Helper()
	state, job := b.jobState(t, id)
	jobErr, _ := job["error"].(map[string]any)
	if state != "failed" || jobErr["code"] != "interrupted" || !strings.Contains(fmt.Sprint(jobErr["message"]), "nothing was changed") {
		t.Fatalf("killed restore: %v", job)
	}
	if s := b.riverState(t, id); s != "running" {
		t.Fatalf("River's row of the killed restore is %s: the test wanted to see the status honest before the rescuer", s)
	}
}

// restoreAgain is the administrator starting the restore of name again
// after the one of job killed lost its worker: nothing of the dead one
// stands in the way (the next worker's rescuer would end it only after an
// hour), the new one runs whole (the user created after the backup, later,
// is gone), and it records the dead one's end for good.
func (b *bundle) restoreAgain(t *testing.T, name string, later repo.User, killed string) {
	t.Helper()
	ctx := context.Background()
	b.startWorker(t, "backup", "JOB_TIME_LIMIT=1h")
	again := b.startRestore(t, name)
	var state string
	cmdtest.WaitFor(t, "the second restore", 60*time.Second, func() bool {
		// The restore ends every session: read the job from the database.
		if err := b.db.QueryRow(ctx, `SELECT CASE WHEN result IS NOT NULL THEN 'completed'
			WHEN error_code IS NOT NULL THEN error_code ELSE '' END FROM app_job WHERE id = $1`, again).Scan(&state); err != nil {
			t.Fatal(err)
		}
		return state != ""
	})
	if state != "completed" {
		t.Fatalf("second restore: %s", state)
	}
	if _, err := repo.GetUser(ctx, b.db, later.ID); !errors.Is(err, repo.ErrNotFound) {
		t.Fatalf("after the restore, the user created since the backup: %v, want gone", err)
	}
	var code string
	var finished bool
	if err := b.db.QueryRow(ctx, `SELECT coalesce(error_code, ''), finished_at IS NOT NULL FROM app_job WHERE id = $1`,
		killed).Scan(&code, &finished); err != nil {
		t.Fatal(err)
	}
	if code != "interrupted" || !finished {
		t.Errorf("the killed restore's record after the next restore: code %q, finished %v", code, finished)
	}
}
