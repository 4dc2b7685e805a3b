package fetch

import (
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/andybalholm/brotli"
)

// The tests run real servers on loopback. 127.0.0.2 plays a public site
// (exempted from the rules with newTestClient, AllowPrivate stays false);
// 127.0.0.1 and ::1 are the forbidden targets an attacker aims at.
var publicIP = netip.MustParseAddr("127.0.0.2")

type testServer struct {
	*httptest.Server
	host string // "ip:port"
	port string
	hits atomic.Int64
}

func serve(t *testing.T, ip string, h http.HandlerFunc) *testServer {
	t.Helper()
	ln, err := net.Listen("tcp", net.JoinHostPort(ip, "0"))
	if err != nil {
		t.Fatalf("listen on %s: %v", ip, err)
	}
	ts := &testServer{}
	ts.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ts.hits.Add(1)
		h(w, r)
	}))
	ts.Listener.Close()
	ts.Listener = ln
	ts.Start()
	t.Cleanup(ts.Close)
	ts.host = ln.Addr().String()
	_, ts.port, _ = net.SplitHostPort(ts.host)
	return ts
}

func htmlHandler(body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, body)
	}
}

func publicClient(opts Options) *Client { return newTestClient(opts, publicIP) }

func wantCode(t *testing.T, err error, code string) *Error {
	t.Helper()
	if err == nil {
		t.Fatalf("got no error, want code %s", code)
	}
	fe := AsError(err)
	if fe == nil {
		t.Fatalf("got %v (%T), want a *fetch.Error with code %s", err, err, code)
	}
	if fe.Code != code {
		t.Fatalf("got code %s (%v), want %s", fe.Code, err, code)
	}
	if fe.Message == "" {
		t.Fatalf("empty message for %s", code)
	}
	return fe
}

func TestNoProxyFromEnvironment(t *testing.T) {
	// Not parallel: it sets the environment.
	proxy := serve(t, "127.0.0.2", htmlHandler("<html>proxy</html>"))
	origin := serve(t, "127.0.0.2", htmlHandler("<html>origin</html>"))
	for _, k := range []string{"HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy"} {
		t.Setenv(k, proxy.URL)
	}
	t.Setenv("NO_PROXY", "")
	res := testResolver(t, map[string][]string{"site.test": {"127.0.0.2"}})
	c := publicClient(Options{Resolver: res})
	if c.transport.Proxy != nil {
		t.Fatal("the transport has a proxy function")
	}
	p, err := c.Page(context.Background(), "http://site.test:"+origin.port+"/")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(p.HTML, []byte("origin")) || proxy.hits.Load() != 0 || origin.hits.Load() != 1 {
		t.Fatalf("page %q, proxy hits %d, origin hits %d; want the origin, directly", p.HTML, proxy.hits.Load(), origin.hits.Load())
	}
}

func TestPageSendsBrowserHeaders(t *testing.T) {
	t.Parallel()
	var got http.Header
	ts := serve(t, "127.0.0.2", func(w http.ResponseWriter, r *http.Request) {
		got = r.Header.Clone()
		htmlHandler("<html><title>x</title></html>")(w, r)
	})
	p, err := publicClient(Options{}).Page(context.Background(), ts.URL+"/recipe")
	if err != nil {
		t.Fatal(err)
	}
	if p.URL != ts.URL+"/recipe" || p.StatusCode != 200 || string(p.HTML) != "<html><title>x</title></html>" ||
		!strings.HasPrefix(p.ContentType, "text/html") {
		t.Fatalf("page = %+v", p)
	}
	for k, want := range map[string]string{
		"User-Agent":      DefaultUserAgent,
		"Accept":          acceptPage,
		"Accept-Language": acceptLanguage,
		"Accept-Encoding": "gzip, br",
		"Sec-Fetch-Mode":  "navigate",
	} {
		if got.Get(k) != want {
			t.Errorf("%s = %q, want %q", k, got.Get(k), want)
		}
	}
	if !strings.Contains(got.Get("User-Agent"), "Chrome/") {
		t.Errorf("User-Agent %q is not browser-like", got.Get("User-Agent"))
	}
	if got.Get("Accept-Encoding") != "gzip, br" {
		t.Errorf("Accept-Encoding %q", got.Get("Accept-Encoding"))
	}

	// A custom User-Agent wins.
	if _, err := publicClient(Options{UserAgent: "LarderTest/1"}).Page(context.Background(), ts.URL); err != nil {
		t.Fatal(err)
	}
	if got.Get("User-Agent") != "LarderTest/1" {
		t.Errorf("User-Agent %q, want the configured one", got.Get("User-Agent"))
	}
}

