// Package fetch is the one way Larder reaches other people's servers: recipe
// pages and images by URL. It refuses to connect to anything but the public
// internet (server-side request forgery), limits time, size and redirects,
// undoes gzip and brotli, decodes pages to UTF-8, and turns every failure
// into an *Error whose Code is stable and whose Message a person can act on.
package fetch

import (
	"compress/gzip"
	"compress/zlib"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/netip"
	"net/url"
	"strings"
	"time"

	"github.com/andybalholm/brotli"
	"golang.org/x/net/html/charset"
	"golang.org/x/net/publicsuffix"
)

// Defaults for the zero Options.
const (
	DefaultUserAgent    = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"
	DefaultMaxBytes     = 10 << 20
	DefaultTimeout      = 15 * time.Second
	DefaultMaxRedirects = 10

	acceptPage     = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8"
	acceptImage    = "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8"
	acceptLanguage = "en-US,en;q=0.9"
	// Only encodings we can undo; zstd is left out on purpose.
	acceptEncoding = "gzip, br"
)

// Options configure a Client. The zero value is the safe production setting.
type Options struct {
	// AllowPrivate lets connections reach loopback and private networks
	// (RFC 1918, fc00::/7, CGNAT), for tests and home networks. Link-local
	// (cloud metadata), multicast, broadcast, unspecified and reserved
	// addresses stay refused.
	AllowPrivate bool
	// UserAgent defaults to DefaultUserAgent, a current desktop Chrome.
	UserAgent string
	// MaxBytes bounds a page after decompression; default DefaultMaxBytes.
	MaxBytes int64
	// Timeout bounds one whole request, body included; default DefaultTimeout.
	Timeout time.Duration
	// MaxRedirects is how many redirects are followed; default
	// DefaultMaxRedirects, a negative value follows none.
	MaxRedirects int
	// DenyAddr refuses more addresses on top of the built-in rules, even
	// when AllowPrivate is set (tests allow 127.0.0.1 yet forbid 127.0.0.2).
	DenyAddr func(netip.Addr) bool
	// Resolver looks up host names; nil means net.DefaultResolver. Tests
	// point it at a local DNS server.
	Resolver *net.Resolver
}

// Client fetches pages and images under one set of address rules. It is safe
// for concurrent use.
type Client struct {
	opts      Options
	policy    policy
	dialer    *net.Dialer
	transport *http.Transport
}

// Page is a fetched HTML document.
type Page struct {
	// URL is the final address, after redirects.
	URL        string
	StatusCode int
	// HTML is the body decoded to UTF-8.
	HTML        []byte
	ContentType string
}

// New returns a Client for opts, filling in defaults.
func New(opts Options) *Client {
	if opts.UserAgent == "" {
		opts.UserAgent = DefaultUserAgent
	}
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = DefaultMaxBytes
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	switch {
	case opts.MaxRedirects == 0:
		opts.MaxRedirects = DefaultMaxRedirects
	case opts.MaxRedirects < 0:
		opts.MaxRedirects = 0
	}
	c := &Client{opts: opts, policy: policy{allowPrivate: opts.AllowPrivate, deny: opts.DenyAddr}}
	c.dialer = newDialer(c.policy, opts.Resolver)
	c.transport = &http.Transport{
		// Never a proxy from the environment: it would make the
		// connection, and our address check would see only the proxy.
		Proxy:                 nil,
		DialContext:           c.DialContext,
		ForceAttemptHTTP2:     true,
		TLSHandshakeTimeout:   10 * time.Second,
		ResponseHeaderTimeout: opts.Timeout,
		IdleConnTimeout:       30 * time.Second,
		MaxIdleConns:          32,
		MaxIdleConnsPerHost:   4,
		// We ask for gzip and br ourselves and decode them, so the
		// size limit applies to the decoded bytes.
		DisableCompression: true,
	}
	return c
}

// UserAgent is the User-Agent the client sends; the browser uses it too.
func (c *Client) UserAgent() string { return c.opts.UserAgent }

// AllowPrivate reports whether the client may reach private networks.
func (c *Client) AllowPrivate() bool { return c.opts.AllowPrivate }

// MaxBytes is the size limit of a page.
func (c *Client) MaxBytes() int64 { return c.opts.MaxBytes }

// Timeout is the time limit of one request.
func (c *Client) Timeout() time.Duration { return c.opts.Timeout }

// CheckURL is the package CheckURL under this client's rules, DenyAddr
// included.
func (c *Client) CheckURL(rawURL string) error {
	_, err := checkURL(rawURL, c.policy)
	return err
}

