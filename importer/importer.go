// Package importer turns a web address (or a pasted page) into a recipe: it
// fetches the page safely, extracts the recipe, and falls back to headless
// Chromium when the site refuses plain clients, shows a bot check, or builds
// its recipe with JavaScript. It touches no database.
package importer

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strings"

	"larder/importer/browser"
	"larder/importer/extract"
	"larder/importer/fetch"
)

// CodeNoRecipe is the error code for a page without a readable recipe. The
// other codes are fetch's (fetch.CodeBlocked, fetch.CodeTimeout, ...).
const CodeNoRecipe = "no_recipe"

// Error is an import failure with a stable code and a sentence for the user.
// Fetch failures come back as *fetch.Error; use Describe to read either.
type Error struct {
	Code    string
	Message string
	Err     error
}

func (e *Error) Error() string {
	if e.Err != nil {
		return e.Message + ": " + e.Err.Error()
	}
	return e.Message
}

func (e *Error) Unwrap() error { return e.Err }

func noRecipe(cause error) *Error {
	return &Error{Code: CodeNoRecipe, Message: "this page has no recipe we can read", Err: cause}
}

// Describe returns the code and message a person should see for an error
// from Import, FromHTML or the fetch package (a job's {code, message}). It
// returns ok false for other errors (a cancelled context, a bug), which
// deserve a generic message and a log line instead.
func Describe(err error) (code, message string, ok bool) {
	var ie *Error
	if errors.As(err, &ie) {
		return ie.Code, ie.Message, true
	}
	if fe := fetch.AsError(err); fe != nil {
		return fe.Code, fe.Message, true
	}
	return "", "", false
}

// Importer reads recipes from the web. Browser may be nil, and then pages
// that need a browser fail with the plain fetch's error.
type Importer struct {
	Fetch   *fetch.Client
	Browser *browser.Renderer
}

// Import fetches rawURL and extracts its recipe. It renders the page in
// Chromium when the plain fetch is refused (403, 429, 503), lands on a bot
// check, or finds no recipe in the HTML (a page built by JavaScript).
func (im *Importer) Import(ctx context.Context, rawURL string) (extract.Recipe, error) {
	rawURL = strings.TrimSpace(rawURL)
	if err := im.Fetch.CheckURL(rawURL); err != nil {
		return extract.Recipe{}, err
	}
	enter(ctx, StageFetching)
	page, err := im.Fetch.Page(ctx, rawURL)
	if err != nil {
		if fe := fetch.AsError(err); fe != nil && fe.Code == fetch.CodeBlocked {
			return im.rendered(ctx, rawURL, err, nil)
		}
		return extract.Recipe{}, err
	}
	if IsChallenge(page.HTML) {
		blocked := &fetch.Error{Code: fetch.CodeBlocked, Status: page.StatusCode,
			Message: "the site showed a bot check instead of the page"}
		return im.rendered(ctx, page.URL, blocked, nil)
	}
	enter(ctx, StageReading)
	rec, err := extract.FromHTML(page.HTML, page.URL)
	switch {
	case errors.Is(err, extract.ErrNoRecipe):
		return im.rendered(ctx, page.URL, noRecipe(err), nil)
	case err != nil:
		return extract.Recipe{}, fmt.Errorf("extract %s: %w", page.URL, err)
	case needsJavaScript(page.HTML):
		// Something was read heuristically from an app shell; the
		// rendered page likely has the real data. Keep the plain
		// reading as the fallback.
		return im.rendered(ctx, page.URL, nil, &rec)
	}
	return rec, nil
}

// rendered renders rawURL and extracts from the DOM. plainErr is why the
// plain fetch did not do, returned when the browser cannot help either;
// plain is a weak plain reading to fall back on instead (one of the two is
// set).
func (im *Importer) rendered(ctx context.Context, rawURL string, plainErr error, plain *extract.Recipe) (extract.Recipe, error) {
	fallback := func() (extract.Recipe, error) {
		if plain != nil {
			return *plain, nil
		}
		return extract.Recipe{}, plainErr
	}
	if im.Browser == nil {
		return fallback()
	}
	enter(ctx, StageBrowser)
	page, err := im.Browser.Render(ctx, rawURL)
	if err != nil {
		if ctx.Err() != nil {
			return extract.Recipe{}, err
		}
		if fe := fetch.AsError(err); fe != nil && fe.Code == fetch.CodeForbiddenAddress {
			return extract.Recipe{}, err // the page led somewhere it must not
		}
		plainErr = withCause(plainErr, fmt.Errorf("render: %w", err))
		return fallback()
	}
	enter(ctx, StageReading)
	rec, err := extract.FromHTML(page.HTML, page.URL)
	switch {
	case err == nil:
		rec.Via = "browser_fallback"
		return rec, nil
	case !errors.Is(err, extract.ErrNoRecipe):
		if plain != nil {
			return *plain, nil
		}
		return extract.Recipe{}, fmt.Errorf("extract rendered %s: %w", page.URL, err)
	}
	// No recipe in the rendered page either. When the plain fetch was
	// refused and Chrome got through to a real page, the truth is that
	// the page has no recipe; when Chrome was refused too, say so.
	if fe := fetch.AsError(plainErr); fe != nil && fe.Code == fetch.CodeBlocked {
		if !IsChallenge(page.HTML) && page.StatusCode != 403 && page.StatusCode != 429 && page.StatusCode != 503 {
			return extract.Recipe{}, noRecipe(err)
		}
	}
	return fallback()
}

// withCause attaches why the browser did not help to the plain error, for
// the log; code and message stay those of the plain fetch.
func withCause(plainErr, cause error) error {
	switch e := plainErr.(type) {
	case *Error:
		c := *e
		c.Err = errors.Join(e.Err, cause)
		return &c
	case *fetch.Error:
		c := *e
		c.Err = errors.Join(e.Err, cause)
		return &c
	}
	return plainErr
}

