package handlers

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"golang.org/x/crypto/bcrypt"

	"larder/config"
	"larder/jobs"
	"larder/mailer"
	"larder/mailer/mailertest"
	"larder/repo"
)

// fastHash lowers the bcrypt cost so suites that register many users stay
// fast. TestRegisterHashesWithCost12 checks the production default.
func fastHash(d *Deps) { d.PasswordCost = bcrypt.MinCost }

// authEnv is an app whose email jobs are worked by a real River client and
// delivered to a real SMTP server in the test process.
type authEnv struct {
	*testBundle
	smtp *mailertest.Server
}

// authSetup builds the app (with fast hashing), an SMTP server and an email worker.
func authSetup(t *testing.T, opts ...func(*Deps)) *authEnv {
	t.Helper()
	b := setup(t, append([]func(*Deps){fastHash, func(d *Deps) { d.Config.AppURL = "https://recipes.example.test" }}, opts...)...)
	smtp := mailertest.NewServer(t)
	deps := &jobs.Deps{DB: b.db, Logger: b.deps.Logger, Config: b.deps.Config, Mailer: &mailer.SMTP{Config: smtp.Config()}}
	client, err := jobs.NewClient(b.db, b.deps.Logger, jobs.NewWorkers(deps), jobs.ClientConfig{
		Concurrency: map[string]int{config.QueueEmail: 2},
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := client.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = jobs.Shutdown(client, 5*time.Second) })
	return &authEnv{testBundle: b, smtp: smtp}
}

// nextEmail waits for the next delivered email and parses it.
func (e *authEnv) nextEmail(t *testing.T, to string) mailertest.Parsed {
	t.Helper()
	m := e.smtp.Next(t, 30*time.Second)
	if len(m.To) != 1 || !strings.EqualFold(m.To[0], to) {
		t.Fatalf("email to %v, want %s", m.To, to)
	}
	return m.Parse(t)
}

// emailLink returns the one link of a parsed email, checking that both
// parts carry the same one.
func emailLink(t *testing.T, p mailertest.Parsed) *url.URL {
	t.Helper()
	text := mailertest.Links(p.Text)
	html := mailertest.Links(strings.ReplaceAll(p.HTML, "&amp;", "&"))
	if len(text) != 1 || len(html) != 1 || text[0] != html[0] {
		t.Fatalf("links: text %v, html %v", text, html)
	}
	u, err := url.Parse(text[0])
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// verifyToken is the token of a verification email's link.
func verifyToken(t *testing.T, p mailertest.Parsed) string {
	t.Helper()
	u := emailLink(t, p)
	tok, ok := strings.CutPrefix(u.Path, "/verify-email/")
	if u.Scheme+"://"+u.Host != "https://recipes.example.test" || !ok || tok == "" {
		t.Fatalf("verification link %s", u)
	}
	return tok
}

// resetToken is the token of a reset email's link.
func resetToken(t *testing.T, p mailertest.Parsed) string {
	t.Helper()
	u := emailLink(t, p)
	if u.Scheme+"://"+u.Host+u.Path != "https://recipes.example.test/reset-password" || u.Query().Get("token") == "" {
		t.Fatalf("reset link %s", u)
	}
	return u.Query().Get("token")
}

// newEmail returns an address no other test uses.
func newEmail() string { return "cook-" + uuid.NewString()[:8] + "@example.test" }

const goodPassword = "Pantry2025"

// registerVerified registers an account through the API and verifies it
// through the emailed link.
func (e *authEnv) registerVerified(t *testing.T, email, pw string) User {
	t.Helper()
	r := e.do(t, "POST", "/api/auth/register", map[string]string{"email": email, "password": pw, "name": "Ada"}, "")
	wantStatus(t, r, 201)
	tok := verifyToken(t, e.nextEmail(t, email))
	r = e.do(t, "GET", "/api/auth/verify-email/"+tok, nil, "")
	wantStatus(t, r, 200)
	var out struct{ User User }
	r.JSON(t, &out)
	return out.User
}

// login signs in and returns the session and the refresh cookie.
func (b *testBundle) login(t *testing.T, email, pw string) (authSession, *http.Cookie) {
	t.Helper()
	r := b.do(t, "POST", "/api/auth/login", map[string]string{"email": email, "password": pw}, "")
	wantStatus(t, r, 200)
	var s authSession
	r.JSON(t, &s)
	return s, r.cookie(t, refreshCookie)
}

// cookie returns the Set-Cookie of the response with that name.
func (r response) cookie(t *testing.T, name string) *http.Cookie {
	t.Helper()
	for _, c := range (&http.Response{Header: r.Header}).Cookies() {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("no %s cookie in %v", name, r.Header.Values("Set-Cookie"))
	return nil
}

// emailJobs counts the email jobs queued for a user.
func (b *testBundle) emailJobs(t *testing.T, userID uuid.UUID) int {
	t.Helper()
	var n int
	if err := b.db.QueryRow(context.Background(), `SELECT count(*) FROM app_job WHERE kind = 'email_send' AND user_id = $1`, userID).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// allEmailJobs counts every email job queued.
func (b *testBundle) allEmailJobs(t *testing.T) int {
	t.Helper()
	var n int
	if err := b.db.QueryRow(context.Background(), `SELECT count(*) FROM river_job WHERE kind = 'email_send'`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// storedUser reads the account as the database has it.
func (b *testBundle) storedUser(t *testing.T, email string) repo.User {
	t.Helper()
	u, err := repo.GetUserByEmail(context.Background(), b.db, email)
	if err != nil {
		t.Fatal(err)
	}
	return u
}
