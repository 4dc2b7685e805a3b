package repo

import (
	"context"
	"fmt"
	"strconv"
	"time"
)

// RestoreJobKind is the job kind of a restore (jobs.BackupRestoreArgs):
// the one kind whose status is worked out from its worker's life, since it
// never runs again by itself once its worker is gone.
const RestoreJobKind = "backup_restore"

// A restore job's worker is gone, and the restore changed nothing, when
// the job has no outcome and either
//   - it was claimed (ClaimRestore: restore_lock_pid names the session that
//     took the restore lock for it) and that session no longer holds the
//     lock: a restore records its outcome before it gives the lock up; or
//   - it was not claimed, River has it running, and the worker process
//     that took it (the client ID of River's last attempt, see
//     WorkerClientID) no longer holds its presence lock on a session older
//     than the attempt (TakeWorkerPresence): that process died, or lost its
//     presence session, before the claim. A claim is made only on that
//     session and only for a job taken since the presence lock was
//     (ClaimRestore's since), so none can follow; a process that opened
//     its presence again holds it on a session younger than the attempt.
//     (A session start this role may not see counts as old: the job is
//     then left to River's rescuer.)
//
// restoreWorkerGone is that condition, in SQL, over expressions for the
// job's restore_lock_pid, River's state, and the last attempt's client ID
// and time.
func restoreWorkerGone(pid, riverState, attemptedBy, attemptedAt string) string {
	return `CASE WHEN ` + pid + ` IS NOT NULL
		THEN NOT EXISTS (SELECT 1 FROM pg_locks l WHERE ` + restoreLockGranted + ` AND l.pid = ` + pid + `)
		ELSE coalesce(` + riverState + ` = 'running' AND ` + presenceKeyOf(attemptedBy) + ` IS NOT NULL
			AND NOT EXISTS (SELECT 1 FROM pg_locks l WHERE ` + advisoryLockGranted(workerPresenceClass, presenceKeyOf(attemptedBy)) + `
				AND coalesce((SELECT a.backend_start FROM pg_stat_activity a WHERE a.pid = l.pid), '-infinity') <= ` + attemptedAt + `), false)
		END`
}

// restoreLockGranted is the condition on pg_locks l for the restore lock.
var restoreLockGranted = advisoryLockGranted(restoreLockClass, strconv.Itoa(restoreLockObject))

// advisoryLockGranted is the condition on pg_locks l that this database's
// two-key advisory lock (class, object) is held; object is an SQL
// expression of type integer.
func advisoryLockGranted(class int, object string) string {
	return fmt.Sprintf(`l.locktype = 'advisory' AND l.granted
	AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
	AND l.classid = %d::integer::oid AND l.objid = (%s)::integer::oid AND l.objsubid = 2`, class, object)
}

// SessionPID returns the backend pid of db's session (db must be one
// connection).
func SessionPID(ctx context.Context, db DBTX) (int32, error) {
	var pid int32
	err := db.QueryRow(ctx, `SELECT pg_backend_pid()`).Scan(&pid)
	return pid, wrap("read session pid", err)
}

// ClaimRestore records that session lockPID, which has just taken the
// restore lock, holds it for the restore of River job riverJobID, which
// River handed to this worker at attemptedAt, and reports whether the
// restore may go on. It may not when the job was taken at or before since,
// the time the worker's current presence lock was taken (a job taken while
// the worker had no presence lock may already read as abandoned), when it
// already has an outcome (EndAbandonedRestores recorded it as
// interrupted), or when it was claimed before.
//
// Call it on the worker's presence session (TakeWorkerPresence): a claim
// then commits only while the presence lock is held, so once the lock is
// gone every claim there will be is visible (see restoreWorkerGone).
func ClaimRestore(ctx context.Context, presence DBTX, riverJobID int64, lockPID int32, attemptedAt, since time.Time) (bool, error) {
	if !attemptedAt.After(since) {
		return false, nil
	}
	tag, err := presence.Exec(ctx, `UPDATE app_job SET restore_lock_pid = $2
		WHERE river_job_id = $1 AND restore_lock_pid IS NULL AND result IS NULL AND error_code IS NULL`, riverJobID, lockPID)
	if err != nil {
		return false, wrap("claim restore", err)
	}
	return tag.RowsAffected() == 1, nil
}

// AbandonedRestoreMessage is what an abandoned restore's job says.
const AbandonedRestoreMessage = "the restore stopped before it finished (its worker went away) and nothing was changed; start it again"

// EndAbandonedRestores records as failed (code interrupted) every restore
// whose worker is gone (restoreWorkerGone) and returns how many, so their
// records end like any other job's. A restore that committed has its
// result in the row, and one running holds its locks: neither is touched,
// even if it claims or commits while this runs (the row it changed is
// checked again before it is updated).
func EndAbandonedRestores(ctx context.Context, db DBTX) (int64, error) {
	const state = `(SELECT r.state::text FROM river_job r WHERE r.id = j.river_job_id)`
	const attemptedBy = `(SELECT r.attempted_by[array_upper(r.attempted_by, 1)] FROM river_job r WHERE r.id = j.river_job_id)`
	const attemptedAt = `(SELECT r.attempted_at FROM river_job r WHERE r.id = j.river_job_id)`
	tag, err := db.Exec(ctx, `UPDATE app_job j SET error_code = 'interrupted', error_message = $2, finished_at = now()
		WHERE j.kind = $1 AND j.result IS NULL AND j.error_code IS NULL
		  AND `+restoreWorkerGone("j.restore_lock_pid", state, attemptedBy, attemptedAt),
		RestoreJobKind, AbandonedRestoreMessage)
	if err != nil {
		return 0, wrap("end abandoned restores", err)
	}
	return tag.RowsAffected(), nil
}

// restoreWorkerGoneFor evaluates restoreWorkerGone for the values of j.
func restoreWorkerGoneFor(ctx context.Context, db DBTX, j Job) (bool, error) {
	var gone bool
	err := db.QueryRow(ctx, `SELECT `+restoreWorkerGone("$1::integer", "$2::text", "$3::text", "$4::timestamptz"),
		j.RestoreLockPID, j.RiverState, j.RiverAttemptedBy, j.RiverAttemptedAt).Scan(&gone)
	return gone, wrap("check restore worker", err)
}
