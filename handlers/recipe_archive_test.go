package handlers

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"

	"larder/importer/archive/archivetest"
	"larder/jobs"
	"larder/repo"
)

// Importing an export needs only a signed-in caller.
func init() {
	addAuthz(authzCase{method: "POST", route: "/api/recipes/import/archive", want: ruleAuth})
}

// archiveBody is a multipart body with the export in "file" and the other
// fields given as name, value pairs.
func archiveBody(t *testing.T, field, filename string, data []byte, fields ...string) ([]byte, string) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for i := 0; i+1 < len(fields); i += 2 {
		if err := mw.WriteField(fields[i], fields[i+1]); err != nil {
			t.Fatal(err)
		}
	}
	if field != "" {
		fw, err := mw.CreateFormFile(field, filename)
		if err != nil {
			t.Fatal(err)
		}
		fw.Write(data)
	}
	mw.Close()
	return buf.Bytes(), mw.FormDataContentType()
}

// postArchive sends the body through a real HTTP connection, as a browser
// does (the large-body path is the HTTP server's, which app.Test skips).
func postArchive(t *testing.T, base, tok string, body []byte, contentType string) response {
	t.Helper()
	req, err := http.NewRequest("POST", base+"/api/recipes/import/archive", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", contentType)
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

// TestArchiveImportAccepted: an export larger than the app's usual body
// limit (21 MB) is accepted from a signed-in user, stored in the file
// store, and a recipe_archive_import job with its key, name and
// visibility is queued for the caller.
func TestArchiveImportAccepted(t *testing.T) {
	t.Parallel()
	b := setup(t)
	base := b.serve(t)
	u, tok := b.user(t, repo.RoleUser)

	// Two recipes and 24 MB of photos that do not compress.
	filler := make([]byte, 24<<20)
	if _, err := rand.Read(filler); err != nil {
		t.Fatal(err)
	}
	files, err := archivetest.Unzip(archivetest.Paprika(archivetest.Samples(2, true)))
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, archivetest.File{Name: "extra/photo.jpg", Data: filler, Store: true})
	export := archivetest.Zip(files...)
	body, ct := archiveBody(t, "file", "My recipes.paprikarecipes", export, "visibility", "shared")

	r := postArchive(t, base, tok, body, ct)
	wantStatus(t, r, 202)
	var got struct{ Job Job }
	r.JSON(t, &got)
	if got.Job.Kind != "recipe_archive_import" || got.Job.State != "queued" {
		t.Fatalf("job %+v", got.Job)
	}
	var raw []byte
	if err := b.db.QueryRow(context.Background(), `SELECT r.args FROM river_job r JOIN app_job j ON j.river_job_id = r.id
		WHERE j.id = $1 AND j.user_id = $2`, got.Job.ID, u.ID).Scan(&raw); err != nil {
		t.Fatal(err)
	}
	var args jobs.ImportArchiveArgs
	if err := json.Unmarshal(raw, &args); err != nil {
		t.Fatal(err)
	}
	if args.UserID != u.ID || args.FileName != "My recipes.paprikarecipes" || args.Visibility != repo.VisibilityShared ||
		!strings.HasPrefix(args.FileKey, jobs.ArchivePrefix+"/") {
		t.Fatalf("args %+v", args)
	}
	f, err := (&Server{Deps: b.deps}).files().Open(context.Background(), args.FileKey)
	if err != nil {
		t.Fatal(err)
	}
	stored, _ := io.ReadAll(f)
	f.Close()
	if !bytes.Equal(stored, export) {
		t.Errorf("stored %d bytes, uploaded %d", len(stored), len(export))
	}
}

// TestArchiveImportRefusals: bad requests get the error body and queue nothing.
func TestArchiveImportRefusals(t *testing.T) {
	t.Parallel()
	b := setup(t)
	base := b.serve(t)
	_, tok := b.user(t, repo.RoleUser)
	export := archivetest.Nextcloud(archivetest.Samples(1, false))

	noFile, noFileCT := archiveBody(t, "", "", nil, "visibility", "PRIVATE")
	wrongField, wrongFieldCT := archiveBody(t, "archive", "x.zip", export)
	badVis, badVisCT := archiveBody(t, "file", "x.zip", export, "visibility", "everyone")
	empty, emptyCT := archiveBody(t, "file", "x.zip", nil)
	tests := []struct {
		name, ct   string
		body       []byte
		tok        string
		status     int
		code, fild string
	}{
		{"json", "application/json", []byte(`{"file": "x"}`), tok, 415, "unsupported_media_type", ""},
		{"no file", noFileCT, noFile, tok, 400, "validation_failed", "file"},
		{"wrong field", wrongFieldCT, wrongField, tok, 400, "validation_failed", "file"},
		{"bad visibility", badVisCT, badVis, tok, 400, "validation_failed", "visibility"},
		{"empty file", emptyCT, empty, tok, 400, "validation_failed", "file"},
		{"signed out", badVisCT, badVis, "", 401, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := postArchive(t, base, tt.tok, tt.body, tt.ct)
			wantStatus(t, r, tt.status)
			if tt.code != "" && r.ErrorCode() != tt.code {
				t.Errorf("code %q, want %q: %s", r.ErrorCode(), tt.code, r.Body)
			}
			if tt.fild != "" && !strings.Contains(string(r.Body), `"`+tt.fild+`"`) {
				t.Errorf("body %s does not name the field %s", r.Body, tt.fild)
			}
		})
	}
	var n int
	if err := b.db.QueryRow(context.Background(), `SELECT count(*) FROM app_job`).Scan(&n); err != nil || n != 0 {
		t.Errorf("%d jobs queued (%v)", n, err)
	}
}

// TestArchiveImportLargeBodyNeedsToken: without a valid access token a body
// above the usual limit is refused from its headers alone (413), so no
// anonymous client can make the server read 500 MB; with one, the same
// announcement is read.
func TestArchiveImportLargeBodyNeedsToken(t *testing.T) {
	t.Parallel()
	b := setup(t)
	base := b.serve(t)
	_, tok := b.user(t, repo.RoleUser)
	for _, bad := range []string{"", "not-a-token"} {
		r := announceUpload(t, base, "/api/recipes/import/archive", bad, 100<<20)
		wantStatus(t, r, 413)
	}
	r := announceUpload(t, base, "/api/recipes/import/archive", tok, (jobs.ArchiveMaxBytes)+(2<<20))
	wantStatus(t, r, 413)
}
