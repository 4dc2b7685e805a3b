package repo_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"larder/repo"
	"larder/repo/repotest"
)

// A restore job reads as abandoned once the session that took the restore
// lock for it no longer holds it and it recorded no outcome; never while
// the session holds it, nor once it has an outcome. EndAbandonedRestores
// records exactly those as interrupted.
func TestRestoreWithoutItsLockIsAbandoned(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := repotest.DB(t)
	// restore takes the lock for River job riverID on a session of its own
	// and records it, as the restore job does.
	restore := func(riverID int64) *pgxpool.Conn {
		t.Helper()
		if _, err := repo.CreateJob(ctx, db, riverID, nil, "backup_restore"); err != nil {
			t.Fatal(err)
		}
		conn, err := db.Acquire(ctx)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(conn.Release)
		if ok, err := repo.TryLockRestore(ctx, conn); err != nil || !ok {
			t.Fatalf("take the restore lock: %v %v", ok, err)
		}
		if err := repo.SetRestoreLockPID(ctx, conn, riverID); err != nil {
			t.Fatal(err)
		}
		return conn
	}
	unlock := func(conn *pgxpool.Conn) {
		t.Helper()
		if err := repo.UnlockRestore(ctx, conn); err != nil {
			t.Fatal(err)
		}
	}
	abandoned := func(riverID int64) bool {
		t.Helper()
		id, err := repo.GetJobIDByRiverID(ctx, db, riverID)
		if err != nil {
			t.Fatal(err)
		}
		j, err := repo.GetJob(ctx, db, id)
		if err != nil {
			t.Fatal(err)
		}
		return j.RestoreAbandoned
	}

	const dead, done, failed, live, other = 1, 2, 3, 4, 5
	unlock(restore(dead)) // its worker went away
	c := restore(done)    // committed its result, then gave the lock up
	if err := repo.CompleteJob(ctx, db, done, []byte(`{}`)); err != nil {
		t.Fatal(err)
	}
	unlock(c)
	c = restore(failed)
	if err := repo.FailJob(ctx, db, failed, "backup_invalid", "refused"); err != nil {
		t.Fatal(err)
	}
	unlock(c)
	if _, err := repo.CreateJob(ctx, db, other, nil, "backup_create"); err != nil {
		t.Fatal(err)
	}
	running := restore(live)

	want := map[int64]bool{dead: true, done: false, failed: false, live: false, other: false}
	for id, w := range want {
		if got := abandoned(id); got != w {
			t.Errorf("job %d: abandoned %v, want %v", id, got, w)
		}
	}
	n, err := repo.EndAbandonedRestores(ctx, db)
	if err != nil || n != 1 {
		t.Fatalf("ended %d restores (%v), want 1", n, err)
	}
	var code, message string
	var finished bool
	if err := db.QueryRow(ctx, `SELECT error_code, error_message, finished_at IS NOT NULL FROM app_job WHERE river_job_id = $1`,
		dead).Scan(&code, &message, &finished); err != nil {
		t.Fatal(err)
	}
	if code != "interrupted" || message != repo.AbandonedRestoreMessage || !finished {
		t.Errorf("the dead restore's record: %q %q finished %v", code, message, finished)
	}
	if abandoned(live) {
		t.Error("the live restore reads as abandoned")
	}

	// Once the live one loses its lock without an outcome, it is abandoned too.
	unlock(running)
	if !abandoned(live) {
		t.Error("a restore without its lock and without an outcome does not read as abandoned")
	}
}
