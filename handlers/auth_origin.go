package handlers

import (
	"net/url"
	"strings"

	"github.com/gofiber/fiber/v2"
)

// ownPagesOnly guards the routes that set or read the refresh cookie
// (login, refresh, logout) against requests that another site makes the
// browser send. The cookie is SameSite=Lax, but that does not stop a
// top-level form post: an HTML form can send a text/plain body that reads
// as JSON, and the cookie its answer sets is kept, signing the visitor in
// to the attacker's account. Browsers name the page that started a POST in
// Origin; only the service's own pages (APP_URL, API_URL, or the very host
// the request was sent to, as through a development proxy) may use these
// routes. A request without Origin does not come from a browser page
// (curl, scripts, other servers) and is let through: it cannot carry the
// visitor's cookie without the visitor's consent.
func (s *Server) ownPagesOnly() fiber.Handler {
	own := map[string]bool{}
	for _, u := range []string{s.Config.AppURL, s.Config.APIURL} {
		if o := originOf(u); o != "" {
			own[o] = true
		}
	}
	return func(c *fiber.Ctx) error {
		origin := c.Get(fiber.HeaderOrigin)
		if origin == "" || own[strings.ToLower(origin)] || sameHost(origin, string(c.Request().Host())) {
			return c.Next()
		}
		return errForbidden("this request came from another site's page; sign in from the service's own pages")
	}
}

// originOf returns the origin (scheme://host[:port], lower-cased) of an
// absolute URL, or "" when it has none.
func originOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return ""
	}
	return strings.ToLower(u.Scheme + "://" + u.Host)
}

// sameHost reports whether the origin names host (host[:port], as the
// request's Host header gives it). The scheme is not compared: behind a TLS
// proxy the service sees http while the page is https.
func sameHost(origin, host string) bool {
	u, err := url.Parse(origin)
	return err == nil && u.Host != "" && host != "" && strings.EqualFold(u.Host, host)
}
