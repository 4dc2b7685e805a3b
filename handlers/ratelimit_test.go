package handlers

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"larder/config"
	"larder/password"
	"larder/repo"
	"larder/repo/repotest"
)

// credentialRoutes are the rate-limited routes, with a request for each.
var credentialRoutes = []struct{ method, path, body string }{
	{"POST", "/api/auth/register", `{"email":"x@example.test","password":"weak"}`},
	{"POST", "/api/auth/login", `{"email":"x@example.test","password":"Wrong2025"}`},
	{"POST", "/api/auth/forgot-password", `{"email":"x@example.test"}`},
	{"POST", "/api/auth/reset-password", `{"token":"t","password":"Larder2026"}`},
	{"POST", "/api/auth/resend-verification", `{"email":"x@example.test"}`},
	{"GET", "/api/auth/verify-email/not-a-token", ``},
}

func withRate(n int, window time.Duration) func(*Deps) {
	return func(d *Deps) { d.Config.AuthRateLimit, d.Config.AuthRateLimitWindow = n, window }
}

func (b *testBundle) attempt(t *testing.T, method, path, body string, headers ...string) response {
	t.Helper()
	var v any
	if body != "" {
		v = body
	}
	return b.do(t, method, path, v, "", headers...)
}

// Five attempts per route and address, the sixth is 429 with Retry-After,
// and the window resets (on the test's clock, so nothing waits).
func TestRateLimit(t *testing.T) {
	t.Parallel()
	for _, rt := range credentialRoutes {
		t.Run(rt.path, func(t *testing.T) {
			t.Parallel()
			const window = 15 * time.Minute
			clock := newTestClock()
			b := setup(t, fastHash, withRate(5, window), withClock(clock))
			for i := 1; i <= 5; i++ {
				if r := b.attempt(t, rt.method, rt.path, rt.body); r.Status == 429 {
					t.Fatalf("attempt %d refused", i)
				}
			}
			r := b.attempt(t, rt.method, rt.path, rt.body)
			if r.Status != 429 || r.ErrorCode() != "rate_limited" {
				t.Fatalf("6th attempt: %d %s", r.Status, r.Body)
			}
			wait, err := strconv.Atoi(r.Header.Get("Retry-After"))
			if err != nil || wait < 899 || wait > 901 {
				t.Fatalf("Retry-After %q with a %s window", r.Header.Get("Retry-After"), window)
			}
			// Another route keeps its own count.
			other := credentialRoutes[0]
			if rt.path == other.path {
				other = credentialRoutes[1]
			}
			if r := b.attempt(t, other.method, other.path, other.body); r.Status == 429 {
				t.Fatalf("%s was limited by attempts on %s", other.path, rt.path)
			}
			// Just before the time Retry-After gave, still refused; at it,
			// allowed again.
			clock.Advance(time.Duration(wait-2) * time.Second)
			if r := b.attempt(t, rt.method, rt.path, rt.body); r.Status != 429 {
				t.Fatalf("before the window ended: %d %s", r.Status, r.Body)
			}
			clock.Advance(2 * time.Second)
			if r := b.attempt(t, rt.method, rt.path, rt.body); r.Status == 429 {
				t.Fatalf("after the window: %d %s", r.Status, r.Body)
			}
		})
	}
}