func TestPageRedirects(t *testing.T) {
	t.Parallel()
	codes := []int{301, 302, 303, 307, 308}
	ts := serve(t, "127.0.0.2", func(w http.ResponseWriter, r *http.Request) {
		n, err := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/r/"))
		if err != nil || n == 0 {
			htmlHandler("<html>final</html>")(w, r)
			return
		}
		// Alternate absolute and relative Locations and every code.
		loc := fmt.Sprintf("/r/%d", n-1)
		if n%2 == 0 {
			loc = "http://" + r.Host + loc
		}
		http.Redirect(w, r, loc, codes[n%len(codes)])
	})
	tests := []struct {
		name      string
		max       int
		redirects int
		wantErr   bool
	}{
		{"default limit reached", 0, 10, false},
		{"default limit exceeded", 0, 11, true},
		{"custom limit", 2, 2, false},
		{"custom limit exceeded", 2, 3, true},
		{"none allowed", -1, 1, true},
		{"none needed", -1, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := publicClient(Options{MaxRedirects: tt.max})
			p, err := c.Page(context.Background(), fmt.Sprintf("%s/r/%d", ts.URL, tt.redirects))
			if tt.wantErr {
				wantCode(t, err, CodeTooManyRedirects)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if p.URL != ts.URL+"/r/0" || string(p.HTML) != "<html>final</html>" {
				t.Fatalf("final page %s %q", p.URL, p.HTML)
			}
		})
	}
}

func TestRedirectToForbiddenAddressRefused(t *testing.T) {
	t.Parallel()
	target := serve(t, "127.0.0.1", htmlHandler("<html>secret</html>"))
	target6 := serve(t, "::1", htmlHandler("<html>secret6</html>"))
	resolver := testResolver(t, map[string][]string{
		"rebind.test": {"127.0.0.1"},
		"mixed.test":  {"127.0.0.1", "10.255.255.1"},
	})
	var location atomic.Value
	origin := serve(t, "127.0.0.2", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, location.Load().(string), http.StatusFound)
	})
	_ = origin
	tests := []struct {
		name     string
		location string
		code     string
	}{
		{"loopback", "http://127.0.0.1:" + target.port + "/", CodeForbiddenAddress},
		{"decimal spelling", "http://2130706433:" + target.port + "/", CodeForbiddenAddress},
		{"hex spelling", "http://0x7f.1:" + target.port + "/", CodeForbiddenAddress},
		{"localhost", "http://localhost:" + target.port + "/", CodeForbiddenAddress},
		{"name resolving to loopback", "http://rebind.test:" + target.port + "/", CodeForbiddenAddress},
		{"name resolving to loopback and private", "http://mixed.test:" + target.port + "/", CodeForbiddenAddress},
		{"ipv6 loopback", "http://[::1]:" + target6.port + "/", CodeForbiddenAddress},
		{"ipv4-mapped ipv6", "http://[::ffff:127.0.0.1]:" + target.port + "/", CodeForbiddenAddress},
		{"file scheme", "file:///etc/passwd", CodeInvalidURL},
		{"gopher scheme", "gopher://127.0.0.1:" + target.port + "/", CodeInvalidURL},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Not parallel: the subtests share the origin's Location.
			location.Store(tt.location)
			c := publicClient(Options{Resolver: resolver})
			_, err := c.Page(context.Background(), origin.URL+"/start")
			wantCode(t, err, tt.code)
		})
	}
	if target.hits.Load() != 0 || target6.hits.Load() != 0 {
		t.Fatalf("the forbidden servers were reached %d and %d times", target.hits.Load(), target6.hits.Load())
	}

	// The same redirect with the target allowed does reach it, so the
	// refusals above come from the address rules and nothing else.
	location.Store("http://rebind.test:" + target.port + "/")
	c := newTestClient(Options{Resolver: resolver}, publicIP, netip.MustParseAddr("127.0.0.1"))
	p, err := c.Page(context.Background(), origin.URL+"/start")
	if err != nil || !bytes.Contains(p.HTML, []byte("secret")) || target.hits.Load() != 1 {
		t.Fatalf("allowed redirect: %v, hits %d", err, target.hits.Load())
	}
}

