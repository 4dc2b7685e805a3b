package handlers

import (
	"fmt"
	"testing"

	"larder/repo"
)

// The routes that set or read the refresh cookie answer only the service's
// own pages. A page on another site can make the browser POST to them (an
// HTML form may send a JSON-looking text/plain body, and a top-level form
// post sets cookies): signing the visitor in to the attacker's account
// (login CSRF), or spending the visitor's refresh token. Requests without
// an Origin (curl, the admin CLI, other servers) are not browsers' and
// stay allowed.
func TestAuthCookieRoutesRefuseOtherSites(t *testing.T) {
	t.Parallel()
	b := setup(t, fastHash, func(d *Deps) {
		d.Config.AppURL = "https://larder.example"
		d.Config.APIURL = "https://api.larder.example"
	})
	u, pw := createLocalUser(t, b, true)
	// What an attacker's form with enctype="text/plain" sends: one field
	// whose name and value join into a JSON object.
	formBody := fmt.Sprintf(`{"email":%q,"password":%q}`, u.Email, pw)

	t.Run("login from another site", func(t *testing.T) {
		r := b.do(t, "POST", "/api/auth/login", formBody, "", "Content-Type", "text/plain", "Origin", "https://evil.example")
		if r.Status != 403 || r.ErrorCode() != "forbidden" || len(r.Header.Values("Set-Cookie")) != 0 {
			t.Fatalf("cross-site login: %d %s, cookies %v", r.Status, r.Body, r.Header.Values("Set-Cookie"))
		}
		r = b.do(t, "POST", "/api/auth/login", formBody, "", "Content-Type", "text/plain", "Origin", "null")
		if r.Status != 403 {
			t.Fatalf("login from an opaque origin: %d %s", r.Status, r.Body)
		}
	})

	for _, origin := range []string{"", "https://larder.example", "https://api.larder.example"} {
		t.Run("login from "+origin, func(t *testing.T) {
			r := b.do(t, "POST", "/api/auth/login", formBody, "", "Origin", origin)
			wantStatus(t, r, 200)
		})
	}
	t.Run("same host behind a proxy", func(t *testing.T) {
		// The service reached under a name other than APP_URL's (a
		// development proxy that keeps the Host): still its own page.
		r := b.do(t, "POST", "http://localhost:5173/api/auth/login", formBody, "", "Origin", "http://localhost:5173")
		wantStatus(t, r, 200)
	})

	t.Run("refresh and logout from another site", func(t *testing.T) {
		_, c := b.login(t, u.Email, pw)
		cookie := c.Name + "=" + c.Value
		r := b.do(t, "POST", "/api/auth/refresh", nil, "", "Cookie", cookie, "Origin", "https://evil.example")
		if r.Status != 403 {
			t.Fatalf("cross-site refresh: %d %s", r.Status, r.Body)
		}
		r = b.do(t, "POST", "/api/auth/logout", nil, "", "Cookie", cookie, "Origin", "https://evil.example")
		if r.Status != 403 {
			t.Fatalf("cross-site logout: %d %s", r.Status, r.Body)
		}
		// Neither touched the session: the token is still the current one.
		r = b.do(t, "POST", "/api/auth/refresh", nil, "", "Cookie", cookie, "Origin", "https://larder.example")
		wantStatus(t, r, 200)
	})

	t.Run("bearer routes are not cookie routes", func(t *testing.T) {
		// An access token is sent by script, never by the browser on its
		// own, so the API's other routes need no origin check.
		_, tok := b.user(t, repo.RoleUser)
		r := b.do(t, "GET", "/api/auth/me", nil, tok, "Origin", "https://evil.example")
		wantStatus(t, r, 200)
	})
}
