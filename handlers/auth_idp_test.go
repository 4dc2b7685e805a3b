package handlers

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"
	"time"

	"larder/idp"
	"larder/idp/idptest"
	"larder/repo"
)

const testAppURL = "http://app.test"

// idpEnv is the API on a real listener with an identity provider running in
// the test process, and a browser (a client with a cookie jar) to use them.
type idpEnv struct {
	*testBundle
	base    string
	idp     *idptest.Server
	browser *http.Client
}

func idpSetup(t *testing.T) *idpEnv {
	t.Helper()
	provider := idptest.NewServer(t)
	// The callback URL registered with the provider is the API's own, so
	// the listener must exist before the app is built.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + ln.Addr().String()
	b := setup(t, fastHash, func(d *Deps) {
		d.Config.APIURL = base
		d.Config.AppURL = testAppURL
		d.Config.IDP.Name = "acme"
		d.Config.IDP.Issuer = provider.Issuer
		d.Config.IDP.ClientID = provider.ClientID
		d.Config.IDP.ClientSecret = "client-secret-for-tests"
	})
	go func() { _ = b.app.Listener(ln) }()
	t.Cleanup(func() { _ = b.app.ShutdownWithTimeout(5 * time.Second) })
	return &idpEnv{testBundle: b, base: base, idp: provider, browser: newBrowser(t)}
}

// newBrowser follows redirects like a browser, keeps cookies, and stops at
// the web client (which does not run in these tests).
func newBrowser(t *testing.T) *http.Client {
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return &http.Client{Jar: jar, Timeout: 30 * time.Second, CheckRedirect: func(req *http.Request, via []*http.Request) error {
		if strings.HasPrefix(req.URL.String(), testAppURL) {
			return http.ErrUseLastResponse
		}
		return nil
	}}
}

