package handlers

import (
	"strings"
	"time"

	jwtware "github.com/gofiber/contrib/jwt"
	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/adaptor"
	"github.com/golang-jwt/jwt/v5"

	"larder/token"
)

// River UI (riverqueue.com/riverui: job lists, retries, cancels) for
// administrators, at /api/admin/river/, through the service's own sign-in.
//
// A browser cannot send the access token (the web client keeps it in
// memory) on a page load, so an administrator first exchanges it for a
// cookie: POST /api/admin/river/session with the bearer token sets
// larder_river_ui, HttpOnly, SameSite=Strict, scoped to the River UI's path
// and expiring with the token. Every request under the path checks it like
// any access token (signature, expiry, live session, ADMIN role).

const (
	riverUIPath   = "/api/admin/river"
	riverUICookie = "larder_river_ui"
)

// riverUIRoutes mounts Deps.RiverUI, when there is one.
func (s *Server) riverUIRoutes(app *fiber.App) {
	if s.RiverUI == nil {
		return
	}
	app.Post(riverUIPath+"/session", s.requireAdmin, s.riverUISession)
	guard := jwtware.New(jwtware.Config{
		SigningKey:  jwtware.SigningKey{JWTAlg: token.Algorithm, Key: s.Tokens.AccessSecret},
		Claims:      &token.Claims{},
		ContextKey:  "jwt",
		TokenLookup: "cookie:" + riverUICookie,
		SuccessHandler: func(c *fiber.Ctx) error {
			if err := s.loadCaller(c); err != nil {
				return err
			}
			if !caller(c).IsAdmin() {
				return errForbidden("this needs an administrator")
			}
			return c.Next()
		},
		ErrorHandler: func(c *fiber.Ctx, err error) error {
			return errUnauthenticated("sign in as an administrator and open the River UI from the admin page (POST " + riverUIPath + "/session)")
		},
	})
	ui := adaptor.HTTPHandler(s.RiverUI)
	app.All(riverUIPath, guard, ui)
	app.All(riverUIPath+"/*", guard, ui)
}

// riverUISession is POST /api/admin/river/session.
func (s *Server) riverUISession(c *fiber.Ctx) error {
	raw := strings.TrimSpace(strings.TrimPrefix(c.Get(fiber.HeaderAuthorization), "Bearer"))
	expires := time.Now().Add(s.Config.JWTExpiresIn)
	if jt, _ := c.Locals("jwt").(*jwt.Token); jt != nil {
		if cl, ok := jt.Claims.(*token.Claims); ok && cl.ExpiresAt != nil {
			expires = cl.ExpiresAt.Time
		}
	}
	c.Cookie(&fiber.Cookie{
		Name: riverUICookie, Value: raw, Path: riverUIPath, Expires: expires,
		HTTPOnly: true, Secure: strings.HasPrefix(s.Config.APIURL, "https://"), SameSite: fiber.CookieSameSiteStrictMode,
	})
	return c.JSON(fiber.Map{"url": riverUIPath + "/"})
}
