// Package browser renders pages in headless Chromium for the importer, for
// sites that refuse plain HTTP clients or build their recipe with
// JavaScript. Every request Chrome makes goes through an in-process proxy
// whose connections are made by the fetch package's checked dialer, so the
// page's scripts obey the same address rules as the plain fetcher.
package browser

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"larder/importer/fetch"
)

// DefaultExecPath is where Debian's chromium package installs the browser.
const DefaultExecPath = "/usr/bin/chromium"

// Defaults for the zero Options.
const (
	DefaultTimeout = 30 * time.Second
	DefaultSettle  = 300 * time.Millisecond
)

var (
	// ErrNotInstalled is returned by New when there is no browser at the
	// configured path.
	ErrNotInstalled = errors.New("chromium is not installed")
	// ErrClosed is returned by Render after Close.
	ErrClosed = errors.New("the browser renderer is closed")
)

// Options configure a Renderer.
type Options struct {
	// Fetch supplies the address rules (its dialer serves Chrome's proxy),
	// the User-Agent and the size limit. Required.
	Fetch *fetch.Client
	// ExecPath is the browser binary; default DefaultExecPath.
	ExecPath string
	// MaxTabs bounds concurrent renders (pass the import queue's
	// concurrency); default 1.
	MaxTabs int
	// Timeout bounds one render; default DefaultTimeout. A shorter context
	// deadline wins.
	Timeout time.Duration
	// Settle is how long to wait after the page looks ready, for late
	// scripts; default DefaultSettle.
	Settle time.Duration
	// NoSandbox turns Chromium's own sandbox off (CHROMIUM_SANDBOX=false).
	// It is always off as root, where it cannot start.
	NoSandbox bool

	// user, if set, is the user Chromium runs as; tests use it to start
	// Chromium as a non-root user, as it runs in the container image.
	user *syscall.Credential
}

// Renderer renders pages in one shared Chromium process, one tab (in its own
// browser context, so no cookies are shared) per render. It is safe for
// concurrent use; Close it when done.
type Renderer struct {
	opts  Options
	proxy *proxy
	sem   chan struct{}

	mu     sync.Mutex
	closed bool
	cur    *instance
}

// instance is one running browser process.
type instance struct {
	ctx         context.Context // the chromedp browser context
	cancel      context.CancelFunc
	allocCancel context.CancelFunc
	dir         string
}

// New starts the proxy and the browser. It returns an error wrapping
// ErrNotInstalled when the browser binary is missing.
func New(opts Options) (*Renderer, error) {
	if opts.Fetch == nil {
		return nil, errors.New("browser: Options.Fetch is required")
	}
	if opts.ExecPath == "" {
		opts.ExecPath = DefaultExecPath
	}
	if opts.MaxTabs <= 0 {
		opts.MaxTabs = 1
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.Settle <= 0 {
		opts.Settle = DefaultSettle
	}
	if _, err := exec.LookPath(opts.ExecPath); err != nil {
		return nil, fmt.Errorf("browser: %w: no executable at %s (install Debian's chromium package or set the path): %v",
			ErrNotInstalled, opts.ExecPath, err)
	}
	p, err := startProxy(opts.Fetch.DialContext, opts.Fetch.Timeout())
	if err != nil {
		return nil, fmt.Errorf("browser: start proxy: %w", err)
	}
	r := &Renderer{opts: opts, proxy: p, sem: make(chan struct{}, opts.MaxTabs)}
	r.cur, err = r.start()
	if err != nil {
		p.close()
		return nil, err
	}
	return r, nil
}

func (r *Renderer) allocatorOptions(dir string) []chromedp.ExecAllocatorOption {
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(r.opts.ExecPath),
		chromedp.UserDataDir(dir),
		// Every request, loopback included (that is what <-loopback
		// means: Chrome otherwise never proxies localhost), goes to our
		// proxy, which dials with the checked dialer.
		chromedp.ProxyServer("http://"+r.proxy.addr()),
		chromedp.Flag("proxy-bypass-list", "<-loopback>"),
		// Belt and braces: should anything skip the proxy, no name
		// resolves; QUIC and non-proxied WebRTC UDP are off.
		chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("force-webrtc-ip-handling-policy", "disable_non_proxied_udp"),
		chromedp.Flag("webrtc-ip-handling-policy", "disable_non_proxied_udp"),
		// The sandbox cannot start as root, nor as a user in a container
		// whose seccomp profile refuses user namespaces (Docker's
		// default): the operator turns it off there (see NoSandbox).
		chromedp.Flag("no-sandbox", r.opts.NoSandbox || r.asRoot()),
		chromedp.Flag("headless", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-domain-reliability", true),
		chromedp.Flag("no-pings", true),
		// Images are not needed to read a recipe; their URLs stay in
		// the DOM. This saves time and outbound requests.
		chromedp.Flag("blink-settings", "imagesEnabled=false"),
		// Headless Chrome says "HeadlessChrome" in its User-Agent, which
		// bot filters look for.
		chromedp.UserAgent(r.opts.Fetch.UserAgent()),
	)
	if u := r.opts.user; u != nil {
		opts = append(opts, chromedp.ModifyCmdFunc(func(cmd *exec.Cmd) {
			// What chromedp does when nothing modifies the command, and the user.
			cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL, Credential: u}
			cmd.Env = append(os.Environ(), "HOME="+dir)
		}))
	}
	return opts
}

