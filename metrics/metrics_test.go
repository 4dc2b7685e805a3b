package metrics

import (
	"io"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gofiber/fiber/v2"
)

// Requests are counted by route pattern, never by raw path, with the
// status the client got.
func TestMiddlewareCountsRoutePatterns(t *testing.T) {
	t.Parallel()
	r := New()
	app := fiber.New()
	app.Use(r.Middleware(fiber.DefaultErrorHandler))
	app.Get("/api/recipes/:id", func(c *fiber.Ctx) error { return c.SendString("ok") })
	for _, p := range []string{"/api/recipes/1", "/api/recipes/2", "/nothing-here"} {
		if _, err := app.Test(httptest.NewRequest("GET", p, nil)); err != nil {
			t.Fatal(err)
		}
	}
	rec := httptest.NewRecorder()
	r.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	body, _ := io.ReadAll(rec.Body)
	out := string(body)
	for _, want := range []string{
		`larder_http_requests_total{method="GET",route="/api/recipes/:id",status="200"} 2`,
		`larder_http_requests_total{method="GET",route="unmatched",status="404"} 1`,
		`larder_http_request_duration_seconds_bucket{method="GET",route="/api/recipes/:id"`,
		`go_goroutines`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("metrics lack %s", want)
		}
	}
	if strings.Contains(out, "/api/recipes/1") {
		t.Error("a raw path became a label")
	}
}

// The operator listener refuses requests without its token when one is
// set.
func TestProtected(t *testing.T) {
	t.Parallel()
	h := New().Protected("s3cret-token")
	for _, auth := range []string{"", "Bearer wrong", "Basic czNjcmV0LXRva2Vu", "s3cret-token"} {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest("GET", "/metrics", nil)
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		h.ServeHTTP(rec, req)
		if rec.Code != 401 || strings.Contains(rec.Body.String(), "go_goroutines") {
			t.Errorf("Authorization %q: %d", auth, rec.Code)
		}
	}
	rec := httptest.NewRecorder()
	req := httptest.NewRequest("GET", "/metrics", nil)
	req.Header.Set("Authorization", "Bearer s3cret-token")
	h.ServeHTTP(rec, req)
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), "go_goroutines") {
		t.Errorf("with the token: %d", rec.Code)
	}
}
