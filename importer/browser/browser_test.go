package browser

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"larder/importer/fetch"
)

// The tests serve pages from 127.0.0.1 (allowed: the fetch client has
// AllowPrivate) and treat 127.0.0.2 as the forbidden address (DenyAddr), so
// they show that Chrome cannot reach an address the rules refuse.
var forbiddenIP = netip.MustParseAddr("127.0.0.2")

// shared is the one Renderer of this test binary; nil when Chromium is
// absent outside CI.
var shared *Renderer

func testFetch() *fetch.Client {
	return fetch.New(fetch.Options{
		AllowPrivate: true,
		DenyAddr:     func(ip netip.Addr) bool { return ip == forbiddenIP },
		Timeout:      20 * time.Second,
	})
}

func TestMain(m *testing.M) {
	code := func() int {
		if _, err := os.Stat(DefaultExecPath); err != nil {
			if os.Getenv("CI") == "true" {
				fmt.Fprintf(os.Stderr, "CI=true but %s is missing: %v\n", DefaultExecPath, err)
				return 1
			}
			return m.Run() // Chromium tests skip themselves
		}
		r, err := New(Options{Fetch: testFetch(), MaxTabs: 2, Timeout: time.Minute})
		if err != nil {
			fmt.Fprintf(os.Stderr, "start renderer: %v\n", err)
			return 1
		}
		shared = r
		code := m.Run()
		var dir string
		if r.cur != nil {
			dir = r.cur.dir
		}
		r.Close()
		// Close is part of the contract: later renders fail cleanly and
		// the profile directory is gone.
		if _, err := r.Render(context.Background(), "http://127.0.0.1:1/"); !errors.Is(err, ErrClosed) {
			fmt.Fprintf(os.Stderr, "Render after Close = %v, want ErrClosed\n", err)
			return 1
		}
		if _, err := os.Stat(dir); dir != "" && !os.IsNotExist(err) {
			fmt.Fprintf(os.Stderr, "profile directory %s left behind (%v)\n", dir, err)
			return 1
		}
		return code
	}()
	os.Exit(code)
}

func needChromium(t *testing.T) *Renderer {
	t.Helper()
	if shared == nil {
		t.Skipf("%s is not installed (and CI is not true)", DefaultExecPath)
	}
	return shared
}

// countingListener counts accepted connections: a refused request must not
// even open one.
type countingListener struct {
	net.Listener
	n atomic.Int64
}

func (l *countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err == nil {
		l.n.Add(1)
	}
	return c, err
}

type server struct {
	*httptest.Server
	ln   *countingListener
	port string
}

func serveOn(t *testing.T, ip string, h http.Handler) *server {
	t.Helper()
	ln, err := net.Listen("tcp", ip+":0")
	if err != nil {
		t.Fatal(err)
	}
	cl := &countingListener{Listener: ln}
	ts := httptest.NewUnstartedServer(h)
	ts.Listener.Close()
	ts.Listener = cl
	ts.Start()
	t.Cleanup(ts.Close)
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	return &server{Server: ts, ln: cl, port: port}
}

func TestNewWithoutChromium(t *testing.T) {
	t.Parallel()
	_, err := New(Options{Fetch: testFetch(), ExecPath: "/nonexistent/chromium"})
	if !errors.Is(err, ErrNotInstalled) {
		t.Fatalf("New = %v, want ErrNotInstalled", err)
	}
	if _, err := New(Options{}); err == nil {
		t.Fatal("New without Fetch succeeded")
	}
}

const jsRecipePage = `<!DOCTYPE html>
<html><head><title>Loading…</title></head><body><div id="app">loading</div>
<script>
fetch('/data.json').then(r => r.json()).then(d => {
  const s = document.createElement('script');
  s.type = 'application/ld+json';
  s.textContent = JSON.stringify({"@context": "https://schema.org", "@type": "Recipe", name: d.name,
    recipeIngredient: d.ingredients, recipeInstructions: d.steps});
  document.head.appendChild(s);
  document.title = d.name;
  document.getElementById('app').textContent = d.name + ' / ' + navigator.userAgent;
});
</script></body></html>`