func TestDNSNameResolvingToPrivateAddressRefused(t *testing.T) {
	t.Parallel()
	target := serve(t, "127.0.0.1", htmlHandler("<html>secret</html>"))
	public := serve(t, "127.0.0.2", htmlHandler("<html>public</html>"))
	resolver := testResolver(t, map[string][]string{
		"evil.test":     {"127.0.0.1"},
		"evil6.test":    {"::1"},
		"metadata.test": {"169.254.169.254"},
		"mapped.test":   {"::ffff:127.0.0.1"},
		"ok.test":       {"127.0.0.2"},
	})
	c := publicClient(Options{Resolver: resolver})
	for _, host := range []string{"evil.test", "evil6.test", "metadata.test", "mapped.test", "localhost"} {
		t.Run(host, func(t *testing.T) {
			t.Parallel()
			// The dialer itself, below any URL check.
			_, err := c.DialContext(context.Background(), "tcp", net.JoinHostPort(host, target.port))
			fe := wantCode(t, err, CodeForbiddenAddress)
			if !strings.Contains(fe.Message, host+" resolves to ") {
				t.Errorf("message %q does not name the host", fe.Message)
			}
			// And a fetch by name.
			_, err = c.Page(context.Background(), "http://"+net.JoinHostPort(host, target.port)+"/")
			wantCode(t, err, CodeForbiddenAddress)
			if err := c.CheckHost(context.Background(), "http://"+net.JoinHostPort(host, target.port)+"/"); AsError(err) == nil || AsError(err).Code != CodeForbiddenAddress {
				t.Errorf("CheckHost = %v, want forbidden_address", err)
			}
		})
	}
	t.Run("public name", func(t *testing.T) {
		t.Parallel()
		p, err := c.Page(context.Background(), "http://ok.test:"+public.port+"/")
		if err != nil || !bytes.Contains(p.HTML, []byte("public")) {
			t.Fatalf("Page = %v", err)
		}
		if err := c.CheckHost(context.Background(), "http://ok.test/"); err != nil {
			t.Fatalf("CheckHost = %v", err)
		}
	})
	t.Run("unknown name", func(t *testing.T) {
		t.Parallel()
		_, err := c.Page(context.Background(), "http://nowhere.test:"+public.port+"/")
		wantCode(t, err, CodeUnreachable)
	})
	t.Cleanup(func() {
		if n := target.hits.Load(); n != 0 {
			t.Errorf("the forbidden server was reached %d times", n)
		}
	})
}