// asRoot reports whether Chromium runs as root.
func (r *Renderer) asRoot() bool {
	if r.opts.user != nil {
		return r.opts.user.Uid == 0
	}
	return os.Getuid() == 0
}

// start launches a browser process with a fresh profile directory.
func (r *Renderer) start() (*instance, error) {
	dir, err := os.MkdirTemp("", "larder-chromium-")
	if err != nil {
		return nil, fmt.Errorf("browser: profile directory: %w", err)
	}
	if u := r.opts.user; u != nil {
		if err := os.Chown(dir, int(u.Uid), int(u.Gid)); err != nil {
			os.RemoveAll(dir)
			return nil, fmt.Errorf("browser: profile directory: %w", err)
		}
	}
	allocCtx, allocCancel := chromedp.NewExecAllocator(context.Background(), r.allocatorOptions(dir)...)
	ctx, cancel := chromedp.NewContext(allocCtx)
	// The first Run starts the process; its context must not carry a
	// deadline (that would end the browser), so bound it with a timer.
	timer := time.AfterFunc(30*time.Second, cancel)
	err = chromedp.Do(ctx)
	if !timer.Stop() && err == nil {
		err = errors.New("timed out")
	}
	if err != nil {
		cancel()
		allocCancel()
		os.RemoveAll(dir)
		return nil, fmt.Errorf("browser: start %s: %w", r.opts.ExecPath, err)
	}
	return &instance{ctx: ctx, cancel: cancel, allocCancel: allocCancel, dir: dir}, nil
}

func (b *instance) alive() bool {
	if b.ctx.Err() != nil {
		return false
	}
	c := chromedp.FromContext(b.ctx)
	if c == nil || c.Browser == nil || c.Browser.Process() == nil {
		return false
	}
	return c.Browser.Process().Signal(syscall.Signal(0)) == nil
}

// stop closes the browser, gracefully (bounded) when it still runs, and
// removes its profile.
func (b *instance) stop(graceful bool) {
	if graceful {
		ctx, cancel := context.WithTimeout(b.ctx, 5*time.Second)
		chromedp.Cancel(ctx)
		cancel()
	}
	b.cancel()
	b.allocCancel()
	os.RemoveAll(b.dir)
}

// browser returns the running browser, starting a new one if the last one
// died (a crash or the OOM killer must not break imports until a restart).
func (r *Renderer) browser() (context.Context, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return nil, ErrClosed
	}
	if r.cur != nil && r.cur.alive() {
		return r.cur.ctx, nil
	}
	if r.cur != nil {
		r.cur.stop(false)
		r.cur = nil
	}
	b, err := r.start()
	if err != nil {
		return nil, err
	}
	r.cur = b
	return b.ctx, nil
}

