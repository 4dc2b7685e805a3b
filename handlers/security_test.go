package handlers

import (
	"strings"
	"testing"
	"testing/fstest"
)

// Every response, the API's, its errors' and the web client's, carries the
// browser protections; HSTS only when the app is served over https.
func TestSecurityHeaders(t *testing.T) {
	t.Parallel()
	web := fstest.MapFS{"index.html": {Data: []byte("<!doctype html><title>Larder</title>")}}
	for _, appURL := range []string{"http://localhost:8080", "https://recipes.example.test"} {
		b := setup(t, func(d *Deps) { d.Config.AppURL = appURL; d.Web = web })
		for _, path := range []string{"/api/health", "/api/no-such-route", "/", "/recipes/some-client-route"} {
			r := b.do(t, "GET", path, nil, "")
			want := map[string]string{
				"Content-Security-Policy": ContentSecurityPolicy,
				"X-Content-Type-Options":  "nosniff",
				"Referrer-Policy":         "strict-origin-when-cross-origin",
				"X-Frame-Options":         "DENY",
			}
			for h, v := range want {
				if got := r.Header.Get(h); got != v {
					t.Errorf("%s %s: %s = %q, want %q", appURL, path, h, got, v)
				}
			}
			hsts := r.Header.Get("Strict-Transport-Security")
			if strings.HasPrefix(appURL, "https") != strings.HasPrefix(hsts, "max-age=31536000") {
				t.Errorf("%s %s: Strict-Transport-Security = %q", appURL, path, hsts)
			}
		}
	}
	// The directives the web client's service worker and manifest need, and
	// the ones that keep script and framing to this origin.
	for _, d := range []string{"script-src 'self';", "worker-src 'self'", "manifest-src 'self'", "frame-ancestors 'none'", "object-src 'none'"} {
		if !strings.Contains(ContentSecurityPolicy, d) {
			t.Errorf("the policy lacks %s", d)
		}
	}
	if strings.Contains(ContentSecurityPolicy, "unsafe-inline") || strings.Contains(ContentSecurityPolicy, "unsafe-eval") {
		t.Error("the policy allows inline or eval'd script")
	}
}
