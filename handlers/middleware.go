package handlers

import (
	"context"
	"errors"
	"time"

	jwtware "github.com/gofiber/contrib/jwt"
	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"

	"larder/repo"
	"larder/token"
)

// Caller is the authenticated user of a request.
type Caller struct {
	ID    uuid.UUID
	Email string
	Name  string
	Role  string
}

// IsAdmin reports whether the caller has the ADMIN role.
func (c *Caller) IsAdmin() bool { return c != nil && c.Role == repo.RoleAdmin }

const callerKey = "caller"

// caller returns the request's authenticated user, nil when anonymous.
func caller(c *fiber.Ctx) *Caller {
	u, _ := c.Locals(callerKey).(*Caller)
	return u
}

// callerID returns the caller's id, or nil when anonymous: the form the
// repository takes for "who is asking".
func callerID(c *fiber.Ctx) *uuid.UUID {
	if u := caller(c); u != nil {
		return &u.ID
	}
	return nil
}

// authMiddleware builds the route protection rules of the specification:
// requireAuth, optionalAuth and requireAdmin. (requireOwnership depends on
// the resource and lives with each resource's handlers.)
//
// The token is verified by gofiber/contrib/jwt with HS256 pinned; then the
// user is loaded, so the tokens of a deleted user, and tokens issued before
// the user's sessions were revoked, stop working at once.
func (s *Server) authMiddleware() (requireAuth, optionalAuth, requireAdmin fiber.Handler) {
	verify := func(optional, adminOnly bool) fiber.Handler {
		return jwtware.New(jwtware.Config{
			SigningKey: jwtware.SigningKey{JWTAlg: token.Algorithm, Key: s.Tokens.AccessSecret},
			Claims:     &token.Claims{},
			ContextKey: "jwt",
			Filter: func(c *fiber.Ctx) bool {
				return optional && c.Get(fiber.HeaderAuthorization) == ""
			},
			SuccessHandler: func(c *fiber.Ctx) error {
				if err := s.loadCaller(c); err != nil {
					return err
				}
				if adminOnly && !caller(c).IsAdmin() {
					return errForbidden("this needs an administrator")
				}
				return c.Next()
			},
			ErrorHandler: func(c *fiber.Ctx, err error) error {
				if errors.Is(err, jwtware.ErrJWTMissingOrMalformed) {
					return errUnauthenticated("sign in first: send an access token as Authorization: Bearer <token>")
				}
				return errUnauthenticated("the access token is invalid or expired")
			},
		})
	}
	return verify(false, false), verify(true, false), verify(false, true)
}

// loadCaller runs after a valid signature: it checks the token's type and
// session and stores the Caller.
func (s *Server) loadCaller(c *fiber.Ctx) error {
	claims := accessClaims(c)
	if claims == nil || claims.Type != token.TypeAccess {
		return errUnauthenticated("the access token is invalid or expired")
	}
	id, err := claims.UserID()
	if err != nil {
		return errUnauthenticated("the access token is invalid or expired")
	}
	u, err := repo.GetSessionUser(c.UserContext(), s.DB, id, claims.SessionVersion)
	if errors.Is(err, repo.ErrNotFound) {
		return errUnauthenticated("this session has ended; sign in again")
	}
	if err != nil {
		return err
	}
	c.Locals(callerKey, &Caller{ID: u.ID, Email: u.Email, Name: u.Name, Role: u.Role})
	return nil
}

// isAdminSession reports whether raw is the access token of a live session
// of a current administrator: what requireAdmin checks, for the one place
// that must decide before the request reaches the handlers (the body limit
// of backup uploads, decided on the headers alone).
func (s *Server) isAdminSession(raw string) bool {
	claims, err := s.Tokens.ParseAccess(raw)
	if err != nil {
		return false
	}
	id, err := claims.UserID()
	if err != nil {
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	u, err := repo.GetSessionUser(ctx, s.DB, id, claims.SessionVersion)
	return err == nil && u.Role == repo.RoleAdmin
}
