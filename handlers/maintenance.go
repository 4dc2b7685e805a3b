package handlers

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/gofiber/fiber/v2"

	"larder/repo"
)

// restoreCheckInterval is how long the API trusts its last look at the
// restore lock: requests are served again at most this long after a
// restore ends, and
// the database is asked at most once per interval per API process.
const restoreCheckInterval = time.Second

// restoreWatch tells whether a restore is running. The restore runs in a
// worker process and holds a session advisory lock for its whole run
// (repo.TryLockRestore); the lock is shared through the database, and it
// dies with the worker's session, so a crashed restore cannot leave the
// API refusing requests.
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

// maintenanceGuard answers every request under /api and /uploads with 503
// (code "maintenance", a Retry-After header) while a restore runs: reads
// would see tables half loaded or wait behind the restore's locks until a
// proxy gives up, and whatever a write did would be replaced by the
// restore or conflict with it; every session ends when the restore
// completes anyway. Some reads stay open (watchedDuringRestore): liveness,
// readiness (which says itself that the instance is not ready), and what
// an administrator follows the restore with.
//
// When the check itself fails (the database is unreachable, or its
// connections are all waiting on the restore's locks) requests are
// refused too, with code "unavailable": none could succeed without the
// database, and letting a write through could land it in the middle of a
// restore.
func (s *Server) maintenanceGuard() fiber.Handler {
	return func(c *fiber.Ctx) error {
		if watchedDuringRestore(c.Method(), c.Path()) {
			return c.Next()
		}
		running, err := s.restore.active(c.UserContext())
		switch {
		case err != nil:
			c.Set(fiber.HeaderRetryAfter, "5")
			return newError(fiber.StatusServiceUnavailable, "unavailable",
				"the service cannot reach its database right now; try again shortly")
		case running:
			c.Set(fiber.HeaderRetryAfter, "30")
			return newError(fiber.StatusServiceUnavailable, "maintenance",
				"a backup is being restored; try again shortly")
		}
		return c.Next()
	}
}

// watchedDuringRestore tells the requests the maintenance guard lets
// through during a restore: GET and HEAD of /api/health, /api/ready, a
// job's status (GET /api/jobs/:id, which the web client polls to follow
// the restore job) and the River UI (its pages and its read API), all of
// which read nothing the restore replaces.
func watchedDuringRestore(method, p string) bool {
	if method != fiber.MethodGet && method != fiber.MethodHead {
		return false
	}
	switch {
	case p == "/api/health", p == "/api/ready":
		return true
	case strings.HasPrefix(p, "/api/jobs/"):
		return !strings.Contains(strings.TrimPrefix(p, "/api/jobs/"), "/")
	case p == riverUIPath, strings.HasPrefix(p, riverUIPath+"/"):
		return true
	}
	return false
}
