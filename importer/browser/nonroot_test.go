package browser

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Chromium starts and renders as a non-root user, as it runs in the
// container image: with its sandbox where the system allows it, and with
// CHROMIUM_SANDBOX=false (NoSandbox) where it does not (Docker's default
// seccomp profile). Run as root, the test starts Chromium as nobody.
func TestRendersAsNonRootUser(t *testing.T) {
	if shared == nil {
		t.Skip("Chromium is not installed")
	}
	var user *syscall.Credential
	if os.Getuid() == 0 {
		user = &syscall.Credential{Uid: 65534, Gid: 65534}
	}
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!doctype html><html><body><h1 id="t"></h1><script>document.getElementById('t').textContent = 'rendered as ' + 'non-root';</script></body></html>`)
	}))
	defer page.Close()
	for _, noSandbox := range []bool{false, true} {
		t.Run(fmt.Sprintf("NoSandbox=%v", noSandbox), func(t *testing.T) {
			r, err := New(Options{Fetch: testFetch(), Timeout: time.Minute, NoSandbox: noSandbox, user: user})
			if err != nil {
				if !noSandbox && strings.Contains(err.Error(), "sandbox") {
					t.Skipf("this system refuses Chromium's sandbox to non-root users (the image sets CHROMIUM_SANDBOX=false): %v", err)
				}
				t.Fatalf("start Chromium as a non-root user: %v", err)
			}
			defer r.Close()
			// The browser process runs as the non-root user.
			proc := chromedp.FromContext(r.cur.ctx).Browser.Process()
			status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", proc.Pid))
			if err != nil {
				t.Fatal(err)
			}
			for _, line := range strings.Split(string(status), "\n") {
				if uid, ok := strings.CutPrefix(line, "Uid:"); ok && strings.Fields(uid)[0] == "0" {
					t.Fatalf("Chromium runs as root: %s", line)
				}
			}
			res, err := r.Render(context.Background(), page.URL)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(res.HTML), "rendered as non-root") {
				t.Fatalf("page: %.300s", res.HTML)
			}
		})
	}
}
