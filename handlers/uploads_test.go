package handlers

import (
	"context"
	"log/slog"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"larder/logctx"
)

// Files under /uploads are served only as images, only to those who may
// see them: public recipes' at stable, long-cached addresses; every other
// image at a signed address that expires; a deleted or unshared image
// stops at once.
func TestUploadsServing(t *testing.T) {
	t.Parallel()
	b := setup(t)
	_, tok := b.user(t, "USER")
	r := b.do(t, "POST", "/api/recipes", map[string]any{"title": "Soup"}, tok)
	wantStatus(t, r, 201)
	var rec Recipe
	r.JSON(t, &rec)
	r = rcUpload(t, b, tok, rec.ID, "soup.jpg", "image/jpeg", quadrantJPEG(t, 64, 48))
	wantStatus(t, r, 200)
	r.JSON(t, &rec)
	signed := *rec.ImageURL
	key := uploadKey(signed)
	if !strings.Contains(signed, "?exp=") || !strings.Contains(signed, "&sig=") {
		t.Fatalf("a private recipe's image address is not signed: %s", signed)
	}

	r = b.do(t, "GET", signed, nil, "")
	wantStatus(t, r, 200)
	if ct := r.Header.Get("Content-Type"); ct != "image/jpeg" {
		t.Errorf("Content-Type %q", ct)
	}
	if r.Header.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("no nosniff")
	}
	cc := r.Header.Get("Cache-Control")
	age, _ := strconv.Atoi(strings.TrimPrefix(cc, "private, max-age="))
	if !strings.HasPrefix(cc, "private, max-age=") || age <= 0 || age > 24*3600 {
		t.Errorf("Cache-Control %q, want private for at most a day", cc)
	}

	// The stable address, a tampered signature, another key's signature.
	u, _ := url.Parse(signed)
	q := u.Query()
	q.Set("sig", strings.Repeat("A", len(q.Get("sig"))))
	otherKey := "recipes/zz/" + strings.Repeat("0", 32) + ".jpg"
	for _, addr := range []string{"/uploads/" + key, "/uploads/" + key + "?" + q.Encode(),
		"/uploads/" + otherKey + "?" + u.RawQuery} {
		if r := b.do(t, "GET", addr, nil, ""); r.Status != 404 {
			t.Errorf("GET %s: %d, want 404", addr, r.Status)
		}
	}

	// Public: a stable address, cached for good.
	if _, err := b.db.Exec(context.Background(), `UPDATE recipe SET visibility = 'PUBLIC' WHERE id = $1`, rec.ID); err != nil {
		t.Fatal(err)
	}
	r = b.do(t, "GET", "/api/recipes/"+rec.ID.String(), nil, tok)
	r.JSON(t, &rec)
	if *rec.ImageURL != "/uploads/"+key {
		t.Fatalf("public image address %s", *rec.ImageURL)
	}
	r = b.do(t, "GET", *rec.ImageURL, nil, "")
	wantStatus(t, r, 200)
	if cc := r.Header.Get("Cache-Control"); cc != "public, max-age=31536000, immutable" {
		t.Errorf("public Cache-Control %q", cc)
	}
	// Made private again: the stable address stops at once.
	if _, err := b.db.Exec(context.Background(), `UPDATE recipe SET visibility = 'SHARED' WHERE id = $1`, rec.ID); err != nil {
		t.Fatal(err)
	}
	if r := b.do(t, "GET", "/uploads/"+key, nil, ""); r.Status != 404 {
		t.Errorf("unshared image still served: %d", r.Status)
	}
	// Deleted: the signed address stops at once (no cache in between).
	wantStatus(t, b.do(t, "DELETE", "/api/recipes/"+rec.ID.String()+"/image", nil, tok), 204)
	if r := b.do(t, "GET", signed, nil, ""); r.Status != 404 {
		t.Errorf("deleted image still served: %d", r.Status)
	}
}