// Sign-in counts failed attempts only: a household behind one address can
// sign in as often as it likes, while wrong passwords are still limited,
// successes in between included.
func TestLoginLimitCountsFailuresOnly(t *testing.T) {
	t.Parallel()
	b := setup(t, fastHash, withRate(5, 15*time.Minute))
	u := repotest.CreateUser(t, b.db, repo.RoleUser)
	hash, err := password.Hash("Right-password-2025", bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := repo.SetUserPassword(context.Background(), b.db, u.ID, hash); err != nil {
		t.Fatal(err)
	}
	good := fmt.Sprintf(`{"email":%q,"password":"Right-password-2025"}`, u.Email)
	bad := fmt.Sprintf(`{"email":%q,"password":"Wrong-password-2025"}`, u.Email)
	for i := 1; i <= 12; i++ {
		wantStatus(t, b.attempt(t, "POST", "/api/auth/login", good), 200)
	}
	for i := 1; i <= 4; i++ {
		wantStatus(t, b.attempt(t, "POST", "/api/auth/login", bad), 401)
		wantStatus(t, b.attempt(t, "POST", "/api/auth/login", good), 200)
	}
	wantStatus(t, b.attempt(t, "POST", "/api/auth/login", bad), 401)
	// Five failures used the window up: now even the right password waits.
	if r := b.attempt(t, "POST", "/api/auth/login", good); r.Status != 429 {
		t.Fatalf("after five failures: %d %s", r.Status, r.Body)
	}
}

// The default is the specification's 5 per 15 minutes.
func TestRateLimitDefaultWindow(t *testing.T) {
	t.Parallel()
	def, err := config.Load(func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	b := setup(t, fastHash, withRate(def.AuthRateLimit, def.AuthRateLimitWindow))
	var r response
	for range 6 {
		r = b.attempt(t, "POST", "/api/auth/login", `{"email":"a@example.test","password":"Wrong2025"}`)
	}
	s, _ := strconv.Atoi(r.Header.Get("Retry-After"))
	if r.Status != 429 || s < 890 || s > 901 || !strings.Contains(string(r.Body), "15 minutes") {
		t.Fatalf("6th attempt: %d, Retry-After %q, %s", r.Status, r.Header.Get("Retry-After"), r.Body)
	}
	// Routes that are not credential routes are not limited.
	for range 10 {
		wantStatus(t, b.do(t, "GET", "/api/health", nil, ""), 200)
		wantStatus(t, b.do(t, "GET", "/api/auth/providers", nil, ""), 200)
	}
}

func TestForwardedClient(t *testing.T) {
	t.Parallel()
	proxies := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("127.0.0.1/32"), netip.MustParsePrefix("fd00::/8")}
	a := netip.MustParseAddr
	tests := []struct {
		name    string
		peer    string
		headers []string
		trusted []netip.Prefix
		want    string
	}{
		{"no proxies configured: header ignored", "203.0.113.9", []string{"198.51.100.1"}, nil, "203.0.113.9"},
		{"untrusted peer: header ignored", "203.0.113.9", []string{"198.51.100.1"}, proxies, "203.0.113.9"},
		{"trusted peer, one hop", "10.0.0.2", []string{"198.51.100.1"}, proxies, "198.51.100.1"},
		{"client-written entries left of the real client are ignored", "10.0.0.2", []string{"1.1.1.1, 2.2.2.2, 198.51.100.1"}, proxies, "198.51.100.1"},
		{"chain of trusted proxies", "127.0.0.1", []string{"198.51.100.1, 10.1.1.1, 10.2.2.2"}, proxies, "198.51.100.1"},
		{"several header lines", "10.0.0.2", []string{"9.9.9.9", "198.51.100.1, 10.3.3.3"}, proxies, "198.51.100.1"},
		{"with ports and brackets", "10.0.0.2", []string{"[2001:db8::1]:4711, 10.0.0.9:80"}, proxies, "2001:db8::1"},
		{"garbage stops the chain at the last trusted hop", "10.0.0.2", []string{"198.51.100.1, nonsense, 10.0.0.7"}, proxies, "10.0.0.7"},
		{"only trusted addresses", "10.0.0.2", []string{"10.0.0.5"}, proxies, "10.0.0.5"},
		{"no header from a trusted peer", "10.0.0.2", nil, proxies, "10.0.0.2"},
		{"mapped IPv4", "10.0.0.2", []string{"::ffff:198.51.100.1"}, proxies, "198.51.100.1"},
	}
	for _, tt := range tests {
		var hs [][]byte
		for _, h := range tt.headers {
			hs = append(hs, []byte(h))
		}
		if got := forwardedClient(a(tt.peer), hs, tt.trusted); got != a(tt.want) {
			t.Errorf("%s: %s, want %s", tt.name, got, tt.want)
		}
	}
}

// Through a real listener: X-Forwarded-For counts only from a trusted proxy.
func TestRateLimitTrustedProxy(t *testing.T) {
	t.Parallel()
	post := func(t *testing.T, base, xff string) int {
		t.Helper()
		req, _ := http.NewRequest("POST", base+"/api/auth/login", strings.NewReader(`{"email":"a@example.test","password":"Wrong2025"}`))
		req.Header.Set("Content-Type", "application/json")
		if xff != "" {
			req.Header.Set("X-Forwarded-For", xff)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}

	t.Run("untrusted", func(t *testing.T) {
		t.Parallel()
		b := setup(t, fastHash, withRate(5, time.Minute))
		base := b.serve(t)
		// A client cannot escape the limit by inventing addresses.
		for i := 1; i <= 5; i++ {
			if s := post(t, base, fmt.Sprintf("198.51.100.%d", i)); s == 429 {
				t.Fatalf("attempt %d refused", i)
			}
		}
		if s := post(t, base, "198.51.100.99"); s != 429 {
			t.Fatalf("6th attempt with a fresh forged address: %d", s)
		}
	})
	t.Run("trusted", func(t *testing.T) {
		t.Parallel()
		b := setup(t, fastHash, withRate(5, time.Minute), func(d *Deps) {
			d.Config.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}
		})
		base := b.serve(t)
		for i := 1; i <= 5; i++ {
			if s := post(t, base, "198.51.100.1"); s == 429 {
				t.Fatalf("attempt %d refused", i)
			}
		}
		if s := post(t, base, "198.51.100.1"); s != 429 {
			t.Fatalf("6th attempt of one client: %d", s)
		}
		// Another client behind the same proxy has its own count, and a
		// forged entry to the left of it changes nothing.
		if s := post(t, base, "198.51.100.1, 198.51.100.2"); s == 429 {
			t.Fatal("a second client behind the proxy was limited")
		}
		for range 5 {
			post(t, base, "198.51.100.1, 198.51.100.2")
		}
		if s := post(t, base, "203.0.113.50, 198.51.100.2"); s != 429 {
			t.Fatalf("forged left-most entry escaped the limit: %d", s)
		}
	})
}

// With REDIS_URL the counts are shared by every API instance.
func TestRateLimitSharedThroughRedis(t *testing.T) {
	t.Parallel()
	conn, err := net.DialTimeout("tcp", "127.0.0.1:6379", time.Second)
	if err != nil {
		t.Fatalf("Redis at 127.0.0.1:6379 (the test environment's): %v", err)
	}
	conn.Close()
	// The tests' requests come from 0.0.0.0; trusting it lets each run use
	// a client address of its own in the shared store.
	client := fmt.Sprintf("10.%d.%d.%d", rand.IntN(250), rand.IntN(250), rand.IntN(250)+1)
	opts := func(d *Deps) {
		d.Config.RedisURL = "redis://127.0.0.1:6379/0"
		d.Config.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("0.0.0.0/32")}
	}
	one := setup(t, fastHash, withRate(5, time.Minute), opts)
	two := setup(t, fastHash, withRate(5, time.Minute), opts)
	body := `{"email":"a@example.test","password":"Wrong2025"}`
	for i := 1; i <= 5; i++ {
		inst := one
		if i%2 == 0 {
			inst = two
		}
		if r := inst.attempt(t, "POST", "/api/auth/login", body, "X-Forwarded-For", client); r.Status == 429 {
			t.Fatalf("attempt %d refused", i)
		}
	}
	r := one.attempt(t, "POST", "/api/auth/login", body, "X-Forwarded-For", client)
	if r.Status != 429 || r.Header.Get("Retry-After") == "" {
		t.Fatalf("6th attempt across instances: %d %s", r.Status, r.Body)
	}
}

// When Redis is unreachable, attempts are still counted, in the process.
func TestRateLimitRedisDown(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	b := setup(t, fastHash, withRate(5, time.Minute), func(d *Deps) { d.Config.RedisURL = config.Secret("redis://" + addr + "/0") })
	var r response
	for range 6 {
		r = b.attempt(t, "POST", "/api/auth/forgot-password", `{"email":"a@example.test"}`)
	}
	if r.Status != 429 {
		t.Fatalf("6th attempt with Redis down: %d %s", r.Status, r.Body)
	}
}
