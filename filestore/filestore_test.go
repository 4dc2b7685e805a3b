package filestore

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
)

type testBundle struct {
	store Local
	dir   string // parent of store.Root, to catch anything written beside it
}

func setup(t *testing.T) *testBundle {
	t.Helper()
	dir := t.TempDir()
	return &testBundle{store: Local{Root: filepath.Join(dir, "uploads")}, dir: dir}
}

// files lists every file and directory under dir, relative to it.
func files(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p != dir {
			rel, _ := filepath.Rel(dir, p)
			if d.IsDir() {
				rel += "/"
			}
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	return out
}

func readKey(t *testing.T, s Store, key string) string {
	t.Helper()
	rc, err := s.Open(t.Context(), key)
	if err != nil {
		t.Fatalf("Open %s: %v", key, err)
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestPutOpen(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := t.Context()
	key := "recipes/ab/abcdef.jpg"
	if err := b.store.Put(ctx, key, strings.NewReader("first")); err != nil {
		t.Fatal(err)
	}
	if got := readKey(t, b.store, key); got != "first" {
		t.Fatalf("read %q", got)
	}
	// Put replaces.
	if err := b.store.Put(ctx, key, strings.NewReader("second")); err != nil {
		t.Fatal(err)
	}
	if got := readKey(t, b.store, key); got != "second" {
		t.Fatalf("read %q after replace", got)
	}
	st, err := os.Stat(filepath.Join(b.store.Root, "recipes", "ab", "abcdef.jpg"))
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want 0644", st.Mode().Perm())
	}
	if got := files(t, b.dir); !slices.Equal(got, []string{"uploads/", "uploads/recipes/", "uploads/recipes/ab/", "uploads/recipes/ab/abcdef.jpg"}) {
		t.Errorf("files on disk: %v", got)
	}
	// A top-level key works too.
	if err := b.store.Put(ctx, "top.png", strings.NewReader("x")); err != nil {
		t.Fatal(err)
	}
	if got := readKey(t, b.store, "top.png"); got != "x" {
		t.Fatalf("read %q", got)
	}
}

func TestPutModeIgnoresUmask(t *testing.T) {
	// Not parallel: the umask belongs to the process.
	old := syscall.Umask(0o077)
	defer syscall.Umask(old)
	b := setup(t)
	if err := b.store.Put(t.Context(), "a/b.jpg", strings.NewReader("x")); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(filepath.Join(b.store.Root, "a", "b.jpg"))
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o644 {
		t.Errorf("mode %v under umask 077, want 0644", st.Mode().Perm())
	}
}

// failingReader returns n bytes, then err.
type failingReader struct {
	n   int
	err error
}

func (r *failingReader) Read(p []byte) (int, error) {
	if r.n == 0 {
		return 0, r.err
	}
	k := min(len(p), r.n)
	for i := range k {
		p[i] = 'x'
	}
	r.n -= k
	return k, nil
}

func TestPutFailureLeavesNothing(t *testing.T) {
	t.Parallel()
	boom := errors.New("client went away")
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()

	tests := []struct {
		name    string
		ctx     func(t *testing.T) context.Context
		r       func() io.Reader
		wantErr error
	}{
		{"reader fails halfway", func(t *testing.T) context.Context { return t.Context() },
			func() io.Reader { return &failingReader{n: 100 << 10, err: boom} }, boom},
		{"reader fails at once", func(t *testing.T) context.Context { return t.Context() },
			func() io.Reader { return &failingReader{err: boom} }, boom},
		{"context ends halfway", func(t *testing.T) context.Context {
			ctx, cancel := context.WithCancel(t.Context())
			t.Cleanup(cancel)
			return &cancelAfter{Context: ctx, cancel: cancel, reads: 3}
		}, func() io.Reader { return &failingReader{n: 1 << 20, err: io.EOF} }, context.Canceled},
		{"context already ended", func(*testing.T) context.Context { return cancelled },
			func() io.Reader { return strings.NewReader("x") }, context.Canceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b := setup(t)
			ctx := tt.ctx(t)
			err := b.store.Put(ctx, "recipes/ab/new.jpg", tt.r())
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			for _, f := range files(t, b.dir) {
				if !strings.HasSuffix(f, "/") {
					t.Errorf("file left behind: %s", f)
				}
			}
			if _, err := b.store.Open(t.Context(), "recipes/ab/new.jpg"); !errors.Is(err, ErrNotFound) {
				t.Errorf("Open after a failed Put: %v", err)
			}
		})
	}
}

// cancelAfter is a context that is cancelled after Err has been asked
// reads times, i.e. in the middle of a copy.
type cancelAfter struct {
	context.Context
	cancel func()
	reads  int
}

func (c *cancelAfter) Err() error {
	if c.reads--; c.reads < 0 {
		c.cancel()
	}
	return c.Context.Err()
}

// A failed replacement keeps the previous file whole: what lets the upload
// handler keep the previous image when a new upload fails.
func TestFailedReplaceKeepsPrevious(t *testing.T) {
	t.Parallel()
	b := setup(t)
	key := "recipes/ab/cover.jpg"
	if err := b.store.Put(t.Context(), key, strings.NewReader("previous")); err != nil {
		t.Fatal(err)
	}
	err := b.store.Put(t.Context(), key, &failingReader{n: 64 << 10, err: io.ErrUnexpectedEOF})
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("err = %v", err)
	}
	if got := readKey(t, b.store, key); got != "previous" {
		t.Fatalf("after a failed replace: %q", got)
	}
	if got := files(t, b.dir); len(got) != 4 {
		t.Fatalf("files on disk: %v", got)
	}
}

