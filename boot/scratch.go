package boot

import (
	"context"
	"log/slog"
	"time"

	"larder/backup"
)

// scratchSweepEvery is how often the API looks for abandoned scratch
// archives; the workers' hourly purge does the same for theirs.
const scratchSweepEvery = time.Hour

// SweepScratch removes the archives a killed process left in the API's
// scratch directory (backup.RemoveScratchLeftovers: uploads being
// verified and stored, restores' fetched archives when a worker runs in
// the process), at once and then every hour until ctx ends. Only files
// older than backup.TimeLimit go, which no live request or job can own, so
// API processes sharing a data directory never take each other's; and
// since workers may run on other machines, with scratch directories of
// their own, each API cleans its own rather than count on the purge job.
func SweepScratch(ctx context.Context, dir string, logger *slog.Logger) {
	tick := time.NewTicker(scratchSweepEvery)
	defer tick.Stop()
	for {
		n, err := backup.RemoveScratchLeftovers(dir, time.Now().Add(-backup.TimeLimit))
		if err != nil {
			logger.WarnContext(ctx, "remove abandoned scratch archives", "dir", dir, "error", err)
		} else if n > 0 {
			logger.InfoContext(ctx, "removed abandoned scratch archives", "dir", dir, "count", n, "older_than", backup.TimeLimit)
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}
