package repo_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"larder/repo"
	"larder/repo/repotest"
)

// restoreLockFixture is a database with the sessions a restore job's life
// involves: worker presence sessions (repo.TakeWorkerPresence), restore
// jobs as River has them running, and restore lock sessions.
type restoreLockFixture struct {
	t   *testing.T
	ctx context.Context
	db  *pgxpool.Pool
}

func newRestoreLockFixture(t *testing.T) *restoreLockFixture {
	return &restoreLockFixture{t: t, ctx: context.Background(), db: repotest.DB(t)}
}

// conn is a connection of its own (released at cleanup).
func (f *restoreLockFixture) conn() *pgxpool.Conn {
	f.t.Helper()
	c, err := f.db.Acquire(f.ctx)
	if err != nil {
		f.t.Fatal(err)
	}
	f.t.Cleanup(c.Release)
	return c
}

// worker takes the presence lock with key on a new session, as a worker
// process does, and returns the session, its client ID and since.
func (f *restoreLockFixture) worker(key int32) (*pgx.Conn, string, time.Time) {
	f.t.Helper()
	c, err := pgx.ConnectConfig(f.ctx, f.db.Config().ConnConfig.Copy())
	if err != nil {
		f.t.Fatal(err)
	}
	f.t.Cleanup(func() { _ = c.Close(context.Background()) })
	since, ok, err := repo.TakeWorkerPresence(f.ctx, c, key)
	if err != nil || !ok {
		f.t.Fatalf("take presence %d: %v %v", key, ok, err)
	}
	return c, repo.WorkerClientID("test-host.example", key), since
}

// job inserts a restore job that River has running, taken now by the
// client attemptedBy, with its app_job row; returns River's id.
func (f *restoreLockFixture) job(attemptedBy string) int64 {
	f.t.Helper()
	var id int64
	if err := f.db.QueryRow(f.ctx, `INSERT INTO river_job (state, attempt, max_attempts, attempted_at, attempted_by, args, kind, queue)
		VALUES ('running', 1, 1, now(), ARRAY[$1], '{}', $2, 'backup') RETURNING id`, attemptedBy, repo.RestoreJobKind).Scan(&id); err != nil {
		f.t.Fatal(err)
	}
	if _, err := repo.CreateJob(f.ctx, f.db, id, nil, repo.RestoreJobKind); err != nil {
		f.t.Fatal(err)
	}
	return id
}

// restore takes the restore lock on a session of its own and claims job
// riverID, with the time River recorded for its attempt, on the presence
// session, as the restore job does.
func (f *restoreLockFixture) restore(presence *pgx.Conn, since time.Time, riverID int64) (*pgxpool.Conn, bool) {
	f.t.Helper()
	c := f.conn()
	if ok, err := repo.TryLockRestore(f.ctx, c); err != nil || !ok {
		f.t.Fatalf("take the restore lock: %v %v", ok, err)
	}
	pid, err := repo.SessionPID(f.ctx, c)
	if err != nil {
		f.t.Fatal(err)
	}
	var attemptedAt time.Time
	if err := f.db.QueryRow(f.ctx, `SELECT attempted_at FROM river_job WHERE id = $1`, riverID).Scan(&attemptedAt); err != nil {
		f.t.Fatal(err)
	}
	claimed, err := repo.ClaimRestore(f.ctx, presence, riverID, pid, attemptedAt, since)
	if err != nil {
		f.t.Fatal(err)
	}
	return c, claimed
}

func (f *restoreLockFixture) unlock(c *pgxpool.Conn) {
	f.t.Helper()
	if err := repo.UnlockRestore(f.ctx, c); err != nil {
		f.t.Fatal(err)
	}
}

// endSession ends c's session, as a killed process's ends.
func (f *restoreLockFixture) endSession(c *pgx.Conn) {
	f.t.Helper()
	if _, err := f.db.Exec(f.ctx, `SELECT pg_terminate_backend($1, 10000)`, c.PgConn().PID()); err != nil {
		f.t.Fatal(err)
	}
}

func (f *restoreLockFixture) abandoned(riverID int64) bool {
	f.t.Helper()
	id, err := repo.GetJobIDByRiverID(f.ctx, f.db, riverID)
	if err != nil {
		f.t.Fatal(err)
	}
	j, err := repo.GetJob(f.ctx, f.db, id)
	if err != nil {
		f.t.Fatal(err)
	}
	return j.RestoreAbandoned
}

