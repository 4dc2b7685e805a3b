// Package jobs holds the River job kinds of the service (one file per kind:
// the Args and their Worker) and the plumbing they share: the insert-only
// queue the API uses, the working client of cmd/worker, and the recording of
// a job's progress, result and error for GET /api/jobs/:id.
package jobs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivertype"

	"larder/logctx"
	"larder/metrics"
	"larder/repo"
)

// Queue inserts jobs. The API and the admin CLI hold one; it never works jobs.
type Queue struct {
	client *river.Client[pgx.Tx]
}

// NewQueue returns an insert-only queue over pool.
func NewQueue(pool *pgxpool.Pool, logger *slog.Logger) (*Queue, error) {
	client, err := river.NewClient(riverpgxv5.New(pool), &river.Config{Logger: logger})
	if err != nil {
		return nil, fmt.Errorf("river insert client: %w", err)
	}
	return &Queue{client: client}, nil
}

// QueueFromClient wraps a working client, for the API's in-process workers.
func QueueFromClient(client *river.Client[pgx.Tx]) *Queue { return &Queue{client: client} }

// Enqueue inserts args inside tx, the transaction of the row change the job
// belongs to, and records who started it. The job is not worked before tx
// commits, and is never lost if it does. userID is nil for system jobs.
func (q *Queue) Enqueue(ctx context.Context, tx pgx.Tx, userID *uuid.UUID, args river.JobArgs) (uuid.UUID, error) {
	res, err := q.client.InsertTx(ctx, tx, args, nil)
	if err != nil {
		return uuid.Nil, fmt.Errorf("enqueue %s: %w", args.Kind(), err)
	}
	if res.UniqueSkippedAsDuplicate {
		// A unique kind already waiting: the caller gets that job.
		return repo.GetJobIDByRiverID(ctx, tx, res.Job.ID)
	}
	return repo.CreateJob(ctx, tx, res.Job.ID, userID, args.Kind())
}

// Failure is a job error a person can act on ("the site refused us (403)").
// It ends the job at once, without retries, and its code and message are
// what GET /api/jobs/:id shows.
type Failure struct {
	Code    string
	Message string
}

func (f *Failure) Error() string { return f.Code + ": " + f.Message }

// Fail returns a *Failure.
func Fail(code, message string) error { return &Failure{Code: code, Message: message} }

// recorder writes a job's outcome to app_job. Every worker embeds it.
type recorder struct {
	db     *pgxpool.Pool
	logger *slog.Logger
}

// progress records how far a running job is (0..1). Errors are logged, not
// returned: a missed progress update must not fail the job.
func (r recorder) progress(ctx context.Context, job *rivertype.JobRow, fraction float64) {
	fraction = min(max(fraction, 0), 1)
	if err := repo.SetJobProgress(ctx, r.db, job.ID, fraction); err != nil {
		r.logger.WarnContext(ctx, "record job progress", "error", err)
	}
}

// stage records what a running job is doing now; like progress, a missed
// update is logged, not returned.
func (r recorder) stage(ctx context.Context, job *rivertype.JobRow, stage string) {
	if err := repo.SetJobStage(ctx, r.db, job.ID, stage); err != nil {
		r.logger.Warn("record job stage", "job_id", job.ID, "job_kind", job.Kind, "error", err)
	}
}

// finish records the outcome of one attempt and tells River what to do next:
// a result completes the job; a *Failure ends it for good; any other error
// is retried by River with backoff, and recorded as an internal error only
// when no attempt is left.
func (r recorder) finish(ctx context.Context, job *rivertype.JobRow, result any, err error) error {
	// The outcome must be written even when the job's context was cancelled.
	ctx = context.WithoutCancel(ctx)
	if err == nil {
		raw, merr := json.Marshal(result)
		if merr != nil {
			return fmt.Errorf("encode job result: %w", merr)
		}
		return repo.CompleteJob(ctx, r.db, job.ID, raw)
	}
	var f *Failure
	if errors.As(err, &f) {
		if rerr := repo.FailJob(ctx, r.db, job.ID, f.Code, f.Message); rerr != nil {
			return rerr
		}
		return river.JobCancel(err)
	}
	if job.Attempt >= job.MaxAttempts {
		if rerr := repo.FailJob(ctx, r.db, job.ID, "internal", "the job failed after several attempts; the server log has details"); rerr != nil {
			r.logger.ErrorContext(ctx, "record job failure", "error", rerr)
		}
	}
	return err
}