// Whatever lands in the store (a restored backup of an older release, an
// operator's copy), only images are served, and never as HTML or SVG.
func TestUploadsServeOnlyImages(t *testing.T) {
	t.Parallel()
	b := setup(t)
	signer := newUploadSigner(b.deps.Tokens.AccessSecret, nil)
	ctx := context.Background()
	for _, key := range []string{"recipes/ab/evil.html", "recipes/ab/evil.svg", "recipes/ab/evil.htm", "recipes/ab/evil", "evil.js"} {
		if err := b.stores().Files.Put(ctx, key, strings.NewReader("<script>alert(1)</script>")); err != nil {
			t.Fatal(err)
		}
		if r := b.do(t, "GET", signer.address(key, false), nil, ""); r.Status != 404 || strings.Contains(string(r.Body), "script") {
			t.Errorf("%s: %d %q", key, r.Status, r.Body)
		}
	}
	// A page named as an image is sent as an image the browser may not sniff.
	key := "recipes/ab/" + strings.ReplaceAll(uuid.NewString(), "-", "") + ".png"
	if err := b.stores().Files.Put(ctx, key, strings.NewReader("<html><script>alert(1)</script>")); err != nil {
		t.Fatal(err)
	}
	r := b.do(t, "GET", signer.address(key, false), nil, "")
	wantStatus(t, r, 200)
	if r.Header.Get("Content-Type") != "image/png" || r.Header.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("headers %v", r.Header)
	}
}

// Signed addresses expire; within a day they stay the same, so browsers
// can cache them.
func TestUploadSignerExpiry(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 3, 4, 0, 30, 0, 0, time.UTC)
	s := newUploadSigner([]byte("secret"), func() time.Time { return now })
	first := s.address("recipes/ab/x.jpg", false)
	now = now.Add(23 * time.Hour)
	if again := s.address("recipes/ab/x.jpg", false); again != first {
		t.Errorf("the address changed within the day: %s, %s", first, again)
	}
	u, _ := url.Parse(first)
	exp, _ := strconv.ParseInt(u.Query().Get("exp"), 10, 64)
	if left, ok := s.check("recipes/ab/x.jpg", u.Query().Get("exp"), u.Query().Get("sig")); !ok || left <= 0 {
		t.Fatalf("a fresh address is refused")
	}
	if issued := time.Date(2026, 3, 4, 0, 30, 0, 0, time.UTC); time.Unix(exp, 0).Sub(issued) < 24*time.Hour {
		t.Errorf("valid for less than a day after issue: until %v", time.Unix(exp, 0).UTC())
	}
	now = time.Unix(exp, 0)
	if _, ok := s.check("recipes/ab/x.jpg", u.Query().Get("exp"), u.Query().Get("sig")); ok {
		t.Error("an expired address is accepted")
	}
	other := newUploadSigner([]byte("other secret"), func() time.Time { return now.Add(-time.Hour) })
	if _, ok := other.check("recipes/ab/x.jpg", u.Query().Get("exp"), u.Query().Get("sig")); ok {
		t.Error("another secret's signature is accepted")
	}
}

// /api/ready checks the database, its schema and the store; /api/health
// only that the process answers.
func TestReady(t *testing.T) {
	t.Parallel()
	b := setup(t)
	r := b.do(t, "GET", "/api/ready", nil, "")
	wantStatus(t, r, 200)
	// A store that cannot be reached: not ready, though alive.
	b2 := setup(t, func(d *Deps) {
		d.Config.UploadPath = "/proc/version/uploads" // a file's child: never creatable
		d.Config.BackupPath = "/proc/version/backups"
	})
	r = b2.do(t, "GET", "/api/ready", nil, "")
	if r.Status != 503 || !strings.Contains(string(r.Body), "storage") {
		t.Fatalf("ready with a broken store: %d %s", r.Status, r.Body)
	}
	wantStatus(t, b2.do(t, "GET", "/api/health", nil, ""), 200)
	// A schema behind this release: not ready.
	if _, err := b.db.Exec(context.Background(), `DELETE FROM schema_migration WHERE version = (SELECT max(version) FROM schema_migration)`); err != nil {
		t.Fatal(err)
	}
	r = b.do(t, "GET", "/api/ready", nil, "")
	if r.Status != 503 || !strings.Contains(string(r.Body), "schema version") {
		t.Fatalf("ready with an old schema: %d %s", r.Status, r.Body)
	}
}

// Every line logged for a request carries its request id, through the
// request's context (logctx), whatever logs it.
func TestRequestIDOnLogLines(t *testing.T) {
	t.Parallel()
	var buf safeBuffer
	b := setup(t, func(d *Deps) {
		d.Logger = slog.New(logctx.Handler{Handler: slog.NewTextHandler(&buf, nil)})
	})
	r := b.do(t, "GET", "/api/health", nil, "", "X-Request-ID", "req-1234")
	wantStatus(t, r, 200)
	line := buf.String()
	if !strings.Contains(line, "msg=request") || !strings.Contains(line, "request_id=req-1234") {
		t.Fatalf("log: %s", line)
	}
}

type safeBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *safeBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *safeBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func init() {
	addAuthz(authzCase{method: "GET", route: "/api/ready", want: rulePublic})
}
