package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"larder/backup"
	"larder/cmd/cmdtest"
	"larder/repo"
	"larder/repo/repotest"
	"larder/token"
)

// These tests run the real api binary as a separate process against a test
// database, as the worker tests run the worker.

var apiBinary string

func TestMain(m *testing.M) { cmdtest.Main(m, "api", &apiBinary) }

// A large upload is spooled in DATA_DIR/tmp as it arrives, whatever TMPDIR
// the process was started with: what an API killed in the middle of an
// upload leaves there is the scratch sweep's (backup.RemoveScratchLeftovers,
// which the API runs at start and every hour), which removes it once it is
// older than backup.TimeLimit, and not before.
func TestKilledAPILeavesItsSpooledUploadToTheScratchSweep(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dbName := repotest.NewDatabase(t)
	db, err := pgxpool.New(ctx, repotest.URLFor(dbName))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	admin := repotest.CreateUser(t, db, repo.RoleAdmin)

	dataDir, systemTmp := t.TempDir(), t.TempDir()
	scratch := filepath.Join(dataDir, "tmp")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	secret, refreshSecret := "access-secret-for-the-spool-test-0123456789", "refresh-secret-for-the-spool-test-0123456789"
	api := exec.Command(apiBinary)
	api.Env = append(os.Environ(),
		"DATABASE_URL="+repotest.URLFor(dbName),
		"DATA_DIR="+dataDir,
		"TMPDIR="+systemTmp,
		"LISTEN_ADDR="+addr,
		"JWT_SECRET="+secret,
		"JWT_REFRESH_SECRET="+refreshSecret,
		"LOG_LEVEL=warn",
	)
	var logs strings.Builder
	api.Stdout, api.Stderr = &logs, &logs
	if err := api.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if api.ProcessState == nil {
			_ = api.Process.Kill()
			_, _ = api.Process.Wait()
		}
		if t.Failed() {
			t.Logf("api log:\n%s", logs.String())
		}
	})
	cmdtest.WaitFor(t, "the API to serve", 60*time.Second, func() bool {
		resp, err := http.Get("http://" + addr + "/api/health")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	})

	// An administrator's backup upload, of which 20 MB arrive before the
	// API is killed: more than the 16 MB the server keeps in memory.
	tok, err := (&token.Issuer{AccessSecret: []byte(secret), RefreshSecret: []byte(refreshSecret),
		AccessTTL: time.Hour, RefreshTTL: time.Hour}).Access(admin.ID, admin.Role, admin.SessionVersion)
	if err != nil {
		t.Fatal(err)
	}
	const boundary = "spool-test-boundary"
	head := "--" + boundary + "\r\nContent-Disposition: form-data; name=\"backup\"; filename=\"backup.zip\"\r\n" +
		"Content-Type: application/zip\r\n\r\n"
	tail := "\r\n--" + boundary + "--\r\n"
	const declared, sent = 64 << 20, 20 << 20
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := fmt.Fprintf(conn, "POST /api/backups/upload HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\n"+
		"Content-Type: multipart/form-data; boundary=%s\r\nContent-Length: %d\r\n\r\n%s",
		addr, tok, boundary, len(head)+declared+len(tail), head); err != nil {
		t.Fatal(err)
	}
	chunk := make([]byte, 1<<20)
	for range sent / len(chunk) {
		if _, err := conn.Write(chunk); err != nil {
			t.Fatal(err)
		}
	}
	var spool string
	cmdtest.WaitFor(t, "the upload to be spooled in DATA_DIR/tmp", 30*time.Second, func() bool {
		spool = spooledBody(t, scratch, 16<<20)
		return spool != ""
	})
	if other := spooledBody(t, systemTmp, 0); other != "" {
		t.Fatalf("the upload was also spooled in TMPDIR: %s", other)
	}

	if err := api.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_, _ = api.Process.Wait()
	if _, err := os.Stat(spool); err != nil {
		t.Fatalf("the killed API's spooled upload: %v", err)
	}
	// Young, it may be a request still arriving on another API sharing
	// the data directory: the sweep leaves it.
	if n, err := backup.RemoveScratchLeftovers(scratch, time.Now().Add(-backup.TimeLimit)); err != nil || n != 0 {
		t.Fatalf("sweep of a young spool: removed %d (%v), want 0", n, err)
	}
	if _, err := os.Stat(spool); err != nil {
		t.Fatalf("the sweep took a young spool: %v", err)
	}
	// Once older than the time limit, it can belong to no live request.
	old := time.Now().Add(-backup.TimeLimit - time.Minute)
	if err := os.Chtimes(spool, old, old); err != nil {
		t.Fatal(err)
	}
	if n, err := backup.RemoveScratchLeftovers(scratch, time.Now().Add(-backup.TimeLimit)); err != nil || n != 1 {
		t.Fatalf("sweep of an old spool: removed %d (%v), want 1", n, err)
	}
	if _, err := os.Stat(spool); !os.IsNotExist(err) {
		t.Fatalf("the old spool is still there: %v", err)
	}
}

// spooledBody is the path of a file in dir in which the HTTP server spools
// a request body (Go's mime/multipart names them multipart-*) holding more
// than min bytes, or "".
func spooledBody(t *testing.T, dir string, min int64) string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return ""
	}
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), "multipart-") {
			continue
		}
		if info, err := e.Info(); err == nil && info.Size() > min {
			return filepath.Join(dir, e.Name())
		}
	}
	return ""
}