func TestOddAddressSpellingsRefused(t *testing.T) {
	t.Parallel()
	target := serve(t, "127.0.0.1", htmlHandler("<html>secret</html>"))
	target6 := serve(t, "::1", htmlHandler("<html>secret</html>"))
	p, p6 := target.port, target6.port
	hosts := []string{
		"127.0.0.1:" + p, "2130706433:" + p, "0x7f.1:" + p, "0x7f000001:" + p, "017700000001:" + p,
		"0177.0.0.1:" + p, "127.1:" + p, "127.0.1:" + p, "127.0.0.1.:" + p, "%EF%BC%91%EF%BC%92%EF%BC%97.0.0.1:" + p,
		"0:" + p, "0.0.0.0:" + p, "[::ffff:127.0.0.1]:" + p, "[::ffff:7f00:1]:" + p, "[::]:" + p,
		"[::1]:" + p6, "[fe80::1]:" + p6, "[fe80::1%25lo]:" + p6, "[64:ff9b::7f00:1]:" + p, "[2002:7f00:1::]:" + p,
	}
	c := New(Options{})
	for _, h := range hosts {
		t.Run(h, func(t *testing.T) {
			t.Parallel()
			_, err := c.Page(context.Background(), "http://"+h+"/")
			wantCode(t, err, CodeForbiddenAddress)
			_, _, err = c.Download(context.Background(), "http://"+h+"/img.png", 1000)
			wantCode(t, err, CodeForbiddenAddress)
		})
	}
	t.Run("dialer", func(t *testing.T) {
		t.Parallel()
		for _, a := range []string{"127.0.0.1:" + p, "2130706433:" + p, "0x7f.1:" + p, "127.1:" + p, "[::1]:" + p6, "[::ffff:127.0.0.1]:" + p} {
			_, err := c.DialContext(context.Background(), "tcp", a)
			wantCode(t, err, CodeForbiddenAddress)
		}
	})
	t.Cleanup(func() {
		if target.hits.Load() != 0 || target6.hits.Load() != 0 {
			t.Errorf("a forbidden server was reached (%d, %d)", target.hits.Load(), target6.hits.Load())
		}
	})
}

func TestAllowPrivateAndDenyAddr(t *testing.T) {
	t.Parallel()
	one := serve(t, "127.0.0.1", htmlHandler("<html>one</html>"))
	six := serve(t, "::1", htmlHandler("<html>six</html>"))
	two := serve(t, "127.0.0.2", htmlHandler("<html>two</html>"))
	c := New(Options{AllowPrivate: true, DenyAddr: func(ip netip.Addr) bool { return ip == publicIP }})
	for _, u := range []string{one.URL, six.URL, "http://0x7f.1:" + one.port + "/", "http://localhost:" + one.port + "/"} {
		if _, err := c.Page(context.Background(), u); err != nil {
			t.Errorf("AllowPrivate: Page(%s) = %v", u, err)
		}
	}
	_, err := c.Page(context.Background(), two.URL)
	wantCode(t, err, CodeForbiddenAddress)
	_, err = c.Page(context.Background(), "http://[::ffff:127.0.0.2]:"+two.port+"/")
	wantCode(t, err, CodeForbiddenAddress)
	if err := c.CheckURL(two.URL); AsError(err) == nil {
		t.Errorf("CheckURL(%s) = nil under DenyAddr", two.URL)
	}
	if two.hits.Load() != 0 {
		t.Errorf("denied server reached")
	}
	// Link-local stays closed with AllowPrivate.
	_, err = c.Page(context.Background(), "http://169.254.169.254/")
	wantCode(t, err, CodeForbiddenAddress)
}

func TestPageSizeLimit(t *testing.T) {
	t.Parallel()
	const limit = 1000
	page := func(n int) string { return "<html>" + strings.Repeat("x", n-len("<html></html>")) + "</html>" }
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte("<html>" + strings.Repeat("a", 1<<20) + "</html>"))
	zw.Close()
	ts := serve(t, "127.0.0.2", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		switch r.URL.Path {
		case "/exact":
			io.WriteString(w, page(limit))
		case "/length":
			io.WriteString(w, page(limit+1))
		case "/chunked":
			for i := 0; i < 20; i++ {
				io.WriteString(w, strings.Repeat("y", 100))
				w.(http.Flusher).Flush()
			}
		case "/endless":
			for r.Context().Err() == nil {
				if _, err := io.WriteString(w, strings.Repeat("z", 4096)); err != nil {
					return
				}
			}
		case "/bomb":
			w.Header().Set("Content-Encoding", "gzip")
			w.Write(gz.Bytes())
		case "/big":
			io.WriteString(w, page(DefaultMaxBytes+1))
		}
	})
	c := publicClient(Options{MaxBytes: limit})
	if p, err := c.Page(context.Background(), ts.URL+"/exact"); err != nil || len(p.HTML) != limit {
		t.Fatalf("exact limit: %v", err)
	}
	for _, path := range []string{"/length", "/chunked", "/endless", "/bomb"} {
		_, err := c.Page(context.Background(), ts.URL+path)
		fe := wantCode(t, err, CodeTooLarge)
		if !strings.Contains(fe.Message, "larger than") {
			t.Errorf("%s: message %q", path, fe.Message)
		}
	}
	_, err := publicClient(Options{}).Page(context.Background(), ts.URL+"/big")
	wantCode(t, err, CodeTooLarge)
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