func TestInvalidKeysRefused(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("a", maxSegmentLen+1)
	tests := []struct {
		name, key string
		why       string // the reason named in the error
	}{
		{"empty", "", "empty"},
		{"absolute", "/etc/passwd", "absolute path"},
		{"absolute inside root", "/recipes/ab/x.jpg", "absolute path"},
		{"parent", "../outside.jpg", "dot segment"},
		{"parent deep", "recipes/../../outside.jpg", "dot segment"},
		{"parent at end", "recipes/..", "dot segment"},
		{"only dots", "..", "dot segment"},
		{"current dir", "recipes/./x.jpg", "dot segment"},
		{"dot", ".", "dot segment"},
		{"backslash", `recipes\ab\x.jpg`, "backslash"},
		{"backslash parent", `..\outside.jpg`, "backslash"},
		{"drive letter", `C:\outside.jpg`, "backslash"},
		{"drive relative", "C:outside.jpg", "not allowed"},
		{"empty segment", "recipes//x.jpg", "empty path segment"},
		{"trailing slash", "recipes/ab/", "empty path segment"},
		{"hidden file", ".htaccess", "starts with a dot"},
		{"temp file name", "recipes/ab/.tmp-0123456789abcdef", "starts with a dot"},
		{"nul", "recipes/x\x00.jpg", "not allowed"},
		{"space", "recipes/x y.jpg", "not allowed"},
		{"percent-encoded", "recipes/%2e%2e/x.jpg", "not allowed"},
		{"unicode", "recipes/caf\u00e9.jpg", "not allowed"},
		{"segment too long", "recipes/" + long, "segment too long"},
		{"key too long", strings.Repeat("abcdefgh/", maxKeyLen/9+1) + "x", "too long"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if err := ValidateKey(tt.key); !errors.Is(err, ErrInvalidKey) || !strings.Contains(err.Error(), tt.why) {
				t.Fatalf("ValidateKey: %v, want ErrInvalidKey because %s", err, tt.why)
			}
			b := setup(t)
			ctx := t.Context()
			if err := b.store.Put(ctx, tt.key, strings.NewReader("payload")); !errors.Is(err, ErrInvalidKey) {
				t.Errorf("Put: %v", err)
			}
			if _, err := b.store.Open(ctx, tt.key); !errors.Is(err, ErrInvalidKey) {
				t.Errorf("Open: %v", err)
			}
			if err := b.store.Delete(ctx, tt.key); !errors.Is(err, ErrInvalidKey) {
				t.Errorf("Delete: %v", err)
			}
			if got := files(t, b.dir); len(got) != 0 {
				t.Errorf("something was written: %v", got)
			}
		})
	}
}

