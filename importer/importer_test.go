package importer

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"larder/importer/browser"
	"larder/importer/extract"
	"larder/importer/fetch"
)

// Test servers listen on 127.0.0.1, which the fetch client may reach
// (AllowPrivate); 127.0.0.2 stands for an address the rules refuse.
var forbiddenIP = netip.MustParseAddr("127.0.0.2")

var renderer *browser.Renderer // nil when Chromium is absent outside CI

func testFetch() *fetch.Client {
	return fetch.New(fetch.Options{
		AllowPrivate: true,
		DenyAddr:     func(ip netip.Addr) bool { return ip == forbiddenIP },
		Timeout:      20 * time.Second,
	})
}

func TestMain(m *testing.M) {
	os.Exit(func() int {
		if _, err := os.Stat(browser.DefaultExecPath); err != nil {
			if os.Getenv("CI") == "true" {
				fmt.Fprintf(os.Stderr, "CI=true but %s is missing: %v\n", browser.DefaultExecPath, err)
				return 1
			}
			return m.Run()
		}
		r, err := browser.New(browser.Options{Fetch: testFetch(), MaxTabs: 2, Timeout: time.Minute})
		if err != nil {
			fmt.Fprintf(os.Stderr, "start renderer: %v\n", err)
			return 1
		}
		defer r.Close()
		renderer = r
		return m.Run()
	}())
}

func withBrowser(t *testing.T) *Importer {
	t.Helper()
	if renderer == nil {
		t.Skipf("%s is not installed (and CI is not true)", browser.DefaultExecPath)
	}
	return &Importer{Fetch: testFetch(), Browser: renderer}
}

func serve(t *testing.T, ip string, h http.Handler) *httptest.Server {
	t.Helper()
	ln, err := net.Listen("tcp", ip+":0")
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewUnstartedServer(h)
	ts.Listener.Close()
	ts.Listener = ln
	ts.Start()
	t.Cleanup(ts.Close)
	return ts
}

const recipeLD = `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Recipe",
"name":"Lemon drizzle cake","image":"/img/cake.jpg","recipeYield":"8 slices",
"recipeIngredient":["225 g butter","225 g caster sugar","4 eggs","1 lemon"],
"recipeInstructions":[{"@type":"HowToStep","text":"Cream the butter and sugar."},{"@type":"HowToStep","text":"Bake for 45 minutes."}]}</script>`

func recipePage(title string) string {
	return "<!DOCTYPE html><html><head><title>" + title + "</title>" + recipeLD + "</head><body><h1>Lemon drizzle cake</h1></body></html>"
}

func checkCake(t *testing.T, r extract.Recipe) {
	t.Helper()
	if r.Title != "Lemon drizzle cake" {
		t.Errorf("title %q", r.Title)
	}
	var ings []string
	for _, s := range r.IngredientSections {
		ings = append(ings, s.Items...)
	}
	if len(ings) != 4 || ings[0] != "225 g butter" {
		t.Errorf("ingredients %q", ings)
	}
}

func wantCode(t *testing.T, err error, code, message string) {
	t.Helper()
	got, msg, ok := Describe(err)
	if !ok || got != code {
		t.Fatalf("error %v: code %q (ok %v), want %q", err, got, ok, code)
	}
	if message != "" && msg != message {
		t.Fatalf("message %q, want %q", msg, message)
	}
}

func TestImportPlainPage(t *testing.T) {
	t.Parallel()
	var hits atomic.Int64
	ts := serve(t, "127.0.0.1", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, recipePage("Cake"))
	}))
	im := &Importer{Fetch: testFetch(), Browser: renderer}
	r, err := im.Import(context.Background(), ts.URL+"/cake")
	if err != nil {
		t.Fatal(err)
	}
	checkCake(t, r)
	if r.ImageURL != ts.URL+"/img/cake.jpg" {
		t.Errorf("image %q", r.ImageURL)
	}
	if hits.Load() != 1 {
		t.Errorf("page fetched %d times; a plain page needs no browser", hits.Load())
	}
}

