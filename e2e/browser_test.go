package e2e

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// waitTimeout bounds every wait for the page; the slowest step (a restore)
// finishes in a few seconds here.
const waitTimeout = 30 * time.Second

// browser is one headless Chromium tab on the service.
type browser struct {
	t    *testing.T
	ctx  context.Context
	base string
	// shots is where screenshots go (e2e/screenshots, ignored by git).
	shots string

	mu      sync.Mutex
	console []chromedp.ConsoleMessage // every message of the tab so far
}

// newBrowser starts Chromium with a throw-away profile. It closes when the
// test ends.
func newBrowser(t *testing.T, base string) *browser {
	t.Helper()
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromiumPath),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.NoSandbox,
		chromedp.Headless,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.WindowSize(1280, 900),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelTab := chromedp.NewContext(actx)
	t.Cleanup(func() {
		cancelTab()
		cancelAlloc()
	})
	shots, err := filepath.Abs("screenshots")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(shots, 0o755); err != nil {
		t.Fatal(err)
	}
	// Pictures of an earlier failed run would mislead.
	stale, _ := filepath.Glob(filepath.Join(shots, "FAILED-*.png"))
	for _, f := range stale {
		_ = os.Remove(f)
	}
	b := &browser{t: t, ctx: ctx, base: base, shots: shots}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 900)); err != nil {
		t.Fatalf("start %s: %v", chromiumPath, err)
	}
	b.watchConsole()
	return b
}

// watchConsole records every console message of the tab and, when the test
// ends, fails it for each Content-Security-Policy violation: the client
// must work under the policy the service sends, not merely load.
// (Registered after the tab's own cleanup, so it runs first, while the tab
// is still open.)
func (b *browser) watchConsole() {
	messages := chromedp.Console(b.ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for m, err := range messages {
			if err != nil {
				return
			}
			b.mu.Lock()
			b.console = append(b.console, m)
			b.mu.Unlock()
		}
	}()
	t := b.t
	t.Cleanup(func() {
		// Zero violations prove something only if a policy was in force.
		ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
		defer cancel()
		csp, err := chromedp.Run(ctx, chromedp.Evaluate[string](
			`fetch(location.origin + '/').then(r => r.headers.get('content-security-policy') || '')`, chromedp.EvalAwaitPromise))
		if err == nil && !strings.Contains(csp, "script-src 'self'") {
			t.Errorf("the web client is served without a Content-Security-Policy (got %q)", csp)
		}
		for _, m := range b.cspViolations() {
			t.Errorf("Content-Security-Policy violation in the console: %s", m)
		}
	})
}

// cspViolations returns the console messages that report a blocked
// resource or script under the Content-Security-Policy.
func (b *browser) cspViolations() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []string
	for _, m := range b.console {
		if strings.Contains(m.Text, "Content Security Policy") || strings.Contains(m.Text, "Content-Security-Policy") {
			out = append(out, m.String())
		}
	}
	return out
}

// sel is the CSS selector of a data-testid.
func sel(testID string) string { return fmt.Sprintf(`[data-testid=%q]`, testID) }

// js quotes s as a JavaScript string literal.
func js(s string) string {
	raw, _ := json.Marshal(s)
	return string(raw)
}

