package handlers

import (
	"context"
	"encoding/json"
	"errors"
	"net/mail"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"larder/jobs"
	"larder/password"
	"larder/repo"
	"larder/token"
)

// User is the account shape of docs/api.md. It never carries a password hash.
type User struct {
	ID            uuid.UUID `json:"id"`
	Email         string    `json:"email"`
	Name          string    `json:"name"`
	Role          string    `json:"role"`
	EmailVerified bool      `json:"emailVerified"`
	Provider      string    `json:"provider"`
	CreatedAt     time.Time `json:"createdAt"`
}

func userView(u repo.User) User {
	return User{ID: u.ID, Email: u.Email, Name: u.Name, Role: u.Role, EmailVerified: u.EmailVerified,
		Provider: u.Provider(), CreatedAt: u.CreatedAt.UTC()}
}

// authSession is the answer of login and refresh.
type authSession struct {
	AccessToken  string `json:"accessToken"`
	RefreshToken string `json:"refreshToken"`
	User         User   `json:"user"`
}

// refreshCookie is the refresh token's cookie. Its path keeps it off every
// request but the /api/auth ones.
const (
	refreshCookie     = "refresh_token"
	refreshCookiePath = "/api/auth"
)

// emailSentBody is the one answer of forgot-password and
// resend-verification, whatever the address.
var emailSentBody = fiber.Map{"message": "If an account with that address needs it, an email is on its way."}

// authHandlers holds what the /api/auth routes share.
type authHandlers struct {
	*Server
	idp *idpHandlers // nil when no identity provider is configured
}

// authRoutes registers the /api/auth routes; the administrators' user
// routes are in admin_user.go.
func (s *Server) authRoutes(api fiber.Router) {
	h := &authHandlers{Server: s}
	h.idp = newIDPHandlers(h)
	g := api.Group("/auth")
	lim := s.limits.limit
	g.Post("/register", lim("register"), h.register)
	// The routes of the refresh cookie answer only the service's own pages.
	own := s.ownPagesOnly()
	g.Post("/login", own, s.limits.limitFailures("login"), h.login)
	g.Post("/logout", own, h.logout)
	g.Post("/refresh", own, h.refresh)
	g.Get("/me", s.requireAuth, h.me)
	g.Get("/verify-email/:token", lim("verify-email"), h.verifyEmail)
	g.Post("/resend-verification", lim("resend-verification"), h.resendVerification)
	g.Post("/forgot-password", lim("forgot-password"), h.forgotPassword)
	g.Post("/reset-password", lim("reset-password"), h.resetPassword)
	// The provider routes come last: /:idp would otherwise take /me.
	g.Get("/providers", h.providers)
	g.Get("/:idp", h.idpStart)
	g.Get("/:idp/callback", h.idpCallback)
}

// passwordCost is the bcrypt cost: the specification's 12 unless a test lowered it.
func (h *authHandlers) passwordCost() int {
	if h.PasswordCost > 0 {
		return h.PasswordCost
	}
	return password.DefaultCost
}

// normalizeEmail trims the address and checks that it is one bare address.
func normalizeEmail(fe fieldErrors, raw string) string {
	email := strings.TrimSpace(raw)
	if email == "" {
		fe.add("email", "is required")
		return ""
	}
	a, err := mail.ParseAddress(email)
	if err != nil || a.Address != email || len(email) > 254 || !strings.Contains(email[strings.LastIndexByte(email, '@')+1:], ".") {
		fe.add("email", "is not a valid email address")
		return ""
	}
	return email
}

func (h *authHandlers) register(c *fiber.Ctx) error {
	var in struct {
		Email    string `json:"email"`
		Password string `json:"password"`
		Name     string `json:"name"`
	}
	if err := decodeJSON(c, &in); err != nil {
		return err
	}
	fe := fieldErrors{}
	email := normalizeEmail(fe, in.Email)
	if msg := password.Check(in.Password); msg != "" {
		fe.add("password", "%s", msg)
	}
	name := strings.TrimSpace(in.Name)
	if utf8.RuneCountInString(name) > 100 || strings.ContainsAny(name, "\r\n") {
		fe.add("name", "must be one line of at most 100 characters")
	}
	if err := fe.err(); err != nil {
		return err
	}
	hash, err := password.Hash(in.Password, h.passwordCost())
	if err != nil {
		return err
	}
	ctx := c.UserContext()
	var u repo.User
	err = pgx.BeginFunc(ctx, h.DB, func(tx pgx.Tx) error {
		var err error
		u, err = repo.CreateUser(ctx, tx, repo.CreateUserParams{Email: email, Name: name, Role: repo.RoleUser, PasswordHash: &hash})
		if err != nil {
			return err
		}
		_, err = h.Queue.Enqueue(ctx, tx, &u.ID, jobs.SendEmailArgs{Template: jobs.EmailVerify, UserID: u.ID})
		return err
	})
	if errors.Is(err, repo.ErrConflict) {
		return &Error{Status: fiber.StatusConflict, Code: "conflict", Message: "an account with this email address already exists",
			Fields: map[string]string{"email": "is already registered"}}
	}
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(fiber.Map{"user": userView(u)})
}

