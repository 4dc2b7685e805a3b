// Package handlers is the HTTP API: one Fiber app, one file per resource,
// one ErrorHandler. Handlers return errors; ErrorHandler turns them into the
// body of API.md.
package handlers

import (
	"io/fs"
	"log/slog"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/recover"
	"github.com/gofiber/fiber/v2/middleware/requestid"

	"larder/config"
	"larder/filestore"
	"larder/jobs"
	"larder/repo"
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
	// Files stores uploaded images; nil means the directory UPLOAD_PATH.
	Files filestore.Store
	// ListCache reuses recent recipe-list totals and expanded searches
	// (NewListCache); nil computes them every time.
	ListCache *ListCache
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
}

// New builds the whole app: middleware, every route, the uploads and the web client.
func New(d Deps) *fiber.App {
	s := &Server{Deps: d}
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
	app.Use(requestid.New())
	app.Use(requestLogger(d.Logger, errorHandler))
	app.Use(recover.New())
	app.Use("/api", s.maintenanceGuard()) // writes answer 503 while a backup is restored
	s.allowBackupTransfers(app)           // the one route that takes large bodies
	s.allowArchiveUploads(app)            // and the import of another app's export

	s.routes(app)

	app.Static("/uploads", d.Config.UploadPath, fiber.Static{
		// Stored file names are random and never reused, so they can be cached for good.
		MaxAge:        365 * 24 * 3600,
		Browse:        false,
		ByteRange:     true,
		CacheDuration: 10 * time.Second,
	})
	if d.Web != nil {
		s.serveWebClient(app)
	}
	return app
}

// routes registers every route. Each resource's file adds its own group.
func (s *Server) routes(app *fiber.App) {
	api := app.Group("/api")
	api.Get("/health", s.health)
	api.Get("/openapi.json", s.openapi)
	api.Get("/jobs/:id", s.requireAuth, s.getJob)
	s.authRoutes(api)
	s.adminUserRoutes(api)
	s.backupRoutes(api)
	s.cookbookRoutes(api)
	s.recipeRoutes(app, api)
	s.recipeImportRoutes(api)
	s.mappingRoutes(api)
	s.mealPlanRoutes(api)
	s.shoppingRoutes(api)
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
			"duration_ms", float64(time.Since(start).Microseconds())/1000,
			"request_id", requestID(c), "ip", c.IP())
		return nil
	}
}
