package jobs

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"larder/filestore"
)

// The hourly purge also removes what a worker killed mid-write left in the
// stores, once older than the longest a write may take (a backup's time
// limit): here a backup's and an image's hidden temporary files; and the
// archives a killed upload or restore, and the request bodies a killed API
// was receiving, left in the scratch directory.
// Younger ones (writes that may be in progress), stored files and other
// files of the scratch directory stay. The age is reckoned by Deps.Clock.
func TestPurgeExpiredRemovesLeftoversOfKilledWrites(t *testing.T) {
	t.Parallel()
	e := newJobEnv(t)
	now := time.Date(2026, 3, 14, 12, 0, 0, 0, time.UTC)
	e.deps.Clock = func() time.Time { return now }
	cfg := e.deps.Config
	ctx := context.Background()

	uploads, backups := filestore.Local{Root: cfg.UploadPath}, filestore.Local{Root: cfg.BackupPath}
	if err := uploads.Put(ctx, "recipes/ab/ab01.jpg", strings.NewReader("a stored image")); err != nil {
		t.Fatal(err)
	}
	if err := backups.Put(ctx, "backup-20260101T000000Z.zip", strings.NewReader("a stored backup")); err != nil {
		t.Fatal(err)
	}
	file := func(dir, rel string, age time.Duration) string {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(p); os.IsNotExist(err) {
			if err := os.WriteFile(p, []byte("part of a file"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.Chtimes(p, now.Add(-age), now.Add(-age)); err != nil {
			t.Fatal(err)
		}
		return p
	}
	month := 30 * 24 * time.Hour
	scratch := filepath.Join(cfg.DataDir, "tmp")
	kept := []string{
		file(scratch, "upload-00112233aabbccdd.zip", backupTimeLimit-time.Minute),
		file(scratch, "restore-123456789.zip", time.Minute),
		file(scratch, "multipart-2718281828", backupTimeLimit-time.Minute), // a request body still arriving
		file(scratch, "notes.txt", month),
		file(scratch, "upload-0a0b0c0d/restore-1.zip", month), // only the directory's own files are scratch files
		file(cfg.UploadPath, "recipes/ab/ab01.jpg", month),
		file(cfg.BackupPath, "backup-20260101T000000Z.zip", month),
		file(cfg.UploadPath, "recipes/cd/.tmp-00112233aabbccdd", backupTimeLimit-time.Minute),
		file(cfg.BackupPath, ".tmp-8899aabbccddeeff", time.Minute),
	}
	gone := []string{
		file(cfg.UploadPath, "gen-0123456789abcdef/recipes/ef/.tmp-4455667788990011", backupTimeLimit+time.Minute),
		file(cfg.BackupPath, ".tmp-0a1b2c3d4e5f6071", backupTimeLimit+time.Hour),
		file(scratch, "upload-8899aabbccddeeff.zip", backupTimeLimit+time.Minute),
		file(scratch, "restore-987654321.zip", month),
		file(scratch, "multipart-3141592653", backupTimeLimit+time.Minute), // spooled by a killed API
	}

	row := e.enqueueAs(t, nil, PurgeExpiredArgs{}, nil)
	workJob(t, e.db, &PurgeExpiredWorker{deps: e.deps}, row)
	o := e.outcome(t, row.ID)
	var res struct {
		LeftoversRemoved *int `json:"leftovers_removed"`
	}
	if err := json.Unmarshal(o.Result, &res); err != nil || res.LeftoversRemoved == nil || *res.LeftoversRemoved != len(gone) {
		t.Errorf("result %s (%v), want leftovers_removed %d", o.Result, err, len(gone))
	}
	for _, p := range gone {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("%s: still there (%v)", p, err)
		}
	}
	for _, p := range kept {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
}
