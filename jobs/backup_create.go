package jobs

import (
	"context"
	"time"

	"github.com/riverqueue/river"

	"larder/backup"
	"larder/config"
)

// BackupCreateArgs writes a backup of the database and the uploaded files
// into BACKUP_PATH (POST /api/backups, or the BACKUP_INTERVAL schedule).
// The result is {"name"}.
type BackupCreateArgs struct {
	// Scheduled marks a backup of the schedule: after it, scheduled backups
	// beyond BACKUP_KEEP are removed. Backups made by hand never are.
	Scheduled bool `json:"scheduled,omitempty"`
}

// Kind is the stable job kind.
func (BackupCreateArgs) Kind() string { return "backup_create" }

// InsertOpts puts the job on the backup queue. A failed attempt leaves no
// file behind (the archive is published only when complete), so retrying
// is safe.
func (BackupCreateArgs) InsertOpts() river.InsertOpts {
	return queueOpts(config.QueueBackup, 3)
}

// BackupCreateWorker runs BackupCreateArgs.
type BackupCreateWorker struct {
	river.WorkerDefaults[BackupCreateArgs]
	deps *Deps
}

// Timeout bounds one attempt, and is how long a backup whose worker was
// killed waits before River hands it to another worker: long enough to
// copy a large installation's photos to a slow disk or a bucket over a home
// uplink (tens of gigabytes at a few megabytes a second). The attempt that
// runs again starts afresh under a new name; what the killed one wrote
// stays a hidden temporary file (filestore.Local.Put, or an unfinished S3
// upload), never listed as a backup, until the purge removes it once older
// than this limit (leftoverAge).
func (w *BackupCreateWorker) Timeout(*river.Job[BackupCreateArgs]) time.Duration {
	return w.deps.timeLimit(backupTimeLimit)
}

// backupTimeLimit is the time limit of a backup and of a restore, which
// reads and writes as much (backup.TimeLimit).
const backupTimeLimit = backup.TimeLimit

// Work writes the backup, reporting progress, and prunes old scheduled ones.
func (w *BackupCreateWorker) Work(ctx context.Context, job *river.Job[BackupCreateArgs]) error {
	cfg := w.deps.Config
	info, err := backup.Create(ctx, w.deps.DB, backup.CreateOptions{
		Backups:   w.deps.stores().Backups,
		Files:     w.deps.fileStore(),
		Scheduled: job.Args.Scheduled,
		Progress:  func(f float64) { w.deps.recorder().progress(ctx, job.JobRow, f) },
		Now:       w.deps.Clock,
	})
	if err != nil {
		return w.deps.recorder().finish(ctx, job.JobRow, nil, err)
	}
	if job.Args.Scheduled {
		// The new backup is complete; a failed prune is logged, not a
		// failed backup, and the next run tries again.
		removed, err := backup.Prune(ctx, w.deps.stores().Backups, cfg.BackupKeep)
		if err != nil {
			w.deps.Logger.WarnContext(ctx, "prune scheduled backups", "error", err)
		}
		if len(removed) > 0 {
			w.deps.Logger.InfoContext(ctx, "removed old scheduled backups", "names", removed, "keep", cfg.BackupKeep)
		}
	}
	return w.deps.recorder().finish(ctx, job.JobRow, map[string]string{"name": info.Name}, nil)
}

// backupSchedule is the periodic job of BACKUP_INTERVAL, nil when off.
func backupSchedule(cfg config.Config) *river.PeriodicJob {
	if cfg.BackupInterval <= 0 {
		return nil
	}
	interval := cfg.BackupInterval
	return river.NewPeriodicJob(river.PeriodicInterval(interval),
		func() (river.JobArgs, *river.InsertOpts) {
			// One scheduled backup per interval however often River's
			// leader changes hands.
			return BackupCreateArgs{Scheduled: true}, &river.InsertOpts{
				UniqueOpts: river.UniqueOpts{ByArgs: true, ByPeriod: max(interval, time.Minute)},
			}
		},
		nil)
}
