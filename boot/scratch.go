package boot

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"time"

	"larder/backup"
)

// scratchSweepEvery is how often the API looks for abandoned scratch
// files; the workers' hourly purge does the same for theirs.
const scratchSweepEvery = time.Hour

// UseScratchAsTempDir makes dir, the scratch directory (DATA_DIR/tmp), the
// process's temporary directory (TMPDIR), creating it if need be. The HTTP
// server reads a multipart body as it arrives, keeps up to 16 MB of its
// files in memory and writes the rest to a file in os.TempDir() (fasthttp
// over Go's mime/multipart, which has no other place to put it): in the
// scratch directory, a killed API's spooled uploads are found by
// SweepScratch like its other scratch files, and an uploaded backup is
// renamed into place, never copied. Call it before the server starts.
func UseScratchAsTempDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("create scratch directory: %w", err)
	}
	if err := os.Setenv("TMPDIR", dir); err != nil {
		return fmt.Errorf("set TMPDIR: %w", err)
	}
	return nil
}

// SweepScratch removes the files a killed process left in the API's
// scratch directory (backup.RemoveScratchLeftovers: request bodies being
// received, uploads being verified and stored, restores' fetched archives
// when a worker runs in the process), at once and then every hour until
// ctx ends. Only files older than backup.TimeLimit go, which no live
// request or job can own, so
// API processes sharing a data directory never take each other's; and
// since workers may run on other machines, with scratch directories of
// their own, each API cleans its own rather than count on the purge job.
func SweepScratch(ctx context.Context, dir string, logger *slog.Logger) {
	tick := time.NewTicker(scratchSweepEvery)
	defer tick.Stop()
	for {
		n, err := backup.RemoveScratchLeftovers(dir, time.Now().Add(-backup.TimeLimit))
		if err != nil {
			logger.WarnContext(ctx, "remove abandoned scratch files", "dir", dir, "error", err)
		} else if n > 0 {
			logger.InfoContext(ctx, "removed abandoned scratch files", "dir", dir, "count", n, "older_than", backup.TimeLimit)
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}