// fail saves a screenshot of the page as it is and ends the test.
func (b *browser) fail(format string, args ...any) {
	b.t.Helper()
	msg := fmt.Sprintf(format, args...)
	ctx, cancel := context.WithTimeout(b.ctx, 5*time.Second)
	defer cancel()
	loc, _ := chromedp.Run(ctx, chromedp.Location())
	text, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body ? document.body.innerText.slice(0, 800) : ''`))
	name := "FAILED-" + strings.NewReplacer("/", "-", " ", "-").Replace(b.t.Name())
	if png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100)); err == nil {
		_ = os.WriteFile(filepath.Join(b.shots, name+".png"), png, 0o644)
	}
	b.t.Fatalf("%s\n  at %s\n  page text: %q\n  screenshot: %s.png", msg, loc, text, name)
}

// run runs chromedp actions, failing the test with what was being done.
// emulateMedia renders the page for a CSS media type: "print" as it prints,
// "" back to the screen.
func (b *browser) emulateMedia(media string) {
	b.t.Helper()
	b.run("emulate "+cmp.Or(media, "screen")+" media", chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: media})
		return err
	}))
}

func (b *browser) run(what string, actions ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, waitTimeout)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		b.fail("%s: %v", what, err)
	}
}

// open navigates to a path of the service (or a full address).
func (b *browser) open(path string) {
	b.t.Helper()
	if !strings.HasPrefix(path, "http") {
		path = b.base + path
	}
	b.run("open "+path, chromedp.Navigate(path))
}

// eval evaluates a JavaScript expression and decodes its value.
func eval[T any](b *browser, expr string) T {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		b.fail("evaluate %s: %v", expr, err)
	}
	return v
}

// wait polls a JavaScript condition until it is true. Errors while polling
// (the page navigating away mid-call) count as "not yet".
func (b *browser) wait(what, cond string) {
	b.t.Helper()
	b.waitFor(what, cond, waitTimeout)
}

func (b *browser) waitFor(what, cond string, timeout time.Duration) {
	b.t.Helper()
	deadline := time.Now().Add(timeout)
	expr := fmt.Sprintf(`(() => { try { return !!(%s); } catch (e) { return false; } })()`, cond)
	for {
		ctx, cancel := context.WithTimeout(b.ctx, 5*time.Second)
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](expr))
		cancel()
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			b.fail("timed out after %s waiting for %s (%s)", timeout, what, cond)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// waitTestID waits until an element with the data-testid is shown.
func (b *browser) waitTestID(testID string) {
	b.t.Helper()
	b.wait("["+testID+"] to be shown", fmt.Sprintf(`(() => { const e = document.querySelector(%s); return e && e.getClientRects().length > 0; })()`, js(sel(testID))))
}

// waitPath waits until the location's path matches the regular expression.
func (b *browser) waitPath(re string) {
	b.t.Helper()
	b.wait("the address to match "+re, fmt.Sprintf(`new RegExp(%s).test(location.pathname)`, js(re)))
}

// click waits for the element to be shown and enabled, then clicks it
// with the mouse, as a person would.
func (b *browser) click(testID string) {
	b.t.Helper()
	b.clickCSS(sel(testID))
}

func (b *browser) clickCSS(css string) {
	b.t.Helper()
	b.wait(css+" to be enabled", fmt.Sprintf(`(() => { const e = document.querySelector(%s); return e && !e.disabled && e.getClientRects().length > 0; })()`, js(css)))
	b.run("click "+css, chromedp.Click(chromedp.CSS(css), chromedp.NodeVisible))
}

// fill types text into an input, key by key.
func (b *browser) fill(testID, text string) {
	b.t.Helper()
	b.waitTestID(testID)
	b.run("type into "+testID, chromedp.Focus(chromedp.CSS(sel(testID))), chromedp.SendKeys(chromedp.CSS(sel(testID)), text))
	got := eval[string](b, fmt.Sprintf(`document.querySelector(%s).value`, js(sel(testID))))
	if got != text {
		b.fail("[%s] holds %q after typing %q", testID, got, text)
	}
}

// choose picks an option of a <select> by value, firing the change event
// React listens to.
func (b *browser) choose(testID, value string) {
	b.t.Helper()
	b.wait("["+testID+"] to offer "+value, fmt.Sprintf(`[...document.querySelector(%s).options].some(o => o.value === %s)`, js(sel(testID)), js(value)))
	eval[bool](b, fmt.Sprintf(`(() => {
		const s = document.querySelector(%s);
		Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value').set.call(s, %s);
		s.dispatchEvent(new Event('change', { bubbles: true }));
		return true;
	})()`, js(sel(testID)), js(value)))
}

// texts returns the innerText of every element with the data-testid.
func (b *browser) texts(testID string) []string {
	b.t.Helper()
	return eval[[]string](b, fmt.Sprintf(`[...document.querySelectorAll(%s)].map(e => e.innerText.trim())`, js(sel(testID))))
}

// text returns the innerText of the first element with the data-testid.
func (b *browser) text(testID string) string {
	b.t.Helper()
	b.waitTestID(testID)
	return eval[string](b, fmt.Sprintf(`document.querySelector(%s).innerText.trim()`, js(sel(testID))))
}

// screenshot saves the whole page as screenshots/<name>.png.
func (b *browser) screenshot(name string) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 15*time.Second)
	defer cancel()
	// Let lazy chunks and fonts settle so the picture shows the page, not a skeleton.
	_, _ = chromedp.Run(ctx, chromedp.Evaluate[bool](`document.fonts ? document.fonts.ready.then(() => true) : true`, chromedp.EvalAwaitPromise))
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		b.fail("screenshot %s: %v", name, err)
	}
	path := filepath.Join(b.shots, name+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		b.t.Fatal(err)
	}
	b.t.Logf("screenshot %s", path)
}
