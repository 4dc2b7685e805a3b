package filestore_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/minio/minio-go/v7"

	"larder/filestore"
	"larder/filestore/s3test"
)

// Every Store implementation passes the same suite: what handlers, jobs,
// backups and the storage migration rely on, whichever store is set up.

type impl struct {
	name string
	new  func(t *testing.T) filestore.Store
	// leftovers lists anything stored besides the valid keys: temp files on
	// disk, objects and unfinished multipart uploads in the bucket.
	leftovers func(t *testing.T, s filestore.Store) []string
}

func impls() []impl {
	return []impl{
		{"local", func(t *testing.T) filestore.Store {
			return filestore.Local{Root: filepath.Join(t.TempDir(), "uploads")}
		}, func(t *testing.T, s filestore.Store) []string {
			return filestore.ListFiles(t, s.(filestore.Local).Root)
		}},
		{"s3", func(t *testing.T) filestore.Store {
			return s3test.Store(t).WithPrefix("app")
		}, func(t *testing.T, s filestore.Store) []string {
			client, bucket := s.(*filestore.S3).Client()
			var out []string
			for oi := range client.ListObjects(t.Context(), bucket, minio.ListObjectsOptions{Recursive: true}) {
				if oi.Err != nil {
					t.Fatal(oi.Err)
				}
				out = append(out, oi.Key)
			}
			for u := range client.ListIncompleteUploads(t.Context(), bucket, "", true) {
				if u.Err != nil {
					t.Fatal(u.Err)
				}
				out = append(out, "multipart upload of "+u.Key)
			}
			return out
		}},
	}
}

func forEach(t *testing.T, fn func(t *testing.T, im impl, s filestore.Store)) {
	for _, im := range impls() {
		t.Run(im.name, func(t *testing.T) {
			t.Parallel()
			fn(t, im, im.new(t))
		})
	}
}

func read(t *testing.T, s filestore.Store, key string) []byte {
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
	return b
}

func TestConformancePutOpenStatReplace(t *testing.T) {
	t.Parallel()
	forEach(t, func(t *testing.T, im impl, s filestore.Store) {
		ctx := t.Context()
		if err := s.Check(ctx); err != nil {
			t.Fatalf("Check: %v", err)
		}
		key := "recipes/ab/abcdef.jpg"
		if _, err := s.Stat(ctx, key); !errors.Is(err, filestore.ErrNotFound) {
			t.Fatalf("Stat before Put: %v", err)
		}
		if _, err := s.Open(ctx, key); !errors.Is(err, filestore.ErrNotFound) {
			t.Fatalf("Open before Put: %v", err)
		}
		if err := s.Put(ctx, key, strings.NewReader("first")); err != nil {
			t.Fatal(err)
		}
		if err := s.Put(ctx, key, strings.NewReader("second!")); err != nil {
			t.Fatal(err)
		}
		if got := read(t, s, key); string(got) != "second!" {
			t.Fatalf("read %q after replace", got)
		}
		info, err := s.Stat(ctx, key)
		if err != nil || info.Size != 7 || info.Modified.IsZero() {
			t.Fatalf("Stat = %+v, %v", info, err)
		}
		// Ranged reads: both stores' readers seek.
		rc, err := s.Open(ctx, key)
		if err != nil {
			t.Fatal(err)
		}
		defer rc.Close()
		rs, ok := rc.(io.ReadSeeker)
		if !ok {
			t.Fatalf("%T does not seek", rc)
		}
		if _, err := rs.Seek(3, io.SeekStart); err != nil {
			t.Fatal(err)
		}
		if rest, _ := io.ReadAll(rs); string(rest) != "ond!" {
			t.Fatalf("after Seek(3): %q", rest)
		}
	})
}

// A large object streams (a multipart upload on S3) and comes back
// byte for byte.
func TestConformanceLargeStream(t *testing.T) {
	t.Parallel()
	forEach(t, func(t *testing.T, im impl, s filestore.Store) {
		const size = 40<<20 + 12345 // several S3 parts
		h := sha256.New()
		src := io.TeeReader(io.LimitReader(pattern{}, size), h)
		if err := s.Put(t.Context(), "backups/big.zip", src); err != nil {
			t.Fatal(err)
		}
		want := h.Sum(nil)
		rc, err := s.Open(t.Context(), "backups/big.zip")
		if err != nil {
			t.Fatal(err)
		}
		defer rc.Close()
		h2 := sha256.New()
		n, err := io.Copy(h2, rc)
		if err != nil || n != size || !bytes.Equal(h2.Sum(nil), want) {
			t.Fatalf("read back %d bytes, err %v, same digest %v", n, err, bytes.Equal(h2.Sum(nil), want))
		}
	})
}

// pattern is an endless reader of non-repeating-looking bytes.
type pattern struct{}

func (pattern) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(i*7 + i/251)
	}
	return len(p), nil
}

// errAfter returns n bytes, then err: a client that goes away mid-upload.
type errAfter struct {
	n   int64
	err error
}

func (r *errAfter) Read(p []byte) (int, error) {
	if r.n <= 0 {
		return 0, r.err
	}
	k := min(int64(len(p)), r.n)
	for i := range k {
		p[i] = 'x'
	}
	r.n -= k
	return int(k), nil
}