func TestReadBodyStopsAfterLimit(t *testing.T) {
	t.Parallel()
	for _, enc := range []string{"", "gzip"} {
		const limit = 5000
		var src io.Reader = io.LimitReader(neverEnding('q'), 1<<30)
		if enc == "gzip" {
			var buf bytes.Buffer
			zw := gzip.NewWriter(&buf)
			zw.Write(bytes.Repeat([]byte{'q'}, 10*limit))
			zw.Close()
			src = io.MultiReader(&buf, neverEnding(0))
		}
		cr := &countingReader{r: src}
		resp := &http.Response{Header: http.Header{}, Body: io.NopCloser(cr)}
		if enc != "" {
			resp.Header.Set("Content-Encoding", enc)
		}
		_, err := readBody(resp, limit)
		wantCode(t, err, CodeTooLarge)
		if cr.n > limit+1 {
			t.Errorf("%q: read %d raw bytes, more than limit+1", enc, cr.n)
		}
	}
}

type neverEnding byte

func (b neverEnding) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(b)
	}
	return len(p), nil
}

func TestPageTimeout(t *testing.T) {
	t.Parallel()
	ts := serve(t, "127.0.0.2", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow-body" {
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, "<html>")
			w.(http.Flusher).Flush()
		}
		<-r.Context().Done()
	})
	c := publicClient(Options{Timeout: 300 * time.Millisecond})
	for _, path := range []string{"/slow-headers", "/slow-body"} {
		_, err := c.Page(context.Background(), ts.URL+path)
		fe := wantCode(t, err, CodeTimeout)
		if fe.Message != "timed out" {
			t.Errorf("message %q", fe.Message)
		}
		if !errors.Is(err, context.DeadlineExceeded) && !strings.Contains(err.Error(), "deadline") && !strings.Contains(err.Error(), "timeout") {
			t.Logf("cause: %v", err)
		}
	}
	// The caller's deadline counts as a timeout too.
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, err := publicClient(Options{}).Page(ctx, ts.URL+"/slow-headers")
	wantCode(t, err, CodeTimeout)

	// A cancelled job is not a fetch failure to report.
	ctx, cancel = context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	_, err = publicClient(Options{}).Page(ctx, ts.URL+"/slow-headers")
	if !errors.Is(err, context.Canceled) || AsError(err) != nil {
		t.Fatalf("cancelled: %v, want context.Canceled", err)
	}
}

