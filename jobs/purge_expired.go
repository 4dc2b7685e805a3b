package jobs

import (
	"context"
	"fmt"
	"time"

	"github.com/riverqueue/river"

	"larder/backup"
	"larder/config"
	"larder/filestore"
	"larder/repo"
)

// PurgeExpiredArgs deletes expired tokens and old job records, so tables that
// grow with every sign-in do not grow forever, and what writes that never
// finished left in the file stores (see removeLeftovers); and it records
// restores whose worker went away as interrupted
// (repo.EndAbandonedRestores), so their records end and expire too.
type PurgeExpiredArgs struct{}

// Kind is the stable job kind.
func (PurgeExpiredArgs) Kind() string { return "purge_expired" }

// InsertOpts puts the job on the mapping queue, the one with the cheapest work.
func (PurgeExpiredArgs) InsertOpts() river.InsertOpts {
	opts := queueOpts(config.QueueMapping, 3)
	// One purge an hour is enough however many leaders come and go.
	opts.UniqueOpts = river.UniqueOpts{ByPeriod: time.Hour}
	return opts
}

// PurgeExpiredWorker runs PurgeExpiredArgs.
type PurgeExpiredWorker struct {
	river.WorkerDefaults[PurgeExpiredArgs]
	deps *Deps
}

// Timeout bounds one attempt: a few DELETEs, of a day's rows usually, of
// months' worth after a long time without workers; and a listing of the
// stores' directories or unfinished uploads.
func (w *PurgeExpiredWorker) Timeout(*river.Job[PurgeExpiredArgs]) time.Duration {
	return w.deps.timeLimit(10 * time.Minute)
}

// Work deletes what has expired.
func (w *PurgeExpiredWorker) Work(ctx context.Context, job *river.Job[PurgeExpiredArgs]) error {
	n, err := repo.PurgeExpired(ctx, w.deps.DB)
	if err != nil {
		return w.deps.recorder().finish(ctx, job.JobRow, nil, fmt.Errorf("purge expired: %w", err))
	}
	// Restores whose worker went away get the end they will never record.
	ended, err := repo.EndAbandonedRestores(ctx, w.deps.DB)
	if err != nil {
		return w.deps.recorder().finish(ctx, job.JobRow, nil, err)
	}
	left, err := w.deps.removeLeftovers(ctx)
	if err != nil {
		return w.deps.recorder().finish(ctx, job.JobRow, nil, err)
	}
	return w.deps.recorder().finish(ctx, job.JobRow, map[string]int64{"deleted": n, "leftovers_removed": int64(left), "restores_ended": ended}, nil)
}

// leftoverAge is how old an unfinished write must be before it counts as
// a leftover: the longest a write may legitimately take. Backups and
// restores have the longest time limit of the kinds that write files, no
// attempt outlives its limit, and the API's adoption of an uploaded backup
// is bounded by the same (backup.TimeLimit).
const leftoverAge = backup.TimeLimit

// removeLeftovers removes from the stores of uploaded files (every
// generation) and of backups what a writer killed mid-write left behind
// (filestore.LeftoverRemover), and from this process's scratch directory
// the archives a killed upload or restore left there
// (backup.RemoveScratchLeftovers), once more than leftoverAge old by
// Deps.Clock. (Each API process cleans its own scratch directory at start,
// see cmd/api; a worker's may be another machine's disk.)
func (d *Deps) removeLeftovers(ctx context.Context) (int, error) {
	stores := d.stores()
	before := d.now().Add(-leftoverAge)
	removed := 0
	for _, s := range []filestore.Store{stores.Files.Base, stores.Backups} {
		r, ok := s.(filestore.LeftoverRemover)
		if !ok {
			continue
		}
		n, err := r.RemoveLeftovers(ctx, before)
		removed += n
		if err != nil {
			return removed, fmt.Errorf("purge leftovers of unfinished writes: %w", err)
		}
	}
	n, err := backup.RemoveScratchLeftovers(stores.Scratch, before)
	removed += n
	if err != nil {
		return removed, fmt.Errorf("purge leftovers of unfinished writes: %w", err)
	}
	if removed > 0 {
		d.Logger.InfoContext(ctx, "removed leftovers of unfinished writes", "count", removed, "older_than", leftoverAge)
	}
	return removed, nil
}

// now is Deps.Clock's time.
func (d *Deps) now() time.Time {
	if d.Clock != nil {
		return d.Clock()
	}
	return time.Now()
}
