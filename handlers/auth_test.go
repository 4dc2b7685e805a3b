package handlers

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/google/uuid"
	"golang.org/x/crypto/bcrypt"

	"larder/config"
	"larder/jobs"
	"larder/password"
	"larder/repo"
	"larder/repo/repotest"
	"larder/token"
)

func init() {
	// A live refresh token of the owner, so the refresh and logout rows
	// test the route's rule rather than a missing token.
	withRefresh := func(t *testing.T, b *testBundle, u repo.User) (string, any) {
		h := &authHandlers{Server: &Server{Deps: b.deps}}
		s, err := h.startSession(context.Background(), u, uuid.Nil)
		if err != nil {
			t.Fatal(err)
		}
		return "/api/auth/refresh", map[string]string{"refreshToken": s.RefreshToken}
	}
	// Without a configured identity provider, every provider name is unknown.
	noSuchProvider := map[string]int{anon: hidden, other: hidden, owner: hidden, admin: hidden}
	addAuthz(
		authzCase{method: "POST", route: "/api/auth/register", want: rulePublic},
		authzCase{method: "POST", route: "/api/auth/login", want: rulePublic},
		authzCase{method: "POST", route: "/api/auth/logout", want: rulePublic,
			prepare: func(t *testing.T, b *testBundle, u repo.User) (string, any) {
				_, body := withRefresh(t, b, u)
				return "/api/auth/logout", body
			}},
		authzCase{method: "POST", route: "/api/auth/refresh", want: rulePublic, prepare: withRefresh},
		authzCase{method: "GET", route: "/api/auth/me", want: ruleAuth},
		authzCase{method: "GET", route: "/api/auth/verify-email/:token", want: rulePublic,
			prepare: func(*testing.T, *testBundle, repo.User) (string, any) {
				return "/api/auth/verify-email/not-a-token", nil
			}},
		authzCase{method: "POST", route: "/api/auth/resend-verification", want: rulePublic},
		authzCase{method: "POST", route: "/api/auth/forgot-password", want: rulePublic},
		authzCase{method: "POST", route: "/api/auth/reset-password", want: rulePublic},
		authzCase{method: "GET", route: "/api/auth/providers", want: rulePublic},
		authzCase{method: "GET", route: "/api/auth/:idp", want: noSuchProvider,
			prepare: func(*testing.T, *testBundle, repo.User) (string, any) { return "/api/auth/acme", nil }},
		authzCase{method: "GET", route: "/api/auth/:idp/callback", want: noSuchProvider,
			prepare: func(*testing.T, *testBundle, repo.User) (string, any) {
				return "/api/auth/acme/callback?state=x&code=y", nil
			}},
	)
}

