package jobs

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"

	"larder/backup"
	"larder/config"
	"larder/filestore"
	"larder/filestore/s3test"
	"larder/repo"
	"larder/repo/repotest"
	"larder/storage"
)

// backupBundle is the job environment with the backup workers, over the
// stores of several machines.
type backupBundle struct {
	*jobEnv
	create  river.Worker[BackupCreateArgs]
	restore river.Worker[BackupRestoreArgs]
	rw      *BackupRestoreWorker
	stores  storage.Stores
}

func backupSetup(t *testing.T) *backupBundle {
	t.Helper()
	e := newJobEnv(t)
	// The backup jobs run against the real S3 server: what several
	// machines share.
	bucket := s3test.Store(t)
	stores := storage.Stores{
		Files: filestore.Generations{Base: bucket.WithPrefix("uploads"), Current: func(ctx context.Context) (string, error) {
			return repo.FileGeneration(ctx, e.db)
		}},
		Backups: bucket.WithPrefix("backups"),
		Scratch: filepath.Join(e.deps.Config.DataDir, "tmp"),
	}
	e.deps.Files, e.deps.Storage = nil, stores
	rw := &BackupRestoreWorker{deps: e.deps}
	return &backupBundle{jobEnv: e, rw: rw, stores: stores, create: &BackupCreateWorker{deps: e.deps}, restore: rw}
}

// runBackupJob enqueues args the way the API does, works the job once, and
// returns the public job record.
func runBackupJob[T river.JobArgs](t *testing.T, b *backupBundle, w river.Worker[T], userID *uuid.UUID, args T) repo.Job {
	t.Helper()
	row := b.enqueueAs(t, userID, args, nil)
	workJob(t, b.db, w, row)
	j, err := repo.GetJob(context.Background(), b.db, b.outcome(t, row.ID).ID)
	if err != nil {
		t.Fatal(err)
	}
	return j
}

func TestBackupJobsRoundTrip(t *testing.T) {
	t.Parallel()
	b := backupSetup(t)
	ctx := context.Background()
	admin := repotest.CreateUser(t, b.db, repo.RoleAdmin)
	if _, err := b.db.Exec(ctx, `INSERT INTO recipe (owner_id, title) VALUES ($1, 'Soup')`, admin.ID); err != nil {
		t.Fatal(err)
	}
	if err := b.stores.Files.Put(ctx, "recipes/ab/soup.jpg", strings.NewReader("\xff\xd8\xff\xe0jpeg")); err != nil {
		t.Fatal(err)
	}

	j := runBackupJob(t, b, b.create, &admin.ID, BackupCreateArgs{})
	if j.ErrorCode != nil || j.Result == nil || j.Progress == nil || *j.Progress != 1 {
		t.Fatalf("create job %+v", j)
	}
	var created struct{ Name string }
	if err := json.Unmarshal(*j.Result, &created); err != nil || !backup.ValidName(created.Name) {
		t.Fatalf("create result %s: %v", *j.Result, err)
	}
	if _, err := backup.Stat(ctx, b.stores.Backups, created.Name); err != nil {
		t.Fatal(err)
	}

	if _, err := b.db.Exec(ctx, `UPDATE recipe SET title = 'Changed'`); err != nil {
		t.Fatal(err)
	}
	if err := b.stores.Files.Delete(ctx, "recipes/ab/soup.jpg"); err != nil {
		t.Fatal(err)
	}
	j = runBackupJob(t, b, b.restore, nil, BackupRestoreArgs{Name: created.Name})
	if j.ErrorCode != nil || j.Result == nil {
		t.Fatalf("restore job %+v (%s)", j, derefOr(j.ErrorMessage))
	}
	var res backup.RestoreResult
	if err := json.Unmarshal(*j.Result, &res); err != nil || res.Name != created.Name || res.Files != 1 || res.Rows == 0 {
		t.Fatalf("restore result %s: %v", *j.Result, err)
	}
	var title string
	if err := b.db.QueryRow(ctx, `SELECT title FROM recipe`).Scan(&title); err != nil || title != "Soup" {
		t.Errorf("recipe title after restore %q, %v", title, err)
	}
	if _, err := b.stores.Files.Stat(ctx, "recipes/ab/soup.jpg"); err != nil {
		t.Errorf("file not restored: %v", err)
	}
}

// backupThenWrite makes a backup as an administrator, then writes a tag
// the backup does not hold (writtenAfterBackup counts it): a restore of
// the backup that changed nothing leaves it, one that ran removes it.
func backupThenWrite(t *testing.T, b *backupBundle) (created struct{ Name string }) {
	t.Helper()
	admin := repotest.CreateUser(t, b.db, repo.RoleAdmin)
	good := runBackupJob(t, b, b.create, &admin.ID, BackupCreateArgs{})
	_ = json.Unmarshal(*good.Result, &created)
	if _, err := b.db.Exec(context.Background(), `INSERT INTO tag (name) VALUES ('after the backup')`); err != nil {
		t.Fatal(err)
	}
	return created
}

// writtenAfterBackup counts the tags backupThenWrite wrote after its backup.
func (b *backupBundle) writtenAfterBackup() (int, error) {
	var n int
	err := b.db.QueryRow(context.Background(), `SELECT count(*) FROM tag WHERE name = 'after the backup'`).Scan(&n)
	return n, err
}