// challengeServer answers like a bot filter: without the clearance cookie a
// client gets an interstitial (with status) whose script sets the cookie and
// reloads; Go's client runs no script, Chrome does.
func challengeServer(t *testing.T, status int, body string) *httptest.Server {
	return serve(t, "127.0.0.1", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if c, err := r.Cookie("clearance"); err == nil && c.Value == "ok" {
			io.WriteString(w, body)
			return
		}
		w.WriteHeader(status)
		io.WriteString(w, `<!DOCTYPE html><html><head><title>Just a moment...</title></head><body>
<div id="challenge-running">Checking your browser before accessing the site.</div>
<script>setTimeout(() => { document.cookie = "clearance=ok; path=/"; location.reload(); }, 200);</script>
</body></html>`)
	}))
}

func TestImportRescuedByChromium(t *testing.T) {
	t.Parallel()
	for _, status := range []int{403, 503, 200} {
		t.Run(fmt.Sprint(status), func(t *testing.T) {
			t.Parallel()
			ts := challengeServer(t, status, recipePage("Cake"))

			// Without a browser the refusal is the answer.
			_, err := (&Importer{Fetch: testFetch()}).Import(context.Background(), ts.URL+"/cake")
			want := fmt.Sprintf("the site refused us (%d)", status)
			if status == 200 {
				want = "the site showed a bot check instead of the page"
			}
			wantCode(t, err, fetch.CodeBlocked, want)

			r, err := withBrowser(t).Import(context.Background(), ts.URL+"/cake")
			if err != nil {
				t.Fatal(err)
			}
			checkCake(t, r)
		})
	}
}

const jsShell = `<!DOCTYPE html><html><head><title>Recipes</title></head><body><div id="root"></div>
<script>
fetch('/api/recipe.json').then(r => r.json()).then(d => {
  const s = document.createElement('script');
  s.type = 'application/ld+json';
  s.textContent = JSON.stringify(d);
  document.head.appendChild(s);
  document.getElementById('root').innerHTML = '<h1>' + d.name + '</h1>';
});
</script></body></html>`

func TestImportJavaScriptRecipe(t *testing.T) {
	t.Parallel()
	mux := http.NewServeMux()
	mux.HandleFunc("/recipe/cake", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, jsShell)
	})
	mux.HandleFunc("/api/recipe.json", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, strings.TrimSuffix(strings.TrimPrefix(recipeLD, `<script type="application/ld+json">`), `</script>`))
	})
	ts := serve(t, "127.0.0.1", mux)

	_, err := (&Importer{Fetch: testFetch()}).Import(context.Background(), ts.URL+"/recipe/cake")
	wantCode(t, err, CodeNoRecipe, "this page has no recipe we can read")

	r, err := withBrowser(t).Import(context.Background(), ts.URL+"/recipe/cake")
	if err != nil {
		t.Fatal(err)
	}
	checkCake(t, r)
}

func TestImportPageWithoutRecipe(t *testing.T) {
	t.Parallel()
	ts := serve(t, "127.0.0.1", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, "<html><head><title>About us</title></head><body><h1>About us</h1><p>"+
			strings.Repeat("We are a small company that likes to write about many things. ", 20)+"</p></body></html>")
	}))
	_, err := withBrowser(t).Import(context.Background(), ts.URL+"/about")
	wantCode(t, err, CodeNoRecipe, "this page has no recipe we can read")
}

func TestImportBrowserObeysAddressRules(t *testing.T) {
	t.Parallel()
	var secretHits atomic.Int64
	secret := serve(t, "127.0.0.2", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		secretHits.Add(1)
		io.WriteString(w, recipePage("secret"))
	}))
	// A refusal for Go, and for Chrome a script that sends it to a
	// forbidden address.
	ts := serve(t, "127.0.0.1", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusForbidden)
		fmt.Fprintf(w, `<html><title>Just a moment...</title><script>location.href = %q;</script></html>`, secret.URL+"/")
	}))
	_, err := withBrowser(t).Import(context.Background(), ts.URL+"/cake")
	wantCode(t, err, fetch.CodeForbiddenAddress, "")
	if secretHits.Load() != 0 {
		t.Fatalf("the forbidden server was reached")
	}
}