func TestRenderBuildsJavaScriptRecipe(t *testing.T) {
	t.Parallel()
	r := needChromium(t)
	var ua atomic.Value
	mux := http.NewServeMux()
	mux.HandleFunc("/recipe", func(w http.ResponseWriter, req *http.Request) {
		ua.Store(req.Header.Get("User-Agent"))
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, jsRecipePage)
	})
	mux.HandleFunc("/data.json", func(w http.ResponseWriter, req *http.Request) {
		time.Sleep(200 * time.Millisecond) // the recipe arrives after load
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"name": "Crème brûlée", "ingredients": ["4 egg yolks", "500 ml cream"], "steps": ["Whisk.", "Bake."]}`)
	})
	ts := serveOn(t, "127.0.0.1", mux)

	// The plain HTML has no recipe: that is why the browser is needed.
	plain, err := testFetch().Page(context.Background(), ts.URL+"/recipe")
	if err != nil || strings.Contains(string(plain.HTML), `<script type="application/ld+json">`) {
		t.Fatalf("plain fetch: %v", err)
	}
	// By name: Chrome resolves nothing itself (host-resolver-rules), the
	// proxy resolves and checks.
	pageURL := "http://localhost:" + ts.port + "/recipe"
	p, err := r.Render(context.Background(), pageURL)
	if err != nil {
		t.Fatal(err)
	}
	html := string(p.HTML)
	for _, want := range []string{`"@type":"Recipe"`, "Crème brûlée", "500 ml cream", "<!DOCTYPE html>"} {
		if !strings.Contains(html, want) {
			t.Errorf("rendered DOM lacks %q:\n%s", want, html)
		}
	}
	if p.URL != pageURL || p.StatusCode != 200 {
		t.Errorf("URL %s status %d", p.URL, p.StatusCode)
	}
	if got, _ := ua.Load().(string); got != fetch.DefaultUserAgent || strings.Contains(html, "HeadlessChrome") {
		t.Errorf("Chrome sent User-Agent %q, want the fetch client's", got)
	}
}

func TestChromeCannotReachForbiddenAddress(t *testing.T) {
	t.Parallel()
	r := needChromium(t)
	secret := serveOn(t, "127.0.0.2", http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		w.Header().Set("Access-Control-Allow-Origin", "*")
		io.WriteString(w, "secret")
	}))
	var allowedHits atomic.Int64
	page := fmt.Sprintf(`<!DOCTYPE html><html><head><title>probe</title></head><body>
<img src="http://127.0.0.2:%[1]s/img.png">
<iframe src="http://127.0.0.2:%[1]s/frame"></iframe>
<script>
const tryFetch = u => fetch(u).then(r => r.text()).then(t => 'ok:' + t, e => 'failed');
const ws = () => new Promise(res => {
  try {
    const s = new WebSocket('ws://127.0.0.2:%[1]s/ws');
    s.onopen = () => res('ok'); s.onerror = () => res('failed');
  } catch (e) { res('failed'); }
});
Promise.all([
  tryFetch('http://127.0.0.2:%[1]s/secret'),
  tryFetch('https://127.0.0.2:%[1]s/secret'),
  tryFetch('http://0x7f.2:%[1]s/secret'),
  tryFetch('/allowed'),
  ws(),
]).then(rs => {
  document.body.dataset.result = rs.join('|');
  const s = document.createElement('script');
  s.type = 'application/ld+json';
  s.textContent = '{"@type": "Recipe", "name": "done"}';
  document.head.appendChild(s);
});
</script></body></html>`, secret.port)
	mux := http.NewServeMux()
	mux.HandleFunc("/page", func(w http.ResponseWriter, req *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, page)
	})
	mux.HandleFunc("/allowed", func(w http.ResponseWriter, req *http.Request) {
		allowedHits.Add(1)
		io.WriteString(w, "fine")
	})
	ts := serveOn(t, "127.0.0.1", mux)

	p, err := r.Render(context.Background(), ts.URL+"/page")
	if err != nil {
		t.Fatal(err)
	}
	want := `data-result="failed|failed|failed|ok:fine|failed"`
	if !strings.Contains(string(p.HTML), want) {
		t.Errorf("page results: want %s in\n%s", want, p.HTML)
	}
	if n := secret.ln.n.Load(); n != 0 {
		t.Errorf("Chrome opened %d connections to the forbidden address", n)
	}
	if allowedHits.Load() != 1 {
		t.Errorf("the allowed request was made %d times, want 1", allowedHits.Load())
	}
}

func TestRenderRefusesForbiddenNavigation(t *testing.T) {
	t.Parallel()
	r := needChromium(t)
	secret := serveOn(t, "127.0.0.2", http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, `<html><script type="application/ld+json">{"@type":"Recipe","name":"secret"}</script></html>`)
	}))
	target := "http://127.0.0.2:" + secret.port + "/"
	mux := http.NewServeMux()
	mux.HandleFunc("/redirect", func(w http.ResponseWriter, req *http.Request) {
		http.Redirect(w, req, target, http.StatusFound)
	})
	mux.HandleFunc("/js-redirect", func(w http.ResponseWriter, req *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, `<html><script>location.href = %q;</script></html>`, target)
	})
	mux.HandleFunc("/tls-redirect", func(w http.ResponseWriter, req *http.Request) {
		http.Redirect(w, req, "https://127.0.0.2:"+secret.port+"/", http.StatusFound)
	})
	ts := serveOn(t, "127.0.0.1", mux)
	for _, u := range []string{target, "http://0x7f.2:" + secret.port + "/", ts.URL + "/redirect", ts.URL + "/js-redirect", ts.URL + "/tls-redirect"} {
		t.Run(u, func(t *testing.T) {
			t.Parallel()
			p, err := r.Render(context.Background(), u)
			fe := fetch.AsError(err)
			if fe == nil || fe.Code != fetch.CodeForbiddenAddress {
				html := ""
				if p != nil {
					html = string(p.HTML)
				}
				t.Fatalf("Render(%s) = %v, want forbidden_address; page %q", u, err, html)
			}
		})
	}
	t.Cleanup(func() {
		if n := secret.ln.n.Load(); n != 0 {
			t.Errorf("Chrome opened %d connections to the forbidden address", n)
		}
	})
}

func TestRenderTimeout(t *testing.T) {
	t.Parallel()
	r := needChromium(t)
	ts := serveOn(t, "127.0.0.1", http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		select {
		case <-req.Context().Done():
		case <-time.After(10 * time.Second):
		}
	}))
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_, err := r.Render(ctx, ts.URL+"/slow")
	if fe := fetch.AsError(err); fe == nil || fe.Code != fetch.CodeTimeout || fe.Message != "timed out" {
		t.Fatalf("Render = %v, want timeout", err)
	}
}

// TestMaxTabs is not parallel, so no other render shares the browser while it
// counts.
func TestMaxTabs(t *testing.T) {
	r := needChromium(t)
	var cur, peak atomic.Int64
	ts := serveOn(t, "127.0.0.1", http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		n := cur.Add(1)
		defer cur.Add(-1)
		for {
			p := peak.Load()
			if n <= p || peak.CompareAndSwap(p, n) {
				break
			}
		}
		time.Sleep(300 * time.Millisecond)
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, `<html><script type="application/ld+json">{"@type":"Recipe","name":"x"}</script></html>`)
	}))
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := r.Render(context.Background(), fmt.Sprintf("%s/%d", ts.URL, i))
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if p := peak.Load(); p > int64(r.opts.MaxTabs) || p < 1 {
		t.Fatalf("peak concurrent page loads %d, MaxTabs %d", p, r.opts.MaxTabs)
	}
}

// TestRendererRestartsAfterCrash kills the shared browser, so it is not
// parallel: no other render is using it meanwhile.
func TestRendererRestartsAfterCrash(t *testing.T) {
	r := needChromium(t)
	ts := serveOn(t, "127.0.0.1", http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, `<html><script type="application/ld+json">{"@type":"Recipe","name":"again"}</script></html>`)
	}))
	r.mu.Lock()
	proc := chromedp.FromContext(r.cur.ctx).Browser.Process()
	r.mu.Unlock()
	if err := proc.Kill(); err != nil {
		t.Fatal(err)
	}
	proc.Wait()
	p, err := r.Render(context.Background(), ts.URL)
	if err != nil {
		t.Fatalf("render after crash: %v", err)
	}
	if !strings.Contains(string(p.HTML), "again") {
		t.Fatalf("page %q", p.HTML)
	}
}

// TestProxy drives the proxy with Go clients: it is the guard Chrome goes
// through, so its rules are tested without a browser too.
func TestProxy(t *testing.T) {
	t.Parallel()
	secret := serveOn(t, "127.0.0.2", http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		io.WriteString(w, "secret")
	}))
	open := serveOn(t, "127.0.0.1", http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.Header.Get("X-Forwarded-For") != "" {
			t.Errorf("the proxy added X-Forwarded-For")
		}
		io.WriteString(w, "open")
	}))
	p, err := startProxy(testFetch().DialContext, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer p.close()
	proxyURL, _ := url.Parse("http://" + p.addr())
	client := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(proxyURL)}}

	get := func(u string) (int, string, string) {
		t.Helper()
		resp, err := client.Get(u)
		if err != nil {
			t.Fatalf("GET %s: %v", u, err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header.Get(refusedHeader), string(b)
	}
	if code, _, body := get(open.URL + "/x"); code != 200 || body != "open" {
		t.Errorf("allowed GET: %d %q", code, body)
	}
	for _, u := range []string{secret.URL + "/x", "http://0x7f.2:" + secret.port + "/", "http://[::ffff:127.0.0.2]:" + secret.port + "/",
		"http://169.254.169.254/latest/meta-data/"} {
		code, refused, body := get(u)
		if code != http.StatusForbidden || refused != fetch.CodeForbiddenAddress || strings.Contains(body, "secret") {
			t.Errorf("GET %s through the proxy: %d %q %q", u, code, refused, body)
		}
		if fe := fetch.AsError(p.lastError(hostPort(u))); fe == nil || fe.Code != fetch.CodeForbiddenAddress {
			t.Errorf("lastError(%s) = %v", hostPort(u), fe)
		}
	}

	raw := func(request string) string {
		t.Helper()
		c, err := net.Dial("tcp", p.addr())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		c.SetDeadline(time.Now().Add(5 * time.Second))
		io.WriteString(c, request)
		br := bufio.NewReader(c)
		status, _ := br.ReadString('\n')
		if strings.Contains(status, " 200 ") && strings.HasPrefix(request, "CONNECT") {
			// Use the tunnel.
			br.ReadString('\n')
			io.WriteString(c, "GET /t HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
			rest, _ := io.ReadAll(br)
			return status + string(rest)
		}
		return status
	}
	if s := raw("CONNECT 127.0.0.2:" + secret.port + " HTTP/1.1\r\nHost: 127.0.0.2:" + secret.port + "\r\n\r\n"); !strings.Contains(s, " 403 ") {
		t.Errorf("CONNECT to the forbidden address: %q", s)
	}
	if s := raw("CONNECT 2130706434:" + secret.port + " HTTP/1.1\r\nHost: 2130706434:" + secret.port + "\r\n\r\n"); !strings.Contains(s, " 403 ") {
		t.Errorf("CONNECT to 127.0.0.2 spelled as a number: %q", s)
	}
	if s := raw("CONNECT 127.0.0.1:" + open.port + " HTTP/1.1\r\nHost: 127.0.0.1:" + open.port + "\r\n\r\n"); !strings.Contains(s, " 200 ") || !strings.HasSuffix(s, "open") {
		t.Errorf("CONNECT tunnel to an allowed address: %q", s)
	}
	for _, req := range []string{
		"GET ftp://127.0.0.1:" + open.port + "/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
		"GET file:///etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n",
		"GET /not-a-proxy-request HTTP/1.1\r\nHost: 127.0.0.1:" + open.port + "\r\n\r\n",
	} {
		if s := raw(req); !strings.Contains(s, " 400 ") {
			t.Errorf("%q: got %q, want 400", strings.SplitN(req, "\r\n", 2)[0], s)
		}
	}
	if n := secret.ln.n.Load(); n != 0 {
		t.Errorf("the proxy opened %d connections to the forbidden address", n)
	}

	// A name is resolved by the proxy's dialer and judged by the address
	// it leads to: with loopback denied, localhost is refused.
	strict := fetch.New(fetch.Options{AllowPrivate: true, DenyAddr: func(ip netip.Addr) bool { return ip.IsLoopback() }})
	sp, err := startProxy(strict.DialContext, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer sp.close()
	spURL, _ := url.Parse("http://" + sp.addr())
	resp, err := (&http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(spURL)}}).Get("http://localhost:" + open.port + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden || resp.Header.Get(refusedHeader) != fetch.CodeForbiddenAddress {
		t.Errorf("localhost through a loopback-denying proxy: %d", resp.StatusCode)
	}
}
