package jobs

import (
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"larder/config"
	"larder/filestore"
	"larder/importer"
	"larder/importer/fetch"
	"larder/mailer"
	"larder/metrics"
	"larder/storage"
)

// Deps is what the workers need. cmd/worker (and cmd/api --workers) builds it.
type Deps struct {
	DB     *pgxpool.Pool
	Logger *slog.Logger
	Config config.Config
	// Mailer sends the account emails (mailer.New: SMTP, or the log).
	Mailer mailer.Mailer
	// Files stores uploaded images; nil means Storage.Files.
	Files filestore.Store
	// Storage holds the images and the backups (storage.Open); the zero
	// value means the stores the configuration names.
	Storage storage.Stores
	// Fetcher reaches other servers (images by URL) under the SSRF rules;
	// nil means one built from the configuration.
	Fetcher *fetch.Client
	// Metrics, if not nil, counts import outcomes (METRICS_ADDR).
	Metrics *metrics.Registry
	// Importer reads recipes from web pages (over Fetcher, with the
	// Chromium renderer when this process works the import queue); nil
	// means a plain importer over Fetcher, without a browser.
	Importer *importer.Importer
	// Clock names backups by their time and dates leftovers of unfinished
	// writes (purge_expired); nil is time.Now. Tests move it.
	Clock func() time.Time
	// Presence is this process's presence session (OpenPresence), the one
	// whose key is in the working client's ID (ClientConfig.Presence); a
	// restore claims its job on it, and refuses to run without it.
	Presence *Presence
}

func (d *Deps) recorder() recorder { return recorder{db: d.DB, logger: d.Logger} }

// timeLimit is a job kind's time limit for one attempt: the kind's own,
// or JOB_TIME_LIMIT when that is set and shorter. River also waits this
// long before rescuing a job whose worker vanished (a job within its limit
// may still be running), so tests of rescue shorten it.
func (d *Deps) timeLimit(own time.Duration) time.Duration {
	if limit := d.Config.JobTimeLimit; limit > 0 && limit < own {
		return limit
	}
	return own
}

// NewWorkers registers the worker of every job kind.
func NewWorkers(d *Deps) *river.Workers {
	w := river.NewWorkers()
	addWorker(w, &PurgeExpiredWorker{deps: d})
	addWorker(w, &ProcessImageWorker{deps: d})
	addWorker(w, &SendEmailWorker{deps: d})
	addWorker(w, &DownloadCookbookImageWorker{deps: d})
	addWorker(w, &BackupCreateWorker{deps: d})
	addWorker(w, &BackupRestoreWorker{deps: d})
	addWorker(w, &GenerateMappingsWorker{deps: d})
	addWorker(w, &ImportRecipeWorker{deps: d})
	addWorker(w, &DownloadRecipeImageWorker{deps: d})
	addWorker(w, &ImportArchiveWorker{deps: d})
	return w
}

// addWorker registers worker, which must have a time limit of its own:
// River rescues a running job whose worker vanished only once the kind's
// limit has passed, and never when it has none, so a worker killed in the
// middle of such a job would leave it running for ever.
func addWorker[T river.JobArgs](w *river.Workers, worker river.Worker[T]) {
	var args T
	if limit := worker.Timeout(&river.Job[T]{JobRow: &rivertype.JobRow{}}); limit <= 0 {
		panic(fmt.Sprintf("jobs: kind %s has no time limit of its own (Timeout returned %s)", args.Kind(), limit))
	}
	river.AddWorker(w, worker)
}

// PeriodicJobs are the jobs River's leader inserts on a schedule.
func PeriodicJobs(d *Deps) []*river.PeriodicJob {
	periodic := []*river.PeriodicJob{
		river.NewPeriodicJob(river.PeriodicInterval(time.Hour),
			func() (river.JobArgs, *river.InsertOpts) { return PurgeExpiredArgs{}, nil },
			&river.PeriodicJobOpts{RunOnStart: true}),
	}
	if b := backupSchedule(d.Config); b != nil {
		periodic = append(periodic, b)
	}
	return periodic
}
