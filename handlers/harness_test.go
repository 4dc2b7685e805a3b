package handlers

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/jackc/pgx/v5/pgxpool"

	"larder/config"
	"larder/jobs"
	"larder/repo"
	"larder/repo/repotest"
	"larder/storage"
	"larder/token"
)

// testBundle is one test's app on its own database, like riverui's handlertest.
type testBundle struct {
	app  *fiber.App
	db   *pgxpool.Pool
	deps Deps
}

// setup builds the app the way cmd/api does, on a fresh database. Options
// may adjust the dependencies before the app is built.
func setup(t *testing.T, opts ...func(*Deps)) *testBundle {
	t.Helper()
	db := repotest.DB(t)
	cfg, err := config.Load(func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	cfg.Env = "test"
	dir := t.TempDir()
	cfg.DataDir, cfg.UploadPath, cfg.BackupPath = dir, dir+"/uploads", dir+"/backups"
	cfg.AuthRateLimit = 1000  // tests of the limit itself set it back
	cfg.ShareRateLimit = 1000 // likewise
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	if os.Getenv("TEST_LOG") != "" {
		logger = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	queue, err := jobs.NewQueue(db, logger)
	if err != nil {
		t.Fatal(err)
	}
	d := Deps{
		Config: cfg,
		DB:     db,
		Queue:  queue,
		Tokens: &token.Issuer{AccessSecret: []byte("test-access-secret"), RefreshSecret: []byte("test-refresh-secret"),
			AccessTTL: 15 * time.Minute, RefreshTTL: 7 * 24 * time.Hour},
		Logger:  logger,
		Version: "2025.10.1",
	}
	for _, o := range opts {
		o(&d)
	}
	return &testBundle{app: New(d), db: db, deps: d}
}

// user creates a verified user with the role and returns it with an access token.
func (b *testBundle) user(t *testing.T, role string) (repo.User, string) {
	t.Helper()
	u := repotest.CreateUser(t, b.db, role)
	tok, err := b.deps.Tokens.Access(u.ID, u.Role, u.SessionVersion)
	if err != nil {
		t.Fatal(err)
	}
	return u, tok
}

// response is a decoded answer.
type response struct {
	Status int
	Header http.Header
	Body   []byte
}

// JSON decodes the body into v.
func (r response) JSON(t *testing.T, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		t.Fatalf("decode %s: %v", r.Body, err)
	}
}

// ErrorCode returns error.code of an error body, "" for other bodies.
func (r response) ErrorCode() string {
	var e struct {
		Error struct{ Code string } `json:"error"`
	}
	_ = json.Unmarshal(r.Body, &e)
	return e.Error.Code
}

// do sends a request through the app. body may be nil, a string or []byte
// (sent as is), or any value (sent as JSON). tok is an access token or "".
func (b *testBundle) do(t *testing.T, method, path string, body any, tok string, headers ...string) response {
	t.Helper()
	var r io.Reader
	contentType := ""
	switch v := body.(type) {
	case nil:
	case string:
		r, contentType = strings.NewReader(v), "application/json"
	case []byte:
		r, contentType = bytes.NewReader(v), "application/json"
	default:
		raw, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		r, contentType = bytes.NewReader(raw), "application/json"
	}
	req := httptest.NewRequest(method, path, r)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	req = req.WithContext(context.Background())
	resp, err := b.app.Test(req, -1)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return response{Status: resp.StatusCode, Header: resp.Header, Body: raw}
}

// wantStatus fails the test unless the response has the status.
func wantStatus(t *testing.T, r response, status int) {
	t.Helper()
	if r.Status != status {
		t.Fatalf("status %d, want %d; body %s", r.Status, status, r.Body)
	}
}

// serve runs the app on a real loopback listener and returns its base URL,
// for tests that need a real HTTP client (body limits, streaming, browsers).
func (b *testBundle) serve(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = b.app.Listener(ln) }()
	t.Cleanup(func() { _ = b.app.ShutdownWithTimeout(5 * time.Second) })
	return "http://" + ln.Addr().String()
}

// testClock is a clock a test moves by hand (Deps.Clock), so windows and
// grace periods pass without waiting. It starts at the real time, so that
// tokens signed on the real clock agree with it.
type testClock struct {
	mu  sync.Mutex
	now time.Time
}

func newTestClock() *testClock { return &testClock{now: time.Now()} }

// Now is the clock's time; pass it as Deps.Clock.
func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock forward.
func (c *testClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// withClock makes the app go by clock.
func withClock(clock *testClock) func(*Deps) { return func(d *Deps) { d.Clock = clock.Now } }
// stores are the file stores of the bundle's configuration, as the app
// opens them.
func (b *testBundle) stores() storage.Stores {
	s, err := storage.Open(b.deps.Config, b.db)
	if err != nil {
		panic(err)
	}
	return s
}

// uploadKey is the file-store key of an image address ("/uploads/KEY",
// with or without a signature).
func uploadKey(u string) string {
	u, _, _ = strings.Cut(u, "?")
	return strings.TrimPrefix(u, "/uploads/")
}