func TestPageDecompresses(t *testing.T) {
	t.Parallel()
	const body = "<html><body>Crème brûlée, 200 g sugar</body></html>"
	gz := func(b []byte) []byte {
		var buf bytes.Buffer
		w := gzip.NewWriter(&buf)
		w.Write(b)
		w.Close()
		return buf.Bytes()
	}
	br := func(b []byte) []byte {
		var buf bytes.Buffer
		w := brotli.NewWriter(&buf)
		w.Write(b)
		w.Close()
		return buf.Bytes()
	}
	zl := func(b []byte) []byte {
		var buf bytes.Buffer
		w := zlib.NewWriter(&buf)
		w.Write(b)
		w.Close()
		return buf.Bytes()
	}
	tests := []struct {
		encoding string
		data     []byte
		wantCode string
	}{
		{"gzip", gz([]byte(body)), ""},
		{"x-gzip", gz([]byte(body)), ""},
		{"br", br([]byte(body)), ""},
		{"deflate", zl([]byte(body)), ""},
		{"gzip, br", br(gz([]byte(body))), ""},
		{"identity", []byte(body), ""},
		{"gzip", []byte("not gzip at all"), CodeBadResponse},
		{"zstd", []byte("whatever"), CodeBadResponse},
	}
	for _, tt := range tests {
		t.Run(tt.encoding+tt.wantCode, func(t *testing.T) {
			t.Parallel()
			ts := serve(t, "127.0.0.2", func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				w.Header().Set("Content-Encoding", tt.encoding)
				w.Write(tt.data)
			})
			p, err := publicClient(Options{}).Page(context.Background(), ts.URL)
			if tt.wantCode != "" {
				wantCode(t, err, tt.wantCode)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(p.HTML) != body {
				t.Fatalf("HTML = %q", p.HTML)
			}
		})
	}
}

func TestPageCharset(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		contentType string
		body        []byte
		want        string
	}{
		{"header iso-8859-1", "text/html; charset=ISO-8859-1",
			[]byte("<html><p>Cr\xe8me br\xfbl\xe9e</p></html>"), "<html><p>Crème brûlée</p></html>"},
		{"meta charset", "text/html",
			[]byte("<html><head><meta charset=\"iso-8859-1\"></head><p>Gr\xfc\xdfe</p></html>"), "<p>Grüße</p>"},
		{"meta http-equiv windows-1251", "text/html",
			[]byte("<html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=windows-1251\"></head><p>\xe1\xee\xf0\xf9</p></html>"), "<p>борщ</p>"},
		{"windows-1252 euro", "text/html; charset=windows-1252",
			[]byte("<p>\x805 \x96 caf\xe9</p>"), "<p>€5 – café</p>"},
		{"header beats meta", "text/html; charset=utf-8",
			[]byte(`<meta charset="iso-8859-1"><p>Crème</p>`), "<p>Crème</p>"},
		{"utf-8 bom", "text/html",
			[]byte("\xef\xbb\xbf<html><p>Crème</p></html>"), "<html><p>Crème</p></html>"},
		{"undeclared utf-8", "text/html", []byte("<p>Crème</p>"), "<p>Crème</p>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ts := serve(t, "127.0.0.2", func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", tt.contentType)
				w.Write(tt.body)
			})
			p, err := publicClient(Options{}).Page(context.Background(), ts.URL)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Contains(p.HTML, []byte(tt.want)) {
				t.Fatalf("HTML = %q, want it to contain %q", p.HTML, tt.want)
			}
			if tt.name == "utf-8 bom" && p.HTML[0] != '<' {
				t.Fatalf("BOM kept: %q", p.HTML[:4])
			}
		})
	}
}

func TestPageStatusErrors(t *testing.T) {
	t.Parallel()
	ts := serve(t, "127.0.0.2", func(w http.ResponseWriter, r *http.Request) {
		code, _ := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/"))
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(code)
		io.WriteString(w, "<html>error page</html>")
	})
	tests := []struct {
		status  int
		code    string
		message string
	}{
		{403, CodeBlocked, "the site refused us (403)"},
		{429, CodeBlocked, "the site refused us (429)"},
		{503, CodeBlocked, "the site refused us (503)"},
		{404, CodeHTTPStatus, "the site answered 404 (Not Found)"},
		{410, CodeHTTPStatus, "the site answered 410 (Gone)"},
		{500, CodeHTTPStatus, "the site answered 500 (Internal Server Error)"},
	}
	c := publicClient(Options{})
	for _, tt := range tests {
		_, err := c.Page(context.Background(), fmt.Sprintf("%s/%d", ts.URL, tt.status))
		fe := wantCode(t, err, tt.code)
		if fe.Status != tt.status || fe.Message != tt.message || err.Error() != tt.message {
			t.Errorf("%d: got %+v", tt.status, fe)
		}
	}
}