func (h *authHandlers) login(c *fiber.Ctx) error {
	var in struct {
		Email    string `json:"email"`
		Password string `json:"password"`
	}
	if err := decodeJSON(c, &in); err != nil {
		return err
	}
	fe := fieldErrors{}
	if strings.TrimSpace(in.Email) == "" {
		fe.add("email", "is required")
	}
	if in.Password == "" {
		fe.add("password", "is required")
	}
	if err := fe.err(); err != nil {
		return err
	}
	ctx := c.UserContext()
	u, err := repo.GetUserByEmail(ctx, h.DB, strings.TrimSpace(in.Email))
	if err != nil && !errors.Is(err, repo.ErrNotFound) {
		return err
	}
	var hash *string
	if err == nil {
		hash = u.PasswordHash
	}
	// Unknown address, account without a password, wrong password: one
	// bcrypt comparison each, and one answer.
	if !password.Matches(hash, in.Password, h.passwordCost()) {
		return errUnauthenticated("the email address or the password is wrong")
	}
	// Only after the password is right does the answer say more.
	if !u.EmailVerified {
		return newError(fiber.StatusForbidden, "email_not_verified",
			"confirm your email address first: open the link we sent you, or ask for a new one")
	}
	sess, err := h.startSession(ctx, u, uuid.Nil)
	if err != nil {
		return err
	}
	h.setRefreshCookie(c, sess.RefreshToken, time.Now().Add(h.Tokens.RefreshTTL))
	return c.JSON(sess)
}

// startSession issues an access token and a refresh token in family (a new
// family for a new sign-in) and stores the refresh token's hash.
func (h *authHandlers) startSession(ctx context.Context, u repo.User, family uuid.UUID) (authSession, error) {
	return h.issue(ctx, h.DB, u, family)
}

func (h *authHandlers) issue(ctx context.Context, db repo.DBTX, u repo.User, family uuid.UUID) (authSession, error) {
	access, err := h.Tokens.Access(u.ID, u.Role, u.SessionVersion)
	if err != nil {
		return authSession{}, err
	}
	r, err := h.Tokens.Refresh(u.ID, u.SessionVersion, family)
	if err != nil {
		return authSession{}, err
	}
	if err := repo.CreateRefreshToken(ctx, db, repo.CreateRefreshTokenParams{
		ID: r.ID, UserID: u.ID, TokenHash: token.Hash(r.Token), FamilyID: r.Family, ExpiresAt: r.ExpiresAt,
	}); err != nil {
		return authSession{}, err
	}
	return authSession{AccessToken: access, RefreshToken: r.Token, User: userView(u)}, nil
}

// secureCookies reports whether cookies get the Secure flag: when the web
// client is served over https.
func (h *authHandlers) secureCookies() bool {
	return strings.HasPrefix(h.Config.AppURL, "https://")
}

func (h *authHandlers) setRefreshCookie(c *fiber.Ctx, value string, expires time.Time) {
	c.Cookie(&fiber.Cookie{
		Name: refreshCookie, Value: value, Path: refreshCookiePath, Expires: expires,
		HTTPOnly: true, SameSite: fiber.CookieSameSiteLaxMode, Secure: h.secureCookies(),
	})
}

func (h *authHandlers) clearRefreshCookie(c *fiber.Ctx) {
	c.Cookie(&fiber.Cookie{
		Name: refreshCookie, Value: "", Path: refreshCookiePath, Expires: time.Unix(0, 0), MaxAge: -1,
		HTTPOnly: true, SameSite: fiber.CookieSameSiteLaxMode, Secure: h.secureCookies(),
	})
}

// presentedRefreshToken is the refresh token of the request: from the body
// ({"refreshToken"}) when there is one, else from the cookie.
func presentedRefreshToken(c *fiber.Ctx) (string, error) {
	var in struct {
		RefreshToken string `json:"refreshToken"`
	}
	if len(strings.TrimSpace(string(c.Body()))) > 0 {
		if err := decodeJSON(c, &in); err != nil {
			return "", err
		}
	}
	if in.RefreshToken != "" {
		return in.RefreshToken, nil
	}
	return c.Cookies(refreshCookie), nil
}