func TestImportErrors(t *testing.T) {
	t.Parallel()
	mux := http.NewServeMux()
	mux.HandleFunc("/missing", http.NotFound)
	mux.HandleFunc("/image", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		w.Write([]byte("\x89PNG\r\n\x1a\n"))
	})
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	})
	ts := serve(t, "127.0.0.1", mux)
	im := &Importer{Fetch: testFetch()}
	strict := &Importer{Fetch: fetch.New(fetch.Options{})} // production rules
	slow := &Importer{Fetch: fetch.New(fetch.Options{AllowPrivate: true, Timeout: 200 * time.Millisecond})}
	tests := []struct {
		name    string
		im      *Importer
		url     string
		code    string
		message string
	}{
		{"loopback refused", strict, ts.URL + "/cake", fetch.CodeForbiddenAddress, ""},
		{"odd spelling refused", strict, "http://0x7f.1/", fetch.CodeForbiddenAddress, ""},
		{"not http", im, "ftp://example.com/cake", fetch.CodeInvalidURL, ""},
		{"not a url", im, "cake", fetch.CodeInvalidURL, ""},
		{"not found", im, ts.URL + "/missing", fetch.CodeHTTPStatus, "the site answered 404 (Not Found)"},
		{"not html", im, ts.URL + "/image", fetch.CodeNotHTML, ""},
		{"timeout", slow, ts.URL + "/slow", fetch.CodeTimeout, "timed out"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := tt.im.Import(context.Background(), tt.url)
			wantCode(t, err, tt.code, tt.message)
		})
	}
}

