package handlers

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"larder/filestore"
	"larder/imageproc"
	"larder/repo"
)

// Serving stored images at /uploads/<key>.
//
// The API streams every file from the store (local disk or S3) rather than
// redirecting to a presigned bucket address: access is decided here on
// every request, so a deleted or replaced image, or a recipe made private,
// stops being served at once from every instance; the headers (type from
// an allow-list, nosniff, cache rules) are ours whatever the store; the
// images stay on the service's origin (the Content-Security-Policy's
// img-src 'self'); and the bucket need not be reachable by browsers.
//
// Images of PUBLIC recipes have stable addresses, cached for a year (keys
// are never reused). Every other image (private and shared recipes,
// cookbooks) is served only at a signed address: an HMAC over the key and
// an expiry, issued in the responses of those who may see it. The expiry
// is rounded up to the next UTC midnight at least a day ahead, so one
// address serves for a whole day and browsers cache it (privately) that
// long.

const (
	// signedLifetime is the least time a signed address stays valid.
	signedLifetime = 24 * time.Hour
	publicMaxAge   = 365 * 24 * 3600
)

// uploadSigner signs and checks image addresses.
type uploadSigner struct {
	key []byte
	now func() time.Time
}

func newUploadSigner(secret []byte, now func() time.Time) uploadSigner {
	// A key of its own, derived from the access-token secret, so that the
	// two uses can never be confused.
	m := hmac.New(sha256.New, secret)
	m.Write([]byte("larder upload addresses v1"))
	if now == nil {
		now = time.Now
	}
	return uploadSigner{key: m.Sum(nil), now: now}
}

func (u uploadSigner) mac(key string, exp int64) string {
	m := hmac.New(sha256.New, u.key)
	m.Write([]byte(key + "\n" + strconv.FormatInt(exp, 10)))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// expiry is the next UTC midnight at least signedLifetime ahead.
func (u uploadSigner) expiry() int64 {
	t := u.now().UTC().Add(signedLifetime)
	return t.Truncate(24 * time.Hour).Add(24 * time.Hour).Unix()
}

// address is where key is served: stable for public, signed otherwise.
func (u uploadSigner) address(key string, public bool) string {
	a := "/uploads/" + key
	if public {
		return a
	}
	exp := u.expiry()
	return a + "?exp=" + strconv.FormatInt(exp, 10) + "&sig=" + u.mac(key, exp)
}

// check reports whether sig signs key until exp, and exp is still ahead;
// it returns the seconds left.
func (u uploadSigner) check(key, expRaw, sig string) (int64, bool) {
	exp, err := strconv.ParseInt(expRaw, 10, 64)
	if err != nil {
		return 0, false
	}
	left := exp - u.now().Unix()
	if left <= 0 || !hmac.Equal([]byte(sig), []byte(u.mac(key, exp))) {
		return 0, false
	}
	return left, true
}

// imageURL is the address of a stored image, nil for none.
func (s *Server) imageURL(key *string, public bool) *string {
	if key == nil {
		return nil
	}
	a := s.signer.address(*key, public)
	return &a
}

// variantURLs are the addresses of an image's renditions by name ("thumb",
// "medium"), as Recipe and Cookbook show them: {} until the image job has
// made them, and for a row without an image.
func (s *Server) variantURLs(key *string, variants map[string]string, public bool) map[string]string {
	urls := make(map[string]string, len(variants))
	if key != nil {
		for name, k := range variants {
			urls[name] = s.signer.address(k, public)
		}
	}
	return urls
}

// originalKey returns the key of the image a rendition key was made from
// ("recipes/ab/abcd_thumb.jpg" → "recipes/ab/abcd.jpg"; see
// filestore.VariantKey; random names have no underscore).
func originalKey(key string) string {
	dir, base := path.Split(key)
	ext := path.Ext(base)
	stem := strings.TrimSuffix(base, ext)
	if i := strings.LastIndexByte(stem, '_'); i > 0 {
		stem = stem[:i]
	}
	return dir + stem + ext
}

// serveUpload is GET /uploads/*.
func (s *Server) serveUpload(c *fiber.Ctx) error {
	key := c.Params("*")
	format := imageproc.FormatOfExt(path.Ext(key))
	if filestore.ValidateKey(key) != nil || format == "" {
		return errNotFound("file")
	}
	ctx := c.UserContext()
	cache := "public, max-age=" + strconv.Itoa(publicMaxAge) + ", immutable"
	if sig := c.Query("sig"); sig != "" {
		left, ok := s.signer.check(key, c.Query("exp"), sig)
		if !ok {
			return errNotFound("file")
		}
		cache = "private, max-age=" + strconv.FormatInt(min(left, int64(signedLifetime/time.Second)), 10)
	} else {
		public, err := repo.IsPublicImage(ctx, s.DB, originalKey(key))
		if err != nil {
			return err
		}
		if !public {
			return errNotFound("file")
		}
	}
	info, err := s.files().Stat(ctx, key)
	if errors.Is(err, filestore.ErrNotFound) {
		return errNotFound("file")
	}
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, format.ContentType())
	c.Set(fiber.HeaderXContentTypeOptions, "nosniff")
	c.Set(fiber.HeaderCacheControl, cache)
	// Opened on its own, an image needs nothing else.
	c.Set(fiber.HeaderContentSecurityPolicy, "default-src 'none'; sandbox")
	c.Set(fiber.HeaderAcceptRanges, "bytes")
	// One byte range (a media player, a resumed download): 206 with only
	// those bytes, read from the store at that offset. If-Range would need
	// a validator we do not send, so with it the whole file is served.
	first, last, ranged, err := singleByteRange(c.Get(fiber.HeaderRange), info.Size)
	if c.Get(fiber.HeaderIfRange) != "" {
		ranged, err = false, nil
	}
	if err != nil {
		c.Set(fiber.HeaderContentRange, "bytes */"+strconv.FormatInt(info.Size, 10))
		return newError(fiber.StatusRequestedRangeNotSatisfiable, "range_not_satisfiable",
			"the requested range is outside the file's %d bytes", info.Size)
	}
	length := info.Size
	if ranged {
		length = last - first + 1
		c.Status(fiber.StatusPartialContent)
		c.Set(fiber.HeaderContentRange, "bytes "+strconv.FormatInt(first, 10)+"-"+strconv.FormatInt(last, 10)+"/"+strconv.FormatInt(info.Size, 10))
	}
	if c.Method() == fiber.MethodHead {
		c.Set(fiber.HeaderContentLength, strconv.FormatInt(length, 10))
		return nil
	}
	rc, err := s.files().Open(ctx, key)
	if errors.Is(err, filestore.ErrNotFound) {
		return errNotFound("file")
	}
	if err != nil {
		return err
	}
	if ranged && first > 0 {
		// Both stores' readers seek (the filestore conformance suite checks
		// it): a file offset on disk, a ranged GET on S3.
		rs, ok := rc.(io.Seeker)
		if !ok {
			rc.Close()
			return fmt.Errorf("serve %s: the store's reader cannot seek", key)
		}
		if _, err := rs.Seek(first, io.SeekStart); err != nil {
			rc.Close()
			return fmt.Errorf("serve %s from byte %d: %w", key, first, err)
		}
	}
	return c.SendStream(limitedReadCloser{io.LimitReader(rc, length), rc}, int(length)) // fasthttp closes it when done
}

// limitedReadCloser reads a range of a stored file and closes the file.
type limitedReadCloser struct {
	io.Reader
	io.Closer
}
