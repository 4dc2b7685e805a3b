package jobs

import (
	"context"
	"fmt"
	"time"

	"github.com/riverqueue/river"

	"larder/config"
	"larder/repo"
)

// PurgeExpiredArgs deletes expired tokens and old job records, so tables that
// grow with every sign-in do not grow forever.
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
// months' worth after a long time without workers.
func (w *PurgeExpiredWorker) Timeout(*river.Job[PurgeExpiredArgs]) time.Duration {
	return w.deps.timeLimit(10 * time.Minute)
}

// Work deletes what has expired.
func (w *PurgeExpiredWorker) Work(ctx context.Context, job *river.Job[PurgeExpiredArgs]) error {
	n, err := repo.PurgeExpired(ctx, w.deps.DB)
	if err != nil {
		return w.deps.recorder().finish(ctx, job.JobRow, nil, fmt.Errorf("purge expired: %w", err))
	}
	return w.deps.recorder().finish(ctx, job.JobRow, map[string]int64{"deleted": n}, nil)
}