// CheckHost resolves the host of rawURL and refuses it when no address it
// resolves to may be reached. The dialer checks again when it connects; this
// gives the browser, which connects through a proxy, a clear early error.
func (c *Client) CheckHost(ctx context.Context, rawURL string) error {
	u, err := checkURL(rawURL, c.policy)
	if err != nil {
		return err
	}
	name, ip, err := parseHost(u.Hostname())
	if err != nil || ip.IsValid() {
		return err // literal IPs were checked by checkURL
	}
	r := c.opts.Resolver
	if r == nil {
		r = net.DefaultResolver
	}
	addrs, err := r.LookupNetIP(ctx, "ip", name)
	if err != nil {
		return c.classify(ctx, err)
	}
	var first error
	for _, a := range addrs {
		err := c.policy.check(a)
		if err == nil {
			return nil
		}
		if first == nil {
			fe := AsError(err)
			first = forbidden(name+" resolves to ", fe.addr, fe.class)
		}
	}
	if first == nil {
		return newError(CodeUnreachable, fmt.Sprintf("could not find the site %s", name), nil)
	}
	return first
}

// CloseIdleConnections closes kept-alive connections.
func (c *Client) CloseIdleConnections() { c.transport.CloseIdleConnections() }

// Page fetches an HTML page. A non-2xx answer is an *Error (CodeBlocked for
// 403, 429 and 503); a body that is not HTML is CodeNotHTML.
func (c *Client) Page(ctx context.Context, rawURL string) (*Page, error) {
	res, err := c.get(ctx, rawURL, acceptPage, "document", c.opts.MaxBytes)
	if err != nil {
		return nil, err
	}
	ct := res.header.Get("Content-Type")
	if !isHTML(ct, res.body) {
		mt, _, _ := mime.ParseMediaType(ct)
		if mt == "" {
			mt = "an unknown type"
		}
		return nil, &Error{Code: CodeNotHTML, Message: fmt.Sprintf("the address is not a web page (it is %s)", mt)}
	}
	return &Page{URL: res.finalURL, StatusCode: res.status, HTML: toUTF8(res.body, ct), ContentType: ct}, nil
}

// Download fetches a file such as an image, at most maxBytes long (the
// client's MaxBytes when maxBytes <= 0), and returns it with its
// Content-Type header. It never reads more than maxBytes+1 bytes.
func (c *Client) Download(ctx context.Context, rawURL string, maxBytes int64) ([]byte, string, error) {
	if maxBytes <= 0 {
		maxBytes = c.opts.MaxBytes
	}
	res, err := c.get(ctx, rawURL, acceptImage, "image", maxBytes)
	if err != nil {
		return nil, "", err
	}
	return res.body, res.header.Get("Content-Type"), nil
}

type result struct {
	finalURL string
	status   int
	header   http.Header
	body     []byte
}

func (c *Client) get(ctx context.Context, rawURL, accept, dest string, maxBytes int64) (*result, error) {
	u, err := checkURL(rawURL, c.policy)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, c.opts.Timeout)
	defer cancel()

	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, invalidURL("%q is not a web address", rawURL)
	}
	c.setHeaders(req.Header, accept, dest)

	// A fresh cookie jar per fetch: some sites bounce through a redirect
	// that sets a cookie, and one user's cookies must not reach another's
	// fetch.
	jar, _ := cookiejar.New(&cookiejar.Options{PublicSuffixList: publicsuffix.List})
	hc := &http.Client{
		Transport: c.transport,
		Jar:       jar,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) > c.opts.MaxRedirects {
				return &Error{Code: CodeTooManyRedirects,
					Message: fmt.Sprintf("the page redirected more than %d times", c.opts.MaxRedirects)}
			}
			if err := checkParsedURL(req.URL, c.policy); err != nil {
				return err
			}
			// Go copies the first request's headers to the next one,
			// which is what a browser does too for these.
			return nil
		},
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, c.classify(ctx, err)
	}
	defer resp.Body.Close()

	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, statusError(resp.StatusCode)
	}
	if resp.ContentLength > maxBytes {
		return nil, tooLarge(maxBytes)
	}
	body, err := readBody(resp, maxBytes)
	if err != nil {
		if fe := AsError(err); fe != nil {
			return nil, fe
		}
		return nil, c.classify(ctx, err)
	}
	return &result{finalURL: resp.Request.URL.String(), status: resp.StatusCode, header: resp.Header, body: body}, nil
}