// FromHTML extracts the recipe from a page the user pasted (the way around
// sites that block servers). rawURL is where the page came from; it resolves
// relative links and is not fetched.
func (im *Importer) FromHTML(rawURL string, html []byte) (extract.Recipe, error) {
	u, err := url.Parse(strings.TrimSpace(rawURL))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return extract.Recipe{}, &fetch.Error{Code: fetch.CodeInvalidURL,
			Message: "the page address must be an http or https address"}
	}
	limit := int64(fetch.DefaultMaxBytes)
	if im.Fetch != nil {
		limit = im.Fetch.MaxBytes()
	}
	if int64(len(html)) > limit {
		return extract.Recipe{}, &fetch.Error{Code: fetch.CodeTooLarge, Message: "the pasted page is too large"}
	}
	if len(bytes.TrimSpace(html)) == 0 {
		return extract.Recipe{}, noRecipe(nil)
	}
	rec, err := extract.FromHTML(html, u.String())
	if errors.Is(err, extract.ErrNoRecipe) {
		return extract.Recipe{}, noRecipe(err)
	}
	if err != nil {
		return extract.Recipe{}, fmt.Errorf("extract pasted page: %w", err)
	}
	return rec, nil
}

// challengeMarkers are what the interstitials of common bot protections
// (Cloudflare, PerimeterX, DataDome, Imperva/Incapsula, Sucuri, DDoS-Guard)
// put in their pages.
var challengeMarkers = [][]byte{
	[]byte("<title>just a moment...</title>"),
	[]byte("<title>just a moment…</title>"),
	[]byte("<title>attention required! | cloudflare</title>"),
	[]byte("cf-browser-verification"),
	[]byte("cf_chl_opt"),
	[]byte("/cdn-cgi/challenge-platform/"),
	[]byte("id=\"challenge-form\""),
	[]byte("checking your browser before accessing"),
	[]byte("px-captcha"),
	[]byte("captcha-delivery.com"),
	[]byte("<title>pardon our interruption</title>"),
	[]byte("request unsuccessful. incapsula incident"),
	[]byte("_incapsula_resource"),
	[]byte("sucuri website firewall - access denied"),
	[]byte("<title>ddos-guard</title>"),
}

// IsChallenge reports whether html is a bot-check page rather than content.
// It looks only at the markers of known interstitials: a recipe page that
// merely loads a captcha script for its comment form is not one, which is
// why the Cloudflare script alone does not count when the page has a recipe.
func IsChallenge(html []byte) bool {
	head := html
	if len(head) > 64<<10 {
		head = head[:64<<10] // interstitials are small; the markers come early
	}
	lower := bytes.ToLower(head)
	if hasStructuredRecipe(lower) {
		return false
	}
	for _, m := range challengeMarkers {
		if bytes.Contains(lower, m) {
			return true
		}
	}
	return false
}

var (
	appRoot        = regexp.MustCompile(`<div id="(?:root|app|__next|__nuxt)"[^>]*>\s*</div>`)
	tagOrScript    = regexp.MustCompile(`(?s)<script.*?</script>|<style.*?</style>|<[^>]*>`)
	whitespaceRuns = regexp.MustCompile(`\s+`)
)

// hasStructuredRecipe is a cheap look for schema.org Recipe data in lowered
// HTML: a JSON-LD script that mentions a recipe, or a microdata itemtype or
// RDFa typeof naming one. Script source that merely builds such data does
// not count, which is the point: that page needs a browser.
func hasStructuredRecipe(lower []byte) bool {
	if mdRecipe.Match(lower) {
		return true
	}
	for rest := lower; ; {
		i := bytes.Index(rest, []byte("<script"))
		if i < 0 {
			return false
		}
		rest = rest[i+len("<script"):]
		end := bytes.IndexByte(rest, '>')
		if end < 0 {
			return false
		}
		tag := rest[:end]
		rest = rest[end+1:]
		body := rest
		if j := bytes.Index(rest, []byte("</script")); j >= 0 {
			body, rest = rest[:j], rest[j:]
		}
		if bytes.Contains(tag, []byte("ld+json")) && bytes.Contains(body, []byte("recipe")) {
			return true
		}
	}
}

var mdRecipe = regexp.MustCompile(`(?:itemtype|typeof)\s*=\s*["']?[^"'>]*\brecipe\b`)

// anyElement reports whether some stretch of lower that starts at marker
// holds want before the next end.
func anyElement(lower []byte, marker, end, want string) bool {
	for rest := lower; ; {
		i := bytes.Index(rest, []byte(marker))
		if i < 0 {
			return false
		}
		rest = rest[i+len(marker):]
		body := rest
		if j := bytes.Index(rest, []byte(end)); j >= 0 {
			body = rest[:j]
		}
		if bytes.Contains(body, []byte(want)) {
			return true
		}
	}
}

// needsJavaScript reports whether a page without structured recipe data
// looks like a JavaScript application shell: an empty app root, a noscript
// plea, a script that writes JSON-LD, or almost no text outside scripts.
func needsJavaScript(html []byte) bool {
	lower := bytes.ToLower(html)
	if hasStructuredRecipe(lower) {
		return false
	}
	if appRoot.Match(lower) || anyElement(lower, "<noscript", "</noscript>", "javascript") {
		return true
	}
	// Script source that builds JSON-LD, with no static recipe data.
	if bytes.Contains(lower, []byte("ld+json")) {
		return true
	}
	text := whitespaceRuns.ReplaceAll(tagOrScript.ReplaceAll(lower, nil), []byte(" "))
	return len(bytes.TrimSpace(text)) < 500
}
