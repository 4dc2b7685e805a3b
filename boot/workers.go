package boot

import (
	"log/slog"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"

	"larder/config"
	"larder/jobs"
)

// Workers builds the job dependencies and a River client working the given
// queues (name → concurrency). close releases what the dependencies hold
// (the browser, connections); call it after the client has stopped.
func Workers(cfg config.Config, pool *pgxpool.Pool, logger *slog.Logger, queues map[string]int) (client *river.Client[pgx.Tx], close func(), err error) {
	deps := &jobs.Deps{DB: pool, Logger: logger, Config: cfg}
	client, err = jobs.NewClient(pool, logger, jobs.NewWorkers(deps), jobs.ClientConfig{
		Concurrency: queues,
		RescueAfter: cfg.JobRescueAfter,
		Periodic:    jobs.PeriodicJobs(deps),
	})
	if err != nil {
		return nil, nil, err
	}
	return client, func() {}, nil
}
