package handlers

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"larder/idp"
	"larder/repo"
)

// idpHandlers signs users in through the configured identity provider.
type idpHandlers struct {
	provider *idp.Provider
	sealer   *idp.Sealer
}

// idpFlowCookie carries the sealed state, PKCE verifier and nonce from the
// start of a sign-in to its callback.
const idpFlowCookie = "idp_flow"

func newIDPHandlers(h *authHandlers) *idpHandlers {
	c := h.Config.IDP
	if !c.Enabled() {
		return nil
	}
	// The flow cookie's key is derived from the refresh-token secret (under
	// a label of its own), so it survives restarts like sessions do.
	sealer, err := idp.NewSealer(h.Tokens.RefreshSecret)
	if err != nil {
		h.Logger.Error("identity provider disabled: no secret to seal its cookie with", "idp_name", c.Name, "error", err)
		return nil
	}
	return &idpHandlers{
		provider: idp.New(idp.Config{
			Name: c.Name, Label: c.Label, Issuer: c.Issuer, ClientID: c.ClientID, ClientSecret: c.ClientSecret.Reveal(),
			RedirectURL: h.Config.APIURL + "/api/auth/" + url.PathEscape(c.Name) + "/callback",
		}),
		sealer: sealer,
	}
}

// idpProvider is the provider the path names, or a 404.
func (h *authHandlers) idpProvider(c *fiber.Ctx) (*idpHandlers, error) {
	if h.idp == nil || c.Params("idp") != h.idp.provider.Name {
		return nil, errNotFound("identity provider")
	}
	return h.idp, nil
}

type providerView struct {
	Name  string `json:"name"`
	Label string `json:"label"`
}

// providers lists the identity providers the web client can offer.
func (h *authHandlers) providers(c *fiber.Ctx) error {
	list := []providerView{}
	if h.idp != nil {
		list = append(list, providerView{Name: h.idp.provider.Name, Label: h.idp.provider.Label})
	}
	return c.JSON(fiber.Map{"providers": list})
}

func (h *authHandlers) flowCookiePath(name string) string {
	return "/api/auth/" + name + "/callback"
}

func (h *authHandlers) idpStart(c *fiber.Ctx) error {
	ih, err := h.idpProvider(c)
	if err != nil {
		return err
	}
	now := time.Now()
	authURL, flow, err := ih.provider.Start(c.UserContext(), now)
	if err != nil {
		h.Logger.WarnContext(c.UserContext(), "identity provider unavailable", "idp_name", ih.provider.Name, "error", err)
		return newError(fiber.StatusServiceUnavailable, "unavailable", "the identity provider cannot be reached; try again later")
	}
	sealed, err := ih.sealer.Seal(ih.provider.Name, flow)
	if err != nil {
		return err
	}
	// Lax, not Strict: the callback is a top-level navigation coming from
	// the provider's site, and must carry the cookie.
	c.Cookie(&fiber.Cookie{
		Name: idpFlowCookie, Value: sealed, Path: h.flowCookiePath(ih.provider.Name), Expires: flow.Expires,
		HTTPOnly: true, SameSite: fiber.CookieSameSiteLaxMode, Secure: h.secureCookies(),
	})
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.Redirect(authURL, http.StatusFound)
}

