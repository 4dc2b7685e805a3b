package handlers

import (
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/helmet"

	"larder/config"
)

// ContentSecurityPolicy is the policy of every response. The web client is
// built by Vite into same-origin script and style files with no inline
// script, so 'self' is enough for both; React's style props are set
// through the CSSOM, which style-src does not govern. Images are our own
// uploads, plus data: and blob: URLs for previews of a file being
// uploaded. The client's service worker and web manifest are same-origin
// files. Nothing may frame the app (clickjacking), and forms and <base>
// cannot point elsewhere.
const ContentSecurityPolicy = "default-src 'self'; " +
	"script-src 'self'; " +
	"style-src 'self'; " +
	"img-src 'self' data: blob:; " +
	"font-src 'self'; " +
	"connect-src 'self'; " +
	"worker-src 'self'; " +
	"manifest-src 'self'; " +
	"object-src 'none'; " +
	"base-uri 'self'; " +
	"form-action 'self'; " +
	"frame-ancestors 'none'"

// hstsMaxAge is a year, the usual value once a site is served over https only.
const hstsMaxAge = 365 * 24 * 3600

// securityHeaders sets the browser protections on every response, API and
// web client alike. A handler that must differ (a download, a file) sets
// its own header afterwards, which replaces this one.
//
// Strict-Transport-Security is sent whenever APP_URL is https, whatever the
// protocol of the request itself: behind a TLS-terminating proxy the
// service sees plain http, which is exactly the set-up HSTS is for
// (helmet's own HSTS looks at the request's protocol, so it is not used).
func securityHeaders(cfg config.Config) fiber.Handler {
	h := helmet.New(helmet.Config{
		ContentSecurityPolicy: ContentSecurityPolicy,
		XFrameOptions:         "DENY", // frame-ancestors for older browsers
		ReferrerPolicy:        "strict-origin-when-cross-origin",
		// require-corp would refuse any image that is not ours and does
		// not send a CORP header; the app needs no cross-origin isolation.
		CrossOriginEmbedderPolicy: "unsafe-none",
		PermissionPolicy:          "camera=(), microphone=(), geolocation=(), payment=()",
	})
	hsts := strings.HasPrefix(cfg.AppURL, "https://")
	hstsValue := "max-age=" + strconv.Itoa(hstsMaxAge) + "; includeSubDomains"
	return func(c *fiber.Ctx) error {
		if hsts {
			c.Set(fiber.HeaderStrictTransportSecurity, hstsValue)
		}
		return h(c)
	}
}