// errRefreshInvalid is the refresh failure the client should answer by signing in.
var errRefreshInvalid = errUnauthenticated("the refresh token is invalid, expired or revoked; sign in again")

// refreshGrace is how long a just-rotated refresh token is still accepted,
// answered with the same pair it was exchanged for: two tabs that refresh
// at the same moment both present the old token, and the slower one must
// not be taken for a thief. After it, a second presentation is a reuse.
const refreshGrace = 30 * time.Second

// grantedPair is what is sealed of a rotation's answer (token.SealSuccessor).
type grantedPair struct {
	AccessToken  string `json:"accessToken"`
	RefreshToken string `json:"refreshToken"`
}

func (h *authHandlers) refresh(c *fiber.Ctx) error {
	raw, err := presentedRefreshToken(c)
	if err != nil {
		return err
	}
	if raw == "" {
		return errUnauthenticated("no refresh token: send the refresh_token cookie or {\"refreshToken\": ...}")
	}
	claims, err := h.Tokens.ParseRefresh(raw)
	if err != nil {
		return errRefreshInvalid
	}
	ctx := c.UserContext()
	hash := token.Hash(raw)
	now := h.now()
	var sess authSession
	err = pgx.BeginFunc(ctx, h.DB, func(tx pgx.Tx) error {
		old, err := repo.RotateRefreshToken(ctx, tx, hash, now)
		if err != nil {
			return err
		}
		if old.UserID.String() != claims.Subject {
			return repo.ErrNotFound
		}
		u, err := repo.GetSessionUser(ctx, tx, old.UserID, claims.SessionVersion)
		if err != nil {
			return err
		}
		if sess, err = h.issue(ctx, tx, u, old.FamilyID); err != nil {
			return err
		}
		pair, _ := json.Marshal(grantedPair{AccessToken: sess.AccessToken, RefreshToken: sess.RefreshToken})
		sealed, err := token.SealSuccessor(raw, pair)
		if err != nil {
			return err
		}
		return repo.SetRefreshSuccessor(ctx, tx, old.ID, sealed)
	})
	if errors.Is(err, repo.ErrNotFound) {
		return h.refreshAgain(c, raw, hash, claims, now)
	}
	if err != nil {
		return err
	}
	h.setRefreshCookie(c, sess.RefreshToken, now.Add(h.Tokens.RefreshTTL))
	return c.JSON(sess)
}

// refreshAgain answers a refresh token that could not be rotated. Within
// refreshGrace of its rotation it gets the same pair again; a token that
// was exchanged longer ago is being reused: one of its two holders is a
// thief, and we cannot tell which, so every session of the account ends.
func (h *authHandlers) refreshAgain(c *fiber.Ctx, raw string, hash []byte, claims *token.Claims, now time.Time) error {
	ctx := c.UserContext()
	prev, err := repo.GetRefreshToken(ctx, h.DB, hash)
	if errors.Is(err, repo.ErrNotFound) || (err == nil && prev.RotatedAt == nil) {
		h.clearRefreshCookie(c) // unknown or expired
		return errRefreshInvalid
	}
	if err != nil {
		return err
	}
	if now.Sub(*prev.RotatedAt) <= refreshGrace && prev.SuccessorSealed != nil {
		var pair grantedPair
		opened, oerr := token.OpenSuccessor(raw, prev.SuccessorSealed)
		if oerr == nil && json.Unmarshal(opened, &pair) == nil {
			u, err := repo.GetSessionUser(ctx, h.DB, prev.UserID, claims.SessionVersion)
			if errors.Is(err, repo.ErrNotFound) {
				h.clearRefreshCookie(c) // signed out meanwhile
				return errRefreshInvalid
			}
			if err != nil {
				return err
			}
			h.setRefreshCookie(c, pair.RefreshToken, now.Add(h.Tokens.RefreshTTL))
			return c.JSON(authSession{AccessToken: pair.AccessToken, RefreshToken: pair.RefreshToken, User: userView(u)})
		}
	}
	if _, err := repo.RevokeUserSessions(ctx, h.DB, prev.UserID); err != nil {
		return err
	}
	h.Logger.WarnContext(ctx, "refresh token reused: every session of the user revoked", "user_id", prev.UserID)
	h.clearRefreshCookie(c)
	return errUnauthenticated("this refresh token was already used, so every session of the account has been signed out; sign in again")
}