// The whole local sign-up: register, the email, its link, then sign in.
func TestRegisterVerifyLogin(t *testing.T) {
	t.Parallel()
	e := authSetup(t)
	email := newEmail()
	r := e.do(t, "POST", "/api/auth/register", map[string]string{"email": email, "password": goodPassword, "name": "  Ada Lovelace "}, "")
	wantStatus(t, r, 201)
	if bytes.Contains(r.Body, []byte("assword")) || bytes.Contains(r.Body, []byte("$2a$")) {
		t.Fatalf("register answer mentions the password: %s", r.Body)
	}
	var reg struct{ User User }
	r.JSON(t, &reg)
	if reg.User.Email != email || reg.User.Name != "Ada Lovelace" || reg.User.Role != "USER" || reg.User.EmailVerified ||
		reg.User.Provider != "local" || reg.User.ID == uuid.Nil || reg.User.CreatedAt.IsZero() {
		t.Fatalf("registered user %+v", reg.User)
	}

	// Not verified yet: the right password gets 403, a wrong one still 401.
	r = e.do(t, "POST", "/api/auth/login", map[string]string{"email": email, "password": goodPassword}, "")
	if r.Status != 403 || r.ErrorCode() != "email_not_verified" {
		t.Fatalf("unverified login: %d %s", r.Status, r.Body)
	}
	r = e.do(t, "POST", "/api/auth/login", map[string]string{"email": email, "password": "Wrong1234"}, "")
	if r.Status != 401 {
		t.Fatalf("unverified, wrong password: %d %s", r.Status, r.Body)
	}

	p := e.nextEmail(t, email)
	if p.Subject != "Confirm your email address for Larder" || !strings.Contains(p.Text, "Ada Lovelace") || !strings.Contains(p.HTML, "<a href=") {
		t.Fatalf("verification email: %q\n%s", p.Subject, p.Text)
	}
	tok := verifyToken(t, p)
	r = e.do(t, "GET", "/api/auth/verify-email/"+tok, nil, "")
	wantStatus(t, r, 200)
	var ver struct{ User User }
	r.JSON(t, &ver)
	if !ver.User.EmailVerified || ver.User.ID != reg.User.ID {
		t.Fatalf("verified user %+v", ver.User)
	}
	// Single use.
	r = e.do(t, "GET", "/api/auth/verify-email/"+tok, nil, "")
	if r.Status != 400 || r.ErrorCode() != "invalid_request" {
		t.Fatalf("second use of the link: %d %s", r.Status, r.Body)
	}

	r = e.do(t, "POST", "/api/auth/login", map[string]string{"email": strings.ToUpper(email), "password": goodPassword}, "")
	wantStatus(t, r, 200)
	var sess authSession
	r.JSON(t, &sess)
	if sess.AccessToken == "" || sess.RefreshToken == "" || sess.User.ID != reg.User.ID {
		t.Fatalf("session %+v", sess)
	}
	c := r.cookie(t, refreshCookie)
	if c.Value != sess.RefreshToken || c.Path != "/api/auth" || !c.HttpOnly || c.SameSite != http.SameSiteLaxMode || c.Secure != true {
		t.Fatalf("refresh cookie %+v (APP_URL is https, so it must be Secure)", c)
	}
	if d := time.Until(c.Expires); d < 7*24*time.Hour-time.Minute || d > 7*24*time.Hour+time.Minute {
		t.Errorf("cookie expires in %s", d)
	}
	// The refresh token is stored only as its hash.
	var n int
	if err := e.db.QueryRow(context.Background(), `SELECT count(*) FROM refresh_token WHERE user_id = $1 AND token_hash = $2`,
		reg.User.ID, token.Hash(sess.RefreshToken)).Scan(&n); err != nil || n != 1 {
		t.Fatalf("stored refresh tokens: %d %v", n, err)
	}

	r = e.do(t, "GET", "/api/auth/me", nil, sess.AccessToken)
	wantStatus(t, r, 200)
	var me struct{ User User }
	r.JSON(t, &me)
	if me.User.ID != reg.User.ID || !me.User.EmailVerified {
		t.Fatalf("me %+v", me.User)
	}
}

// Cookies are Secure only when the web client is served over https.
func TestRefreshCookieNotSecureOverHTTP(t *testing.T) {
	t.Parallel()
	b := setup(t, fastHash, func(d *Deps) { d.Config.AppURL = "http://localhost:8080" })
	u, pw := createLocalUser(t, b, true)
	_, c := b.login(t, u.Email, pw)
	if c.Secure || !c.HttpOnly {
		t.Fatalf("cookie %+v", c)
	}
}

