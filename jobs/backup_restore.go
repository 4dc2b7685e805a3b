package jobs

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/riverqueue/river"

	"larder/backup"
	"larder/config"
)

// BackupRestoreArgs replaces the database's data and the uploaded files
// with those of backup Name (POST /api/backups/:name/restore). The result
// is backup.RestoreResult.
type BackupRestoreArgs struct {
	Name string `json:"name"`
}

// Kind is the stable job kind.
func (BackupRestoreArgs) Kind() string { return "backup_restore" }

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
// ends it as failed instead of running it again.
func (w *BackupRestoreWorker) Timeout(*river.Job[BackupRestoreArgs]) time.Duration {
	return w.deps.timeLimit(backupTimeLimit)
}

// Work restores the backup, reporting progress. A refused archive, a
// missing backup or a restore already running end the job with a message
// the administrator can act on; the database and files are then unchanged.
func (w *BackupRestoreWorker) Work(ctx context.Context, job *river.Job[BackupRestoreArgs]) error {
	stores := w.deps.stores()
	res, err := backup.Restore(ctx, w.deps.DB, job.Args.Name, backup.RestoreOptions{
		Backups:    stores.Backups,
		Files:      stores.Files,
		TempDir:    stores.Scratch,
		Progress:   func(f float64) { w.deps.recorder().progress(ctx, job.JobRow, f) },
		AfterTable: w.afterTable,
		Logger:     w.deps.Logger.With("job_id", job.ID, "job_kind", job.Kind), // the restore logs without its context
	})
	var refusal *backup.Refusal
	switch {
	case err == nil:
		w.deps.Logger.InfoContext(ctx, "backup restored", "name", res.Name, "schema_version", res.SchemaVersion,
			"migrated_to", res.MigratedTo, "rows", res.Rows, "files", res.Files)
		return w.deps.recorder().finish(ctx, job.JobRow, res, nil)
	case errors.As(err, &refusal):
		err = Fail(refusal.Code, refusal.Message+"; nothing was changed")
	case errors.Is(err, backup.ErrNotFound), errors.Is(err, backup.ErrInvalidName):
		err = Fail("not_found", fmt.Sprintf("there is no backup named %q", job.Args.Name))
	case errors.Is(err, backup.ErrRestoreRunning):
		err = Fail("restore_running", "another restore is running; start this one again when it has finished")
	default:
		// Anything else (the database went away, the disk filled up) also
		// left everything as it was; the log has the cause.
		w.deps.Logger.ErrorContext(ctx, "restore failed", "name", job.Args.Name, "error", err)
		err = Fail("restore_failed", "the restore failed and nothing was changed; the server log has details")
	}
	return w.deps.recorder().finish(ctx, job.JobRow, nil, err)
}