// logout ends the session the refresh token belongs to and clears the
// cookie. It always answers 204: signing out cannot fail from the user's
// side, whatever state the token is in.
func (h *authHandlers) logout(c *fiber.Ctx) error {
	raw, err := presentedRefreshToken(c)
	if err != nil {
		return err
	}
	if raw != "" {
		if _, err := repo.DeleteRefreshFamily(c.UserContext(), h.DB, token.Hash(raw)); err != nil {
			return err
		}
	}
	h.clearRefreshCookie(c)
	return c.SendStatus(fiber.StatusNoContent)
}

func (h *authHandlers) me(c *fiber.Ctx) error {
	u, err := repo.GetUser(c.UserContext(), h.DB, caller(c).ID)
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"user": userView(u)})
}

func errBadLink(what string) *Error {
	return errInvalid("this %s link is invalid, has expired or was already used; ask for a new one", what)
}

func (h *authHandlers) verifyEmail(c *fiber.Ctx) error {
	ctx := c.UserContext()
	var u repo.User
	err := pgx.BeginFunc(ctx, h.DB, func(tx pgx.Tx) error {
		id, err := repo.UseVerificationToken(ctx, tx, token.Hash(c.Params("token")), repo.PurposeVerifyEmail)
		if err != nil {
			return err
		}
		u, err = repo.MarkEmailVerified(ctx, tx, id)
		return err
	})
	if errors.Is(err, repo.ErrNotFound) {
		return errBadLink("verification")
	}
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"user": userView(u)})
}

// sendAccountEmail queues template for the account with the address in the
// body, if there is one it applies to, and answers 202 with the same body
// either way, so the answer tells nothing about which addresses have accounts.
func (h *authHandlers) sendAccountEmail(c *fiber.Ctx, template string) error {
	var in struct {
		Email string `json:"email"`
	}
	if err := decodeJSON(c, &in); err != nil {
		return err
	}
	fe := fieldErrors{}
	email := normalizeEmail(fe, in.Email)
	if err := fe.err(); err != nil {
		return err
	}
	ctx := c.UserContext()
	u, err := repo.GetUserByEmail(ctx, h.DB, email)
	switch {
	case errors.Is(err, repo.ErrNotFound):
	case err != nil:
		return err
	case template == jobs.EmailVerify && u.EmailVerified:
	case template == jobs.EmailResetPassword && u.PasswordHash == nil:
		// The account signs in through its identity provider.
	default:
		err = pgx.BeginFunc(ctx, h.DB, func(tx pgx.Tx) error {
			_, err := h.Queue.Enqueue(ctx, tx, &u.ID, jobs.SendEmailArgs{Template: template, UserID: u.ID})
			return err
		})
		if err != nil {
			return err
		}
	}
	return c.Status(fiber.StatusAccepted).JSON(emailSentBody)
}

func (h *authHandlers) resendVerification(c *fiber.Ctx) error {
	return h.sendAccountEmail(c, jobs.EmailVerify)
}

func (h *authHandlers) forgotPassword(c *fiber.Ctx) error {
	return h.sendAccountEmail(c, jobs.EmailResetPassword)
}

func (h *authHandlers) resetPassword(c *fiber.Ctx) error {
	var in struct {
		Token    string `json:"token"`
		Password string `json:"password"`
	}
	if err := decodeJSON(c, &in); err != nil {
		return err
	}
	fe := fieldErrors{}
	if in.Token == "" {
		fe.add("token", "is required")
	}
	if msg := password.Check(in.Password); msg != "" {
		fe.add("password", "%s", msg)
	}
	if err := fe.err(); err != nil {
		return err
	}
	// Hash before the transaction: bcrypt takes a while and holds no lock.
	hash, err := password.Hash(in.Password, h.passwordCost())
	if err != nil {
		return err
	}
	ctx := c.UserContext()
	err = pgx.BeginFunc(ctx, h.DB, func(tx pgx.Tx) error {
		id, err := repo.UseVerificationToken(ctx, tx, token.Hash(in.Token), repo.PurposeResetPassword)
		if err != nil {
			return err
		}
		if _, err := repo.SetUserPassword(ctx, tx, id, hash); err != nil {
			return err
		}
		if err := repo.DeleteVerificationTokens(ctx, tx, id, repo.PurposeResetPassword); err != nil {
			return err
		}
		// Whoever knew the old password is signed out everywhere.
		_, err = repo.RevokeUserSessions(ctx, tx, id)
		return err
	})
	if errors.Is(err, repo.ErrNotFound) {
		return errBadLink("password reset")
	}
	if err != nil {
		return err
	}
	h.clearRefreshCookie(c)
	return c.SendStatus(fiber.StatusNoContent)
}