func TestFromHTML(t *testing.T) {
	t.Parallel()
	var hits atomic.Int64
	ts := serve(t, "127.0.0.1", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	im := &Importer{Fetch: fetch.New(fetch.Options{MaxBytes: 4096})}

	r, err := im.FromHTML(ts.URL+"/recipes/cake", []byte(recipePage("Cake")))
	if err != nil {
		t.Fatal(err)
	}
	checkCake(t, r)
	if r.ImageURL != ts.URL+"/img/cake.jpg" {
		t.Errorf("image %q, want it resolved against the page address", r.ImageURL)
	}
	// A page from a site that blocks servers, or on the user's own
	// network: pasting never fetches, so the address rules do not apply.
	if _, err := im.FromHTML("http://192.168.1.10/cake", []byte(recipePage("Cake"))); err != nil {
		t.Errorf("private address in a pasted page: %v", err)
	}

	tests := []struct {
		name, url, html, code string
	}{
		{"no recipe", ts.URL + "/", "<html><body><p>Hello</p></body></html>", CodeNoRecipe},
		{"empty", ts.URL + "/", "  ", CodeNoRecipe},
		{"bad url", "javascript:alert(1)", recipePage("Cake"), fetch.CodeInvalidURL},
		{"no url", "", recipePage("Cake"), fetch.CodeInvalidURL},
		{"too large", ts.URL + "/", recipePage("Cake") + strings.Repeat(" ", 5000), fetch.CodeTooLarge},
	}
	for _, tt := range tests {
		_, err := im.FromHTML(tt.url, []byte(tt.html))
		wantCode(t, err, tt.code, "")
	}
	if hits.Load() != 0 {
		t.Errorf("FromHTML made %d requests", hits.Load())
	}
}

func TestDescribe(t *testing.T) {
	t.Parallel()
	tests := []struct {
		err           error
		code, message string
		ok            bool
	}{
		{noRecipe(nil), CodeNoRecipe, "this page has no recipe we can read", true},
		{fmt.Errorf("job: %w", &fetch.Error{Code: fetch.CodeBlocked, Message: "the site refused us (403)"}),
			fetch.CodeBlocked, "the site refused us (403)", true},
		{context.Canceled, "", "", false},
		{errors.New("boom"), "", "", false},
	}
	for _, tt := range tests {
		code, msg, ok := Describe(tt.err)
		if code != tt.code || msg != tt.message || ok != tt.ok {
			t.Errorf("Describe(%v) = %q, %q, %v", tt.err, code, msg, ok)
		}
	}
}

func TestIsChallenge(t *testing.T) {
	t.Parallel()
	tests := []struct {
		html string
		want bool
	}{
		{`<html><head><title>Just a moment...</title></head><body>…</body></html>`, true},
		{`<html><head><title>Attention Required! | Cloudflare</title></head></html>`, true},
		{`<html><script>window._cf_chl_opt={cvId:'3'}</script></html>`, true},
		{`<html><div id="px-captcha"></div></html>`, true},
		{`<html><script src="https://ct.captcha-delivery.com/c.js"></script></html>`, true},
		{`<html><title>Pardon Our Interruption</title></html>`, true},
		{`<html><title>Lemon cake</title><p>Just a moment... while the oven heats</p></html>`, false},
		{`<html><title>Cake</title><script src="/cdn-cgi/challenge-platform/scripts/jsd/main.js"></script>` + recipeLD + `</html>`, false},
		{recipePage("Cake"), false},
	}
	for _, tt := range tests {
		if got := IsChallenge([]byte(tt.html)); got != tt.want {
			t.Errorf("IsChallenge(%.60q) = %v, want %v", tt.html, got, tt.want)
		}
	}
}

func TestNeedsJavaScript(t *testing.T) {
	t.Parallel()
	long := "<p>" + strings.Repeat("Plenty of words about cooking and more. ", 30) + "</p>"
	tests := []struct {
		html string
		want bool
	}{
		{jsShell, true},
		{`<html><body><noscript>You need to enable JavaScript to run this app.</noscript>` + long + `</body></html>`, true},
		{`<html><body><div id="__next"></div>` + long + `</body></html>`, true},
		{`<html><body><h1>Cake</h1><p>short</p></body></html>`, true},
		{`<html><body><h1>Cake</h1>` + long + `</body></html>`, false},
		{`<html><body><h1>Cake</h1>` + long + `<script>s.type = "application/ld+json"; s.text = JSON.stringify({"@type": "Recipe"})</script></body></html>`, true},
		{recipePage("Cake"), false},
		{`<div itemscope itemtype="https://schema.org/Recipe"></div>`, false},
	}
	for _, tt := range tests {
		if got := needsJavaScript([]byte(tt.html)); got != tt.want {
			t.Errorf("needsJavaScript(%.60q) = %v, want %v", tt.html, got, tt.want)
		}
	}
}

// A small page without structured data is read heuristically, and rendered
// too in case scripts add the real data: the rendered reading wins when it
// has one, else the plain reading stands.
func TestImportShellWithHeuristicReading(t *testing.T) {
	t.Parallel()
	im := withBrowser(t)
	const shell = `<!DOCTYPE html><html><head><title>Cake</title></head><body><div id="app">
<h1>Quick cake</h1><h2>Ingredients</h2><ul><li>2 eggs</li><li>100 g flour</li></ul>
<h2>Method</h2><ol><li>Mix everything.</li><li>Bake for 20 minutes.</li></ol></div>%s</body></html>`
	addLD := `<script>const s = document.createElement('script'); s.type = 'application/ld+json';
s.textContent = JSON.stringify({"@type": "Recipe", name: "Lemon drizzle cake",
  recipeIngredient: ["225 g butter", "225 g caster sugar", "4 eggs", "1 lemon"], recipeInstructions: "Bake."});
document.head.appendChild(s);</script>`
	for _, tt := range []struct {
		name, script, title string
	}{
		{"scripts add data", addLD, "Lemon drizzle cake"},
		{"scripts add nothing", "", "Quick cake"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var hits atomic.Int64
			ts := serve(t, "127.0.0.1", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path != "/cake" {
					http.NotFound(w, r)
					return
				}
				hits.Add(1)
				w.Header().Set("Content-Type", "text/html")
				fmt.Fprintf(w, shell, tt.script)
			}))
			plain, err := (&Importer{Fetch: testFetch()}).Import(context.Background(), ts.URL+"/cake")
			if err != nil || plain.Title != "Quick cake" {
				t.Fatalf("plain reading: %q, %v", plain.Title, err)
			}
			r, err := im.Import(context.Background(), ts.URL+"/cake")
			if err != nil {
				t.Fatal(err)
			}
			if r.Title != tt.title {
				t.Errorf("title %q, want %q", r.Title, tt.title)
			}
			if hits.Load() != 3 {
				t.Errorf("page loaded %d times, want 3 (plain, plain, Chrome)", hits.Load())
			}
		})
	}
}