// A restore that cannot happen ends the job for good with a message the
// administrator can act on, and changes nothing.
func TestBackupRestoreJobFailures(t *testing.T) {
	t.Parallel()
	b := backupSetup(t)
	ctx := context.Background()
	created := backupThenWrite(t, b)
	if err := b.stores.Backups.Put(ctx, "backup-20200101T000000Z.zip", strings.NewReader("not a zip at all")); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name     string
		archive  string
		inject   error
		code     string
		contains string
	}{
		{"garbage archive", "backup-20200101T000000Z.zip", nil, "backup_invalid", "ZIP"},
		{"missing backup", "backup-20200102T000000Z.zip", nil, "not_found", "no backup named"},
		{"failure while loading", created.Name, errors.New("injected"), "restore_failed", "nothing was changed"},
	}
	for _, tt := range tests {
		b.rw.afterTable = nil
		if tt.inject != nil {
			b.rw.afterTable = func(string) error { return tt.inject }
		}
		j := runBackupJob(t, b, b.restore, nil, BackupRestoreArgs{Name: tt.archive})
		if j.ErrorCode == nil || *j.ErrorCode != tt.code || !strings.Contains(derefOr(j.ErrorMessage), tt.contains) {
			t.Errorf("%s: error %v %q, want %s containing %q", tt.name, j.ErrorCode, derefOr(j.ErrorMessage), tt.code, tt.contains)
		}
		if n, err := b.writtenAfterBackup(); err != nil || n != 1 {
			t.Errorf("%s: the database changed (%d, %v)", tt.name, n, err)
		}
	}
}

// A restore that may already read as interrupted (repo.GetJob) never
// runs: not once recorded so (repo.EndAbandonedRestores, after its worker
// was found gone), nor when the worker's presence session was lost before
// the restore claimed its job. The job ends as interrupted, and nothing
// changes; once the session is open again, restores run.
func TestRestoreThatMayReadInterruptedNeverRuns(t *testing.T) {
	t.Parallel()
	b := backupSetup(t)
	ctx := context.Background()
	created := backupThenWrite(t, b)
	requireUnchangedAndInterrupted := func(what string, riverID int64) {
		t.Helper()
		o := b.outcome(t, riverID)
		if o.Result != nil || o.Code == nil || *o.Code != "interrupted" || derefOr(o.Message) != repo.AbandonedRestoreMessage {
			t.Errorf("%s: outcome %+v (%s)", what, o, derefOr(o.Message))
		}
		if n, err := b.writtenAfterBackup(); err != nil || n != 1 {
			t.Errorf("%s: the database changed (%d, %v)", what, n, err)
		}
	}

	recorded := b.enqueueAs(t, nil, BackupRestoreArgs{Name: created.Name}, func(ctx context.Context, tx pgx.Tx, id uuid.UUID) error {
		_, err := tx.Exec(ctx, `UPDATE app_job SET error_code = 'interrupted', error_message = $2, finished_at = now() WHERE id = $1`,
			id, repo.AbandonedRestoreMessage)
		return err
	})
	workJob(t, b.db, b.restore, recorded)
	requireUnchangedAndInterrupted("recorded as interrupted", recorded.ID)

	// The presence session ends (a database restart, a proxy cutting it).
	if _, err := b.db.Exec(ctx, `SELECT pg_terminate_backend($1, 10000)`, b.deps.Presence.conn.PgConn().PID()); err != nil {
		t.Fatal(err)
	}
	lost := b.enqueueAs(t, nil, BackupRestoreArgs{Name: created.Name}, nil)
	workJob(t, b.db, b.restore, lost)
	requireUnchangedAndInterrupted("presence lost", lost.ID)

	// The periodic check opens it again; a restore taken after that runs.
	if err := b.deps.Presence.check(ctx); err != nil {
		t.Fatal(err)
	}
	after := b.enqueueAs(t, nil, BackupRestoreArgs{Name: created.Name}, nil)
	workJob(t, b.db, b.restore, after)
	if o := b.outcome(t, after.ID); o.Result == nil {
		t.Fatalf("restore taken once the presence was back: %+v (%s)", o, derefOr(o.Message))
	}
	if n, err := b.writtenAfterBackup(); err != nil || n != 0 {
		t.Errorf("after the restore that ran: %d tags written after the backup (%v), want 0", n, err)
	}
}

// Scheduled backups beyond BACKUP_KEEP are removed after each scheduled
// run; a backup made by hand stays.
func TestScheduledBackupsArePruned(t *testing.T) {
	t.Parallel()
	b := backupSetup(t)
	b.deps.Config.BackupKeep = 2
	// Backups are named by the second; the clock moves one a run.
	at := time.Now()
	clock := func() time.Time { return at }
	b.deps.Clock = clock

	manual := runBackupJob(t, b, b.create, nil, BackupCreateArgs{})
	var names []string
	for range 4 {
		at = at.Add(time.Second)
		j := runBackupJob(t, b, b.create, nil, BackupCreateArgs{Scheduled: true})
		var r struct{ Name string }
		_ = json.Unmarshal(*j.Result, &r)
		names = append(names, r.Name)
	}
	var m struct{ Name string }
	_ = json.Unmarshal(*manual.Result, &m)
	list, err := backup.List(context.Background(), b.stores.Backups)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, i := range list {
		got = append(got, i.Name)
	}
	want := []string{names[3], names[2], m.Name}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Errorf("left %v, want %v", got, want)
	}
}

func TestBackupSchedule(t *testing.T) {
	t.Parallel()
	cfg, err := config.Load(func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	if backupSchedule(cfg) != nil || len(PeriodicJobs(&Deps{Config: cfg})) != 1 {
		t.Error("scheduled backups must be off by default")
	}
	cfg.BackupInterval = 24 * time.Hour
	if backupSchedule(cfg) == nil || len(PeriodicJobs(&Deps{Config: cfg})) != 2 {
		t.Error("BACKUP_INTERVAL=24h schedules no backup")
	}
}