// A failure injected mid-upload leaves nothing visible: no object, no
// unfinished multipart upload, no temp file, and the previous content of
// the key untouched.
func TestConformanceFailedPutLeavesNothing(t *testing.T) {
	t.Parallel()
	boom := errors.New("client went away")
	for _, tc := range []struct {
		name string
		n    int64
	}{{"before any byte", 0}, {"within the first part", 100 << 10}, {"after several parts", 40 << 20}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			forEach(t, func(t *testing.T, im impl, s filestore.Store) {
				ctx := t.Context()
				if err := s.Put(ctx, "recipes/ab/keep.jpg", strings.NewReader("previous")); err != nil {
					t.Fatal(err)
				}
				before := im.leftovers(t, s)
				for _, key := range []string{"recipes/ab/new.jpg", "recipes/ab/keep.jpg"} {
					err := s.Put(ctx, key, &errAfter{n: tc.n, err: boom})
					if !errors.Is(err, boom) {
						t.Fatalf("Put %s: err = %v, want %v", key, err, boom)
					}
				}
				if _, err := s.Stat(ctx, "recipes/ab/new.jpg"); !errors.Is(err, filestore.ErrNotFound) {
					t.Errorf("Stat after a failed Put: %v", err)
				}
				if got := read(t, s, "recipes/ab/keep.jpg"); string(got) != "previous" {
					t.Errorf("a failed replace changed the file: %q", got)
				}
				if after := im.leftovers(t, s); !slices.Equal(before, after) {
					t.Errorf("left behind: before %v, after %v", before, after)
				}
			})
		})
	}
}

func TestConformanceCancelledPut(t *testing.T) {
	t.Parallel()
	forEach(t, func(t *testing.T, im impl, s filestore.Store) {
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		if err := s.Put(ctx, "recipes/ab/x.jpg", strings.NewReader("x")); !errors.Is(err, context.Canceled) {
			t.Fatalf("Put with an ended context: %v", err)
		}
		if left := im.leftovers(t, s); len(left) != 0 {
			t.Fatalf("left behind: %v", left)
		}
	})
}

func TestConformanceDeleteWalk(t *testing.T) {
	t.Parallel()
	forEach(t, func(t *testing.T, im impl, s filestore.Store) {
		ctx := t.Context()
		want := map[string]int64{
			"cookbooks/cd/cd01.png":      3,
			"recipes/ab/ab01.jpg":        5,
			"recipes/ab/ab01_thumb.jpg":  1,
			"recipes/ff/ff99.jpg":        10,
			"recipes/ff/ff99_medium.jpg": 0,
		}
		for k, n := range want {
			if err := s.Put(ctx, k, bytes.NewReader(make([]byte, n))); err != nil {
				t.Fatal(err)
			}
		}
		var keys []string
		got := map[string]int64{}
		if err := s.Walk(ctx, func(k string, n int64) error { keys = append(keys, k); got[k] = n; return nil }); err != nil {
			t.Fatal(err)
		}
		if !slices.IsSorted(keys) || len(got) != len(want) {
			t.Fatalf("Walk: %v", keys)
		}
		for k, n := range want {
			if got[k] != n {
				t.Errorf("Walk size of %s = %d, want %d", k, got[k], n)
			}
		}
		stop := errors.New("stop")
		calls := 0
		if err := s.Walk(ctx, func(string, int64) error { calls++; return stop }); !errors.Is(err, stop) || calls != 1 {
			t.Fatalf("Walk did not stop at fn's error: %v after %d calls", err, calls)
		}
		for i := range 2 { // a retried delete succeeds too
			if err := s.Delete(ctx, "recipes/ab/ab01.jpg"); err != nil {
				t.Fatalf("Delete #%d: %v", i, err)
			}
		}
		if _, err := s.Open(ctx, "recipes/ab/ab01.jpg"); !errors.Is(err, filestore.ErrNotFound) {
			t.Fatalf("Open after Delete: %v", err)
		}
		if err := s.Delete(ctx, "recipes/zz/never.jpg"); err != nil {
			t.Fatalf("Delete of a missing key: %v", err)
		}
	})
}

func TestConformanceInvalidKeys(t *testing.T) {
	t.Parallel()
	forEach(t, func(t *testing.T, im impl, s filestore.Store) {
		ctx := t.Context()
		for _, key := range []string{"", "/etc/passwd", "../x.jpg", "a/../../x.jpg", `a\b.jpg`, ".tmp-x", "a//b.jpg"} {
			if err := s.Put(ctx, key, strings.NewReader("x")); !errors.Is(err, filestore.ErrInvalidKey) {
				t.Errorf("Put %q: %v", key, err)
			}
			if _, err := s.Open(ctx, key); !errors.Is(err, filestore.ErrInvalidKey) {
				t.Errorf("Open %q: %v", key, err)
			}
			if _, err := s.Stat(ctx, key); !errors.Is(err, filestore.ErrInvalidKey) {
				t.Errorf("Stat %q: %v", key, err)
			}
			if err := s.Delete(ctx, key); !errors.Is(err, filestore.ErrInvalidKey) {
				t.Errorf("Delete %q: %v", key, err)
			}
		}
		if left := im.leftovers(t, s); len(left) != 0 {
			t.Fatalf("written: %v", left)
		}
	})
}

// A bucket that does not exist is not ready.
func TestS3CheckMissingBucket(t *testing.T) {
	t.Parallel()
	cfg := s3test.Bucket(t)
	cfg.Bucket += "-missing"
	s, err := filestore.NewS3(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Check(t.Context()); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Fatalf("Check = %v", err)
	}
	// Wrong credentials are not ready either.
	cfg = s3test.Bucket(t)
	cfg.SecretAccessKey = "wrong"
	if s, _ = filestore.NewS3(cfg); s.Check(t.Context()) == nil {
		t.Fatal("Check passed with a wrong secret")
	}
}