func TestPageNotHTML(t *testing.T) {
	t.Parallel()
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
	tests := []struct {
		contentType string
		body        []byte
		ok          bool
	}{
		{"image/png", png, false},
		{"application/json", []byte(`{"@type":"Recipe"}`), false},
		{"application/pdf", []byte("%PDF-1.4"), false},
		{"application/xhtml+xml", []byte("<html></html>"), true},
		{"text/plain", []byte("<!DOCTYPE html><html></html>"), true},
		{"", []byte("<!DOCTYPE html><html></html>"), true},
		{"text/plain", []byte("just text"), false},
	}
	for _, tt := range tests {
		ts := serve(t, "127.0.0.2", func(w http.ResponseWriter, r *http.Request) {
			if tt.contentType == "" {
				w.Header()["Content-Type"] = nil // stop Go from sniffing one in
			} else {
				w.Header().Set("Content-Type", tt.contentType)
			}
			w.Write(tt.body)
		})
		_, err := publicClient(Options{}).Page(context.Background(), ts.URL)
		if tt.ok {
			if err != nil {
				t.Errorf("%q: %v", tt.contentType, err)
			}
			continue
		}
		wantCode(t, err, CodeNotHTML)
	}
}

func TestDownload(t *testing.T) {
	t.Parallel()
	img := bytes.Repeat([]byte{0xff, 0xd8, 0xff}, 100)
	var accept atomic.Value
	ts := serve(t, "127.0.0.2", func(w http.ResponseWriter, r *http.Request) {
		accept.Store(r.Header.Get("Accept"))
		switch r.URL.Path {
		case "/img.jpg":
			w.Header().Set("Content-Type", "image/jpeg")
			w.Write(img)
		case "/endless":
			w.Header().Set("Content-Type", "image/jpeg")
			for r.Context().Err() == nil {
				if _, err := w.Write(img); err != nil {
					return
				}
			}
		case "/moved":
			http.Redirect(w, r, "/img.jpg", http.StatusMovedPermanently)
		case "/to-loopback":
			http.Redirect(w, r, "http://127.0.0.1:1/x.jpg", http.StatusFound)
		default:
			http.NotFound(w, r)
		}
	})
	c := publicClient(Options{})
	data, ct, err := c.Download(context.Background(), ts.URL+"/moved", int64(len(img)))
	if err != nil || !bytes.Equal(data, img) || ct != "image/jpeg" {
		t.Fatalf("Download = %d bytes, %q, %v", len(data), ct, err)
	}
	if a, _ := accept.Load().(string); !strings.HasPrefix(a, "image/") {
		t.Errorf("Accept = %q", a)
	}
	_, _, err = c.Download(context.Background(), ts.URL+"/img.jpg", int64(len(img))-1)
	wantCode(t, err, CodeTooLarge)
	_, _, err = c.Download(context.Background(), ts.URL+"/endless", 10_000)
	wantCode(t, err, CodeTooLarge)
	_, _, err = c.Download(context.Background(), ts.URL+"/missing", 0)
	wantCode(t, err, CodeHTTPStatus)
	_, _, err = c.Download(context.Background(), ts.URL+"/to-loopback", 0)
	wantCode(t, err, CodeForbiddenAddress)
	_, _, err = c.Download(context.Background(), "ftp://example.com/a.jpg", 0)
	wantCode(t, err, CodeInvalidURL)
}

func TestPageHTTPSAndBadCertificate(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.2:0")
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewUnstartedServer(htmlHandler("<html>tls</html>"))
	ts.Listener.Close()
	ts.Listener = ln
	ts.StartTLS()
	t.Cleanup(ts.Close)
	// httptest's certificate is self-signed: a real client must refuse it.
	_, err = publicClient(Options{}).Page(context.Background(), ts.URL)
	fe := wantCode(t, err, CodeUnreachable)
	if !strings.Contains(fe.Message, "certificate") {
		t.Errorf("message %q", fe.Message)
	}
}
