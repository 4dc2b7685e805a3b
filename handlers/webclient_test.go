package handlers

import (
	"testing"
	"testing/fstest"
)

// The web client is served with the cache rule of each kind of file, from
// the precompressed copy the browser accepts, and index.html for the
// client's routes.
func TestServeWebClient(t *testing.T) {
	t.Parallel()
	web := fstest.MapFS{
		"index.html":              {Data: []byte("<html>shell</html>")},
		"index.html.gz":           {Data: []byte("GZ-index")},
		"assets/app-1a2b3c.js":    {Data: []byte("console.log(1)")},
		"assets/app-1a2b3c.js.br": {Data: []byte("BR-app")},
		"assets/app-1a2b3c.js.gz": {Data: []byte("GZ-app")},
		"manifest.webmanifest":    {Data: []byte(`{"name":"Larder"}`)},
		"sw.js":                   {Data: []byte("self")},
		"icon-192.png":            {Data: []byte("PNG")},
	}
	b := setup(t, func(d *Deps) { d.Web = web })
	for _, tc := range []struct {
		path, accept                       string
		status                             int
		body, cache, encoding, contentType string
	}{
		{"/assets/app-1a2b3c.js", "gzip, deflate, br", 200, "BR-app", cacheImmutable, "br", "text/javascript; charset=utf-8"},
		{"/assets/app-1a2b3c.js", "gzip", 200, "GZ-app", cacheImmutable, "gzip", "text/javascript; charset=utf-8"},
		{"/assets/app-1a2b3c.js", "br;q=0, gzip", 200, "GZ-app", cacheImmutable, "gzip", ""},
		{"/assets/app-1a2b3c.js", "", 200, "console.log(1)", cacheImmutable, "", ""},
		{"/", "gzip", 200, "GZ-index", cacheRevalidate, "gzip", "text/html; charset=utf-8"},
		{"/recipes/0b6d3e4e-3f7c-4f43-9d59-1f0d2c1a1e11/cook", "", 200, "<html>shell</html>", cacheRevalidate, "", "text/html; charset=utf-8"},
		{"/sw.js", "", 200, "self", cacheRevalidate, "", ""},
		{"/manifest.webmanifest", "", 200, `{"name":"Larder"}`, cacheRevalidate, "", "application/manifest+json"},
		{"/icon-192.png", "gzip", 200, "PNG", cacheShort, "", "image/png"},
		{"/assets/gone-000000.js", "", 404, "", "", "", ""},
	} {
		r := b.do(t, "GET", tc.path, nil, "", "Accept-Encoding", tc.accept)
		if r.Status != tc.status {
			t.Errorf("%s (%q): status %d, want %d", tc.path, tc.accept, r.Status, tc.status)
			continue
		}
		if tc.status != 200 {
			continue
		}
		h := r.Header
		if string(r.Body) != tc.body || h.Get("Cache-Control") != tc.cache || h.Get("Content-Encoding") != tc.encoding {
			t.Errorf("%s (%q): body %q, Cache-Control %q, Content-Encoding %q; want %q, %q, %q",
				tc.path, tc.accept, r.Body, h.Get("Cache-Control"), h.Get("Content-Encoding"), tc.body, tc.cache, tc.encoding)
		}
		if tc.contentType != "" && h.Get("Content-Type") != tc.contentType {
			t.Errorf("%s: Content-Type %q, want %q", tc.path, h.Get("Content-Type"), tc.contentType)
		}
		if tc.encoding != "" && h.Get("Vary") != "Accept-Encoding" {
			t.Errorf("%s: Vary %q", tc.path, h.Get("Vary"))
		}
	}
	// Revalidating an unchanged file costs a 304.
	first := b.do(t, "GET", "/", nil, "")
	etag := first.Header.Get("ETag")
	if etag == "" {
		t.Fatal("index.html has no ETag")
	}
	if r := b.do(t, "GET", "/", nil, "", "If-None-Match", etag); r.Status != 304 || len(r.Body) != 0 {
		t.Errorf("revalidation: %d, %d bytes", r.Status, len(r.Body))
	}
	if r := b.do(t, "GET", "/", nil, "", "If-None-Match", `"other"`); r.Status != 200 {
		t.Errorf("changed file: %d", r.Status)
	}
	// The API is never answered by the client.
	if r := b.do(t, "GET", "/api/nothing-here", nil, ""); r.Status != 404 || r.ErrorCode() == "" {
		t.Errorf("/api/nothing-here: %d %s", r.Status, r.Body)
	}
}
