// Package filestore keeps uploaded files (recipe and cookbook images) and
// backups under keys chosen by the server. Store is the interface the
// handlers and jobs use; Local keeps the files in a directory, S3 in a
// bucket of any S3-compatible object store, so that several API and worker
// processes on several machines share them.
//
// A key is a slash-separated relative path such as
// "recipes/3f/3fa0c2….jpg". Keys are never taken from a client: NewKey
// makes random ones, and every method refuses a key that could leave the
// store (see ValidateKey) before touching anything.
package filestore

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"
)

var (
	// ErrNotFound: no file is stored under the key.
	ErrNotFound = errors.New("file not found")
	// ErrInvalidKey: the key is not one this package could have made.
	ErrInvalidKey = errors.New("invalid file key")
)

// Store keeps files under keys. Implementations are safe for concurrent use.
type Store interface {
	// Put stores the content of r under key, replacing any file there. It
	// is atomic: a reader is never shown a partial file, and a failed Put
	// (r returns an error, ctx ends, the disk fills) leaves no file and the
	// previous one, if any, untouched.
	Put(ctx context.Context, key string, r io.Reader) error
	// Open returns the file stored under key, or an error wrapping
	// ErrNotFound.
	Open(ctx context.Context, key string) (io.ReadCloser, error)
	// Delete removes the file under key. A missing file is not an error, so
	// that cleanup can be retried.
	Delete(ctx context.Context, key string) error
	// Walk calls fn for every stored file, in lexical order of keys, and
	// stops at the first error fn returns, returning it.
	Walk(ctx context.Context, fn func(key string, size int64) error) error
	// Stat describes the file under key, or returns an error wrapping
	// ErrNotFound.
	Stat(ctx context.Context, key string) (Info, error)
	// Check reports whether the store can be reached and used (readiness).
	Check(ctx context.Context) error
}

// Info describes a stored file.
type Info struct {
	Size     int64
	Modified time.Time
}

const (
	maxKeyLen     = 1024
	maxSegmentLen = 255
)

// ValidateKey returns an error wrapping ErrInvalidKey unless key is a
// relative slash-separated path whose segments are non-empty, use only
// ASCII letters, digits, '.', '_' and '-', and do not start with a dot. That
// refuses absolute paths, "..", backslashes, drive letters, NUL and empty
// segments, so no key can name a file outside the store; it also keeps the
// dot names Local uses for temporary files out of the key space.
func ValidateKey(key string) error {
	bad := func(why string) error { return fmt.Errorf("%w %q: %s", ErrInvalidKey, key, why) }
	switch {
	case key == "":
		return bad("empty")
	case len(key) > maxKeyLen:
		return bad("too long")
	case strings.HasPrefix(key, "/"):
		return bad("absolute path")
	case strings.Contains(key, `\`):
		return bad("backslash")
	}
	for seg := range strings.SplitSeq(key, "/") {
		switch {
		case seg == "":
			return bad("empty path segment")
		case seg == "." || seg == "..":
			return bad("dot segment")
		case seg[0] == '.':
			return bad("segment starts with a dot")
		case len(seg) > maxSegmentLen:
			return bad("path segment too long")
		}
		for _, c := range []byte(seg) {
			if !keyByte(c) {
				return bad(fmt.Sprintf("character %q not allowed", c))
			}
		}
	}
	return nil
}

func keyByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '-'
}

// NewKey returns a fresh random key under prefix with the extension ext
// ("jpg" or ".jpg"): prefix/ab/ab….ext, where the 32 hex digits carry 128
// random bits and the shard directory (their first two) keeps any one
// directory small. prefix may be empty or several segments ("cookbooks"),
// and is a constant of the caller: NewKey panics if prefix or ext is
// invalid, as regexp.MustCompile does.
func NewKey(prefix, ext string) string {
	ext = strings.TrimPrefix(ext, ".")
	for _, c := range []byte(ext) {
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9') {
			panic(fmt.Sprintf("filestore.NewKey: invalid extension %q", ext))
		}
	}
	if ext != "" {
		ext = "." + ext
	}
	name := randomHex(16)
	key := name[:2] + "/" + name + ext
	if prefix != "" {
		key = prefix + "/" + key
	}
	if err := ValidateKey(key); err != nil {
		panic(fmt.Sprintf("filestore.NewKey: invalid prefix %q: %v", prefix, err))
	}
	return key
}

// VariantKey returns the key of a named rendition of the file under key:
// "recipes/ab/abcd.jpg" with "thumb" gives "recipes/ab/abcd_thumb.jpg".
// The renditions of an image thus live next to it and can be found, and
// deleted, from the key of the original alone.
func VariantKey(key, variant string) (string, error) {
	if err := ValidateKey(key); err != nil {
		return "", err
	}
	if variant == "" || strings.ContainsAny(variant, "./") || ValidateKey(variant) != nil {
		return "", fmt.Errorf("%w: variant name %q", ErrInvalidKey, variant)
	}
	dir, base := "", key
	if i := strings.LastIndexByte(key, '/'); i >= 0 {
		dir, base = key[:i+1], key[i+1:]
	}
	stem, ext := base, ""
	if i := strings.LastIndexByte(base, '.'); i > 0 {
		stem, ext = base[:i], base[i:]
	}
	v := dir + stem + "_" + variant + ext
	if err := ValidateKey(v); err != nil {
		return "", err
	}
	return v, nil
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b) // never fails: crypto/rand crashes the program instead
	return hex.EncodeToString(b)
}

// DeleteOrphans removes files nothing names any more. A failure is logged,
// not returned: the change that orphaned them has committed (the caller's
// request or job succeeded), and an orphan file costs only space. It runs
// to the end even if ctx is cancelled meanwhile.
func DeleteOrphans(ctx context.Context, s Store, logger *slog.Logger, keys []string) {
	ctx = context.WithoutCancel(ctx)
	for _, k := range keys {
		if err := s.Delete(ctx, k); err != nil {
			logger.WarnContext(ctx, "delete stored file", "key", k, "error", err)
		}
	}
}
