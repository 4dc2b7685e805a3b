package backup

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"larder/filestore"
	"larder/filestore/s3test"
	"larder/repo/repotest"
)

// deadlineProbe is a real store that notes the deadline each Put was given.
type deadlineProbe struct {
	filestore.Store
	mu        sync.Mutex
	deadlines []time.Time // the zero time for a Put without one
}

func (p *deadlineProbe) Put(ctx context.Context, key string, r io.Reader) error {
	d, _ := ctx.Deadline()
	p.mu.Lock()
	p.deadlines = append(p.deadlines, d)
	p.mu.Unlock()
	return p.Store.Put(ctx, key, r)
}

// uploaded puts a copy of a real backup where the API spools an upload.
func uploaded(t *testing.T, archive string) string {
	t.Helper()
	tmp, err := TempPath(filepath.Join(t.TempDir(), "tmp"))
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(archive)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return tmp
}

// An uploaded backup's copy into the store (an S3 multipart upload) ends
// within TimeLimit, which is the age from which the purge aborts
// unfinished uploads: the purge can never abort a copy still running. A
// copy whose time is up before it begins stores nothing and leaves no
// unfinished upload.
func TestAdoptIsBoundedByThePurgeAge(t *testing.T) {
	t.Parallel()
	db := repotest.DB(t)
	d := newDirs(t)
	info := d.create(t, db)
	bucket := s3test.Store(t)
	store := &deadlineProbe{Store: bucket.WithPrefix("backups")}
	ctx := context.Background()

	// The request's own context has no deadline (Fiber's never has).
	before := time.Now()
	tmp := uploaded(t, filepath.Join(d.backups, info.Name))
	got, err := Adopt(ctx, store, tmp, DefaultLimits)
	after := time.Now()
	if err != nil {
		t.Fatal(err)
	}
	if got.Name != info.Name {
		t.Errorf("adopted as %s, want %s", got.Name, info.Name)
	}
	if len(store.deadlines) != 1 {
		t.Fatalf("%d copies, want 1", len(store.deadlines))
	}
	deadline := store.deadlines[0]
	if deadline.IsZero() {
		t.Fatal("the copy into the store ran without a deadline: the purge could abort it while it runs")
	}
	if deadline.Before(before) || deadline.After(after.Add(TimeLimit)) {
		t.Errorf("the copy's deadline is %s after the adoption began, want at most TimeLimit (%s)", deadline.Sub(before), TimeLimit)
	}
	if _, err := os.Stat(tmp); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the spooled archive is still there: %v", err)
	}

	// Out of time before the copy: nothing is stored or begun.
	if err := Delete(ctx, store, info.Name); err != nil {
		t.Fatal(err)
	}
	late, cancel := context.WithDeadline(ctx, time.Now().Add(-time.Second))
	defer cancel()
	tmp = uploaded(t, filepath.Join(d.backups, info.Name))
	if _, err := Adopt(late, store, tmp, DefaultLimits); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("adopt after the deadline: %v, want context.DeadlineExceeded", err)
	}
	if list, err := List(ctx, store); err != nil || len(list) != 0 {
		t.Errorf("after a late adoption the backups are %v (%v), want none", list, err)
	}
	client, name := bucket.Client()
	for u := range client.ListIncompleteUploads(ctx, name, "", true) {
		if u.Err != nil {
			t.Fatal(u.Err)
		}
		t.Errorf("unfinished upload of %s left behind", u.Key)
	}
	if _, err := os.Stat(tmp); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the spooled archive is still there: %v", err)
	}
}
