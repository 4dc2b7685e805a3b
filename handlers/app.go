// Package handlers is the HTTP API: one Fiber app, one file per resource,
// one ErrorHandler. Handlers return errors; ErrorHandler turns them into the
// body of docs/api.md.
package handlers

import (
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/recover"
	"github.com/gofiber/fiber/v2/middleware/requestid"

	"larder/config"
	"larder/filestore"
	"larder/jobs"
	"larder/logctx"
	"larder/metrics"
	"larder/repo"
	"larder/storage"
	"larder/token"
)

// MaxImageBytes is the largest accepted image upload (the specification's 20 MB).
const MaxImageBytes = 20 << 20

// Deps is everything the API needs; cmd/api builds it, tests build it the same way.
type Deps struct {
	Config  config.Config
	DB      repo.DBTX
	Queue   *jobs.Queue
	Tokens  *token.Issuer
	Logger  *slog.Logger
	Version string
	// Web is the built web client (web/dist); nil serves no client.
	Web fs.FS
	// Files stores uploaded images; nil means Storage.Files.
	Files filestore.Store
	// Storage holds images and backups (storage.Open); the zero value
	// means the stores the configuration names.
	Storage storage.Stores
	// ListCache reuses recent recipe-list totals and expanded searches
	// (NewListCache); nil computes them every time.
	ListCache *ListCache
	// Clock is the time the handlers go by (rate-limit windows, the
	// refresh grace period); nil is time.Now. Tests pass a clock they move.
	Clock func() time.Time
	// RiverUI, if not nil, is River UI's handler (riverui.NewHandler with
	// the prefix /api/admin/river), served to administrators.
	RiverUI http.Handler
	// Metrics, if not nil, counts every request by route pattern (served
	// on METRICS_ADDR by cmd/api).
	Metrics *metrics.Registry
	// ListEvents tells open shopping lists of their changes (NewListEvents,
	// fed by its Follow); nil answers their event streams with 503.
	ListEvents *ListEvents
	// PasswordCost is the bcrypt cost; 0 means password.DefaultCost (12).
	// Only tests lower it, to stay fast.
	PasswordCost int
}

// Server holds the dependencies the handlers share.
type Server struct {
	Deps
	requireAuth  fiber.Handler
	optionalAuth fiber.Handler
	requireAdmin fiber.Handler
	limits       *rateLimiter
	stores       storage.Stores
	signer       uploadSigner
	restore      *restoreWatch // whether a backup is being restored (maintenance.go)
}

// now is the handlers' clock.
func (s *Server) now() time.Time { return s.Clock() }

// New builds the whole app: middleware, every route, the uploads and the web client.
func New(d Deps) *fiber.App {
	if d.Clock == nil {
		d.Clock = time.Now
	}
	s := &Server{Deps: d, stores: d.Storage}
	s.limits = newRateLimiter(d.Config, d.Logger, d.Clock)
	s.restore = &restoreWatch{db: d.DB, logger: d.Logger, every: restoreCheckInterval, now: d.Clock}
	if d.Tokens != nil {
		s.signer = newUploadSigner(d.Tokens.AccessSecret, d.Clock)
	}
	if s.stores.Backups == nil {
		st, err := storage.Open(d.Config, d.DB)
		if err != nil { // the configuration was validated at start
			panic(fmt.Sprintf("storage: %v", err))
		}
		s.stores = st
	}
	s.requireAuth, s.optionalAuth, s.requireAdmin = s.authMiddleware()

	errorHandler := ErrorHandler(d.Logger)
	app := fiber.New(fiber.Config{
		AppName:               "larder",
		ErrorHandler:          errorHandler,
		DisableStartupMessage: true,
		// The largest body is an image upload: 20 MB plus multipart framing.
		BodyLimit:    MaxImageBytes + 1<<20,
		ReadTimeout:  2 * time.Minute,
		WriteTimeout: 10 * time.Minute, // backup downloads stream for a while
		IdleTimeout:  2 * time.Minute,
		// Client addresses come from X-Forwarded-For only through the rate
		// limiter's trusted-proxy check, never from Fiber's own parsing.
		ProxyHeader: "",
	})
	app.Use(securityHeaders(d.Config))
	app.Use(requestid.New())
	app.Use(requestLogger(d.Logger, errorHandler))
	if d.Metrics != nil {
		app.Use(d.Metrics.Middleware(errorHandler))
	}
	app.Use(recover.New())
	app.Use("/api", s.maintenanceGuard())     // 503 while a backup is restored
	app.Use("/uploads", s.maintenanceGuard()) // the images too
	s.allowBackupTransfers(app)               // the one route that takes large bodies
	s.allowArchiveUploads(app)                // and the import of another app's export

	s.routes(app)

	app.Get("/uploads/*", s.serveUpload) // stored images, see uploads.go
	if d.Web != nil {
		s.serveWebClient(app)
	}
	return app
}

// routes registers every route. Each resource's file adds its own group.
func (s *Server) routes(app *fiber.App) {
	api := app.Group("/api")
	api.Get("/health", s.health)
	api.Get("/ready", s.ready)
	api.Get("/openapi.json", s.openapi)
	api.Get("/jobs/:id", s.requireAuth, s.getJob)
	s.authRoutes(api)
	s.adminUserRoutes(api)
	s.backupRoutes(api)
	s.cookbookRoutes(api)
	s.recipeRoutes(api)
	s.recipeImportRoutes(api)
	s.mappingRoutes(api)
	s.mealPlanRoutes(api)
	s.shoppingRoutes(api)
	s.riverUIRoutes(app)
}

func (s *Server) health(c *fiber.Ctx) error {
	return c.JSON(fiber.Map{"status": "ok", "version": s.Version})
}

// requestID returns the id the requestid middleware gave this request.
func requestID(c *fiber.Ctx) string {
	id, _ := c.Locals(requestid.ConfigDefault.ContextKey).(string)
	return id
}

// requestLogger writes one structured line per request. It runs the error
// handler itself, so the logged status is the one the client got.
func requestLogger(logger *slog.Logger, errorHandler fiber.ErrorHandler) fiber.Handler {
	return func(c *fiber.Ctx) error {
		start := time.Now()
		// Every line logged for this request carries its id (logctx).
		c.SetUserContext(logctx.With(c.UserContext(), "request_id", requestID(c)))
		if err := c.Next(); err != nil {
			if herr := errorHandler(c, err); herr != nil {
				return herr
			}
		}
		status := c.Response().StatusCode()
		level := slog.LevelInfo
		if status >= 500 {
			level = slog.LevelError
		}
		logger.Log(c.UserContext(), level, "request",
			"method", c.Method(), "path", c.Path(), "status", status,
			"duration_ms", float64(time.Since(start).Microseconds())/1000, "ip", c.IP())
		return nil
	}
}