// Close stops the browser and the proxy and removes the profile directory.
func (r *Renderer) Close() error {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return nil
	}
	r.closed = true
	cur := r.cur
	r.cur = nil
	r.mu.Unlock()
	if cur != nil {
		cur.stop(cur.alive())
	}
	r.proxy.close()
	return nil
}

// Render loads rawURL in a new tab, waits until the page has a recipe in
// structured data, or has loaded and gone quiet on the network, or the time
// is up, and returns the rendered DOM. Errors are *fetch.Error where a
// person can act on them (forbidden_address, timeout, unreachable).
func (r *Renderer) Render(ctx context.Context, rawURL string) (*fetch.Page, error) {
	// A clear early refusal; the proxy enforces the rules on every
	// request anyway, redirects and scripts included.
	if err := r.opts.Fetch.CheckHost(ctx, rawURL); err != nil {
		return nil, err
	}
	select {
	case r.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, ctxError(ctx)
	}
	defer func() { <-r.sem }()

	bctx, err := r.browser()
	if err != nil {
		return nil, err
	}
	return r.render(ctx, bctx, rawURL)
}

func ctxError(ctx context.Context) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return &fetch.Error{Code: fetch.CodeTimeout, Message: "timed out", Err: ctx.Err()}
	}
	return ctx.Err()
}

// probe is what the wait loop reads from the page.
type probe struct {
	Ready     string `json:"ready"`
	Recipe    bool   `json:"recipe"`
	Challenge bool   `json:"challenge"`
}

// probeJS looks for schema.org Recipe data (JSON-LD or microdata) and for the
// interstitials of common bot protections, which reload into the real page.
const probeJS = `(() => {
  const ld = [...document.querySelectorAll('script[type*="ld+json" i]')].some(s => /recipe/i.test(s.textContent));
  const md = !!document.querySelector('[itemtype*="schema.org/Recipe" i], [typeof*="Recipe"]');
  const t = (document.title || '').toLowerCase();
  const challenge = /just a moment|attention required|checking your browser|verify you are human|are you a robot|pardon our interruption|ddos-guard/.test(t) ||
    !!document.querySelector('#challenge-form, #challenge-running, #cf-challenge-running, .cf-browser-verification, #px-captcha, script[src*="captcha-delivery.com"]');
  return {ready: document.readyState, recipe: ld || md, challenge};
})()`

// snapshot is the rendered document.
type snapshot struct {
	URL  string `json:"url"`
	HTML string `json:"html"`
}

const snapshotJS = `(() => ({
  url: location.href,
  html: document.documentElement ?
    (document.doctype ? new XMLSerializer().serializeToString(document.doctype) + "\n" : "") + document.documentElement.outerHTML : "",
}))()`

