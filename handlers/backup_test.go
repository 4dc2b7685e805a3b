package handlers

import (
	"archive/zip"
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"mime/multipart"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"

	"larder/backup"
	"larder/repo"
)

var backupSeq atomic.Int64

// fakeBackup puts a file with a fresh valid backup name into the bundle's
// backup directory and returns the name. Handlers that only look the file
// up (download, delete, restore's queueing) need nothing more.
func fakeBackup(t *testing.T, b *testBundle) string {
	t.Helper()
	n, _ := rand.Int(rand.Reader, big.NewInt(1<<30))
	name := backup.NameFor(time.Unix(1_600_000_000+n.Int64()+backupSeq.Add(1), 0))
	if err := os.MkdirAll(b.deps.Config.BackupPath, 0o750); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(b.deps.Config.BackupPath, name), []byte("PK fake archive"), 0o600); err != nil {
		t.Fatal(err)
	}
	return name
}

func init() {
	withBackup := func(suffix string) func(t *testing.T, b *testBundle, _ repo.User) (string, any) {
		return func(t *testing.T, b *testBundle, _ repo.User) (string, any) {
			return "/api/backups/" + fakeBackup(t, b) + suffix, nil
		}
	}
	addAuthz(
		authzCase{method: "GET", route: "/api/backups", want: ruleAdmin},
		authzCase{method: "POST", route: "/api/backups", want: ruleAdmin},
		authzCase{method: "POST", route: "/api/backups/upload", want: ruleAdmin},
		authzCase{method: "GET", route: "/api/backups/:name/download", want: ruleAdmin, prepare: withBackup("/download")},
		authzCase{method: "POST", route: "/api/backups/:name/restore", want: ruleAdmin, prepare: withBackup("/restore")},
		authzCase{method: "DELETE", route: "/api/backups/:name", want: ruleAdmin, prepare: withBackup("")},
	)
}

// realBackup writes a real backup of the bundle's database and upload
// directory and returns it.
func realBackup(t *testing.T, b *testBundle) backup.Info {
	t.Helper()
	info, err := backup.Create(context.Background(), b.db, backup.CreateOptions{
		Backups: b.stores().Backups, Files: b.stores().Files})
	if err != nil {
		t.Fatal(err)
	}
	return info
}

