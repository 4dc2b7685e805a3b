package handlers

import (
	"context"
	"strconv"
	"time"

	"github.com/gofiber/fiber/v2"

	"larder/migrations"
)

// ready is GET /api/ready, for load balancers: 200 when this instance can
// serve (the database answers, its schema is the one this release
// expects, the file store answers, no backup is being restored), else
// 503 naming what is wrong. During a restore every instance answers 503
// to nearly everything (maintenanceGuard), so none of them is ready.
// /api/health stays a liveness check that touches nothing.
func (s *Server) ready(c *fiber.Ctx) error {
	ctx, cancel := context.WithTimeout(c.UserContext(), 3*time.Second)
	defer cancel()
	checks := fiber.Map{"database": "ok", "migrations": "ok", "storage": "ok"}
	ok := true
	version, err := migrations.Version(ctx, s.DB)
	switch {
	case err != nil:
		checks["database"], checks["migrations"], ok = "unreachable: "+err.Error(), "unknown", false
	case version != migrations.Latest():
		checks["migrations"], ok = "schema version "+itoa(version)+", this release expects "+itoa(migrations.Latest()), false
	}
	if err == nil {
		switch running, err := s.restore.active(ctx); {
		case err != nil:
			checks["restore"], ok = "unknown: "+err.Error(), false
		case running:
			checks["restore"], ok = "a backup is being restored", false
		default:
			checks["restore"] = "none"
		}
	}
	if err := s.stores.Check(ctx); err != nil {
		checks["storage"], ok = "unreachable: "+err.Error(), false
	}
	status := fiber.StatusOK
	if !ok {
		status = fiber.StatusServiceUnavailable
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.Status(status).JSON(fiber.Map{"status": map[bool]string{true: "ready", false: "unavailable"}[ok], "checks": checks})
}

func itoa(n int) string { return strconv.Itoa(n) }