func (r *Renderer) render(ctx, bctx context.Context, rawURL string) (*fetch.Page, error) {
	// A tab in its own browser context: cookies and storage of one
	// import never reach another.
	tabCtx, cancelTab := chromedp.NewContext(bctx, chromedp.WithNewBrowserContext())
	defer cancelTab()
	stop := context.AfterFunc(ctx, cancelTab)
	defer stop()

	deadline := time.Now().Add(r.opts.Timeout)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	// A hung browser must not hold the tab (and a semaphore slot) for
	// ever: close it a little after the deadline, whatever happens.
	watchdog := time.AfterFunc(time.Until(deadline)+10*time.Second, cancelTab)
	defer watchdog.Stop()
	// Open the tab with a context that has no deadline: the tab's event
	// loop lives as long as the context of its first action, and the DOM
	// is still read after a wait that ran out of time.
	if err := chromedp.Do(tabCtx); err != nil {
		return nil, r.chromeError(ctx, err)
	}
	// A link to a file must not fill the disk: no downloads.
	if _, err := chromedp.CallBrowser(tabCtx, cdpbrowser.SetDownloadBehavior, cdpbrowser.SetDownloadBehaviorParams{
		Behavior: "deny", BrowserContextID: chromedp.FromContext(tabCtx).BrowserContextID,
	}); err != nil {
		return nil, r.chromeError(ctx, err)
	}
	st := &pageState{mainFrame: cdp.FrameID(chromedp.FromContext(tabCtx).Target.TargetID)}
	if err := chromedp.Listen(tabCtx, st.onEvent); err != nil {
		return nil, r.chromeError(ctx, err)
	}

	waitCtx, cancelWait := context.WithDeadline(tabCtx, deadline)
	defer cancelWait()
	nav, err := chromedp.Run(waitCtx, func(ctx context.Context, t *chromedp.Target) (page.NavigateResult, error) {
		return cdp.Call(ctx, t, page.Navigate, page.NavigateParams{URL: rawURL})
	})
	if err != nil {
		if waitCtx.Err() != nil && ctx.Err() == nil {
			return nil, &fetch.Error{Code: fetch.CodeTimeout, Message: "timed out", Err: err}
		}
		return nil, r.chromeError(ctx, err)
	}
	// ERR_ABORTED means the page's own script or a refresh started
	// another navigation before this one committed: follow that one.
	if nav.ErrorText != "" && !strings.Contains(nav.ErrorText, "ERR_ABORTED") {
		// docURL is where redirects led; the failure is about that one.
		if u := st.get().docURL; u != "" {
			return nil, r.navError(u, nav.ErrorText)
		}
		return nil, r.navError(rawURL, nav.ErrorText)
	}
	r.wait(waitCtx, st)
	if ctx.Err() != nil {
		return nil, ctxError(ctx)
	}

	if s := st.get(); s.refused != "" {
		return nil, r.refusal(s.docURL, s.refused)
	} else if s.docErr != "" {
		return nil, r.navError(s.docURL, s.docErr)
	}
	snap, err := snapshotPage(tabCtx)
	if err != nil {
		return nil, r.chromeError(ctx, err)
	}

	s := st.get()
	if s.refused != "" {
		return nil, r.refusal(s.docURL, s.refused)
	}
	if s.docErr != "" {
		return nil, r.navError(s.docURL, s.docErr)
	}
	if u, err := url.Parse(snap.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return nil, &fetch.Error{Code: fetch.CodeUnreachable, Message: "the browser could not load the page"}
	}
	if max := r.opts.Fetch.MaxBytes(); int64(len(snap.HTML)) > max {
		return nil, &fetch.Error{Code: fetch.CodeTooLarge, Message: "the rendered page is too large"}
	}
	return &fetch.Page{URL: snap.URL, StatusCode: s.status, HTML: []byte(snap.HTML), ContentType: "text/html; charset=utf-8"}, nil
}

// snapshotPage reads the rendered document. A navigation can be replacing
// the document right now, and an evaluation against a document that goes
// away may never answer, so each try gets its own short deadline.
func snapshotPage(tabCtx context.Context) (snapshot, error) {
	giveUp := time.Now().Add(10 * time.Second)
	for {
		tryCtx, cancel := context.WithTimeout(tabCtx, 2*time.Second)
		snap, err := chromedp.Run(tryCtx, chromedp.Evaluate[snapshot](snapshotJS))
		cancel()
		if err == nil && snap.HTML != "" {
			return snap, nil
		}
		if tabCtx.Err() != nil || time.Now().After(giveUp) {
			if err == nil {
				err = errors.New("the page has no document")
			}
			return snapshot{}, err
		}
		sleep(tabCtx, 100*time.Millisecond)
	}
}

