package handlers

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/gofiber/fiber/v2"

	"larder/repo"
)

// restoreCheckInterval is how long the API trusts its last look at the
// restore lock: writes resume at most this long after a restore ends, and
// the database is asked at most once per interval per API process.
const restoreCheckInterval = time.Second

// restoreWatch tells whether a restore is running. The restore runs in a
// worker process and holds a session advisory lock for its whole run
// (repo.TryLockRestore); the lock is shared through the database, and it
// dies with the worker's session, so a crashed restore cannot leave the
// API refusing writes.
type restoreWatch struct {
	db     repo.DBTX
	logger *slog.Logger
	every  time.Duration
	now    func() time.Time

	mu      sync.Mutex
	checked time.Time
	running bool
	err     error
}

// active reports whether a restore is running, asking the database at
// most once per w.every. An error means the answer is unknown.
func (w *restoreWatch) active(ctx context.Context) (bool, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.now().Sub(w.checked) < w.every {
		return w.running, w.err
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
	defer cancel()
	w.running, w.err = repo.RestoreInProgress(ctx, w.db)
	if w.err != nil {
		w.logger.WarnContext(ctx, "check for a running restore", "error", w.err)
	}
	w.checked = w.now()
	return w.running, w.err
}

// maintenanceGuard answers every write (any method but GET, HEAD and
// OPTIONS, sign-in included) with 503 unavailable while a restore runs:
// whatever it wrote would be replaced by the restore or conflict with it,
// and every session ends when the restore completes anyway. Reads go on
// (those of the restored tables wait while the restore loads them).
//
// When the check itself fails (the database is unreachable, or its
// connections are all waiting on the restore's locks) writes are refused
// too: none could succeed without the database, and letting one through
// could land it in the middle of a restore.
func (s *Server) maintenanceGuard() fiber.Handler {
	w := &restoreWatch{db: s.DB, logger: s.Logger, every: restoreCheckInterval, now: s.now}
	return func(c *fiber.Ctx) error {
		switch c.Method() {
		case fiber.MethodGet, fiber.MethodHead, fiber.MethodOptions:
			return c.Next()
		}
		running, err := w.active(c.UserContext())
		switch {
		case err != nil:
			c.Set(fiber.HeaderRetryAfter, "5")
			return newError(fiber.StatusServiceUnavailable, "unavailable",
				"the service cannot reach its database right now; try again shortly")
		case running:
			c.Set(fiber.HeaderRetryAfter, "30")
			return newError(fiber.StatusServiceUnavailable, "unavailable",
				"a backup is being restored; changes are refused until it has finished")
		}
		return c.Next()
	}
}