// signIn runs the whole flow in the browser and returns where it ended.
func (e *idpEnv) signIn(t *testing.T) *url.URL {
	t.Helper()
	resp, err := e.browser.Get(e.base + "/api/auth/acme")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusFound {
		raw, _ := io.ReadAll(resp.Body)
		t.Fatalf("flow ended with %d: %s", resp.StatusCode, raw)
	}
	loc, err := url.Parse(resp.Header.Get("Location"))
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

// browserRefresh asks for tokens with the browser's refresh cookie, as the
// web client does after the callback.
func (e *idpEnv) browserRefresh(t *testing.T) (int, authSession) {
	t.Helper()
	resp, err := e.browser.Post(e.base+"/api/auth/refresh", "application/json", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var s authSession
	if resp.StatusCode == 200 {
		if err := json.NewDecoder(resp.Body).Decode(&s); err != nil {
			t.Fatal(err)
		}
	}
	return resp.StatusCode, s
}

func TestIDPSignIn(t *testing.T) {
	t.Parallel()
	e := idpSetup(t)
	var providers struct{ Providers []providerView }
	e.do(t, "GET", "/api/auth/providers", nil, "").JSON(t, &providers)
	if len(providers.Providers) != 1 || providers.Providers[0] != (providerView{Name: "acme", Label: "Acme"}) {
		t.Fatalf("providers %+v", providers)
	}

	email := newEmail()
	e.idp.SetUser(idptest.User{Subject: "acme-sub-1", Email: email, EmailVerified: true, Name: "Grace Hopper"})
	loc := e.signIn(t)
	if loc.String() != testAppURL+"/auth/callback" {
		t.Fatalf("ended at %s", loc)
	}
	// The provider saw state, nonce and an S256 challenge, and the
	// callback registered for this API.
	a := e.idp.Authorizations()
	if len(a) != 1 || a[0].Get("state") == "" || a[0].Get("nonce") == "" || a[0].Get("code_challenge_method") != "S256" ||
		a[0].Get("redirect_uri") != e.base+"/api/auth/acme/callback" {
		t.Fatalf("authorization request %v", a)
	}
	status, sess := e.browserRefresh(t)
	if status != 200 || sess.User.Email != email || sess.User.Provider != "acme" || !sess.User.EmailVerified || sess.User.Name != "Grace Hopper" || sess.User.Role != "USER" {
		t.Fatalf("refresh after sign-in: %d %+v", status, sess.User)
	}
	wantStatus(t, e.do(t, "GET", "/api/auth/me", nil, sess.AccessToken), 200)
	stored := e.storedUser(t, email)
	if stored.PasswordHash != nil || stored.IDPSubject == nil || *stored.IDPSubject != "acme-sub-1" {
		t.Fatalf("stored %+v", stored)
	}

	// The same subject signs in to the same account, even with another email.
	e.idp.SetUser(idptest.User{Subject: "acme-sub-1", Email: newEmail(), EmailVerified: true})
	e.browser = newBrowser(t)
	e.signIn(t)
	_, again := e.browserRefresh(t)
	if again.User.ID != sess.User.ID {
		t.Fatalf("second sign-in made another account: %s vs %s", again.User.ID, sess.User.ID)
	}
}

// A callback that does not belong to a flow this browser started is refused.
func TestIDPCallbackRefusesBadState(t *testing.T) {
	t.Parallel()
	e := idpSetup(t)
	e.idp.SetUser(idptest.User{Subject: "s", Email: newEmail(), EmailVerified: true})

	// Start a flow and stop at the provider's redirect back, to tamper with it.
	stopAtCallback := newBrowser(t)
	stopAtCallback.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if strings.Contains(req.URL.Path, "/callback") {
			return http.ErrUseLastResponse
		}
		return nil
	}
	start := func() *url.URL {
		resp, err := stopAtCallback.Get(e.base + "/api/auth/acme")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		cb, err := url.Parse(resp.Header.Get("Location"))
		if err != nil || cb.Query().Get("code") == "" {
			t.Fatalf("no callback: %s", resp.Header.Get("Location"))
		}
		return cb
	}
	get := func(c *http.Client, u string) *http.Response {
		resp, err := c.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}

	cb := start()
	q := cb.Query()
	q.Set("state", "forged-state")
	cb.RawQuery = q.Encode()
	resp := get(stopAtCallback, cb.String())
	if resp.StatusCode != 400 {
		t.Fatalf("forged state: %d", resp.StatusCode)
	}
	for _, c := range resp.Cookies() {
		if c.Name == refreshCookie && c.Value != "" {
			t.Fatal("a forged state got a refresh cookie")
		}
	}

	// The right state from another browser (no flow cookie) is refused too.
	cb = start()
	if resp := get(newBrowser(t), cb.String()); resp.StatusCode != 400 {
		t.Fatalf("no flow cookie: %d", resp.StatusCode)
	}
	// A tampered flow cookie is refused.
	cb = start()
	apiURL, _ := url.Parse(e.base + "/api/auth/acme/callback")
	for _, c := range stopAtCallback.Jar.Cookies(apiURL) {
		if c.Name == idpFlowCookie {
			// One character changed: a different one whatever the cookie began with
			// (always writing "A" left one cookie in 64 untouched).
			first := "A"
			if c.Value[0] == 'A' {
				first = "B"
			}
			stopAtCallback.Jar.SetCookies(apiURL, []*http.Cookie{{Name: idpFlowCookie, Value: first + c.Value[1:], Path: "/api/auth/acme/callback"}})
		}
	}
	if resp := get(stopAtCallback, cb.String()); resp.StatusCode != 400 {
		t.Fatalf("tampered flow cookie: %d", resp.StatusCode)
	}
	// A flow is single use: replaying a finished callback fails.
	cb = start()
	if resp := get(stopAtCallback, cb.String()); resp.StatusCode != http.StatusFound {
		t.Fatalf("genuine callback: %d", resp.StatusCode)
	}
	if resp := get(stopAtCallback, cb.String()); resp.StatusCode != 400 {
		t.Fatalf("replayed callback: %d", resp.StatusCode)
	}
	var sessions int
	_ = e.db.QueryRow(context.Background(), `SELECT count(*) FROM refresh_token`).Scan(&sessions)
	if sessions != 1 {
		t.Fatalf("%d sessions; only the genuine callback may sign in", sessions)
	}
}

// An existing account is linked only when the provider vouches for the email.
func TestIDPLinksOnlyVerifiedEmails(t *testing.T) {
	t.Parallel()
	e := idpSetup(t)

	// Verified local account + verified email at the provider: linked, and
	// the password keeps working.
	local, pw := createLocalUser(t, e.testBundle, true)
	e.idp.SetUser(idptest.User{Subject: "sub-linked", Email: strings.ToUpper(local.Email), EmailVerified: true})
	if loc := e.signIn(t); loc.String() != testAppURL+"/auth/callback" {
		t.Fatalf("linking sign-in ended at %s", loc)
	}
	_, sess := e.browserRefresh(t)
	if sess.User.ID != local.ID || sess.User.Provider != "acme" {
		t.Fatalf("not linked: %+v", sess.User)
	}
	e.login(t, local.Email, pw)

	// Unverified email at the provider: no link, no session.
	victim, _ := createLocalUser(t, e.testBundle, true)
	e.idp.SetUser(idptest.User{Subject: "sub-attacker", Email: victim.Email, EmailVerified: false})
	e.browser = newBrowser(t)
	loc := e.signIn(t)
	if loc.Query().Get("error") != "account_exists" {
		t.Fatalf("unverified email ended at %s", loc)
	}
	if status, _ := e.browserRefresh(t); status != 401 {
		t.Fatalf("refresh after a refused link: %d", status)
	}
	if u := e.storedUser(t, victim.Email); u.IDPName != nil {
		t.Fatalf("linked on an unverified email: %+v", u)
	}

	// An unverified local account (someone registered the address without
	// owning it) is linked to the verified owner and loses its password.
	squatter, squatterPw := createLocalUser(t, e.testBundle, false)
	e.idp.SetUser(idptest.User{Subject: "sub-owner", Email: squatter.Email, EmailVerified: true})
	e.browser = newBrowser(t)
	e.signIn(t)
	if u := e.storedUser(t, squatter.Email); u.PasswordHash != nil || !u.EmailVerified || u.IDPSubject == nil || *u.IDPSubject != "sub-owner" {
		t.Fatalf("squatted account after linking: %+v", u)
	}
	if r := e.do(t, "POST", "/api/auth/login", map[string]string{"email": squatter.Email, "password": squatterPw}, ""); r.Status != 401 {
		t.Fatalf("the squatter's password still works: %d", r.Status)
	}

	// A new address, unverified at the provider: a new, unverified account.
	fresh := newEmail()
	e.idp.SetUser(idptest.User{Subject: "sub-new", Email: fresh, EmailVerified: false})
	e.browser = newBrowser(t)
	e.signIn(t)
	if _, s := e.browserRefresh(t); s.User.Email != fresh || s.User.EmailVerified {
		t.Fatalf("new account %+v", s.User)
	}
}

// A provider answer that does not verify signs nobody in.
func TestIDPRefusesBadTokens(t *testing.T) {
	t.Parallel()
	e := idpSetup(t)
	tests := []struct {
		name                                  string
		wrongNonce, foreignKey, wrongAudience bool
	}{
		{"nonce", true, false, false},
		{"signature", false, true, false},
		{"audience", false, false, true},
	}
	for _, tt := range tests {
		e.idp.SetUser(idptest.User{Subject: "s-" + tt.name, Email: newEmail(), EmailVerified: true})
		e.idp.Tamper(tt.wrongNonce, tt.foreignKey, tt.wrongAudience)
		e.browser = newBrowser(t)
		loc := e.signIn(t)
		if loc.Query().Get("error") != "idp_failed" {
			t.Errorf("%s: ended at %s", tt.name, loc)
		}
		if status, _ := e.browserRefresh(t); status != 401 {
			t.Errorf("%s: signed in", tt.name)
		}
	}
	var users int
	_ = e.db.QueryRow(context.Background(), `SELECT count(*) FROM app_user`).Scan(&users)
	if users != 0 {
		t.Fatalf("%d accounts created from bad tokens", users)
	}
}

func TestIDPUnknownOrUnavailable(t *testing.T) {
	t.Parallel()
	e := idpSetup(t)
	for _, p := range []string{"/api/auth/globex", "/api/auth/globex/callback?state=x&code=y"} {
		if r := e.do(t, "GET", p, nil, ""); r.Status != 404 || r.ErrorCode() != "not_found" {
			t.Errorf("%s: %d %s", p, r.Status, r.Body)
		}
	}
	// The user declined at the provider: back to the web client with the reason.
	e.idp.SetUser(idptest.User{Subject: "s", Email: newEmail(), EmailVerified: true})
	stop := newBrowser(t)
	stop.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if strings.Contains(req.URL.Path, "/callback") {
			return http.ErrUseLastResponse
		}
		return nil
	}
	resp, err := stop.Get(e.base + "/api/auth/acme")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	cb, _ := url.Parse(resp.Header.Get("Location"))
	q := cb.Query()
	q.Del("code")
	q.Set("error", "access_denied")
	cb.RawQuery = q.Encode()
	stop.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err = stop.Get(cb.String())
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusFound || resp.Header.Get("Location") != testAppURL+"/auth/callback?error=idp_access_denied" {
		t.Fatalf("declined: %d %s", resp.StatusCode, resp.Header.Get("Location"))
	}

}

