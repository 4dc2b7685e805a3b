package storage

import (
	"context"
	"errors"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"larder/filestore"
	"larder/filestore/s3test"
)

// admin storage migrate: local → S3 and back, every file verified, and a
// second run (after an interruption) copies only what is missing or
// differs.
func TestMigrateBothWaysAndRerun(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	local := filestore.Local{Root: filepath.Join(t.TempDir(), "uploads")}
	bucket := s3test.Store(t).WithPrefix("uploads")
	files := map[string]string{
		"recipes/ab/ab01.jpg":          "jpeg one",
		"recipes/ab/ab01_thumb.jpg":    "thumb",
		"cookbooks/cd/cd01.png":        "png",
		"gen-0123456789abcdef/x/y.jpg": "a restored generation",
	}
	for k, v := range files {
		if err := local.Put(ctx, k, strings.NewReader(v)); err != nil {
			t.Fatal(err)
		}
	}
	// An interrupted earlier run: one file copied, one copied wrong.
	if err := bucket.Put(ctx, "recipes/ab/ab01.jpg", strings.NewReader("jpeg one")); err != nil {
		t.Fatal(err)
	}
	if err := bucket.Put(ctx, "cookbooks/cd/cd01.png", strings.NewReader("truncat")); err != nil {
		t.Fatal(err)
	}
	res, err := Migrate(ctx, local, bucket, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Copied != 3 || res.Skipped != 1 {
		t.Errorf("first run: %+v, want 3 copied (one of them over a wrong copy) and 1 skipped", res)
	}
	same(t, bucket, files)
	if res, err = Migrate(ctx, local, bucket, nil); err != nil || res.Copied != 0 || res.Skipped != 4 {
		t.Errorf("second run: %+v, %v; want everything skipped", res, err)
	}

	back := filestore.Local{Root: filepath.Join(t.TempDir(), "uploads")}
	if res, err = Migrate(ctx, bucket, back, nil); err != nil || res.Copied != 4 {
		t.Fatalf("back to local: %+v, %v", res, err)
	}
	same(t, back, files)
}

// A destination that keeps a different content than it was sent fails the
// migration, naming the file.
func TestMigrateVerifies(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	src := filestore.Local{Root: filepath.Join(t.TempDir(), "a")}
	if err := src.Put(ctx, "recipes/ab/x.jpg", strings.NewReader("original")); err != nil {
		t.Fatal(err)
	}
	dst := corrupting{filestore.Local{Root: filepath.Join(t.TempDir(), "b")}}
	_, err := Migrate(ctx, src, dst, nil)
	if err == nil || !strings.Contains(err.Error(), "recipes/ab/x.jpg") || !strings.Contains(err.Error(), "SHA-256") {
		t.Fatalf("err = %v", err)
	}
}

// corrupting stores one byte fewer than it is given: a copy gone wrong.
type corrupting struct{ filestore.Local }

func (c corrupting) Put(ctx context.Context, key string, r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	if len(b) == 0 {
		return errors.New("empty")
	}
	return c.Local.Put(ctx, key, strings.NewReader(string(b[:len(b)-1])))
}

func same(t *testing.T, s filestore.Store, want map[string]string) {
	t.Helper()
	got := map[string]string{}
	err := s.Walk(context.Background(), func(k string, _ int64) error {
		rc, err := s.Open(context.Background(), k)
		if err != nil {
			return err
		}
		defer rc.Close()
		b, err := io.ReadAll(rc)
		got[k] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("stored %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
}