// ClientConfig is what a working River client needs.
type ClientConfig struct {
	// Concurrency per queue; a queue left out (or 0) is not worked by this process.
	Concurrency map[string]int
	// RescueAfter is how long a job may run before River assumes its worker
	// died and makes it available to another worker.
	RescueAfter time.Duration
	Periodic    []*river.PeriodicJob
	// Metrics, if not nil, records every job attempt (METRICS_ADDR).
	Metrics *metrics.Registry
	// Presence, if not nil, gives the client its ID (Presence.ClientID),
	// so that River's record of the jobs it takes names its presence lock;
	// pass the Deps' Presence. A client without one (tests that run no
	// restore) gets River's default ID.
	Presence *Presence
}

// NewClient returns a River client that works the given queues with workers.
func NewClient(pool *pgxpool.Pool, logger *slog.Logger, workers *river.Workers, cc ClientConfig) (*river.Client[pgx.Tx], error) {
	queues := map[string]river.QueueConfig{}
	for name, n := range cc.Concurrency {
		if n > 0 {
			queues[name] = river.QueueConfig{MaxWorkers: n}
		}
	}
	if len(queues) == 0 {
		return nil, errors.New("no queue to work: every queue's concurrency is 0")
	}
	rescue := cc.RescueAfter
	if rescue <= 0 {
		rescue = 15 * time.Minute
	}
	var id string
	if cc.Presence != nil {
		id = cc.Presence.ClientID()
	}
	client, err := river.NewClient(riverpgxv5.New(pool), &river.Config{
		ID:                   id,
		Logger:               logger,
		Queues:               queues,
		Workers:              workers,
		RescueStuckJobsAfter: rescue,
		// Every kind has a time limit of its own (addWorker), which also
		// decides when a job whose worker died is rescued. This default
		// applies to no kind; it is finite all the same, since River never
		// rescues a job without a limit, and no longer than RescueAfter
		// (River requires it).
		JobTimeout:                  rescue,
		CompletedJobRetentionPeriod: 7 * 24 * time.Hour,
		DiscardedJobRetentionPeriod: 7 * 24 * time.Hour,
		CancelledJobRetentionPeriod: 7 * 24 * time.Hour,
		PeriodicJobs:                cc.Periodic,
		Middleware:                  middleware(cc.Metrics),
	})
	if err != nil {
		return nil, fmt.Errorf("river client: %w", err)
	}
	return client, nil
}

// Shutdown stops a working client gracefully: running jobs get grace to
// finish; then their contexts are cancelled so they return and River hands
// them back to the queue (they are retried by another worker).
func Shutdown(client *river.Client[pgx.Tx], grace time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	if err := client.Stop(ctx); err == nil {
		return nil
	}
	hard, cancel2 := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel2()
	return client.StopAndCancel(hard)
}

// queueOpts is the InsertOpts of every kind: its queue, and a few attempts.
func queueOpts(queue string, maxAttempts int) river.InsertOpts {
	return river.InsertOpts{Queue: queue, MaxAttempts: maxAttempts}
}

// middleware wraps every job: its log lines carry its id and kind
// (logctx), and its attempt is counted when metrics are on.
func middleware(m *metrics.Registry) []rivertype.Middleware {
	out := []rivertype.Middleware{&logMiddleware{}}
	if m != nil {
		out = append(out, m.JobMiddleware())
	}
	return out
}

type logMiddleware struct{ river.MiddlewareDefaults }

func (*logMiddleware) Work(ctx context.Context, job *rivertype.JobRow, doInner func(context.Context) error) error {
	return doInner(logctx.With(ctx, "job_id", job.ID, "job_kind", job.Kind))
}

// Client is the River client under the queue (River UI reads through it).
func (q *Queue) Client() *river.Client[pgx.Tx] { return q.client }