// idpCallback finishes a sign-in. A request that does not carry the flow
// this browser started (no cookie, another state, an expired flow) is
// refused with 400 before the provider is asked anything. Past that, the
// browser is sent back to the web client: to APP_URL/auth/callback, with
// the refresh cookie set on success or ?error=<code> otherwise.
func (h *authHandlers) idpCallback(c *fiber.Ctx) error {
	ih, err := h.idpProvider(c)
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	now := time.Now()
	// The flow is single use whatever happens next.
	c.Cookie(&fiber.Cookie{
		Name: idpFlowCookie, Value: "", Path: h.flowCookiePath(ih.provider.Name), Expires: time.Unix(0, 0), MaxAge: -1,
		HTTPOnly: true, SameSite: fiber.CookieSameSiteLaxMode, Secure: h.secureCookies(),
	})
	flow, err := ih.sealer.Open(ih.provider.Name, c.Cookies(idpFlowCookie))
	if err == nil {
		err = flow.CheckState(c.Query("state"), now)
	}
	if err != nil {
		return errInvalid("this sign-in did not start here or took too long; start again")
	}
	back := h.Config.AppURL + "/auth/callback"
	fail := func(code string) error {
		return c.Redirect(back+"?error="+url.QueryEscape(code), http.StatusFound)
	}
	if e := c.Query("error"); e != "" {
		// The user declined, or the provider refused: the web client says so.
		return fail("idp_" + sanitizeErrorCode(e))
	}
	if c.Query("code") == "" {
		return errInvalid("the identity provider sent no authorization code")
	}
	ctx := c.UserContext()
	ident, err := ih.provider.Finish(ctx, flow, c.Query("code"))
	if err != nil {
		h.Logger.WarnContext(ctx, "identity provider sign-in failed", "idp_name", ih.provider.Name, "error", err)
		return fail("idp_failed")
	}
	u, err := h.idpUser(ctx, ih.provider.Name, ident)
	var apiErr *Error
	if errors.As(err, &apiErr) {
		return fail(apiErr.Code)
	}
	if err != nil {
		return err
	}
	sess, err := h.startSession(ctx, u, uuid.Nil)
	if err != nil {
		return err
	}
	h.setRefreshCookie(c, sess.RefreshToken, time.Now().Add(h.Tokens.RefreshTTL))
	return c.Redirect(back, http.StatusFound)
}

// sanitizeErrorCode keeps a provider's error code to the characters an
// error code has, so nothing the provider sends ends up in our URL as is.
func sanitizeErrorCode(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if (r >= 'a' && r <= 'z') || r == '_' {
			b.WriteRune(r)
		}
		if b.Len() >= 40 {
			break
		}
	}
	if b.Len() == 0 {
		return "error"
	}
	return b.String()
}

// idpUser finds or creates the account of a provider identity:
//  1. the account already linked to (provider, subject);
//  2. else the account with the same email, linked now, but only when the
//     provider asserts the email is verified; otherwise anyone who can set
//     an unverified email at the provider could take over that account;
//  3. else a new USER account.
func (h *authHandlers) idpUser(ctx context.Context, name string, id idp.Identity) (repo.User, error) {
	var u repo.User
	err := pgx.BeginFunc(ctx, h.DB, func(tx pgx.Tx) error {
		var err error
		u, err = repo.GetUserByIdentity(ctx, tx, name, id.Subject)
		if !errors.Is(err, repo.ErrNotFound) {
			return err
		}
		if id.Email == "" {
			return newError(fiber.StatusBadRequest, "idp_email_missing", "the identity provider did not share an email address")
		}
		existing, err := repo.GetUserByEmail(ctx, tx, id.Email)
		switch {
		case err == nil:
			if !id.EmailVerified || existing.IDPName != nil {
				// Not vouched for, or already linked to another identity.
				return newError(fiber.StatusConflict, "account_exists",
					"an account with this email address already exists; sign in with its password")
			}
			u, err = repo.LinkUserIdentity(ctx, tx, existing.ID, name, id.Subject)
			return err
		case !errors.Is(err, repo.ErrNotFound):
			return err
		}
		subject := id.Subject
		u, err = repo.CreateUser(ctx, tx, repo.CreateUserParams{
			Email: id.Email, Name: truncateRunes(strings.TrimSpace(id.Name), 100), Role: repo.RoleUser,
			EmailVerified: id.EmailVerified, IDPName: &name, IDPSubject: &subject,
		})
		return err
	})
	return u, err
}

func truncateRunes(s string, n int) string {
	r := []rune(s)
	if len(r) > n {
		return string(r[:n])
	}
	return s
}