// createLocalUser inserts an account with a real (fast) hash.
func createLocalUser(t *testing.T, b *testBundle, verified bool) (repo.User, string) {
	t.Helper()
	hash, err := bcrypt.GenerateFromPassword([]byte(goodPassword), bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	h := string(hash)
	u, err := repo.CreateUser(context.Background(), b.db, repo.CreateUserParams{Email: newEmail(), Name: "Cook", PasswordHash: &h, EmailVerified: verified})
	if err != nil {
		t.Fatal(err)
	}
	return u, goodPassword
}

// The production cost is the specification's 12 rounds.
func TestRegisterHashesWithCost12(t *testing.T) {
	t.Parallel()
	b := setup(t) // no fastHash: the default
	email := newEmail()
	wantStatus(t, b.do(t, "POST", "/api/auth/register", map[string]string{"email": email, "password": goodPassword}, ""), 201)
	u := b.storedUser(t, email)
	cost, err := bcrypt.Cost([]byte(*u.PasswordHash))
	if err != nil || cost != 12 {
		t.Fatalf("bcrypt cost %d (%v), want 12", cost, err)
	}
	if bcrypt.CompareHashAndPassword([]byte(*u.PasswordHash), []byte(goodPassword)) != nil {
		t.Fatal("the stored hash is not the password's")
	}
}

func TestRegisterRefusesBadInput(t *testing.T) {
	t.Parallel()
	b := setup(t, fastHash)
	taken, _ := createLocalUser(t, b, true)
	tests := []struct {
		name   string
		body   any
		status int
		code   string
		field  string
		msg    string
	}{
		{"no body", nil, 400, "invalid_request", "", ""},
		{"not json", "{", 400, "invalid_request", "", ""},
		{"no email", map[string]string{"password": goodPassword}, 400, "validation_failed", "email", "is required"},
		{"bad email", map[string]string{"email": "cook@", "password": goodPassword}, 400, "validation_failed", "email", "valid email"},
		{"email with a name", map[string]string{"email": "Cook <cook@example.test>", "password": goodPassword}, 400, "validation_failed", "email", "valid email"},
		{"short", map[string]string{"email": newEmail(), "password": "Ab1"}, 400, "validation_failed", "password", "at least 8 characters"},
		{"no uppercase", map[string]string{"email": newEmail(), "password": "pantry2025"}, 400, "validation_failed", "password", "an uppercase letter"},
		{"no lowercase", map[string]string{"email": newEmail(), "password": "PANTRY2025"}, 400, "validation_failed", "password", "a lowercase letter"},
		{"no number", map[string]string{"email": newEmail(), "password": "PantryPantry"}, 400, "validation_failed", "password", "a number"},
		{"over 72 bytes", map[string]string{"email": newEmail(), "password": "Pantry2025" + strings.Repeat("x", 63)}, 400, "validation_failed", "password", "at most 72 bytes"},
		{"long name", map[string]string{"email": newEmail(), "password": goodPassword, "name": strings.Repeat("n", 101)}, 400, "validation_failed", "name", "at most 100"},
		{"email taken, other case", map[string]string{"email": strings.ToUpper(taken.Email), "password": goodPassword}, 409, "conflict", "email", "already registered"},
	}
	for _, tt := range tests {
		r := b.do(t, "POST", "/api/auth/register", tt.body, "")
		if r.Status != tt.status || r.ErrorCode() != tt.code {
			t.Errorf("%s: %d %s", tt.name, r.Status, r.Body)
			continue
		}
		if tt.field != "" && !strings.Contains(string(r.Body), `"`+tt.field+`":"`) || !strings.Contains(string(r.Body), tt.msg) {
			t.Errorf("%s: want a %s field error with %q: %s", tt.name, tt.field, tt.msg, r.Body)
		}
	}
	var users int
	_ = b.db.QueryRow(context.Background(), `SELECT count(*) FROM app_user`).Scan(&users)
	if users != 1 || b.allEmailJobs(t) != 0 {
		t.Fatalf("refused registrations left %d users, %d email jobs", users, b.allEmailJobs(t))
	}
}

func TestLoginFailuresLookAlike(t *testing.T) {
	t.Parallel()
	b := setup(t, fastHash)
	u, _ := createLocalUser(t, b, true)
	idpOnly, err := repo.CreateUser(context.Background(), b.db, repo.CreateUserParams{Email: newEmail(), EmailVerified: true,
		IDPName: new("acme"), IDPSubject: new("sub-9")})
	if err != nil {
		t.Fatal(err)
	}
	wrongPassword := b.do(t, "POST", "/api/auth/login", map[string]string{"email": u.Email, "password": "Wrong2025"}, "")
	unknown := b.do(t, "POST", "/api/auth/login", map[string]string{"email": newEmail(), "password": "Wrong2025"}, "")
	noPassword := b.do(t, "POST", "/api/auth/login", map[string]string{"email": idpOnly.Email, "password": "Wrong2025"}, "")
	for name, r := range map[string]response{"wrong password": wrongPassword, "unknown email": unknown, "identity-provider account": noPassword} {
		if r.Status != 401 || !bytes.Equal(r.Body, wrongPassword.Body) {
			t.Errorf("%s: %d %s; want the wrong-password answer %s", name, r.Status, r.Body, wrongPassword.Body)
		}
		if r.Header.Get("Set-Cookie") != "" {
			t.Errorf("%s set a cookie", name)
		}
	}
	for _, body := range []any{map[string]string{"email": u.Email}, map[string]string{"password": "x"}, "[]"} {
		if r := b.do(t, "POST", "/api/auth/login", body, ""); r.Status != 400 {
			t.Errorf("login %v: %d %s", body, r.Status, r.Body)
		}
	}
}

// BenchmarkLoginFailure measures the two failures that must cost the same
// at the production bcrypt cost: an unknown address (compared against the
// dummy hash) and a wrong password. go test -run x -bench LoginFailure
// ./handlers/ prints both; they should match to within noise.
func BenchmarkLoginFailure(b *testing.B) {
	db := repotest.DB(b)
	cfg, err := config.Load(func(string) string { return "" })
	if err != nil {
		b.Fatal(err)
	}
	cfg.AuthRateLimit = 1 << 30
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	queue, err := jobs.NewQueue(db, logger)
	if err != nil {
		b.Fatal(err)
	}
	app := New(Deps{Config: cfg, DB: db, Queue: queue, Logger: logger,
		Tokens: &token.Issuer{AccessSecret: []byte("a"), RefreshSecret: []byte("r"), AccessTTL: time.Minute, RefreshTTL: time.Hour}})
	hash, err := password.Hash(goodPassword, 0)
	if err != nil {
		b.Fatal(err)
	}
	u, err := repo.CreateUser(context.Background(), db, repo.CreateUserParams{Email: newEmail(), PasswordHash: &hash, EmailVerified: true})
	if err != nil {
		b.Fatal(err)
	}
	for name, email := range map[string]string{"unknown_email": newEmail(), "wrong_password": u.Email} {
		body := `{"email":"` + email + `","password":"Wrong2025"}`
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				req := httptest.NewRequest("POST", "/api/auth/login", strings.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				resp, err := app.Test(req, -1)
				if err != nil || resp.StatusCode != 401 {
					b.Fatalf("%v %v", resp.StatusCode, err)
				}
				resp.Body.Close()
			}
		})
	}
}

