package jobs

import (
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"

	"larder/config"
)

// Deps is what the workers need. cmd/worker (and cmd/api --workers) builds it.
type Deps struct {
	DB     *pgxpool.Pool
	Logger *slog.Logger
	Config config.Config
}

func (d *Deps) recorder() recorder { return recorder{db: d.DB, logger: d.Logger} }

// NewWorkers registers the worker of every job kind.
func NewWorkers(d *Deps) *river.Workers {
	w := river.NewWorkers()
	river.AddWorker(w, &PurgeExpiredWorker{deps: d})
	return w
}

// PeriodicJobs are the jobs River's leader inserts on a schedule.
func PeriodicJobs(d *Deps) []*river.PeriodicJob {
	return []*river.PeriodicJob{
		river.NewPeriodicJob(river.PeriodicInterval(time.Hour),
			func() (river.JobArgs, *river.InsertOpts) { return PurgeExpiredArgs{}, nil },
			&river.PeriodicJobOpts{RunOnStart: true}),
	}
}
