package metrics

import (
	"context"
	"errors"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"larder/repo"
)

// Job metrics: every job worked by this process (River worker middleware),
// the depth of every queue (read from the database when scraped), and the
// outcome of recipe imports.

type jobMetrics struct {
	jobs    *prometheus.CounterVec
	run     *prometheus.HistogramVec
	wait    *prometheus.HistogramVec
	imports *prometheus.CounterVec
}

var jobBuckets = []float64{0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 900}

func (r *Registry) jobMetrics() *jobMetrics {
	r.jobsOnce.Do(func() {
		r.jm = &jobMetrics{
			jobs: prometheus.NewCounterVec(prometheus.CounterOpts{
				Name: "larder_jobs_total", Help: "Job attempts worked by this process, by kind, queue and outcome (completed, failed, cancelled).",
			}, []string{"kind", "queue", "outcome"}),
			run: prometheus.NewHistogramVec(prometheus.HistogramOpts{
				Name: "larder_job_run_seconds", Help: "How long job attempts ran, by kind.", Buckets: jobBuckets,
			}, []string{"kind"}),
			wait: prometheus.NewHistogramVec(prometheus.HistogramOpts{
				Name: "larder_job_queue_wait_seconds", Help: "How long jobs waited in their queue after they could run, by kind.", Buckets: jobBuckets,
			}, []string{"kind"}),
			imports: prometheus.NewCounterVec(prometheus.CounterOpts{
				Name: "larder_imports_total", Help: "Recipe imports by extraction path (structured_data, microdata, plugin, heuristic, browser_fallback; none for a failure) and outcome (ok or the failure code).",
			}, []string{"path", "outcome"}),
		}
		r.reg.MustRegister(r.jm.jobs, r.jm.run, r.jm.wait, r.jm.imports)
	})
	return r.jm
}

// JobMiddleware returns River worker middleware recording every attempt.
func (r *Registry) JobMiddleware() rivertype.WorkerMiddleware {
	return &jobMiddleware{m: r.jobMetrics()}
}

type jobMiddleware struct {
	river.MiddlewareDefaults
	m *jobMetrics
}

func (j *jobMiddleware) Work(ctx context.Context, job *rivertype.JobRow, doInner func(context.Context) error) error {
	start := time.Now()
	if job.AttemptedAt != nil && !job.ScheduledAt.IsZero() {
		j.m.wait.WithLabelValues(job.Kind).Observe(max(job.AttemptedAt.Sub(job.ScheduledAt), 0).Seconds())
	}
	err := doInner(ctx)
	outcome := "completed"
	switch {
	case err == nil:
	case isCancel(err):
		outcome = "cancelled"
	default:
		outcome = "failed"
	}
	j.m.jobs.WithLabelValues(job.Kind, job.Queue, outcome).Inc()
	j.m.run.WithLabelValues(job.Kind).Observe(time.Since(start).Seconds())
	return err
}

func isCancel(err error) bool {
	var c *river.JobCancelError
	return errors.As(err, &c)
}

// ImportOutcome counts one finished import: path is how the recipe was
// read ("" for a failure), outcome "ok" or the failure's code.
func (r *Registry) ImportOutcome(path, outcome string) {
	if r == nil {
		return
	}
	if path == "" {
		path = "none"
	}
	r.jobMetrics().imports.WithLabelValues(path, outcome).Inc()
}

// WatchQueues exports the depth of every queue, by state, read from the
// database at each scrape.
func (r *Registry) WatchQueues(db repo.DBTX) {
	r.reg.MustRegister(&queueCollector{db: db, desc: prometheus.NewDesc("larder_queue_jobs",
		"River jobs waiting or running, by queue and state.", []string{"queue", "state"}, nil)})
}

type queueCollector struct {
	db   repo.DBTX
	desc *prometheus.Desc
}

func (q *queueCollector) Describe(ch chan<- *prometheus.Desc) { ch <- q.desc }

func (q *queueCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	depth, err := repo.QueueDepth(ctx, q.db)
	if err != nil {
		ch <- prometheus.NewInvalidMetric(q.desc, err)
		return
	}
	for k, n := range depth {
		ch <- prometheus.MustNewConstMetric(q.desc, prometheus.GaugeValue, float64(n), k[0], k[1])
	}
}