// A name that is not backup-YYYYMMDDTHHMMSSZ.zip is refused with 400 before
// any path is built from it, by every route that takes one.
func TestBackupNamesAreCheckedFirst(t *testing.T) {
	t.Parallel()
	b := setup(t)
	_, tok := b.user(t, repo.RoleAdmin)
	// A file a traversal would reach, and one with a near-miss name.
	secret := filepath.Join(filepath.Dir(b.deps.Config.BackupPath), "secret.zip")
	if err := os.WriteFile(secret, []byte("secret"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(b.deps.Config.BackupPath, 0o750); err != nil {
		t.Fatal(err)
	}
	near := "backup-20250102T030405Z.zip.bak"
	if err := os.WriteFile(filepath.Join(b.deps.Config.BackupPath, near), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	names := []string{
		"..%2Fsecret.zip",
		"..%2F..%2F..%2Fetc%2Fpasswd",
		"%2E%2E%2Fsecret.zip",
		"..%5Csecret.zip",
		"secret.zip",
		near,
		"backup-20250102T030405Z.zip%00",
		"backup-20250102T030405Z.ZIP",
		"backup-20250102T030405.zip",
		"backup-2025-01-02T03:04:05Z.zip",
		"backup-20251402T030405Z.zip",
		"%20backup-20250102T030405Z.zip",
	}
	for _, name := range names {
		for _, route := range []struct{ method, suffix string }{{"GET", "/download"}, {"POST", "/restore"}, {"DELETE", ""}} {
			r := b.do(t, route.method, "/api/backups/"+name+route.suffix, nil, tok)
			if r.Status != 400 || r.ErrorCode() != "invalid_request" {
				t.Errorf("%s %s: %d %s, want 400", route.method, name, r.Status, r.Body)
			}
		}
	}
	for _, p := range []string{secret, filepath.Join(b.deps.Config.BackupPath, near)} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s was touched: %v", p, err)
		}
	}
	var n int
	if err := b.db.QueryRow(context.Background(), `SELECT count(*) FROM app_job WHERE kind = 'backup_restore'`).Scan(&n); err != nil || n != 0 {
		t.Errorf("%d restore jobs queued for bad names", n)
	}
	// A well-formed name that does not exist is 404.
	r := b.do(t, "POST", "/api/backups/backup-20250102T030405Z.zip/restore", nil, tok)
	if r.Status != 404 {
		t.Errorf("missing backup: %d %s", r.Status, r.Body)
	}
}

func TestBackupCreateListDownloadDelete(t *testing.T) {
	t.Parallel()
	b := setup(t)
	admin, tok := b.user(t, repo.RoleAdmin)

	r := b.do(t, "POST", "/api/backups", nil, tok)
	wantStatus(t, r, 202)
	var accepted struct{ Job Job }
	r.JSON(t, &accepted)
	if accepted.Job.Kind != "backup_create" || accepted.Job.State != "queued" {
		t.Fatalf("job %+v", accepted.Job)
	}
	var owner string
	if err := b.db.QueryRow(context.Background(), `SELECT user_id::text FROM app_job WHERE id = $1`, accepted.Job.ID).Scan(&owner); err != nil || owner != admin.ID.String() {
		t.Errorf("create job owner %q, %v", owner, err)
	}

	var page backupPage
	b.do(t, "GET", "/api/backups", nil, tok).JSON(t, &page)
	if len(page.Items) != 0 || page.Total != 0 || page.NextCursor != nil {
		t.Fatalf("empty list: %+v", page)
	}

	var made []backup.Info
	for i := range 3 {
		now := time.Date(2025, 3, 4, 5, 6, 7+i, 0, time.UTC)
		info, err := backup.Create(context.Background(), b.db, backup.CreateOptions{
			Backups: b.stores().Backups, Files: b.stores().Files, Now: func() time.Time { return now }})
		if err != nil {
			t.Fatal(err)
		}
		made = append(made, info)
	}
	// Pages of two, newest first.
	var got []string
	cursor := ""
	for {
		path := "/api/backups?limit=2"
		if cursor != "" {
			path += "&cursor=" + cursor
		}
		r := b.do(t, "GET", path, nil, tok)
		wantStatus(t, r, 200)
		var p backupPage
		r.JSON(t, &p)
		if p.Total != 3 {
			t.Fatalf("total %d", p.Total)
		}
		for _, it := range p.Items {
			got = append(got, it.Name)
			if it.Size == 0 || it.CreatedAt.IsZero() {
				t.Errorf("item %+v", it)
			}
		}
		if p.NextCursor == nil {
			break
		}
		cursor = *p.NextCursor
	}
	want := []string{made[2].Name, made[1].Name, made[0].Name}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("listed %v, want %v", got, want)
	}
	for _, bad := range []string{"?limit=0", "?limit=101", "?limit=x", "?cursor=!!!"} {
		if r := b.do(t, "GET", "/api/backups"+bad, nil, tok); r.Status != 400 {
			t.Errorf("GET /api/backups%s: %d", bad, r.Status)
		}
	}

	r = b.do(t, "GET", "/api/backups/"+made[1].Name+"/download", nil, tok)
	wantStatus(t, r, 200)
	onDisk, err := os.ReadFile(filepath.Join(b.deps.Config.BackupPath, made[1].Name))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(r.Body, onDisk) {
		t.Errorf("downloaded %d bytes, the file has %d", len(r.Body), len(onDisk))
	}
	if r.Header.Get("Content-Type") != "application/zip" ||
		r.Header.Get("Content-Disposition") != `attachment; filename="`+made[1].Name+`"` ||
		r.Header.Get("Cache-Control") != "no-store" {
		t.Errorf("download headers %v", r.Header)
	}

	wantStatus(t, b.do(t, "DELETE", "/api/backups/"+made[1].Name, nil, tok), 204)
	if r := b.do(t, "DELETE", "/api/backups/"+made[1].Name, nil, tok); r.Status != 404 {
		t.Errorf("second delete: %d", r.Status)
	}
	if r := b.do(t, "GET", "/api/backups/"+made[1].Name+"/download", nil, tok); r.Status != 404 {
		t.Errorf("download of a deleted backup: %d", r.Status)
	}
	b.do(t, "GET", "/api/backups", nil, tok).JSON(t, &page)
	if page.Total != 2 {
		t.Errorf("after delete: %+v", page)
	}
}

