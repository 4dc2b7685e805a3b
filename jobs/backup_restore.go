package jobs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"

	"larder/backup"
	"larder/config"
	"larder/repo"
)

// BackupRestoreArgs replaces the database's data and the uploaded files
// with those of backup Name (POST /api/backups/:name/restore). The result
// is backup.RestoreResult.
type BackupRestoreArgs struct {
	Name string `json:"name"`
}

// Kind is the stable job kind.
func (BackupRestoreArgs) Kind() string { return repo.RestoreJobKind }

// InsertOpts puts the job on the backup queue with a single attempt: a
// restore that failed changed nothing, and one that ran again by itself
// later (after a worker crash) would throw away what was written since.
// The administrator starts it again if they still want it.
func (BackupRestoreArgs) InsertOpts() river.InsertOpts {
	return queueOpts(config.QueueBackup, 1)
}

// BackupRestoreWorker runs BackupRestoreArgs.
type BackupRestoreWorker struct {
	river.WorkerDefaults[BackupRestoreArgs]
	deps *Deps
	// afterTable is backup.RestoreOptions.AfterTable; tests inject failures.
	afterTable func(table string) error
}

// Timeout bounds one attempt as for a backup (backupTimeLimit); a restore
// cut short by it rolls back and changes nothing. A restore whose worker
// was killed has lost its transaction and its lock with its database
// session; River finds it after this limit and, with its single attempt,
// ends it as failed instead of running it again. Its status says so long
// before: see Work.
func (w *BackupRestoreWorker) Timeout(*river.Job[BackupRestoreArgs]) time.Duration {
	return w.deps.timeLimit(backupTimeLimit)
}

// Work restores the backup, reporting progress. A refused archive, a
// missing backup or a restore already running end the job with a message
// the administrator can act on; the database and files are then unchanged.
//
// The job takes the restore lock before it reads anything and holds it
// until its outcome is recorded; right after taking it, it claims the job
// (records which session holds the lock) on this process's presence
// session (repo.ClaimRestore), and runs only if the claim succeeds. The
// result of a restore that succeeds is committed with the restored data.
// So a restore without an outcome whose lock session no longer holds the
// lock, or which was never claimed while the process that took it no
// longer holds its presence lock, lost its worker (killed, or cut off
// from the database) and changed nothing: GET /api/jobs/{id} reads it as
// failed with code interrupted as soon as PostgreSQL has ended the
// session (seconds), not when River's rescuer gets to it hours later, and
// the next restore (or the hourly purge) records it so
// (repo.EndAbandonedRestores); a claim can no longer follow. Nothing of
// the dead restore blocks the next: its locks went with its sessions, and
// the next restore removes the files it had stored.
func (w *BackupRestoreWorker) Work(ctx context.Context, job *river.Job[BackupRestoreArgs]) error {
	if w.deps.Presence == nil {
		return w.deps.recorder().finish(ctx, job.JobRow, nil,
			w.failure(ctx, job, errors.New("this worker keeps no presence session (jobs.Deps.Presence)")))
	}
	lock, err := backup.LockRestore(ctx, w.deps.DB)
	if err != nil {
		return w.deps.recorder().finish(ctx, job.JobRow, nil, w.failure(ctx, job, err))
	}
	// Deferred calls run after the return value, finish's, is computed: the
	// outcome is recorded before the lock is given up.
	defer lock.Release()
	pid, err := repo.SessionPID(ctx, lock.Conn())
	if err != nil {
		return w.deps.recorder().finish(ctx, job.JobRow, nil, w.failure(ctx, job, err))
	}
	claimed, err := w.deps.Presence.claimRestore(ctx, job.JobRow, pid)
	if err != nil || !claimed {
		// Not claimed: this process lost its presence session after
		// taking the job, or the job was already recorded as interrupted.
		// Either way it may read as interrupted, and so it must stay.
		if err != nil {
			w.deps.Logger.WarnContext(ctx, "claim restore", "error", err)
		}
		return w.deps.recorder().finish(ctx, job.JobRow, nil, Fail("interrupted", repo.AbandonedRestoreMessage))
	}
	// Holding the lock, no other restore is running: any other without an
	// outcome whose worker is gone is recorded so.
	if n, err := repo.EndAbandonedRestores(ctx, lock.Conn()); err != nil {
		w.deps.Logger.WarnContext(ctx, "record abandoned restores", "error", err)
	} else if n > 0 {
		w.deps.Logger.InfoContext(ctx, "recorded restores whose worker went away as interrupted", "count", n)
	}

	stores := w.deps.stores()
	res, err := backup.Restore(ctx, w.deps.DB, job.Args.Name, backup.RestoreOptions{
		Backups:    stores.Backups,
		Files:      stores.Files,
		TempDir:    stores.Scratch,
		Progress:   func(f float64) { w.deps.recorder().progress(ctx, job.JobRow, f) },
		AfterTable: w.afterTable,
		Lock:       lock,
		BeforeCommit: func(ctx context.Context, tx pgx.Tx, res backup.RestoreResult) error {
			raw, err := json.Marshal(res)
			if err != nil {
				return fmt.Errorf("encode restore result: %w", err)
			}
			return repo.CompleteJob(ctx, tx, job.ID, raw)
		},
		Logger: w.deps.Logger.With("job_id", job.ID, "job_kind", job.Kind), // the restore logs without its context
	})
	if err != nil {
		return w.deps.recorder().finish(ctx, job.JobRow, nil, w.failure(ctx, job, err))
	}
	w.deps.Logger.InfoContext(ctx, "backup restored", "name", res.Name, "schema_version", res.SchemaVersion,
		"migrated_to", res.MigratedTo, "rows", res.Rows, "files", res.Files)
	return w.deps.recorder().finish(ctx, job.JobRow, res, nil)
}

// failure is the *Failure a failed restore ends with; every one of them
// left the database and the files as they were.
func (w *BackupRestoreWorker) failure(ctx context.Context, job *river.Job[BackupRestoreArgs], err error) error {
	var refusal *backup.Refusal
	switch {
	case errors.As(err, &refusal):
		return Fail(refusal.Code, refusal.Message+"; nothing was changed")
	case errors.Is(err, backup.ErrNotFound), errors.Is(err, backup.ErrInvalidName):
		return Fail("not_found", fmt.Sprintf("there is no backup named %q", job.Args.Name))
	case errors.Is(err, backup.ErrRestoreRunning):
		return Fail("restore_running", "another restore is running; start this one again when it has finished")
	}
	// Anything else (the database went away, the disk filled up) also left
	// everything as it was; the log has the cause.
	w.deps.Logger.ErrorContext(ctx, "restore failed", "name", job.Args.Name, "error", err)
	return Fail("restore_failed", "the restore failed and nothing was changed; the server log has details")
}