// A claimed restore job reads as abandoned once the session that took the
// restore lock for it no longer holds it and it recorded no outcome; never
// while the session holds it, nor once it has an outcome.
// EndAbandonedRestores records exactly those as interrupted.
func TestRestoreWithoutItsLockIsAbandoned(t *testing.T) {
	t.Parallel()
	f := newRestoreLockFixture(t)
	presence, id, since := f.worker(101)
	claim := func(riverID int64) *pgxpool.Conn {
		t.Helper()
		c, ok := f.restore(presence, since, riverID)
		if !ok {
			t.Fatalf("job %d: not claimed", riverID)
		}
		return c
	}

	dead, done, failed, live := f.job(id), f.job(id), f.job(id), f.job(id)
	f.unlock(claim(dead)) // its worker went away
	c := claim(done)      // committed its result, then gave the lock up
	if err := repo.CompleteJob(f.ctx, f.db, done, []byte(`{}`)); err != nil {
		t.Fatal(err)
	}
	f.unlock(c)
	c = claim(failed)
	if err := repo.FailJob(f.ctx, f.db, failed, "backup_invalid", "refused"); err != nil {
		t.Fatal(err)
	}
	f.unlock(c)
	var other int64
	if err := f.db.QueryRow(f.ctx, `INSERT INTO river_job (state, attempt, attempted_at, attempted_by, args, kind)
		VALUES ('running', 1, now(), ARRAY['gone_w5'], '{}', 'backup_create') RETURNING id`).Scan(&other); err != nil {
		t.Fatal(err)
	}
	if _, err := repo.CreateJob(f.ctx, f.db, other, nil, "backup_create"); err != nil {
		t.Fatal(err)
	}
	running := claim(live)

	want := map[int64]bool{dead: true, done: false, failed: false, live: false, other: false}
	for id, w := range want {
		if got := f.abandoned(id); got != w {
			t.Errorf("job %d: abandoned %v, want %v", id, got, w)
		}
	}
	n, err := repo.EndAbandonedRestores(f.ctx, f.db)
	if err != nil || n != 1 {
		t.Fatalf("ended %d restores (%v), want 1", n, err)
	}
	var code, message string
	var finished bool
	if err := f.db.QueryRow(f.ctx, `SELECT error_code, error_message, finished_at IS NOT NULL FROM app_job WHERE river_job_id = $1`,
		dead).Scan(&code, &message, &finished); err != nil {
		t.Fatal(err)
	}
	if code != "interrupted" || message != repo.AbandonedRestoreMessage || !finished {
		t.Errorf("the dead restore's record: %q %q finished %v", code, message, finished)
	}
	if f.abandoned(live) {
		t.Error("the live restore reads as abandoned")
	}

	// Once the live one loses its lock without an outcome, it is abandoned too.
	f.unlock(running)
	if !f.abandoned(live) {
		t.Error("a restore without its lock and without an outcome does not read as abandoned")
	}
}

// A restore job River has running that was never claimed reads as
// abandoned exactly when the worker process that took it no longer holds
// its presence lock; and once it may read so, it can no longer be claimed:
// not after EndAbandonedRestores recorded it, nor by a worker whose
// presence session was opened again after it took the job.
func TestUnclaimedRestoreOfAGoneWorkerIsAbandoned(t *testing.T) {
	t.Parallel()
	f := newRestoreLockFixture(t)
	alive, aliveID, aliveSince := f.worker(201)
	killed, killedID, killedSince := f.worker(202)

	waiting := f.job(aliveID)       // its worker is about to claim it
	orphan := f.job(killedID)       // its worker is killed before the claim
	foreign := f.job("some_client") // an ID without a presence key: left to River
	// Queued again (as River's graceful stop hands jobs back): whoever took
	// it before, it waits for a worker.
	queued := f.job(repo.WorkerClientID("h", 203))
	if _, err := f.db.Exec(f.ctx, `UPDATE river_job SET state = 'available' WHERE id = $1`, queued); err != nil {
		t.Fatal(err)
	}

	want := map[int64]bool{waiting: false, orphan: false, foreign: false, queued: false}
	for id, w := range want {
		if got := f.abandoned(id); got != w {
			t.Errorf("before the kill, job %d: abandoned %v, want %v", id, got, w)
		}
	}
	f.endSession(killed)
	want[orphan] = true
	for id, w := range want {
		if got := f.abandoned(id); got != w {
			t.Errorf("after the kill, job %d: abandoned %v, want %v", id, got, w)
		}
	}

	// The killed worker's process lived on and opened its presence again:
	// the job it took before still reads as abandoned, and is not claimed.
	again, _, againSince := f.worker(202)
	if !f.abandoned(orphan) {
		t.Error("the orphan stopped reading as abandoned when its worker's key was taken again")
	}
	c, claimed := f.restore(again, againSince, orphan)
	if claimed {
		t.Error("a job taken before the presence lock was taken again was claimed")
	}
	f.unlock(c)

	n, err := repo.EndAbandonedRestores(f.ctx, f.db)
	if err != nil || n != 1 {
		t.Fatalf("ended %d restores (%v), want 1 (the orphan)", n, err)
	}
	// Recorded, it stays ended: even a claim on a presence older than the
	// job is refused.
	if c, claimed := f.restore(alive, killedSince, orphan); claimed {
		t.Error("a restore recorded as interrupted was claimed")
	} else {
		f.unlock(c)
	}

	// The live worker claims its job: from then on the restore lock decides.
	c, claimed = f.restore(alive, aliveSince, waiting)
	if !claimed {
		t.Fatal("the live worker's claim was refused")
	}
	if f.abandoned(waiting) {
		t.Error("a claimed restore holding its lock reads as abandoned")
	}
	f.endSession(alive) // the presence goes; the restore's own session lives
	if f.abandoned(waiting) {
		t.Error("a claimed restore holding its lock reads as abandoned once its worker's presence session is gone")
	}
	f.unlock(c)
	if !f.abandoned(waiting) {
		t.Error("a claimed restore without its lock and without an outcome does not read as abandoned")
	}
}

// Client IDs stay within River's 100 characters, whatever the host name.
func TestWorkerClientIDLength(t *testing.T) {
	t.Parallel()
	for _, host := range []string{"", "db-1.example.org", strings.Repeat("a", 200)} {
		if id := repo.WorkerClientID(host, repo.MaxPresenceKey); len(id) > 100 {
			t.Errorf("%q: %d characters", id, len(id))
		}
	}
}