// uploadBackup posts data as the multipart field "backup" through a real
// HTTP connection and returns the response.
func uploadBackup(t *testing.T, base, tok, field string, data []byte) response {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, err := mw.CreateFormFile(field, "from-another-server.zip")
	if err != nil {
		t.Fatal(err)
	}
	fw.Write(data)
	mw.Close()
	req, err := http.NewRequest("POST", base+"/api/backups/upload", &body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", mw.FormDataContentType())
	if tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return response{Status: resp.StatusCode, Header: resp.Header, Body: raw}
}

// announceUpload sends the headers of a multipart upload of size bytes to
// path and the first part of its body, then reads the answer: a refusal
// must come from the headers alone, before the body is read.
func announceUpload(t *testing.T, base, path, tok string, size int) response {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	auth := ""
	if tok != "" {
		auth = "Authorization: Bearer " + tok + "\r\n"
	}
	fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: x\r\n%sContent-Type: multipart/form-data; boundary=XYZ\r\nContent-Length: %d\r\n\r\n--XYZ\r\n", path, auth, size)
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return response{Status: resp.StatusCode, Header: resp.Header, Body: raw}
}

func TestBackupUploadThenList(t *testing.T) {
	t.Parallel()
	// The archive comes from another server.
	other := setup(t)
	if _, err := other.db.Exec(context.Background(), `INSERT INTO tag (name) VALUES ('from elsewhere')`); err != nil {
		t.Fatal(err)
	}
	made := realBackup(t, other)
	archive, err := os.ReadFile(filepath.Join(other.deps.Config.BackupPath, made.Name))
	if err != nil {
		t.Fatal(err)
	}

	b := setup(t)
	base := b.serve(t)
	_, tok := b.user(t, repo.RoleAdmin)
	r := uploadBackup(t, base, tok, "backup", archive)
	wantStatus(t, r, 201)
	var info backup.Info
	r.JSON(t, &info)
	if info.Name != made.Name || info.Size != int64(len(archive)) {
		t.Errorf("uploaded %+v, want the archive's own name %s", info, made.Name)
	}
	var page backupPage
	b.do(t, "GET", "/api/backups", nil, tok).JSON(t, &page)
	if page.Total != 1 || page.Items[0].Name != made.Name {
		t.Fatalf("list after upload: %+v", page)
	}
	// The same archive again would take the same name.
	if r := uploadBackup(t, base, tok, "backup", archive); r.Status != 409 {
		t.Errorf("second upload: %d %s", r.Status, r.Body)
	}

	// Refused archives never show in the list and leave no file behind.
	truncated := archive[:len(archive)-100]
	// A byte flipped inside an entry's data (a flip in a local header's
	// timestamp would change nothing that matters).
	flipped := bytes.Clone(archive)
	zr, err := zip.NewReader(bytes.NewReader(archive), int64(len(archive)))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range zr.File {
		if off, err := f.DataOffset(); err == nil && f.CompressedSize64 > 16 {
			flipped[off+int64(f.CompressedSize64)/2] ^= 0xff
			break
		}
	}
	for name, data := range map[string][]byte{"garbage": []byte("definitely not a zip"), "truncated": truncated, "damaged": flipped} {
		r := uploadBackup(t, base, tok, "backup", data)
		if r.Status != 400 || !strings.Contains(string(r.Body), "refused") {
			t.Errorf("%s archive: %d %s", name, r.Status, r.Body)
		}
	}
	if r := uploadBackup(t, base, tok, "file", archive); r.Status != 400 {
		t.Errorf("wrong field: %d %s", r.Status, r.Body)
	}
	if r := b.do(t, "POST", "/api/backups/upload", `{"backup": "x"}`, tok); r.Status != 415 {
		t.Errorf("JSON body: %d %s", r.Status, r.Body)
	}
	entries, _ := os.ReadDir(b.deps.Config.BackupPath)
	if len(entries) != 1 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("backup directory holds %v, want only the accepted archive", names)
	}
}