// wait returns when the page holds recipe data, or has loaded and gone quiet
// (and is not a bot-check interstitial), or ctx ends.
func (r *Renderer) wait(ctx context.Context, st *pageState) {
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		// Errors are expected while a navigation replaces the document;
		// the next tick tries again.
		if s := st.get(); s.refused != "" || s.docErr != "" {
			return // the proxy refused the page, or it failed to load
		}
		// An evaluation against a document that a navigation replaces
		// may never answer: bound each one.
		probeCtx, cancel := context.WithTimeout(ctx, 2*time.Second)
		p, err := chromedp.Run(probeCtx, chromedp.Evaluate[probe](probeJS))
		cancel()
		if err == nil {
			if (p.Recipe && p.Ready != "loading") || (p.Ready == "complete" && !p.Challenge && st.quiet()) {
				sleep(ctx, r.opts.Settle)
				return
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

// chromeError wraps a DevTools failure; a caller's cancellation or deadline
// takes precedence.
func (r *Renderer) chromeError(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctxError(ctx)
	}
	return fmt.Errorf("browser: %w", err)
}

// refusal reports a request the proxy refused, with the dialer's own reason
// when it is known.
func (r *Renderer) refusal(docURL, code string) error {
	if hp := hostPort(docURL); hp != "" {
		if fe := fetch.AsError(r.proxy.lastError(hp)); fe != nil {
			return fe
		}
	}
	if code == fetch.CodeForbiddenAddress {
		return &fetch.Error{Code: code, Message: "the page leads to an address imports may not reach"}
	}
	return &fetch.Error{Code: code, Message: "the browser could not load the page"}
}

// navError explains a failed navigation (Chrome's net::ERR_* text).
func (r *Renderer) navError(docURL, text string) error {
	if hp := hostPort(docURL); hp != "" {
		if fe := fetch.AsError(r.proxy.lastError(hp)); fe != nil {
			return fe
		}
	}
	switch {
	case strings.Contains(text, "TIMED_OUT"):
		return &fetch.Error{Code: fetch.CodeTimeout, Message: "timed out"}
	case strings.Contains(text, "NAME_NOT_RESOLVED"):
		return &fetch.Error{Code: fetch.CodeUnreachable, Message: "could not find the site"}
	}
	return &fetch.Error{Code: fetch.CodeUnreachable, Message: fmt.Sprintf("the browser could not load the page (%s)", text)}
}

func hostPort(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return ""
	}
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	return net.JoinHostPort(u.Hostname(), port)
}

// pageState follows the main frame's document through events. onEvent runs
// on the tab's event loop, so it only records.
type pageState struct {
	mainFrame cdp.FrameID

	mu     sync.Mutex
	docReq network.RequestID
	s      docState
}

type docState struct {
	docURL  string
	status  int
	refused string // the proxy's refusal code on the main document
	docErr  string
	loaded  bool
	loadAt  time.Time
	idle    bool
}

func (p *pageState) get() docState {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.s
}

// quiet: the load event fired and Chrome saw no network activity for 500 ms
// (its networkIdle), or 3 s passed since load on a page that polls forever.
func (p *pageState) quiet() bool {
	s := p.get()
	return s.loaded && (s.idle || time.Since(s.loadAt) > 3*time.Second)
}

func (p *pageState) onEvent(ev any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch ev := ev.(type) {
	case *network.EventRequestWillBeSent:
		if ev.Type == network.ResourceTypeDocument && ev.FrameID == p.mainFrame && ev.Request != nil {
			p.docReq = ev.RequestID
			p.s.docURL = ev.Request.URL
			p.s.docErr, p.s.refused = "", ""
		}
	case *network.EventResponseReceived:
		if ev.RequestID == p.docReq && ev.Response != nil {
			p.s.docURL = ev.Response.URL
			p.s.status = int(ev.Response.Status)
			p.s.refused = ""
			for k, v := range ev.Response.Headers {
				if strings.EqualFold(k, refusedHeader) {
					p.s.refused, _ = v.(string)
				}
			}
		}
	case *network.EventLoadingFailed:
		// ERR_ABORTED is a navigation replaced by a newer one (or a
		// refused download), not a failure of the page.
		if ev.RequestID == p.docReq && !ev.Canceled && !strings.Contains(ev.ErrorText, "ERR_ABORTED") {
			p.s.docErr = ev.ErrorText
		}
	case *page.EventLifecycleEvent:
		if ev.FrameID != p.mainFrame {
			return
		}
		switch ev.Name {
		case "init":
			p.s.loaded, p.s.idle = false, false
		case "load":
			p.s.loaded, p.s.loadAt = true, time.Now()
		case "networkIdle":
			p.s.idle = true
		}
	}
}