// Provider down: 503 at the start, not a redirect into nothing.
func TestIDPProviderDown(t *testing.T) {
	t.Parallel()
	down := idptest.NewServer(t)
	down.Close()
	b := setup(t, func(d *Deps) {
		d.Config.IDP.Name, d.Config.IDP.Issuer, d.Config.IDP.ClientID = "acme", down.Issuer, "x"
	})
	if r := b.do(t, "GET", "/api/auth/acme", nil, ""); r.Status != 503 || r.ErrorCode() != "unavailable" {
		t.Fatalf("provider down: %d %s", r.Status, r.Body)
	}
}

// Without a provider configured the list is empty and every name is unknown.
func TestIDPNotConfigured(t *testing.T) {
	t.Parallel()
	var providers struct{ Providers []providerView }
	plain := setup(t)
	plain.do(t, "GET", "/api/auth/providers", nil, "").JSON(t, &providers)
	if providers.Providers == nil || len(providers.Providers) != 0 {
		t.Fatalf("providers without configuration: %+v", providers)
	}
	if r := plain.do(t, "GET", "/api/auth/acme", nil, ""); r.Status != 404 {
		t.Fatalf("unconfigured provider: %d", r.Status)
	}
}

func TestIDPUserErrorsAreRedirects(t *testing.T) {
	t.Parallel()
	// idpUser's refusals are *Error values whose code ends up in the URL.
	b := setup(t)
	h := &authHandlers{Server: &Server{Deps: b.deps}}
	_, err := h.idpUser(context.Background(), "acme", idpIdentity("sub", ""))
	var apiErr *Error
	if !errors.As(err, &apiErr) || apiErr.Code != "idp_email_missing" {
		t.Fatalf("no email: %v", err)
	}
	if _, err := repo.GetUserByIdentity(context.Background(), b.db, "acme", "sub"); !errors.Is(err, repo.ErrNotFound) {
		t.Fatalf("an account was made without an email: %v", err)
	}
}

func idpIdentity(sub, email string) idp.Identity { return idp.Identity{Subject: sub, Email: email} }