// Only the upload route, and only for an administrator, takes bodies over
// the app's limit (one image); BACKUP_MAX_UPLOAD bounds it, refused from
// the Content-Length alone.
func TestBackupUploadLimits(t *testing.T) {
	t.Parallel()
	src := setup(t)
	big := make([]byte, MaxImageBytes+4<<20) // over the app's body limit
	rand.Read(big)
	if err := os.MkdirAll(filepath.Join(src.deps.Config.UploadPath, "recipes", "ab"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(src.deps.Config.UploadPath, "recipes", "ab", "big.jpg"), big, 0o644); err != nil {
		t.Fatal(err)
	}
	made := realBackup(t, src)
	archive, err := os.ReadFile(filepath.Join(src.deps.Config.BackupPath, made.Name))
	if err != nil {
		t.Fatal(err)
	}

	b := setup(t)
	base := b.serve(t)
	_, userTok := b.user(t, repo.RoleUser)
	_, adminTok := b.user(t, repo.RoleAdmin)
	size := len(archive) + 300 // the multipart framing
	if r := announceUpload(t, base, "/api/backups/upload", userTok, size); r.Status != 413 {
		t.Errorf("large upload by a user: %d %s", r.Status, r.Body)
	}
	if r := announceUpload(t, base, "/api/backups/upload", "", size); r.Status != 413 {
		t.Errorf("large anonymous upload: %d %s", r.Status, r.Body)
	}
	if r := announceUpload(t, base, "/api/backups/upload", userTok+"x", size); r.Status != 413 {
		t.Errorf("large upload with a forged token: %d %s", r.Status, r.Body)
	}
	// A token is not enough: the session behind it must be live, and its
	// user an administrator now.
	signedOut, signedOutTok := b.user(t, repo.RoleAdmin)
	if _, err := repo.RevokeUserSessions(context.Background(), b.db, signedOut.ID); err != nil {
		t.Fatal(err)
	}
	if r := announceUpload(t, base, "/api/backups/upload", signedOutTok, size); r.Status != 413 {
		t.Errorf("large upload with a signed-out admin's token: %d %s", r.Status, r.Body)
	}
	demoted, demotedTok := b.user(t, repo.RoleAdmin)
	if _, err := repo.SetUserRole(context.Background(), b.db, demoted.ID, repo.RoleUser); err != nil {
		t.Fatal(err)
	}
	if r := announceUpload(t, base, "/api/backups/upload", demotedTok, size); r.Status != 413 {
		t.Errorf("large upload with a demoted admin's token: %d %s", r.Status, r.Body)
	}
	if r := uploadBackup(t, base, adminTok, "backup", archive); r.Status != 201 {
		t.Errorf("large upload by an admin: %d %s", r.Status, r.Body)
	}

	small := setup(t, func(d *Deps) { d.Config.BackupMaxUpload = 10 << 20 })
	smallBase := small.serve(t)
	_, smallAdmin := small.user(t, repo.RoleAdmin)
	r := announceUpload(t, smallBase, "/api/backups/upload", smallAdmin, size)
	if r.Status != 413 || r.ErrorCode() != "payload_too_large" {
		t.Errorf("upload over BACKUP_MAX_UPLOAD: %d %s", r.Status, r.Body)
	}
}

// While a restore runs (in a worker: here, a goroutine holding the lock on
// its own connection), every request under /api and /uploads answers 503
// "maintenance" with a Retry-After, reads included, except liveness,
// readiness (itself not ready) and what follows the restore; everything
// is served again once it ends.
func TestRequestsAre503DuringRestore(t *testing.T) {
	t.Parallel()
	clock := newTestClock()
	b := setup(t, withClock(clock))
	_, tok := b.user(t, repo.RoleAdmin)
	info := realBackup(t, b)

	inside, release := make(chan struct{}), make(chan struct{})
	first := true
	done := make(chan error, 1)
	go func() {
		_, err := backup.Restore(context.Background(), b.db, info.Name, backup.RestoreOptions{
			Backups: b.stores().Backups, Files: b.stores().Files,
			AfterTable: func(string) error {
				if first {
					first = false
					close(inside)
					<-release
				}
				return nil
			}})
		done <- err
	}()
	<-inside
	refused := []struct{ method, path string }{
		{"POST", "/api/backups"},
		{"DELETE", "/api/backups/" + info.Name},
		{"POST", "/api/backups/" + info.Name + "/restore"},
		{"POST", "/api/auth/login"},
		{"PUT", "/api/anything"},
		{"PATCH", "/api/anything"},
		{"GET", "/api/backups"},
		{"GET", "/api/recipes"},
		{"HEAD", "/api/recipes"},
		{"GET", "/api/jobs/" + uuid.NewString() + "/anything"},
		{"GET", "/api/openapi.json"},
		{"GET", "/uploads/recipes/ab/abcdef.jpg"},
		{"GET", "/uploads/recipes/ab/abcdef.jpg?exp=1&sig=x"},
	}
	for _, w := range refused {
		var body any
		if w.method != "GET" && w.method != "HEAD" {
			body = `{}`
		}
		r := b.do(t, w.method, w.path, body, tok)
		if r.Status != 503 || r.Header.Get("Retry-After") == "" ||
			(w.method != "HEAD" && (r.ErrorCode() != "maintenance" || !strings.Contains(string(r.Body), "being restored"))) {
			t.Errorf("%s %s during a restore: %d %s", w.method, w.path, r.Status, r.Body)
		}
	}
	if r := b.do(t, "GET", "/api/health", nil, ""); r.Status != 200 {
		t.Errorf("health during a restore: %d", r.Status)
	}
	if r := b.do(t, "GET", "/api/ready", nil, ""); r.Status != 503 || !strings.Contains(string(r.Body), "being restored") {
		t.Errorf("ready during a restore: %d %s", r.Status, r.Body)
	}
	// Let through to their own checks (here: no token), not refused by
	// the guard. (With a token they would wait for the restore's lock on
	// the users table, then refuse the ended session.)
	if r := b.do(t, "GET", "/api/jobs/"+uuid.NewString(), nil, ""); r.Status != 401 {
		t.Errorf("a job's status during a restore: %d %s", r.Status, r.Body)
	}
	if r := b.do(t, "GET", riverUIPath+"/", nil, ""); r.Status == 503 { // 404 here: the test app has no River UI
		t.Errorf("the River UI during a restore: %d %s", r.Status, r.Body)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	// The restore ended every session: sign in again (a fresh token).
	_, tok = b.user(t, repo.RoleAdmin)
	// Requests are served once the API looks again, at most restoreCheckInterval later.
	clock.Advance(restoreCheckInterval)
	wantStatus(t, b.do(t, "GET", "/api/backups", nil, tok), 200)
	wantStatus(t, b.do(t, "GET", "/api/ready", nil, ""), 200)
	wantStatus(t, b.do(t, "POST", "/api/backups", nil, tok), 202)
}

// After a restore, every access and refresh token issued before it is
// refused, even for users the backup has.
func TestSessionsEndWithRestore(t *testing.T) {
	t.Parallel()
	b := setup(t)
	admin, adminTok := b.user(t, repo.RoleAdmin)
	u, userTok := b.user(t, repo.RoleUser)
	info := realBackup(t, b) // both users are in it
	// A token issued after the backup, with a session version the backup
	// does not know.
	if _, err := b.db.Exec(context.Background(), `UPDATE app_user SET session_version = session_version + 5 WHERE id = $1`, u.ID); err != nil {
		t.Fatal(err)
	}
	later, err := b.deps.Tokens.Access(u.ID, u.Role, u.SessionVersion+5)
	if err != nil {
		t.Fatal(err)
	}
	// Sessions are good before.
	wantStatus(t, b.do(t, "GET", "/api/backups", nil, adminTok), 200)
	if r := b.do(t, "GET", "/api/jobs/"+insertTestJob(t, b, u).String(), nil, later); r.Status != 200 {
		t.Fatalf("token before restore: %d", r.Status)
	}

	if _, err := backup.Restore(context.Background(), b.db, info.Name, backup.RestoreOptions{
		Backups: b.stores().Backups, Files: b.stores().Files}); err != nil {
		t.Fatal(err)
	}
	for name, tok := range map[string]string{"admin": adminTok, "user": userTok, "user, issued after the backup": later} {
		r := b.do(t, "GET", "/api/backups", nil, tok)
		if r.Status != 401 || r.ErrorCode() != "unauthenticated" {
			t.Errorf("%s's old token after restore: %d %s", name, r.Status, r.Body)
		}
	}
	// A new sign-in works.
	var sv int
	if err := b.db.QueryRow(context.Background(), `SELECT session_version FROM app_user WHERE id = $1`, admin.ID).Scan(&sv); err != nil {
		t.Fatal(err)
	}
	fresh, _ := b.deps.Tokens.Access(admin.ID, admin.Role, sv)
	wantStatus(t, b.do(t, "GET", "/api/backups", nil, fresh), 200)
}

// The restore job has no owner, so its record survives the restore
// whoever started it, and every admin can follow it.
func TestRestoreIsQueuedAsASystemJob(t *testing.T) {
	t.Parallel()
	b := setup(t)
	_, tok := b.user(t, repo.RoleAdmin)
	_, otherAdmin := b.user(t, repo.RoleAdmin)
	name := fakeBackup(t, b)
	r := b.do(t, "POST", "/api/backups/"+name+"/restore", nil, tok)
	wantStatus(t, r, 202)
	var accepted struct{ Job Job }
	r.JSON(t, &accepted)
	if accepted.Job.Kind != "backup_restore" {
		t.Fatalf("job %+v", accepted.Job)
	}
	var args json.RawMessage
	if err := b.db.QueryRow(context.Background(), `SELECT r.args FROM app_job a JOIN river_job r ON r.id = a.river_job_id
		WHERE a.id = $1 AND a.user_id IS NULL AND r.queue = 'backup'`, accepted.Job.ID).Scan(&args); err != nil {
		t.Fatalf("restore job row: %v", err)
	}
	if !strings.Contains(string(args), name) {
		t.Errorf("args %s", args)
	}
	wantStatus(t, b.do(t, "GET", fmt.Sprintf("/api/jobs/%s", accepted.Job.ID), nil, otherAdmin), 200)
}

// When the API cannot tell whether a restore runs, it refuses requests
// rather than risk landing a write in the middle of a restore.
func TestRequestsRefusedWhenTheRestoreCheckFails(t *testing.T) {
	t.Parallel()
	b := setup(t)
	_, tok := b.user(t, repo.RoleAdmin)
	b.db.Close()
	r := b.do(t, "POST", "/api/backups", nil, tok)
	if r.Status != 503 || r.ErrorCode() != "unavailable" || strings.Contains(string(r.Body), "restored") {
		t.Fatalf("write with the database gone: %d %s", r.Status, r.Body)
	}
}
