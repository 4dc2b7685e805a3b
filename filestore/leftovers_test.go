package filestore_test

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/minio/minio-go/v7"

	"larder/filestore"
	"larder/filestore/s3test"
)

// The safe age of these tests: what began before it is a leftover of a
// killed writer, what began since may be a write in progress.
const leftoverAge = 6 * time.Hour

// A killed Put leaves its hidden temporary file (".tmp-" and random hex,
// beside the key's place). Those last written before the cut-off go; a
// younger one (a Put in progress), stored files however old, and anything
// else hidden stay.
func TestLocalRemoveLeftovers(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	now := time.Date(2026, 3, 14, 12, 0, 0, 0, time.UTC) // the injected clock
	s := filestore.Local{Root: filepath.Join(t.TempDir(), "backups")}
	if err := s.Put(ctx, "recipes/ab/ab01.jpg", strings.NewReader("a stored file")); err != nil {
		t.Fatal(err)
	}
	if err := s.Put(ctx, "larder-20260101.tar.gz", strings.NewReader("a stored backup")); err != nil {
		t.Fatal(err)
	}
	write := func(rel string, age time.Duration) {
		p := filepath.Join(s.Root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("part of a file"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, now.Add(-age), now.Add(-age)); err != nil {
			t.Fatal(err)
		}
	}
	for _, key := range []string{"recipes/ab/ab01.jpg", "larder-20260101.tar.gz"} {
		p := filepath.Join(s.Root, filepath.FromSlash(key))
		if err := os.Chtimes(p, now.Add(-30*24*time.Hour), now.Add(-30*24*time.Hour)); err != nil {
			t.Fatal(err)
		}
	}
	write(".tmp-0a1b2c3d4e5f6071", leftoverAge+time.Hour)              // a killed backup
	write("recipes/ab/.tmp-1122334455667788", leftoverAge+time.Minute) // a killed image Put
	write("recipes/ab/.tmp-99aabbccddeeff00", leftoverAge-time.Minute) // a Put in progress
	write(".tmp-fedcba9876543210", time.Second)                        // a backup being written
	write(".keep", 365*24*time.Hour)                                   // hidden, not ours
	write(".snapshot/.tmp-0000000000000000", 365*24*time.Hour)         // not where Put writes

	n, err := s.RemoveLeftovers(ctx, now.Add(-leftoverAge))
	if err != nil {
		t.Fatal(err)
	}
	if n != 2 {
		t.Errorf("removed %d, want the 2 older than the cut-off", n)
	}
	want := []string{
		".keep", ".snapshot/", ".snapshot/.tmp-0000000000000000", ".tmp-fedcba9876543210",
		"larder-20260101.tar.gz", "recipes/", "recipes/ab/", "recipes/ab/.tmp-99aabbccddeeff00", "recipes/ab/ab01.jpg",
	}
	if got := filestore.ListFiles(t, s.Root); !slices.Equal(got, want) {
		t.Errorf("left\n%q\nwant\n%q", got, want)
	}
	// A missing directory has nothing to remove.
	if n, err := (filestore.Local{Root: filepath.Join(t.TempDir(), "none")}).RemoveLeftovers(ctx, now); n != 0 || err != nil {
		t.Errorf("missing root: %d, %v", n, err)
	}
}

// A killed streaming Put leaves an unfinished multipart upload, whose parts
// the bucket keeps (and bills) for ever. Those initiated before the cut-off
// are aborted; younger ones, those of other prefixes (another store of the
// bucket) and stored objects stay. The server stamps an upload with its
// own clock, so the cut-off is placed an hour either side of its creation.
func TestS3RemoveLeftovers(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	bucketStore := s3test.Store(t)
	uploads, backups := bucketStore.WithPrefix("uploads"), bucketStore.WithPrefix("backups")
	client, bucket := uploads.Client()
	core := minio.Core{Client: client}

	if err := uploads.Put(ctx, "recipes/ab/ab01.jpg", strings.NewReader("a stored file")); err != nil {
		t.Fatal(err)
	}
	started := time.Now()
	unfinished := func(object string) {
		id, err := core.NewMultipartUpload(ctx, bucket, object, minio.PutObjectOptions{})
		if err != nil {
			t.Fatal(err)
		}
		part := bytes.Repeat([]byte("x"), 1<<10)
		if _, err := core.PutObjectPart(ctx, bucket, object, id, 1, bytes.NewReader(part), int64(len(part)), minio.PutObjectPartOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	unfinished("uploads/recipes/cd/cd01.jpg")
	unfinished("uploads/recipes/cd/cd01.jpg") // a retried Put of the same key
	unfinished("uploads/gen-0123456789abcdef/recipes/ef/ef01.jpg")
	unfinished("backups/larder-20260101.tar.gz")

	pending := func() []string {
		var out []string
		for u := range client.ListIncompleteUploads(ctx, bucket, "", true) {
			if u.Err != nil {
				t.Fatal(u.Err)
			}
			out = append(out, u.Key)
		}
		slices.Sort(out)
		return out
	}
	all := pending()
	if len(all) != 4 {
		t.Fatalf("set-up: unfinished uploads %q, want 4", all)
	}

	// Begun after the cut-off: writes that may be in progress.
	if n, err := uploads.RemoveLeftovers(ctx, started.Add(-time.Hour)); n != 0 || err != nil {
		t.Fatalf("younger than the cut-off: removed %d, %v", n, err)
	}
	if got := pending(); !slices.Equal(got, all) {
		t.Fatalf("younger than the cut-off: left %q, want %q", got, all)
	}

	// Begun before it: leftovers, but only of this store's prefix.
	n, err := uploads.RemoveLeftovers(ctx, started.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if n != 3 {
		t.Errorf("removed %d, want the 3 under uploads/", n)
	}
	if got, want := pending(), []string{"backups/larder-20260101.tar.gz"}; !slices.Equal(got, want) {
		t.Errorf("left %q, want %q", got, want)
	}
	if got := string(read(t, uploads, "recipes/ab/ab01.jpg")); got != "a stored file" {
		t.Errorf("stored object now reads %q", got)
	}
	if n, err := backups.RemoveLeftovers(ctx, started.Add(time.Hour)); n != 1 || err != nil {
		t.Errorf("backups: removed %d, %v; want 1", n, err)
	}
	if got := pending(); len(got) != 0 {
		t.Errorf("left %q, want none", got)
	}
}
