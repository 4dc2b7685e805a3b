package jobs

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"

	"larder/config"
	"larder/metrics"
)

// A job worked by a client with metrics shows up in the job counters, its
// run time and queue wait; the queue depth is read from the database; the
// job is counted once.
func TestJobMetricsAndLogContext(t *testing.T) {
	t.Parallel()
	e := newJobEnv(t)
	db := e.db
	reg := metrics.New()
	reg.WatchQueues(db)
	e.deps.Metrics = reg
	client, err := NewClient(db, discardLogger(), NewWorkers(e.deps),
		ClientConfig{Concurrency: map[string]int{config.QueueMapping: 1}, Metrics: reg})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := client.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer client.Stop(ctx)
	done, cancel := client.Subscribe(riverEventCompleted)
	defer cancel()
	var id int64
	err = pgx.BeginFunc(ctx, db, func(tx pgx.Tx) error {
		res, err := client.InsertTx(ctx, tx, PurgeExpiredArgs{}, nil)
		if err == nil {
			id = res.Job.ID
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case ev := <-done:
		if ev.Job.ID != id {
			t.Fatalf("another job completed: %d", ev.Job.ID)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the job did not complete")
	}
	rec := httptest.NewRecorder()
	reg.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	out := rec.Body.String()
	for _, want := range []string{
		`larder_jobs_total{kind="purge_expired",outcome="completed",queue="mapping"} 1`,
		`larder_job_run_seconds_count{kind="purge_expired"} 1`,
		`larder_job_queue_wait_seconds_count{kind="purge_expired"} 1`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("metrics lack %s", want)
		}
	}
	// Queue depth: one job waiting on the email queue, which no one works.
	err = pgx.BeginFunc(ctx, db, func(tx pgx.Tx) error {
		_, err := client.InsertTx(ctx, tx, GenerateMappingsArgs{RecipeID: uuid.New()}, &riverInsertOpts{Queue: config.QueueEmail})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	rec = httptest.NewRecorder()
	reg.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if !strings.Contains(rec.Body.String(), `larder_queue_jobs{queue="email",state="available"} 1`) {
		t.Errorf("queue depth missing:\n%s", grepLines(rec.Body.String(), "larder_queue_jobs"))
	}
}

func grepLines(s, sub string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

const riverEventCompleted = river.EventKindJobCompleted

type riverInsertOpts = river.InsertOpts