// Forged, expired and misused tokens are all refused with 401.
func TestAccessTokenTampering(t *testing.T) {
	t.Parallel()
	b := setup(t, fastHash)
	u, pw := createLocalUser(t, b, true)
	sess, _ := b.login(t, u.Email, pw)
	iss := b.deps.Tokens
	sign := func(method jwt.SigningMethod, key any, claims token.Claims) string {
		s, err := jwt.NewWithClaims(method, claims).SignedString(key)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	claims := func(typ string, exp time.Time) token.Claims {
		return token.Claims{RegisteredClaims: jwt.RegisteredClaims{Subject: u.ID.String(), ExpiresAt: jwt.NewNumericDate(exp), IssuedAt: jwt.NewNumericDate(time.Now())},
			Type: typ, Role: "ADMIN", SessionVersion: u.SessionVersion}
	}
	future := time.Now().Add(time.Hour)
	expired := &token.Issuer{AccessSecret: iss.AccessSecret, RefreshSecret: iss.RefreshSecret, AccessTTL: 15 * time.Minute, RefreshTTL: time.Hour,
		Now: func() time.Time { return time.Now().Add(-20 * time.Minute) }}
	expiredAccess, _ := expired.Access(u.ID, u.Role, u.SessionVersion)
	parts := strings.Split(sess.AccessToken, ".")
	flipped := parts[0] + "." + parts[1] + "." + strings.Map(func(r rune) rune {
		if r == 'A' {
			return 'B'
		}
		return 'A'
	}, parts[2][:1]) + parts[2][1:]

	tests := []struct {
		name string
		tok  string
		want int
	}{
		{"valid", sess.AccessToken, 200},
		{"wrong signature", sign(jwt.SigningMethodHS256, []byte("not-the-secret"), claims(token.TypeAccess, future)), 401},
		{"signed with the refresh secret", sign(jwt.SigningMethodHS256, iss.RefreshSecret, claims(token.TypeAccess, future)), 401},
		{"alg none", sign(jwt.SigningMethodNone, jwt.UnsafeAllowNoneSignatureType, claims(token.TypeAccess, future)), 401},
		{"HS512 with the right secret", sign(jwt.SigningMethodHS512, iss.AccessSecret, claims(token.TypeAccess, future)), 401},
		{"expired", expiredAccess, 401},
		{"no expiry", sign(jwt.SigningMethodHS256, iss.AccessSecret, token.Claims{RegisteredClaims: jwt.RegisteredClaims{Subject: u.ID.String()}, Type: token.TypeAccess}), 401},
		{"refresh token as access token", sess.RefreshToken, 401},
		{"refresh-typed token signed with the access secret", sign(jwt.SigningMethodHS256, iss.AccessSecret, claims(token.TypeRefresh, future)), 401},
		{"payload changed", parts[0] + "." + strings.TrimRight(parts[1], "=") + "x." + parts[2], 401},
		{"signature changed", flipped, 401},
		{"garbage", "not.a.token", 401},
	}
	for _, tt := range tests {
		r := b.do(t, "GET", "/api/auth/me", nil, tt.tok)
		if r.Status != tt.want || (tt.want == 401 && r.ErrorCode() != "unauthenticated") {
			t.Errorf("%s: %d %s", tt.name, r.Status, r.Body)
		}
	}
	// And the refresh route refuses what is not a live refresh token.
	expiredRefresh, _ := expired.Refresh(u.ID, u.SessionVersion, uuid.Nil)
	for name, tok := range map[string]string{
		"access token as refresh token": sess.AccessToken,
		"expired refresh token":         expiredRefresh.Token,
		"forged refresh token":          sign(jwt.SigningMethodHS256, []byte("nope"), claims(token.TypeRefresh, future)),
		"valid but never issued":        mustRefresh(t, iss, u),
	} {
		if r := b.do(t, "POST", "/api/auth/refresh", map[string]string{"refreshToken": tok}, ""); r.Status != 401 {
			t.Errorf("%s: %d %s", name, r.Status, r.Body)
		}
	}
	if r := b.do(t, "POST", "/api/auth/refresh", nil, ""); r.Status != 401 {
		t.Errorf("no refresh token: %d", r.Status)
	}
}

func mustRefresh(t *testing.T, iss *token.Issuer, u repo.User) string {
	t.Helper()
	r, err := iss.Refresh(u.ID, u.SessionVersion, uuid.Nil)
	if err != nil {
		t.Fatal(err)
	}
	return r.Token
}

// Refresh rotates the token; presenting a rotated one again ends every
// session of the account.
func TestRefreshRotationAndReuse(t *testing.T) {
	t.Parallel()
	clock := newTestClock()
	b := setup(t, fastHash, withClock(clock))
	u, pw := createLocalUser(t, b, true)
	s1, _ := b.login(t, u.Email, pw)
	other, _ := b.login(t, u.Email, pw) // a second device

	// By cookie.
	r := b.do(t, "POST", "/api/auth/refresh", nil, "", "Cookie", refreshCookie+"="+s1.RefreshToken)
	wantStatus(t, r, 200)
	var s2 authSession
	r.JSON(t, &s2)
	if s2.RefreshToken == s1.RefreshToken || s2.AccessToken == "" || s2.User.ID != u.ID {
		t.Fatalf("rotated session %+v", s2)
	}
	if c := r.cookie(t, refreshCookie); c.Value != s2.RefreshToken || c.Path != "/api/auth" || !c.HttpOnly {
		t.Fatalf("rotated cookie %+v", c)
	}
	wantStatus(t, b.do(t, "GET", "/api/auth/me", nil, s2.AccessToken), 200)

	// By body.
	r = b.do(t, "POST", "/api/auth/refresh", map[string]string{"refreshToken": s2.RefreshToken}, "")
	wantStatus(t, r, 200)
	var s3 authSession
	r.JSON(t, &s3)
	// The three tokens of this sign-in are one family.
	var families int
	_ = b.db.QueryRow(context.Background(), `SELECT count(DISTINCT family_id) FROM refresh_token WHERE token_hash = ANY($1)`,
		[][]byte{token.Hash(s1.RefreshToken), token.Hash(s2.RefreshToken), token.Hash(s3.RefreshToken)}).Scan(&families)
	if families != 1 {
		t.Errorf("%d families in one sign-in", families)
	}

	// s1 was rotated longer than the grace period ago: presenting it again
	// is theft or a replay.
	clock.Advance(refreshGrace + time.Second)
	r = b.do(t, "POST", "/api/auth/refresh", map[string]string{"refreshToken": s1.RefreshToken}, "")
	if r.Status != 401 || !strings.Contains(string(r.Body), "signed out") {
		t.Fatalf("reuse: %d %s", r.Status, r.Body)
	}
	// Every session of the account is over: refresh tokens and access tokens.
	for name, tok := range map[string]string{"latest": s3.RefreshToken, "other device": other.RefreshToken} {
		if r := b.do(t, "POST", "/api/auth/refresh", map[string]string{"refreshToken": tok}, ""); r.Status != 401 {
			t.Errorf("%s refresh token after reuse: %d", name, r.Status)
		}
	}
	for name, tok := range map[string]string{"latest": s3.AccessToken, "other device": other.AccessToken} {
		if r := b.do(t, "GET", "/api/auth/me", nil, tok); r.Status != 401 {
			t.Errorf("%s access token after reuse: %d", name, r.Status)
		}
	}
	if after := b.storedUser(t, u.Email); after.SessionVersion != u.SessionVersion+1 {
		t.Errorf("session version %d", after.SessionVersion)
	}
	// Signing in again works.
	b.login(t, u.Email, pw)
}

// Two tabs refreshing with the same token at once both stay signed in:
// within the grace period the rotated token gets the very pair it was
// exchanged for; after it, the same presentation signs the account out.
func TestRefreshGraceForConcurrentTabs(t *testing.T) {
	t.Parallel()
	clock := newTestClock()
	b := setup(t, fastHash, withClock(clock))
	u, pw := createLocalUser(t, b, true)
	s1, _ := b.login(t, u.Email, pw)

	const tabs = 4
	answers := make([]response, tabs)
	var wg sync.WaitGroup
	for i := range tabs {
		wg.Go(func() {
			answers[i] = b.do(t, "POST", "/api/auth/refresh", nil, "", "Cookie", refreshCookie+"="+s1.RefreshToken)
		})
	}
	wg.Wait()
	var first authSession
	for i, r := range answers {
		wantStatus(t, r, 200)
		var s authSession
		r.JSON(t, &s)
		if i == 0 {
			first = s
		}
		if s.AccessToken != first.AccessToken || s.RefreshToken != first.RefreshToken || s.User.ID != u.ID {
			t.Fatalf("tab %d got another pair: %+v, first %+v", i, s, first)
		}
		if c := r.cookie(t, refreshCookie); c.Value != first.RefreshToken {
			t.Fatalf("tab %d cookie %q", i, c.Value)
		}
	}
	wantStatus(t, b.do(t, "GET", "/api/auth/me", nil, first.AccessToken), 200)
	// The pair is one live session: its refresh token rotates normally.
	clock.Advance(refreshGrace - time.Second)
	again := b.do(t, "POST", "/api/auth/refresh", map[string]string{"refreshToken": s1.RefreshToken}, "")
	wantStatus(t, again, 200)
	r := b.do(t, "POST", "/api/auth/refresh", map[string]string{"refreshToken": first.RefreshToken}, "")
	wantStatus(t, r, 200)
	var s3 authSession
	r.JSON(t, &s3)

	// Past the grace period the old token is a reuse: every session ends.
	clock.Advance(2 * time.Second)
	if r := b.do(t, "POST", "/api/auth/refresh", map[string]string{"refreshToken": s1.RefreshToken}, ""); r.Status != 401 || !strings.Contains(string(r.Body), "signed out") {
		t.Fatalf("reuse after the grace period: %d %s", r.Status, r.Body)
	}
	if r := b.do(t, "POST", "/api/auth/refresh", map[string]string{"refreshToken": s3.RefreshToken}, ""); r.Status != 401 {
		t.Fatalf("the family's latest token after the reuse: %d", r.Status)
	}
}

func TestLogout(t *testing.T) {
	t.Parallel()
	b := setup(t, fastHash)
	u, pw := createLocalUser(t, b, true)
	s1, _ := b.login(t, u.Email, pw)
	s2, _ := b.login(t, u.Email, pw)
	// Rotate s1 once, so the session has two tokens.
	r := b.do(t, "POST", "/api/auth/refresh", map[string]string{"refreshToken": s1.RefreshToken}, "")
	wantStatus(t, r, 200)
	var s1b authSession
	r.JSON(t, &s1b)

	r = b.do(t, "POST", "/api/auth/logout", nil, "", "Cookie", refreshCookie+"="+s1b.RefreshToken)
	wantStatus(t, r, 204)
	c := r.cookie(t, refreshCookie)
	if c.Value != "" || c.Path != "/api/auth" || (c.MaxAge >= 0 && c.Expires.After(time.Now())) {
		t.Fatalf("logout cookie %+v", c)
	}
	if r := b.do(t, "POST", "/api/auth/refresh", map[string]string{"refreshToken": s1b.RefreshToken}, ""); r.Status != 401 {
		t.Fatalf("refresh after logout: %d", r.Status)
	}
	var left int
	_ = b.db.QueryRow(context.Background(), `SELECT count(*) FROM refresh_token WHERE token_hash = ANY($1)`,
		[][]byte{token.Hash(s1.RefreshToken), token.Hash(s1b.RefreshToken)}).Scan(&left)
	if left != 0 {
		t.Errorf("%d tokens of the ended session are still stored", left)
	}
	// The other session is untouched.
	wantStatus(t, b.do(t, "POST", "/api/auth/refresh", map[string]string{"refreshToken": s2.RefreshToken}, ""), 200)

	// Logout by body, and with nothing at all, still answers 204.
	wantStatus(t, b.do(t, "POST", "/api/auth/logout", map[string]string{"refreshToken": "unknown"}, ""), 204)
	wantStatus(t, b.do(t, "POST", "/api/auth/logout", nil, ""), 204)
	if r := b.do(t, "POST", "/api/auth/logout", "{", ""); r.Status != 400 {
		t.Errorf("malformed body: %d", r.Status)
	}

	// A deleted account's refresh tokens stop working with it.
	gone, gonePw := createLocalUser(t, b, true)
	gs, _ := b.login(t, gone.Email, gonePw)
	if _, err := b.db.Exec(context.Background(), `DELETE FROM app_user WHERE id = $1`, gone.ID); err != nil {
		t.Fatal(err)
	}
	if r := b.do(t, "POST", "/api/auth/refresh", map[string]string{"refreshToken": gs.RefreshToken}, ""); r.Status != 401 {
		t.Errorf("deleted account's refresh token: %d", r.Status)
	}
}

// Forgot password: the email, its link, the new password, and every old
// session ended.
func TestForgotAndResetPassword(t *testing.T) {
	t.Parallel()
	e := authSetup(t)
	email := newEmail()
	e.registerVerified(t, email, goodPassword)
	old, _ := e.login(t, email, goodPassword)

	known := e.do(t, "POST", "/api/auth/forgot-password", map[string]string{"email": email}, "")
	unknown := e.do(t, "POST", "/api/auth/forgot-password", map[string]string{"email": newEmail()}, "")
	wantStatus(t, known, 202)
	if unknown.Status != 202 || !bytes.Equal(known.Body, unknown.Body) {
		t.Fatalf("forgot-password answers differ: %d %s / %d %s", known.Status, known.Body, unknown.Status, unknown.Body)
	}
	p := e.nextEmail(t, email)
	if p.Subject != "Reset your Larder password" || !strings.Contains(p.Text, "1 hour") {
		t.Fatalf("reset email %q: %s", p.Subject, p.Text)
	}
	tok := resetToken(t, p)
	if e.allEmailJobs(t) != 2 { // the verification and this one; none for the unknown address
		t.Fatalf("%d email jobs", e.allEmailJobs(t))
	}

	// A weak password is refused and does not use up the link.
	r := e.do(t, "POST", "/api/auth/reset-password", map[string]string{"token": tok, "password": "weak"}, "")
	if r.Status != 400 || r.ErrorCode() != "validation_failed" || !strings.Contains(string(r.Body), `"password"`) {
		t.Fatalf("weak password: %d %s", r.Status, r.Body)
	}
	const newPassword = "Larder2026"
	wantStatus(t, e.do(t, "POST", "/api/auth/reset-password", map[string]string{"token": tok, "password": newPassword}, ""), 204)
	if r := e.do(t, "POST", "/api/auth/reset-password", map[string]string{"token": tok, "password": "Another2026"}, ""); r.Status != 400 {
		t.Fatalf("second use of the reset link: %d %s", r.Status, r.Body)
	}

	if r := e.do(t, "POST", "/api/auth/login", map[string]string{"email": email, "password": goodPassword}, ""); r.Status != 401 {
		t.Fatalf("old password still works: %d", r.Status)
	}
	e.login(t, email, newPassword)
	// The sessions from before the reset are over.
	if r := e.do(t, "POST", "/api/auth/refresh", map[string]string{"refreshToken": old.RefreshToken}, ""); r.Status != 401 {
		t.Errorf("old refresh token: %d", r.Status)
	}
	if r := e.do(t, "GET", "/api/auth/me", nil, old.AccessToken); r.Status != 401 {
		t.Errorf("old access token: %d", r.Status)
	}
}

// Reset links: only the newest works, and none after an hour.
func TestResetLinksExpireAndSupersede(t *testing.T) {
	t.Parallel()
	e := authSetup(t)
	u, _ := createLocalUser(t, e.testBundle, true)
	ask := func() string {
		wantStatus(t, e.do(t, "POST", "/api/auth/forgot-password", map[string]string{"email": u.Email}, ""), 202)
		return resetToken(t, e.nextEmail(t, u.Email))
	}
	first := ask()
	second := ask()
	if r := e.do(t, "POST", "/api/auth/reset-password", map[string]string{"token": first, "password": "Larder2026"}, ""); r.Status != 400 {
		t.Fatalf("superseded link: %d", r.Status)
	}
	var ttl time.Duration
	if err := e.db.QueryRow(context.Background(), `SELECT expires_at - created_at FROM verification_token WHERE token_hash = $1`, token.Hash(second)).Scan(&ttl); err != nil {
		t.Fatal(err)
	}
	if ttl < time.Hour-time.Minute || ttl > time.Hour+time.Minute {
		t.Errorf("reset link lives %s", ttl)
	}
	if _, err := e.db.Exec(context.Background(), `UPDATE verification_token SET expires_at = now() - interval '1 second' WHERE token_hash = $1`, token.Hash(second)); err != nil {
		t.Fatal(err)
	}
	r := e.do(t, "POST", "/api/auth/reset-password", map[string]string{"token": second, "password": "Larder2026"}, "")
	if r.Status != 400 || !strings.Contains(string(r.Body), "expired") {
		t.Fatalf("expired link: %d %s", r.Status, r.Body)
	}
	for _, body := range []any{map[string]string{"password": "Larder2026"}, map[string]string{"token": "made-up", "password": "Larder2026"}, "nope"} {
		if r := e.do(t, "POST", "/api/auth/reset-password", body, ""); r.Status != 400 {
			t.Errorf("reset %v: %d", body, r.Status)
		}
	}
}

func TestResendVerification(t *testing.T) {
	t.Parallel()
	e := authSetup(t)
	email := newEmail()
	wantStatus(t, e.do(t, "POST", "/api/auth/register", map[string]string{"email": email, "password": goodPassword}, ""), 201)
	first := verifyToken(t, e.nextEmail(t, email))

	known := e.do(t, "POST", "/api/auth/resend-verification", map[string]string{"email": email}, "")
	unknown := e.do(t, "POST", "/api/auth/resend-verification", map[string]string{"email": newEmail()}, "")
	if known.Status != 202 || unknown.Status != 202 || !bytes.Equal(known.Body, unknown.Body) {
		t.Fatalf("resend answers: %d %s / %d %s", known.Status, known.Body, unknown.Status, unknown.Body)
	}
	second := verifyToken(t, e.nextEmail(t, email))
	if second == first {
		t.Fatal("the resent link is the same")
	}
	var ttl time.Duration
	if err := e.db.QueryRow(context.Background(), `SELECT expires_at - created_at FROM verification_token WHERE token_hash = $1`, token.Hash(second)).Scan(&ttl); err != nil {
		t.Fatal(err)
	}
	if ttl < 24*time.Hour-time.Minute || ttl > 24*time.Hour+time.Minute {
		t.Errorf("verification link lives %s", ttl)
	}
	if r := e.do(t, "GET", "/api/auth/verify-email/"+first, nil, ""); r.Status != 400 {
		t.Fatalf("superseded link: %d", r.Status)
	}
	// An expired link is refused.
	if _, err := e.db.Exec(context.Background(), `UPDATE verification_token SET expires_at = now() - interval '1 second' WHERE token_hash = $1`, token.Hash(second)); err != nil {
		t.Fatal(err)
	}
	if r := e.do(t, "GET", "/api/auth/verify-email/"+second, nil, ""); r.Status != 400 {
		t.Fatalf("expired link: %d", r.Status)
	}
	if e.storedUser(t, email).EmailVerified {
		t.Fatal("verified by a dead link")
	}
	// A verified account gets no email; neither answer says so.
	v, _ := createLocalUser(t, e.testBundle, true)
	r := e.do(t, "POST", "/api/auth/resend-verification", map[string]string{"email": v.Email}, "")
	if r.Status != 202 || !bytes.Equal(r.Body, known.Body) || e.emailJobs(t, v.ID) != 0 {
		t.Fatalf("verified account: %d %s, %d jobs", r.Status, r.Body, e.emailJobs(t, v.ID))
	}
	if r := e.do(t, "POST", "/api/auth/resend-verification", map[string]string{"email": "nope"}, ""); r.Status != 400 || r.ErrorCode() != "validation_failed" {
		t.Fatalf("bad address: %d %s", r.Status, r.Body)
	}
	if r := e.do(t, "POST", "/api/auth/forgot-password", nil, ""); r.Status != 400 {
		t.Fatalf("no body: %d", r.Status)
	}
}

func TestMe(t *testing.T) {
	t.Parallel()
	b := setup(t)
	u, tok := b.user(t, repo.RoleAdmin)
	r := b.do(t, "GET", "/api/auth/me", nil, tok)
	wantStatus(t, r, 200)
	if bytes.Contains(r.Body, []byte("password")) || bytes.Contains(r.Body, []byte("$2a$")) {
		t.Fatalf("me leaks the hash: %s", r.Body)
	}
	var out struct{ User User }
	r.JSON(t, &out)
	if out.User.ID != u.ID || out.User.Role != "ADMIN" || out.User.Email != u.Email {
		t.Fatalf("me %+v", out.User)
	}
	if r := b.do(t, "GET", "/api/auth/me", nil, ""); r.Status != 401 {
		t.Fatalf("anonymous me: %d", r.Status)
	}
}
