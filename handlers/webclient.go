package handlers

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"mime"
	"path"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"
)

// Cache rules of the web client's files.
const (
	// Vite names everything under assets/ by a hash of its content: a
	// changed file is a new address, so browsers keep these for good.
	cacheImmutable = "public, max-age=31536000, immutable"
	// index.html, the service worker and the manifest name the current
	// assets: browsers must ask every time (a 304 costs little).
	cacheRevalidate = "no-cache"
	// Icons and the like keep their names across releases.
	cacheShort = "public, max-age=3600"
)

// serveWebClient answers GET and HEAD outside /api and /uploads from the
// built client: a file when the path names one, index.html for every other
// path (the client's own routes). Text files are answered from the gzip or
// brotli copy the build wrote beside them (web/scripts/postbuild.mjs) when
// the browser accepts it.
func (s *Server) serveWebClient(app *fiber.App) {
	web := s.Web
	app.Use(func(c *fiber.Ctx) error {
		p := c.Path()
		if strings.HasPrefix(p, "/api/") || p == "/api" || strings.HasPrefix(p, "/uploads/") ||
			(c.Method() != fiber.MethodGet && c.Method() != fiber.MethodHead) {
			return c.Next()
		}
		name := strings.TrimPrefix(path.Clean("/"+p), "/")
		if name == "" || !isFile(web, name) {
			// A client route; a missing asset gets a real 404 rather than
			// the page, so a stale script reference fails loudly.
			if strings.HasPrefix(name, "assets/") {
				return fiber.ErrNotFound
			}
			name = "index.html"
			if head := s.recipePageHead(c); head != "" {
				return sendIndexWithHead(c, web, head)
			}
		}
		return sendWebFile(c, web, name)
	})
}

func isFile(fsys fs.FS, name string) bool {
	st, err := fs.Stat(fsys, name)
	return err == nil && !st.IsDir()
}

// sendWebFile writes name with its cache rule, compressed when a copy the
// browser accepts exists.
func sendWebFile(c *fiber.Ctx, fsys fs.FS, name string) error {
	setWebFileHeaders(c, name)
	file := name
	for _, enc := range []struct{ token, ext string }{{"br", ".br"}, {"gzip", ".gz"}} {
		if acceptsEncoding(c.Get(fiber.HeaderAcceptEncoding), enc.token) && isFile(fsys, name+enc.ext) {
			file = name + enc.ext
			c.Set(fiber.HeaderContentEncoding, enc.token)
			break
		}
	}
	if isFile(fsys, name+".gz") || isFile(fsys, name+".br") {
		c.Vary(fiber.HeaderAcceptEncoding)
	}
	body, err := fs.ReadFile(fsys, file)
	if err != nil {
		return err
	}
	return sendWebBody(c, body)
}

// sendIndexWithHead writes index.html with head added to it (a recipe
// page's preview and preload), uncompressed: the page is a few hundred
// bytes more than the built one.
func sendIndexWithHead(c *fiber.Ctx, fsys fs.FS, head string) error {
	setWebFileHeaders(c, "index.html")
	body, err := fs.ReadFile(fsys, "index.html")
	if err != nil {
		return err
	}
	return sendWebBody(c, withHead(body, head))
}

// setWebFileHeaders sets a client file's cache rule and content type.
func setWebFileHeaders(c *fiber.Ctx, name string) {
	switch {
	case strings.HasPrefix(name, "assets/"):
		c.Set(fiber.HeaderCacheControl, cacheImmutable)
	case name == "index.html" || name == "sw.js" || name == "registerSW.js" || strings.HasSuffix(name, ".webmanifest"):
		c.Set(fiber.HeaderCacheControl, cacheRevalidate)
	default:
		c.Set(fiber.HeaderCacheControl, cacheShort)
	}
	ctype := mime.TypeByExtension(path.Ext(name))
	if strings.HasSuffix(name, ".webmanifest") {
		ctype = "application/manifest+json"
	}
	if ctype == "" {
		ctype = fiber.MIMEOctetStream
	}
	c.Set(fiber.HeaderContentType, ctype)
}

// sendWebBody answers with a client file's body, or 304 when the browser
// holds it already.
func sendWebBody(c *fiber.Ctx, body []byte) error {
	// A revalidation (no-cache files, every load) costs a 304 when nothing changed.
	etag := fmt.Sprintf(`"%x"`, sha256.Sum256(body))[:18] + `"`
	c.Set(fiber.HeaderETag, etag)
	if match := c.Get(fiber.HeaderIfNoneMatch); match != "" && strings.Contains(match, etag) {
		c.Status(fiber.StatusNotModified)
		return nil
	}
	if c.Method() == fiber.MethodHead {
		c.Set(fiber.HeaderContentLength, strconv.Itoa(len(body)))
		return nil
	}
	// Set, not Send: Fiber's compression of its own must not run over it.
	c.Response().SetBodyRaw(body)
	return nil
}

// acceptsEncoding reports whether an Accept-Encoding header allows token
// (listed without q=0).
func acceptsEncoding(header, token string) bool {
	for _, part := range strings.Split(header, ",") {
		fields := strings.Split(part, ";")
		if !strings.EqualFold(strings.TrimSpace(fields[0]), token) {
			continue
		}
		for _, f := range fields[1:] {
			if q := strings.TrimSpace(f); q == "q=0" || q == "q=0.0" || q == "q=0.00" || q == "q=0.000" {
				return false
			}
		}
		return true
	}
	return false
}
