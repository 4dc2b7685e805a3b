package backup

import (
	"archive/zip"
	"context"
	"errors"
	"io/fs"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"larder/migrations"
	"larder/repo"
	"larder/repo/repotest"
)

func exec(t *testing.T, db *pgxpool.Pool, sql string, args ...any) {
	t.Helper()
	if _, err := db.Exec(context.Background(), sql, args...); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

func count(t *testing.T, db *pgxpool.Pool, sql string, args ...any) int {
	t.Helper()
	var n int
	if err := db.QueryRow(context.Background(), sql, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return n
}

// The round trip: fill every table and the upload directory, back up,
// change and delete things, restore, and find every table and file as it
// was, by content.
func TestRoundTrip(t *testing.T) {
	t.Parallel()
	db := repotest.DB(t)
	d := newDirs(t)
	ctx := context.Background()

	// A table of this test's own covers what the base schema lacks: an
	// identity column (its sequence must move past the restored values),
	// a generated column (recomputed, not loaded) and a trigger that would
	// rewrite rows on insert (switched off while loading).
	exec(t, db, `CREATE TABLE zz_counter (
		id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
		label text NOT NULL,
		shout text GENERATED ALWAYS AS (upper(label)) STORED,
		touched int NOT NULL DEFAULT 0);
	CREATE FUNCTION zz_touch() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN NEW.touched := NEW.touched + 1; RETURN NEW; END $$;
	CREATE TRIGGER zz_touch BEFORE INSERT ON zz_counter FOR EACH ROW EXECUTE FUNCTION zz_touch();
	INSERT INTO zz_counter (label) VALUES ('one'), ('two'), ('three');`)
	fill(t, db)
	wantFiles := writeUploads(t, d.uploads)
	// The store's temp files, links and stray names are not backed up (and
	// are gone after the restore, which replaces the directory).
	writeStrays(t, d.uploads)
	wantRows := snapshot(t, db)
	var maxVersion int
	if err := db.QueryRow(ctx, "SELECT max(session_version) FROM app_user").Scan(&maxVersion); err != nil {
		t.Fatal(err)
	}

	var progress []float64
	info, err := Create(ctx, db, CreateOptions{Backups: d.backupStore(), Files: d.files(db),
		Progress: func(f float64) { progress = append(progress, f) }})
	if err != nil {
		t.Fatal(err)
	}
	if !ValidName(info.Name) || info.Size == 0 || time.Since(info.CreatedAt) > time.Minute {
		t.Fatalf("backup info %+v", info)
	}
	if len(progress) == 0 || progress[len(progress)-1] != 1 {
		t.Errorf("create progress %v, want it to end at 1", progress)
	}
	list, err := List(context.Background(), d.backupStore())
	if err != nil || len(list) != 1 || list[0] != info {
		t.Fatalf("list after create: %+v, %v (want %+v)", list, err, info)
	}
	m, err := Verify(filepath.Join(d.backups, info.Name), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if m.SchemaVersion != migrations.Latest() || m.Files != len(wantFiles) || m.ReleaseVersion == "" || m.Scheduled {
		t.Errorf("manifest %+v", m)
	}
	for _, tb := range m.Tables {
		if tb.Name == "recipe" && tb.Rows != 3 || tb.Name == "app_user" && tb.Rows != 3 || tb.Name == "zz_counter" && tb.Rows != 3 {
			t.Errorf("manifest counts %d rows in %s", tb.Rows, tb.Name)
		}
		if tb.Name == "app_job" || tb.Name == "schema_migration" || tb.Name[:min(6, len(tb.Name))] == "river_" {
			t.Errorf("table %s must not be backed up", tb.Name)
		}
	}

	// Change everything after the backup.
	exec(t, db, `UPDATE app_user SET name = 'Changed' WHERE id = $1`, userBob)
	exec(t, db, `DELETE FROM recipe WHERE title = 'Chocolate cake'`)
	exec(t, db, `INSERT INTO recipe (owner_id, title) VALUES ($1, 'Added later')`, userCleo)
	exec(t, db, `DELETE FROM app_user WHERE id = $1`, userCleo)
	exec(t, db, `INSERT INTO tag (name) VALUES ('new tag')`)
	exec(t, db, `INSERT INTO zz_counter (label) VALUES ('four')`)
	exec(t, db, `UPDATE app_user SET session_version = 40 WHERE id = $1`, userBob)
	exec(t, db, `INSERT INTO refresh_token (id, user_id, token_hash, family_id, expires_at) VALUES (gen_random_uuid(), $1, '\xaa', gen_random_uuid(), now() + interval '1 day')`, userBob)
	exec(t, db, `INSERT INTO app_job (river_job_id, user_id, kind) VALUES (900003, $1, 'backup_create')`, userBob)
	if err := os.Remove(filepath.Join(d.uploads, "recipes", "ab", "cake.jpg")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(d.uploads, "recipes", "cd", "brulee.webp"), []byte("overwritten"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(d.uploads, "new.jpg"), []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	jobsBefore := count(t, db, "SELECT count(*) FROM app_job")

	var restoreProgress []float64
	var mu sync.Mutex
	o := d.restoreOpts(db)
	o.Progress = func(f float64) { mu.Lock(); restoreProgress = append(restoreProgress, f); mu.Unlock() }
	res, err := Restore(ctx, db, info.Name, o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Name != info.Name || res.Files != len(wantFiles) || res.SchemaVersion != m.SchemaVersion || res.MigratedTo != m.SchemaVersion {
		t.Errorf("restore result %+v", res)
	}
	mu.Lock()
	if len(restoreProgress) == 0 || restoreProgress[len(restoreProgress)-1] != 1 {
		t.Errorf("restore progress %v, want it to end at 1", restoreProgress)
	}
	mu.Unlock()

	diffSnapshots(t, wantRows, snapshot(t, db))
	// The dump is generic (every column of every table); a recipe's
	// servings unit (migration 0460) is one of the columns it carries.
	if n := count(t, db, `SELECT count(*) FROM recipe WHERE title = 'Crème brûlée' AND servings = 4 AND servings_unit = 'ramekins'`); n != 1 {
		t.Errorf("the servings unit did not survive the restore")
	}
	diffTrees(t, wantFiles, d.tree(t, db))
	if left := d.leftovers(t, db); len(left) > 0 {
		t.Errorf("left next to the upload directory: %v", left)
	}

	// Every session issued before the restore is over.
	if n := count(t, db, "SELECT count(*) FROM refresh_token"); n != 0 {
		t.Errorf("%d refresh tokens survived the restore", n)
	}
	if n := count(t, db, "SELECT count(*) FROM verification_token WHERE purpose = 'reset_password'"); n != 0 {
		t.Errorf("%d password-reset tokens survived the restore", n)
	}
	if n := count(t, db, "SELECT count(*) FROM app_user WHERE session_version <= greatest($1::int, 40)", maxVersion); n != 0 {
		t.Errorf("%d users kept a session version an old token could carry", n)
	}
	// Job records stay: Bob's (he exists in the backup) and the system's.
	// Cleo had none; all jobs survive here.
	if n := count(t, db, "SELECT count(*) FROM app_job"); n != jobsBefore {
		t.Errorf("app_job has %d rows after the restore, %d before", n, jobsBefore)
	}
	// The identity sequence continues above the restored rows.
	var id int64
	if err := db.QueryRow(ctx, `INSERT INTO zz_counter (label) VALUES ('after') RETURNING id`).Scan(&id); err != nil {
		t.Fatal(err)
	}
	if id <= 3 {
		t.Errorf("identity restarted at %d, colliding with restored rows", id)
	}
	// The trigger is on again.
	if n := count(t, db, `SELECT touched FROM zz_counter WHERE label = 'after'`); n != 1 {
		t.Errorf("trigger not re-enabled: touched = %d", n)
	}
	// The restore lock is released.
	if held, err := repo.RestoreInProgress(ctx, db); err != nil || held {
		t.Errorf("restore lock still held: %v %v", held, err)
	}
}

// A backup taken on one server restores into a fresh one (a move).
func TestRestoreIntoAnotherDatabase(t *testing.T) {
	t.Parallel()
	src, dst := repotest.DB(t), repotest.DB(t)
	d := newDirs(t)
	fill(t, src)
	wantFiles := writeUploads(t, d.uploads)
	want := snapshot(t, src)
	info := d.create(t, src)

	other := newDirs(t)
	if err := os.MkdirAll(other.backups, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(filepath.Join(d.backups, info.Name), filepath.Join(other.backups, info.Name)); err != nil {
		t.Fatal(err)
	}
	// The default threshold: the fixture's small tables keep their
	// indexes and keys while loading.
	if _, err := Restore(context.Background(), dst, info.Name, RestoreOptions{Backups: other.backupStore(), Files: other.files(dst)}); err != nil {
		t.Fatal(err)
	}
	diffSnapshots(t, want, snapshot(t, dst))
	diffTrees(t, wantFiles, other.tree(t, dst))
}

// A failure halfway through loading (after a few tables) leaves the
// database and the files exactly as they were.
func TestRestoreFailureHalfwayChangesNothing(t *testing.T) {
	t.Parallel()
	db := repotest.DB(t)
	d := newDirs(t)
	fill(t, db)
	writeUploads(t, d.uploads)
	info := d.create(t, db)
	exec(t, db, `UPDATE recipe SET title = 'After the backup'`)
	exec(t, db, `DELETE FROM tag WHERE name = 'Sweet'`)
	if err := os.WriteFile(filepath.Join(d.uploads, "after.jpg"), []byte("after"), 0o644); err != nil {
		t.Fatal(err)
	}
	want, wantFiles := exactSnapshot(t, db), d.tree(t, db)

	for _, after := range []int{1, 5, 12} {
		loaded := 0
		injected := errors.New("injected failure")
		o := d.restoreOpts(db)
		o.AfterTable = func(string) error {
			if loaded++; loaded == after {
				return injected
			}
			return nil
		}
		_, err := Restore(context.Background(), db, info.Name, o)
		if !errors.Is(err, injected) {
			t.Fatalf("after %d tables: err %v, want the injected failure", after, err)
		}
		diffSnapshots(t, want, exactSnapshot(t, db))
		diffTrees(t, wantFiles, d.tree(t, db))
		if left := d.leftovers(t, db); len(left) > 0 {
			t.Errorf("left next to the upload directory: %v", left)
		}
	}

	// The last moment: what runs in the transaction just before the commit
	// (a job recording its result) fails; what it wrote goes too.
	injected := errors.New("injected failure before the commit")
	o := d.restoreOpts(db)
	var seen RestoreResult
	o.BeforeCommit = func(ctx context.Context, tx pgx.Tx, res RestoreResult) error {
		seen = res
		if _, err := tx.Exec(ctx, `INSERT INTO tag (name) VALUES ('written before the commit')`); err != nil {
			return err
		}
		return injected
	}
	if _, err := Restore(context.Background(), db, info.Name, o); !errors.Is(err, injected) {
		t.Fatalf("failure before the commit: err %v, want the injected failure", err)
	}
	if seen.Name != info.Name || seen.Tables == 0 || seen.Rows == 0 {
		t.Errorf("BeforeCommit was given %+v, want the whole result", seen)
	}
	diffSnapshots(t, want, exactSnapshot(t, db))
	diffTrees(t, wantFiles, d.tree(t, db))
	if left := d.leftovers(t, db); len(left) > 0 {
		t.Errorf("left next to the upload directory: %v", left)
	}
}

// While a restore runs, its lock is visible (the API's 503) and a second
// restore is refused; once it ends, the lock is gone.
func TestRestoreLock(t *testing.T) {
	t.Parallel()
	db := repotest.DB(t)
	d := newDirs(t)
	fill(t, db)
	info := d.create(t, db)
	ctx := context.Background()

	inside, release := make(chan struct{}), make(chan struct{})
	o := d.restoreOpts(db)
	first := true
	o.AfterTable = func(string) error {
		if first {
			first = false
			close(inside)
			<-release
		}
		return nil
	}
	done := make(chan error, 1)
	go func() {
		_, err := Restore(ctx, db, info.Name, o)
		done <- err
	}()
	<-inside
	if held, err := repo.RestoreInProgress(ctx, db); err != nil || !held {
		t.Errorf("during a restore: held %v, %v", held, err)
	}
	if _, err := Restore(ctx, db, info.Name, d.restoreOpts(db)); !errors.Is(err, ErrRestoreRunning) {
		t.Errorf("second restore: %v, want ErrRestoreRunning", err)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if held, err := repo.RestoreInProgress(ctx, db); err != nil || held {
		t.Errorf("after the restore: held %v, %v", held, err)
	}

	// A lock the caller took stays held after the restore, until the
	// caller has recorded the outcome and gives it up.
	lock, err := LockRestore(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	o = d.restoreOpts(db)
	o.Lock = lock
	if _, err := Restore(ctx, db, info.Name, o); err != nil {
		t.Fatal(err)
	}
	if held, err := repo.RestoreInProgress(ctx, db); err != nil || !held {
		t.Errorf("after a restore under the caller's lock: held %v, %v", held, err)
	}
	if _, err := LockRestore(ctx, db); !errors.Is(err, ErrRestoreRunning) {
		t.Errorf("lock while the caller holds it: %v, want ErrRestoreRunning", err)
	}
	lock.Release()
	lock.Release() // twice is harmless
	if held, err := repo.RestoreInProgress(ctx, db); err != nil || held {
		t.Errorf("after the caller's release: held %v, %v", held, err)
	}
}

// A worker killed while its restore runs a long statement (an index
// rebuild) does not hold the lock, and the API's 503, until the statement
// ends: the session notices within seconds that its client is gone.
func TestRestoreLockDiesWithItsClientMidStatement(t *testing.T) {
	t.Parallel()
	db := repotest.DB(t)
	ctx := context.Background()
	// The lock holder is this test binary again, in a process of its own
	// (restoreLockHolder), so that it can be killed outright.
	holder := osexec.Command(os.Args[0], "-test.run=^TestRestoreLockHolderProcess$")
	holder.Env = append(os.Environ(), "RESTORE_LOCK_HOLDER_DB="+db.Config().ConnString())
	if err := holder.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = holder.Process.Kill(); _, _ = holder.Process.Wait() })
	var pid int
	waitUntil(t, "the holder to run its long statement under the lock", 30*time.Second, func() bool {
		err := db.QueryRow(ctx, `SELECT pid FROM pg_stat_activity
			WHERE datname = current_database() AND state = 'active' AND query LIKE 'SELECT pg_sleep%'`).Scan(&pid)
		if errors.Is(err, pgx.ErrNoRows) {
			return false
		}
		if err != nil {
			t.Fatal(err)
		}
		return true
	})
	if held, err := repo.RestoreInProgress(ctx, db); err != nil || !held {
		t.Fatalf("the holder has no lock: %v %v", held, err)
	}
	if err := holder.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_, _ = holder.Process.Wait()
	// Far less than the statement's two minutes.
	waitUntil(t, "the lock to be released", 30*time.Second, func() bool {
		held, err := repo.RestoreInProgress(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		return !held
	})
}

// TestRestoreLockHolderProcess is the process TestRestoreLockDiesWithItsClientMidStatement
// kills: it takes the restore lock and runs a statement of two minutes.
func TestRestoreLockHolderProcess(t *testing.T) {
	url := os.Getenv("RESTORE_LOCK_HOLDER_DB")
	if url == "" {
		t.Skip("run by TestRestoreLockDiesWithItsClientMidStatement")
	}
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := repo.TryLockRestore(ctx, conn); err != nil || !ok {
		t.Fatalf("lock: %v %v", ok, err)
	}
	_, _ = conn.Exec(ctx, "SELECT pg_sleep(120)")
}

// After a restore its connection goes back to the pool as it came.
func TestRestoreUnlockResetsTheSession(t *testing.T) {
	t.Parallel()
	db := repotest.DB(t)
	ctx := context.Background()
	conn, err := db.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	setting := func() string {
		var v string
		if err := conn.QueryRow(ctx, "SHOW client_connection_check_interval").Scan(&v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	before := setting()
	if ok, err := repo.TryLockRestore(ctx, conn); err != nil || !ok {
		t.Fatalf("lock: %v %v", ok, err)
	}
	if setting() == before {
		t.Fatalf("the restore's session does not check on its client (%s)", before)
	}
	if err := repo.UnlockRestore(ctx, conn); err != nil {
		t.Fatal(err)
	}
	if got := setting(); got != before {
		t.Fatalf("after the restore: %s, want %s", got, before)
	}
}

// waitUntil polls cond until it holds, failing after limit.
func waitUntil(t *testing.T, what string, limit time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A crashed restore (its session gone) does not leave the lock behind.
func TestRestoreLockDiesWithSession(t *testing.T) {
	t.Parallel()
	db := repotest.DB(t)
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, db.Config().ConnString())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if ok, err := repo.TryLockRestore(ctx, conn); err != nil || !ok {
		t.Fatalf("lock: %v %v", ok, err)
	}
	if held, _ := repo.RestoreInProgress(ctx, db); !held {
		t.Fatal("lock not visible")
	}
	// Kill the session the way a crashed worker loses it.
	var pid int
	if err := conn.QueryRow(ctx, "SELECT pg_backend_pid()").Scan(&pid); err != nil {
		t.Fatal(err)
	}
	exec(t, db, "SELECT pg_terminate_backend($1)", pid)
	deadline := time.Now().Add(5 * time.Second)
	for {
		held, err := repo.RestoreInProgress(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		if !held {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the lock outlived its session")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A backup of an older schema version is restored and migrated forward.
// The test plays a later release: it adds a migration to the target
// database and to the migrations the restore knows.
func TestRestoreOlderSchemaMigratesForward(t *testing.T) {
	t.Parallel()
	src, dst := repotest.DB(t), repotest.DB(t)
	d := newDirs(t)
	fill(t, src)
	wantFiles := writeUploads(t, d.uploads)
	want := snapshot(t, src)
	info := d.create(t, src)

	all, err := migrations.All()
	if err != nil {
		t.Fatal(err)
	}
	latest := all[len(all)-1].Version
	next := migrations.Migration{Version: latest + 1, Name: "tag_slug", SQL: `
		ALTER TABLE tag ADD COLUMN slug text NOT NULL DEFAULT '';
		UPDATE tag SET slug = lower(replace(name, ' ', '-'));`}
	exec(t, dst, next.SQL)
	exec(t, dst, `INSERT INTO schema_migration (version, name) VALUES ($1, $2)`, next.Version, next.Name)
	exec(t, dst, `INSERT INTO tag (name) VALUES ('only in the target')`)

	o := d.restoreOpts(dst)
	o.Migrations = append(all, next)
	res, err := Restore(context.Background(), dst, info.Name, o)
	if err != nil {
		t.Fatal(err)
	}
	if res.SchemaVersion != latest || res.MigratedTo != latest+1 {
		t.Errorf("result %+v", res)
	}
	got := snapshot(t, dst)
	// The migration's effect shows in tag; strip it to compare the rest.
	rows, err := dst.Query(context.Background(), `SELECT name, slug FROM tag ORDER BY name`)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for rows.Next() {
		var name, slug string
		if err := rows.Scan(&name, &slug); err != nil {
			t.Fatal(err)
		}
		n++
		if name == "Quick & easy" && slug != "quick-&-easy" || name == "Sweet" && slug != "sweet" {
			t.Errorf("tag %q has slug %q: the migration did not run on the restored rows", name, slug)
		}
	}
	if n != 2 {
		t.Errorf("%d tags after the restore, want the backup's 2", n)
	}
	delete(got, "tag")
	delete(want, "tag")
	diffSnapshots(t, want, got)
	diffTrees(t, wantFiles, d.tree(t, dst))
	// Nothing of the scratch schema is left.
	if n := count(t, dst, `SELECT count(*) FROM pg_namespace WHERE nspname LIKE 'larder_restore_%'`); n != 0 {
		t.Errorf("%d scratch schemas left", n)
	}
}

// Scheduled backups beyond BACKUP_KEEP are pruned; others never are.
func TestPrune(t *testing.T) {
	t.Parallel()
	db := repotest.DB(t)
	d := newDirs(t)
	base := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	var scheduled []string
	for i := range 5 {
		now := base.Add(time.Duration(i) * time.Hour)
		info, err := Create(context.Background(), db, CreateOptions{Backups: d.backupStore(), Files: d.files(db),
			Scheduled: i != 2, Now: func() time.Time { return now }})
		if err != nil {
			t.Fatal(err)
		}
		if i != 2 {
			scheduled = append(scheduled, info.Name)
		}
	}
	removed, err := Prune(context.Background(), d.backupStore(), 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(removed) != 2 || removed[0] != scheduled[1] || removed[1] != scheduled[0] {
		t.Errorf("removed %v, want the two oldest scheduled of %v", removed, scheduled)
	}
	list, _ := List(context.Background(), d.backupStore())
	if len(list) != 3 || list[0].Name != scheduled[3] || list[1].Name != scheduled[2] || list[2].Name != NameFor(base.Add(2*time.Hour)) {
		t.Errorf("left %+v", list)
	}
}

// Two backups in the same second get different names; neither is overwritten.
func TestCreateSameSecond(t *testing.T) {
	t.Parallel()
	db := repotest.DB(t)
	d := newDirs(t)
	now := time.Date(2025, 6, 7, 8, 9, 10, 0, time.UTC)
	clock := func() time.Time { return now }
	a, err := Create(context.Background(), db, CreateOptions{Backups: d.backupStore(), Files: d.files(db), Now: clock})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Create(context.Background(), db, CreateOptions{Backups: d.backupStore(), Files: d.files(db), Now: clock})
	if err != nil {
		t.Fatal(err)
	}
	if a.Name != "backup-20250607T080910Z.zip" || b.Name != "backup-20250607T080911Z.zip" {
		t.Errorf("names %s, %s", a.Name, b.Name)
	}
	entries, _ := os.ReadDir(d.backups)
	if len(entries) != 2 {
		t.Errorf("%d files in the backup directory (temp files left?)", len(entries))
	}
}

// Every refused archive leaves the database and the files exactly as they
// were, and nothing next to the upload directory; the refusal says why.
func TestRestoreRefusalsChangeNothing(t *testing.T) {
	t.Parallel()
	db := repotest.DB(t)
	d := newDirs(t)
	fill(t, db)
	writeUploads(t, d.uploads)
	info := d.create(t, db)
	entries, manifest := readEntries(t, filepath.Join(d.backups, info.Name))
	// Things change after the backup, so a restore would be visible.
	exec(t, db, `UPDATE recipe SET title = 'After the backup'`)
	if err := os.WriteFile(filepath.Join(d.uploads, "after.jpg"), []byte("after"), 0o644); err != nil {
		t.Fatal(err)
	}
	want, wantFiles := exactSnapshot(t, db), d.tree(t, db)

	clone := func() ([]testEntry, Manifest) {
		e := make([]testEntry, len(entries))
		copy(e, entries)
		m := manifest
		m.Tables = append([]Table(nil), manifest.Tables...)
		m.Entries = append([]Entry(nil), manifest.Entries...)
		return e, m
	}
	lastUpload := func(e []testEntry) int {
		for i := len(e) - 1; i >= 0; i-- {
			if strings.HasPrefix(e[i].name, filesPrefix) {
				return i
			}
		}
		t.Fatal("no upload entry")
		return 0
	}
	tests := []struct {
		name  string
		build func(p string)
		code  string
		want  string
	}{
		{"zip slip", func(p string) {
			e, m := clone()
			writeArchive(t, p, append(e, testEntry{name: "uploads/../../../evil.txt", data: []byte("x")}), &m, true)
		}, "backup_invalid", "climbs out"},
		{"absolute path", func(p string) {
			e, m := clone()
			writeArchive(t, p, append(e, testEntry{name: "/tmp/evil.txt", data: []byte("x")}), &m, true)
		}, "backup_invalid", "absolute"},
		{"symlink", func(p string) {
			e, m := clone()
			writeArchive(t, p, append(e, testEntry{name: "uploads/recipes/evil.jpg", data: []byte("/etc/passwd"), mode: fs.ModeSymlink | 0o777}), &m, true)
		}, "backup_invalid", "not a regular file"},
		// Only the image kinds the service writes are restored, checked by
		// content: a page would run script on the service's own origin.
		{"an HTML page", func(p string) {
			e, m := clone()
			writeArchive(t, p, append(e, testEntry{name: "uploads/evil.html", data: []byte("<script>fetch('/api/auth/refresh')</script>")}), &m, true)
		}, "backup_invalid", "not an image the service stores"},
		{"an SVG image", func(p string) {
			e, m := clone()
			writeArchive(t, p, append(e, testEntry{name: "uploads/recipes/ab/evil.svg", data: []byte(`<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`)}), &m, true)
		}, "backup_invalid", "not an image the service stores"},
		{"a page named as a JPEG", func(p string) {
			e, m := clone()
			writeArchive(t, p, append(e, testEntry{name: "uploads/recipes/ab/evil.jpg", data: []byte("<html><script>alert(1)</script>")}), &m, true)
		}, "backup_invalid", "content is not one"},
		{"a PNG named as a JPEG", func(p string) {
			e, m := clone()
			writeArchive(t, p, append(e, testEntry{name: "uploads/recipes/ab/other.jpg", data: imageBytes(t, ".png", 100)}), &m, true)
		}, "backup_invalid", "content is not one"},
		{"checksum mismatch in the last file", func(p string) {
			e, m := clone()
			i := lastUpload(e)
			e[i].data = append([]byte(nil), e[i].data...)
			e[i].data[len(e[i].data)/2] ^= 1
			writeArchive(t, p, e, &m, false)
		}, "backup_invalid", "SHA-256"},
		{"checksum mismatch in a table dump", func(p string) {
			e, m := clone()
			for i := range e {
				if e[i].name == "database/verification_token.copy" {
					e[i].data = []byte(strings.Replace(string(e[i].data), "verify_email", "verify_emaiL", 1))
				}
			}
			writeArchive(t, p, e, &m, false)
		}, "backup_invalid", "SHA-256"},
		{"newer schema version", func(p string) {
			e, m := clone()
			m.SchemaVersion = migrations.Latest() + 1
			writeArchive(t, p, e, &m, true)
		}, "backup_newer_schema", "newer release"},
		{"truncated", func(p string) {
			if err := os.Link(filepath.Join(d.backups, info.Name), p+".full"); err != nil {
				t.Fatal(err)
			}
			data, _ := os.ReadFile(p + ".full")
			os.Remove(p + ".full")
			os.WriteFile(p, data[:len(data)*2/3], 0o600)
		}, "backup_invalid", "truncated"},
		{"zip bomb", func(p string) {
			e, m := clone()
			writeArchive(t, p, append(e, testEntry{name: "uploads/recipes/bomb.jpg", data: make([]byte, 8<<20), method: zip.Deflate}), &m, true)
		}, "backup_invalid", "ZIP bomb"},
		{"a table missing", func(p string) {
			e, m := clone()
			m.Tables = m.Tables[1:]
			var kept []testEntry
			for _, x := range e {
				if x.name != manifest.Tables[0].Entry {
					kept = append(kept, x)
				}
			}
			writeArchive(t, p, kept, &m, true)
		}, "backup_incompatible", "has no table"},
		{"row count differs from the manifest", func(p string) {
			e, m := clone()
			m.Tables[len(m.Tables)-1].Rows++
			writeArchive(t, p, e, &m, true)
		}, "backup_invalid", "rows but the manifest says"},
	}
	base := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	for i, tt := range tests {
		name := NameFor(base.Add(time.Duration(i) * time.Hour))
		tt.build(filepath.Join(d.backups, name))
		_, err := Restore(context.Background(), db, name, d.restoreOpts(db))
		var r *Refusal
		if !errors.As(err, &r) || r.Code != tt.code || !strings.Contains(r.Message, tt.want) {
			t.Errorf("%s: %v, want %s containing %q", tt.name, err, tt.code, tt.want)
		}
		diffSnapshots(t, want, exactSnapshot(t, db))
		diffTrees(t, wantFiles, d.tree(t, db))
		if left := d.leftovers(t, db); len(left) > 0 {
			t.Errorf("%s: left next to the upload directory: %v", tt.name, left)
		}
		if _, err := os.Stat(filepath.Join(filepath.Dir(d.uploads), "evil.txt")); err == nil {
			t.Fatalf("%s: a file was written outside the upload directory", tt.name)
		}
	}

	// Names are checked before anything else.
	for _, bad := range []string{"../" + info.Name, info.Name + "/../../x", "backup-x.zip", "/etc/passwd", ""} {
		if _, err := Restore(context.Background(), db, bad, d.restoreOpts(db)); !errors.Is(err, ErrInvalidName) {
			t.Errorf("name %q: %v, want ErrInvalidName", bad, err)
		}
	}
	if _, err := Restore(context.Background(), db, "backup-19990101T000000Z.zip", d.restoreOpts(db)); !errors.Is(err, ErrNotFound) {
		t.Errorf("missing backup: %v", err)
	}
	diffSnapshots(t, want, exactSnapshot(t, db))
}

// TRUNCATE is not MVCC-safe: a backup whose snapshot predates a concurrent
// TRUNCATE (a restore) would read the table empty. Create locks its tables
// before taking the snapshot, so it waits and then reads the new rows.
func TestCreateIsConsistentWithAConcurrentTruncate(t *testing.T) {
	t.Parallel()
	db := repotest.DB(t)
	d := newDirs(t)
	fill(t, db)
	ctx := context.Background()
	tx, err := db.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx) //nolint:errcheck
	if _, err := tx.Exec(ctx, `TRUNCATE recipe_share`); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, `INSERT INTO recipe_share (recipe_id, user_id) VALUES ('00000000-0000-4000-8000-0000000000a1', $1)`, userCleo); err != nil {
		t.Fatal(err)
	}
	done := make(chan Info, 1)
	go func() {
		info, err := Create(ctx, db, CreateOptions{Backups: d.backupStore(), Files: d.files(db)})
		if err != nil {
			t.Error(err)
		}
		done <- info
	}()
	// Wait until the backup waits for the truncating transaction.
	deadline := time.Now().Add(10 * time.Second)
	for count(t, db, `SELECT count(*) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation WHERE NOT l.granted AND c.relname = 'recipe_share'`) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the backup never waited for the lock")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	info := <-done
	m, err := Verify(filepath.Join(d.backups, info.Name), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tb := range m.Tables {
		if tb.Name == "recipe_share" && tb.Rows != 1 {
			t.Errorf("recipe_share has %d rows in the backup, want the 1 committed before it read the table", tb.Rows)
		}
	}
}

// With some tables over the deferral threshold and some under, the keys of
// the large ones are dropped while small tables still reference them.
func TestRestoreWithSomeTablesDeferred(t *testing.T) {
	t.Parallel()
	db := repotest.DB(t)
	d := newDirs(t)
	fill(t, db)
	wantFiles := writeUploads(t, d.uploads)
	want := snapshot(t, db)
	info := d.create(t, db)
	exec(t, db, `DELETE FROM recipe`)
	o := d.restoreOpts(db)
	o.deferRows = 3 // recipe (3 rows) is deferred; recipe_share (1 row) references it
	if _, err := Restore(context.Background(), db, info.Name, o); err != nil {
		t.Fatal(err)
	}
	diffSnapshots(t, want, snapshot(t, db))
	diffTrees(t, wantFiles, d.tree(t, db))
}

// A restore replaces recipes with its triggers off, so it notifies the API
// instances' count caches itself, on commit.
func TestRestoreNotifiesRecipeChange(t *testing.T) {
	t.Parallel()
	db := repotest.DB(t)
	d := newDirs(t)
	fill(t, db)
	info := d.create(t, db)
	ctx := context.Background()
	listener, err := pgx.ConnectConfig(ctx, db.Config().ConnConfig.Copy())
	if err != nil {
		t.Fatal(err)
	}
	defer listener.Close(ctx)
	if _, err := listener.Exec(ctx, "LISTEN "+repo.RecipeChangeChannel); err != nil {
		t.Fatal(err)
	}
	if _, err := Restore(ctx, db, info.Name, d.restoreOpts(db)); err != nil {
		t.Fatal(err)
	}
	wait, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if _, err := listener.WaitForNotification(wait); err != nil {
		t.Fatalf("no recipe-change notification after the restore: %v", err)
	}
}