func (c *Client) setHeaders(h http.Header, accept, dest string) {
	h.Set("User-Agent", c.opts.UserAgent)
	h.Set("Accept", accept)
	h.Set("Accept-Language", acceptLanguage)
	h.Set("Accept-Encoding", acceptEncoding)
	// What Chrome sends on a top-level navigation; some bot filters turn
	// away requests that lack them.
	h.Set("Sec-Fetch-Dest", dest)
	if dest == "document" {
		h.Set("Upgrade-Insecure-Requests", "1")
		h.Set("Sec-Fetch-Mode", "navigate")
		h.Set("Sec-Fetch-Site", "none")
		h.Set("Sec-Fetch-User", "?1")
	} else {
		h.Set("Sec-Fetch-Mode", "no-cors")
		h.Set("Sec-Fetch-Site", "cross-site")
	}
	if c.opts.UserAgent == DefaultUserAgent {
		h.Set("Sec-Ch-Ua", `"Chromium";v="131", "Not_A Brand";v="24"`)
		h.Set("Sec-Ch-Ua-Mobile", "?0")
		h.Set("Sec-Ch-Ua-Platform", `"Linux"`)
	}
}

// classify turns a transport error into an *Error. A cancelled context
// (the job was stopped) is returned as it is: nobody needs a message then.
func (c *Client) classify(ctx context.Context, err error) error {
	if fe := AsError(err); fe != nil {
		return fe
	}
	var ne net.Error
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(ctx.Err(), context.DeadlineExceeded) ||
		(errors.As(err, &ne) && ne.Timeout()) {
		return &Error{Code: CodeTimeout, Message: "timed out", Err: err}
	}
	if errors.Is(err, context.Canceled) {
		return err
	}
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		return newError(CodeUnreachable, fmt.Sprintf("could not find the site %s", dnsErr.Name), err)
	}
	var certErr *tls.CertificateVerificationError
	if errors.As(err, &certErr) {
		return newError(CodeUnreachable, "the site's security certificate is not valid", err)
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err // the URL is known to the caller; keep the cause short
	}
	return newError(CodeUnreachable, "could not reach the site", err)
}

func tooLarge(limit int64) *Error {
	return &Error{Code: CodeTooLarge, Message: fmt.Sprintf("the file is larger than %s", humanBytes(limit))}
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MB", n>>20)
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%d kB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// readBody undoes the Content-Encoding and reads at most maxBytes decoded
// bytes; both the raw and the decoded stream stop one byte past the limit.
func readBody(resp *http.Response, maxBytes int64) ([]byte, error) {
	raw := &io.LimitedReader{R: resp.Body, N: maxBytes + 1}
	var r io.Reader = raw
	// Encodings are listed in the order they were applied; undo from the
	// last one.
	encs := strings.Split(resp.Header.Get("Content-Encoding"), ",")
	for i := len(encs) - 1; i >= 0; i-- {
		switch enc := strings.ToLower(strings.TrimSpace(encs[i])); enc {
		case "", "identity":
		case "gzip", "x-gzip":
			zr, err := gzip.NewReader(r)
			if err != nil {
				return nil, badBody(raw, maxBytes, err)
			}
			r = zr
		case "br":
			r = brotli.NewReader(r)
		case "deflate":
			zr, err := zlib.NewReader(r)
			if err != nil {
				return nil, badBody(raw, maxBytes, err)
			}
			r = zr
		default:
			return nil, &Error{Code: CodeBadResponse,
				Message: fmt.Sprintf("the site sent the page in an encoding we cannot read (%s)", enc)}
		}
	}
	body, err := io.ReadAll(io.LimitReader(r, maxBytes+1))
	if int64(len(body)) > maxBytes || raw.N <= 0 {
		return nil, tooLarge(maxBytes)
	}
	if err != nil {
		return nil, badBody(raw, maxBytes, err)
	}
	return body, nil
}

func badBody(raw *io.LimitedReader, maxBytes int64, err error) error {
	if raw.N <= 0 {
		return tooLarge(maxBytes)
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return err
	}
	var ne net.Error
	if errors.As(err, &ne) {
		return err // a network failure, classified by the caller
	}
	return &Error{Code: CodeBadResponse, Message: "the site sent a damaged page", Err: err}
}

// isHTML accepts HTML media types, and sniffs bodies served without a type
// or as text/plain or octet-stream, as browsers do.
func isHTML(contentType string, body []byte) bool {
	mt, _, _ := mime.ParseMediaType(contentType)
	switch mt {
	case "text/html", "application/xhtml+xml":
		return true
	case "", "text/plain", "application/octet-stream":
		return strings.HasPrefix(http.DetectContentType(body), "text/html")
	}
	return false
}

// toUTF8 decodes body using the Content-Type charset, a byte order mark or a
// <meta charset> in the first 1024 bytes, as the HTML standard prescribes.
func toUTF8(body []byte, contentType string) []byte {
	enc, name, _ := charset.DetermineEncoding(body, contentType)
	if name == "utf-8" {
		return trimBOM(body)
	}
	out, err := enc.NewDecoder().Bytes(body)
	if err != nil {
		return trimBOM(body)
	}
	return trimBOM(out)
}

func trimBOM(b []byte) []byte {
	if len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF {
		return b[3:]
	}
	return b
}