// Even a symlink planted inside the store cannot lead outside it: os.Root
// refuses to follow it, behind key validation.
func TestSymlinkEscapeRefused(t *testing.T) {
	t.Parallel()
	b := setup(t)
	outside := filepath.Join(b.dir, "outside")
	if err := os.MkdirAll(outside, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(outside, "secret.jpg"), []byte("secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(b.store.Root, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(b.store.Root, "recipes")); err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	if rc, err := b.store.Open(ctx, "recipes/secret.jpg"); err == nil {
		rc.Close()
		t.Fatal("Open followed a symlink out of the store")
	}
	if err := b.store.Put(ctx, "recipes/planted.jpg", strings.NewReader("x")); err == nil {
		t.Fatal("Put wrote through a symlink out of the store")
	}
	if _, err := os.Stat(filepath.Join(outside, "planted.jpg")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("a file appeared outside: %v", err)
	}
	var keys []string
	if err := b.store.Walk(ctx, func(k string, _ int64) error { keys = append(keys, k); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(keys) != 0 {
		t.Fatalf("Walk listed %v", keys)
	}
}

func TestOpenMissing(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := t.Context()
	// Before anything is stored, the root does not even exist.
	if _, err := b.store.Open(ctx, "recipes/ab/none.jpg"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("missing root: %v", err)
	}
	if err := b.store.Put(ctx, "recipes/ab/file.jpg", strings.NewReader("x")); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"recipes/ab/none.jpg", "recipes/zz/none.jpg", "recipes/ab", "recipes/ab/file.jpg/below"} {
		if _, err := b.store.Open(ctx, key); !errors.Is(err, ErrNotFound) {
			t.Errorf("Open %s: %v, want ErrNotFound", key, err)
		}
	}
}

func TestDelete(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := t.Context()
	key := "recipes/ab/file.jpg"
	// Missing root, then missing file, then missing directory: all fine.
	for _, k := range []string{key, "recipes/zz/none.jpg", "recipes/ab/file.jpg/below"} {
		if err := b.store.Delete(ctx, k); err != nil {
			t.Fatalf("Delete %s before any Put: %v", k, err)
		}
	}
	if err := b.store.Put(ctx, key, strings.NewReader("x")); err != nil {
		t.Fatal(err)
	}
	for i := range 2 { // the second is a retry of a delete that succeeded
		if err := b.store.Delete(ctx, key); err != nil {
			t.Fatalf("Delete #%d: %v", i+1, err)
		}
	}
	if _, err := b.store.Open(ctx, key); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Open after Delete: %v", err)
	}
	for _, k := range []string{"recipes/zz/none.jpg", "recipes/ab/file.jpg/below"} {
		if err := b.store.Delete(ctx, k); err != nil {
			t.Errorf("Delete %s: %v", k, err)
		}
	}
	// A key naming a directory is not a file to delete.
	if err := b.store.Delete(ctx, "recipes/ab"); !errors.Is(err, ErrInvalidKey) {
		t.Errorf("Delete of a directory: %v", err)
	}
	if _, err := os.Stat(filepath.Join(b.store.Root, "recipes", "ab")); err != nil {
		t.Errorf("the directory is gone: %v", err)
	}
}

func TestWalk(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := t.Context()
	// Nothing stored yet, no root: no files and no error.
	if err := b.store.Walk(ctx, func(string, int64) error { t.Fatal("called"); return nil }); err != nil {
		t.Fatal(err)
	}
	want := map[string]int64{
		"cookbooks/cd/cd01.png":      3,
		"recipes/ab/ab01.jpg":        5,
		"recipes/ab/ab01_thumb.jpg":  1,
		"recipes/ff/ff99.jpg":        10,
		"recipes/ff/ff99_medium.jpg": 0,
	}
	for k, n := range want {
		if err := b.store.Put(ctx, k, bytes.NewReader(make([]byte, n))); err != nil {
			t.Fatal(err)
		}
	}
	// Things this package never writes under a valid key are not listed.
	for _, p := range []string{"recipes/ab/.tmp-abc", ".hidden/x.jpg", "bad name/x.jpg", "recipes/ab/bad name.jpg"} {
		full := filepath.Join(b.store.Root, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("ab01.jpg", filepath.Join(b.store.Root, "recipes", "ab", "link.jpg")); err != nil {
		t.Fatal(err)
	}

	got := map[string]int64{}
	var order []string
	err := b.store.Walk(ctx, func(k string, size int64) error {
		got[k] = size
		order = append(order, k)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("Walk listed %v, want %v", got, want)
	}
	for k, n := range want {
		if got[k] != n {
			t.Errorf("%s: size %d, want %d", k, got[k], n)
		}
	}
	if !slices.IsSorted(order) {
		t.Errorf("not in lexical order: %v", order)
	}

	// An error from fn stops the walk and comes back unchanged.
	stop := errors.New("stop")
	calls := 0
	err = b.store.Walk(ctx, func(string, int64) error { calls++; return stop })
	if !errors.Is(err, stop) || calls != 1 {
		t.Fatalf("err = %v after %d calls", err, calls)
	}
	// So does the end of the context.
	cctx, cancel := context.WithCancel(ctx)
	calls = 0
	err = b.store.Walk(cctx, func(string, int64) error { calls++; cancel(); return nil })
	if !errors.Is(err, context.Canceled) || calls != 1 {
		t.Fatalf("err = %v after %d calls", err, calls)
	}
}

// A restore swaps the directory at Root; Local must then see the new one.
func TestRootSwap(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := t.Context()
	if err := b.store.Put(ctx, "recipes/ab/a.jpg", strings.NewReader("old")); err != nil {
		t.Fatal(err)
	}
	restored := filepath.Join(b.dir, "restored")
	if err := (Local{Root: restored}).Put(ctx, "recipes/ab/a.jpg", strings.NewReader("new")); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(b.store.Root, filepath.Join(b.dir, "previous")); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(restored, b.store.Root); err != nil {
		t.Fatal(err)
	}
	if got := readKey(t, b.store, "recipes/ab/a.jpg"); got != "new" {
		t.Fatalf("after the swap: %q", got)
	}
}

func TestLocalWithoutRoot(t *testing.T) {
	t.Parallel()
	var l Local
	ctx := t.Context()
	if err := l.Put(ctx, "a.jpg", strings.NewReader("x")); err == nil {
		t.Error("Put with an empty Root succeeded")
	}
	if _, err := l.Open(ctx, "a.jpg"); err == nil || errors.Is(err, ErrNotFound) {
		t.Errorf("Open with an empty Root: %v", err)
	}
}

var keyPattern = regexp.MustCompile(`^recipes/([0-9a-f]{2})/([0-9a-f]{32})\.jpg$`)

func TestNewKey(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for range 1000 {
		k := NewKey("recipes", "jpg")
		m := keyPattern.FindStringSubmatch(k)
		if m == nil || m[2][:2] != m[1] {
			t.Fatalf("key %q does not match %v with its shard", k, keyPattern)
		}
		if err := ValidateKey(k); err != nil {
			t.Fatal(err)
		}
		if seen[k] {
			t.Fatalf("duplicate key %s", k)
		}
		seen[k] = true
	}
	for _, tt := range []struct{ prefix, ext, want string }{
		{"recipes", ".jpg", `^recipes/[0-9a-f]{2}/[0-9a-f]{32}\.jpg$`},
		{"cookbooks/covers", "png", `^cookbooks/covers/[0-9a-f]{2}/[0-9a-f]{32}\.png$`},
		{"", "", `^[0-9a-f]{2}/[0-9a-f]{32}$`},
	} {
		if k := NewKey(tt.prefix, tt.ext); !regexp.MustCompile(tt.want).MatchString(k) {
			t.Errorf("NewKey(%q, %q) = %q", tt.prefix, tt.ext, k)
		}
	}
	for _, tt := range []struct{ prefix, ext string }{
		{"../up", "jpg"}, {"/abs", "jpg"}, {"a//b", "jpg"}, {`a\b`, "jpg"}, {"recipes", "j/g"}, {"recipes", ".."}, {"recipes", "JPG"},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("NewKey(%q, %q) did not panic", tt.prefix, tt.ext)
				}
			}()
			NewKey(tt.prefix, tt.ext)
		}()
	}
}

func TestVariantKey(t *testing.T) {
	t.Parallel()
	tests := []struct {
		key, variant, want string
		ok                 bool
	}{
		{"recipes/ab/abcd.jpg", "thumb", "recipes/ab/abcd_thumb.jpg", true},
		{"recipes/ab/abcd.png", "medium", "recipes/ab/abcd_medium.png", true},
		{"abcd", "thumb", "abcd_thumb", true},
		{"recipes/ab/abcd.jpg", "", "", false},
		{"recipes/ab/abcd.jpg", "../x", "", false},
		{"recipes/ab/abcd.jpg", "a/b", "", false},
		{"recipes/ab/abcd.jpg", "x.y", "", false},
		{"../abcd.jpg", "thumb", "", false},
	}
	for _, tt := range tests {
		got, err := VariantKey(tt.key, tt.variant)
		if tt.ok && (err != nil || got != tt.want) {
			t.Errorf("VariantKey(%q, %q) = %q, %v; want %q", tt.key, tt.variant, got, err, tt.want)
		}
		if !tt.ok && !errors.Is(err, ErrInvalidKey) {
			t.Errorf("VariantKey(%q, %q) = %q, %v; want ErrInvalidKey", tt.key, tt.variant, got, err)
		}
	}
}

// FuzzValidateKey checks that an accepted key stays inside any root on any
// operating system's reading of the path.
func FuzzValidateKey(f *testing.F) {
	for _, s := range []string{"recipes/ab/abcd.jpg", "../x", "a/../b", `a\b`, "/a", "a//b", ".x", "a/.", "C:x", "a\x00b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, key string) {
		if ValidateKey(key) != nil {
			return
		}
		const root = "/srv/uploads"
		joined := filepath.Join(root, filepath.FromSlash(key))
		if !strings.HasPrefix(joined, root+"/") || !filepath.IsLocal(key) || filepath.Clean(key) != key {
			t.Fatalf("accepted %q, which resolves to %q", key, joined)
		}
		if strings.ContainsAny(key, "\\:\x00") || strings.Contains("/"+key, "/.") {
			t.Fatalf("accepted %q", key)
		}
	})
}

// DeleteOrphans deletes every key it can, logs the ones it cannot, and
// finishes even when the caller's context has ended.
func TestDeleteOrphans(t *testing.T) {
	b := setup(t)
	ctx := context.Background()
	keys := []string{NewKey("recipes", "jpg"), NewKey("recipes", "jpg")}
	for _, k := range keys {
		if err := b.store.Put(ctx, k, strings.NewReader("x")); err != nil {
			t.Fatal(err)
		}
	}
	var logged bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&logged, nil))
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	DeleteOrphans(cancelled, b.store, logger, []string{keys[0], "../outside", keys[1]})
	for _, k := range keys {
		if _, err := b.store.Open(ctx, k); !errors.Is(err, ErrNotFound) {
			t.Errorf("%s still there: %v", k, err)
		}
	}
	if !strings.Contains(logged.String(), "../outside") {
		t.Errorf("the refused key was not logged: %q", logged.String())
	}
}
