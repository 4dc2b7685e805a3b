package jobs

import (
	"testing"
	"time"

	"github.com/riverqueue/river"

	"larder/config"
)

// JOB_TIME_LIMIT caps the kinds' own limits (which River also waits before
// rescuing a vanished worker's job); unset, each kind keeps its own.
func TestJobTimeLimitCapsTheKindsOwn(t *testing.T) {
	t.Parallel()
	limits := func(cap time.Duration) []time.Duration {
		d := &Deps{Config: config.Config{JobTimeLimit: cap}}
		return []time.Duration{
			(&ImportRecipeWorker{deps: d}).Timeout(&river.Job[ImportRecipeArgs]{}),
			(&ImportArchiveWorker{deps: d}).Timeout(&river.Job[ImportArchiveArgs]{}),
			(&SendEmailWorker{deps: d}).Timeout(&river.Job[SendEmailArgs]{}),
			(&ProcessImageWorker{deps: d}).Timeout(&river.Job[ProcessImageArgs]{}),
			(&DownloadRecipeImageWorker{deps: d}).Timeout(&river.Job[DownloadRecipeImageArgs]{}),
			(&DownloadCookbookImageWorker{deps: d}).Timeout(&river.Job[DownloadCookbookImageArgs]{}),
			(&BackupCreateWorker{deps: d}).Timeout(&river.Job[BackupCreateArgs]{}),
			(&BackupRestoreWorker{deps: d}).Timeout(&river.Job[BackupRestoreArgs]{}),
			(&GenerateMappingsWorker{deps: d}).Timeout(&river.Job[GenerateMappingsArgs]{}),
			(&PurgeExpiredWorker{deps: d}).Timeout(&river.Job[PurgeExpiredArgs]{}),
		}
	}
	own := []time.Duration{2 * time.Minute, 3 * time.Hour, 2 * time.Minute, 2 * time.Minute, 2 * time.Minute, 2 * time.Minute,
		6 * time.Hour, 6 * time.Hour, 2 * time.Minute, 10 * time.Minute}
	for i, got := range limits(0) {
		if got != own[i] {
			t.Errorf("unset: kind %d has %s, want its own %s", i, got, own[i])
		}
	}
	for i, got := range limits(5 * time.Second) {
		if got != 5*time.Second {
			t.Errorf("JOB_TIME_LIMIT=5s: kind %d has %s", i, got)
		}
	}
	// A cap above a kind's own limit leaves it.
	if got := limits(time.Hour); got[0] != 2*time.Minute || got[1] != time.Hour {
		t.Errorf("JOB_TIME_LIMIT=1h: %v", got)
	}
}
