package jobs

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"image"
	"image/color"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/uuid"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertest"
	"github.com/riverqueue/river/rivertype"

	"larder/config"
	"larder/filestore"
	"larder/imageproc"
	"larder/importer/fetch"
	"larder/repo"
)

// cookbookImageBundle is the job environment with the download worker.
type cookbookImageBundle struct {
	*jobEnv
	owner repo.User
}

// cookbookImageSetup builds the worker with a fetcher that may (or may not)
// reach the loopback test servers.
func cookbookImageSetup(t *testing.T, allowPrivate bool) *cookbookImageBundle {
	t.Helper()
	e := newJobEnv(t)
	e.deps.Fetcher = fetch.New(fetch.Options{AllowPrivate: allowPrivate})
	return &cookbookImageBundle{jobEnv: e, owner: e.user}
}

func (b *cookbookImageBundle) enqueue(t *testing.T, args DownloadCookbookImageArgs) *rivertype.JobRow {
	t.Helper()
	return b.jobEnv.enqueue(t, args, nil)
}

func (b *cookbookImageBundle) work(t *testing.T, row *rivertype.JobRow) *rivertest.WorkResult {
	t.Helper()
	return workJob[DownloadCookbookImageArgs](t, b.db, &DownloadCookbookImageWorker{deps: b.deps}, row)
}

// outcome is what app_job recorded.
func (b *cookbookImageBundle) outcome(t *testing.T, row *rivertype.JobRow) (result json.RawMessage, code, msg *string) {
	t.Helper()
	o := b.jobEnv.outcome(t, row.ID)
	return o.Result, o.Code, o.Message
}

// refused works row, which must end the job for good (River cancels it),
// and returns the job's error code and message.
func (b *cookbookImageBundle) refused(t *testing.T, row *rivertype.JobRow) (code, msg *string) {
	t.Helper()
	if res := b.work(t, row); res.EventKind != river.EventKindJobCancelled {
		t.Fatalf("event %s: %v", res.EventKind, res.Job.Errors)
	}
	_, code, msg = b.outcome(t, row)
	return code, msg
}

func testPNG(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.NRGBA{uint8(x), uint8(y), 90, 255})
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestDownloadCookbookImage(t *testing.T) {
	t.Parallel()
	b := cookbookImageSetup(t, true)
	ctx := context.Background()
	pic := testPNG(t, 64, 48)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The site's type is wrong on purpose: the bytes decide.
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Write(pic)
	}))
	t.Cleanup(srv.Close)

	cb, err := repo.CreateCookbook(ctx, b.db, b.owner.ID, repo.CookbookInput{Name: "Cakes"})
	if err != nil {
		t.Fatal(err)
	}
	// The image it replaces has renditions.
	oldKey := filestore.NewKey(CookbookImagePrefix, "jpg")
	oldThumb, _ := filestore.VariantKey(oldKey, "thumb")
	for _, k := range []string{oldKey, oldThumb} {
		if err := b.files.Put(ctx, k, strings.NewReader("old image")); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := repo.SetImage(ctx, b.db, repo.CookbookImage, cb.ID, &oldKey); err != nil {
		t.Fatal(err)
	}
	if _, _, err := repo.SetImageVariants(ctx, b.db, repo.CookbookImage, cb.ID, oldKey, map[string]string{"thumb": oldThumb}); err != nil {
		t.Fatal(err)
	}

	row := b.enqueue(t, DownloadCookbookImageArgs{CookbookID: cb.ID, UserID: b.owner.ID, URL: srv.URL + "/cake.png"})
	if row.Queue != config.QueueImages || row.Kind != "cookbook_image_download" {
		t.Errorf("queue %s kind %s", row.Queue, row.Kind)
	}
	if res := b.work(t, row); res.EventKind != river.EventKindJobCompleted {
		t.Fatalf("event %s: %v", res.EventKind, res.Job.Errors)
	}
	result, code, _ := b.outcome(t, row)
	var body struct{ CookbookID string }
	if err := json.Unmarshal(result, &body); err != nil || body.CookbookID != cb.ID.String() || code != nil {
		t.Fatalf("result %s, error %v", result, code)
	}
	got, err := repo.GetCookbook(ctx, b.db, cb.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.ImageKey == nil || *got.ImageKey == oldKey || !strings.HasPrefix(*got.ImageKey, "cookbooks/") || len(got.ImageVariants) != 0 {
		t.Fatalf("image key %v, variants %v", got.ImageKey, got.ImageVariants)
	}
	// The stored file is a fresh encoding of the picture, and the old image
	// and its renditions are gone.
	if keys := b.storedKeys(t); len(keys) != 1 || keys[0] != *got.ImageKey {
		t.Fatalf("stored files %v", keys)
	}
	f, err := b.files.Open(ctx, *got.ImageKey)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	im, err := imageproc.Decode(f, imageproc.Limits{})
	if err != nil || im.Width() != 64 || im.Height() != 48 {
		t.Fatalf("stored image: %v", err)
	}

	// Then its renditions, as for an upload, in a job of the same user.
	var procID int64
	var procUser *uuid.UUID
	if err := b.db.QueryRow(ctx, `SELECT r.id, j.user_id FROM river_job r JOIN app_job j ON j.river_job_id = r.id
		WHERE r.kind = 'image_process' AND r.args->>'id' = $1`, cb.ID.String()).Scan(&procID, &procUser); err != nil {
		t.Fatalf("no image_process job: %v", err)
	}
	if procUser == nil || *procUser != b.owner.ID {
		t.Errorf("image_process job of %v, want %s", procUser, b.owner.ID)
	}
	proc := b.row(t, procID)
	var pargs ProcessImageArgs
	if err := json.Unmarshal(proc.EncodedArgs, &pargs); err != nil ||
		pargs != (ProcessImageArgs{Target: repo.CookbookImage, ID: cb.ID, ImageKey: *got.ImageKey}) {
		t.Fatalf("image_process args %s", proc.EncodedArgs)
	}
	if res := workJob[ProcessImageArgs](t, b.db, &ProcessImageWorker{deps: b.deps}, proc); res.EventKind != river.EventKindJobCompleted {
		t.Fatalf("image_process: %s %v", res.EventKind, res.Job.Errors)
	}
	if got, err = repo.GetCookbook(ctx, b.db, cb.ID); err != nil || len(got.ImageVariants) != 2 {
		t.Fatalf("variants %v %v", got.ImageVariants, err)
	}
	want := []string{*got.ImageKey, got.ImageVariants["medium"], got.ImageVariants["thumb"]}
	slices.Sort(want)
	if keys := b.storedKeys(t); !slices.Equal(keys, want) {
		t.Fatalf("stored files %v, want %v", keys, want)
	}
}

func TestDownloadCookbookImageRefusals(t *testing.T) {
	t.Parallel()
	pic := testPNG(t, 16, 16)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/page.html":
			w.Header().Set("Content-Type", "image/png") // a lie
			io.WriteString(w, "<!doctype html><html><body>not a picture</body></html>")
		case "/huge.png":
			// No Content-Length: the limit must stop the stream itself.
			w.Header().Set("Content-Type", "image/png")
			w.Write(pic)
			chunk := make([]byte, 1<<20)
			for range 21 {
				if _, err := w.Write(chunk); err != nil {
					return
				}
				w.(http.Flusher).Flush()
			}
		case "/polyglot.png":
			w.Write(append(append([]byte{}, pic...), "<script>alert(1)</script>"...))
		case "/busy.png":
			w.WriteHeader(http.StatusServiceUnavailable)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)

	tests := []struct {
		name         string
		allowPrivate bool
		path         string
		code         string
	}{
		{"not an image", true, "/page.html", "not_an_image"},
		{"an image with a script after it", true, "/polyglot.png", "not_an_image"},
		{"too big", true, "/huge.png", fetch.CodeTooLarge},
		{"missing", true, "/missing.png", fetch.CodeHTTPStatus},
		{"a private address", false, "/page.html", fetch.CodeForbiddenAddress},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b := cookbookImageSetup(t, tt.allowPrivate)
			ctx := context.Background()
			cb, err := repo.CreateCookbook(ctx, b.db, b.owner.ID, repo.CookbookInput{Name: "Pies"})
			if err != nil {
				t.Fatal(err)
			}
			row := b.enqueue(t, DownloadCookbookImageArgs{CookbookID: cb.ID, URL: srv.URL + tt.path})
			code, msg := b.refused(t, row)
			if code == nil || *code != tt.code || msg == nil || *msg == "" {
				t.Fatalf("error %v: %v", code, msg)
			}
			if got, _ := repo.GetCookbook(ctx, b.db, cb.ID); got.ImageKey != nil {
				t.Fatalf("image set to %s", *got.ImageKey)
			}
			if keys := b.storedKeys(t); len(keys) != 0 {
				t.Fatalf("files stored: %v", keys)
			}
		})
	}

	t.Run("no request reaches a private address", func(t *testing.T) {
		t.Parallel()
		var seen atomic.Int64
		private := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			seen.Add(1)
			w.Write(pic)
		}))
		t.Cleanup(private.Close)
		b := cookbookImageSetup(t, false)
		cb, err := repo.CreateCookbook(context.Background(), b.db, b.owner.ID, repo.CookbookInput{Name: "Tarts"})
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range []string{private.URL + "/x.png", strings.Replace(private.URL, "127.0.0.1", "localhost", 1) + "/x.png"} {
			row := b.enqueue(t, DownloadCookbookImageArgs{CookbookID: cb.ID, URL: u})
			if res := b.work(t, row); res.EventKind != river.EventKindJobCancelled {
				t.Fatalf("%s: event %s", u, res.EventKind)
			}
			if _, code, _ := b.outcome(t, row); code == nil || *code != fetch.CodeForbiddenAddress {
				t.Fatalf("%s: error %v", u, code)
			}
		}
		if seen.Load() != 0 {
			t.Fatalf("the private server got %d requests", seen.Load())
		}
	})

	t.Run("a busy site is retried", func(t *testing.T) {
		t.Parallel()
		b := cookbookImageSetup(t, true)
		cb, err := repo.CreateCookbook(context.Background(), b.db, b.owner.ID, repo.CookbookInput{Name: "Buns"})
		if err != nil {
			t.Fatal(err)
		}
		row := b.enqueue(t, DownloadCookbookImageArgs{CookbookID: cb.ID, URL: srv.URL + "/busy.png"})
		res := b.work(t, row)
		// Failed for this attempt and due again (River makes a retry due
		// within seconds "available" at once), with no outcome recorded.
		if res.EventKind != river.EventKindJobFailed ||
			(res.Job.State != rivertype.JobStateRetryable && res.Job.State != rivertype.JobStateAvailable) {
			t.Fatalf("first attempt: %s %s", res.EventKind, res.Job.State)
		}
		if _, code, _ := b.outcome(t, row); code != nil {
			t.Fatalf("a retryable failure was recorded as final: %s", *code)
		}
	})

	t.Run("a deleted cookbook", func(t *testing.T) {
		t.Parallel()
		b := cookbookImageSetup(t, true)
		ctx := context.Background()
		cb, err := repo.CreateCookbook(ctx, b.db, b.owner.ID, repo.CookbookInput{Name: "Gone"})
		if err != nil {
			t.Fatal(err)
		}
		row := b.enqueue(t, DownloadCookbookImageArgs{CookbookID: cb.ID, URL: srv.URL + "/page.html"})
		if _, err := repo.DeleteCookbook(ctx, b.db, cb.ID); err != nil {
			t.Fatal(err)
		}
		if code, _ := b.refused(t, row); code == nil || *code != "not_found" {
			t.Fatalf("error %v", code)
		}
	})
}

func TestFetchFailureRetriesOnlyWhatMayPass(t *testing.T) {
	t.Parallel()
	tests := []struct {
		err   error
		last  bool
		retry bool
	}{
		{&fetch.Error{Code: fetch.CodeTimeout, Message: "timed out"}, false, true},
		{&fetch.Error{Code: fetch.CodeTimeout, Message: "timed out"}, true, false},
		{&fetch.Error{Code: fetch.CodeUnreachable, Message: "down"}, false, true},
		{&fetch.Error{Code: fetch.CodeBlocked, Status: 503, Message: "busy"}, false, true},
		{&fetch.Error{Code: fetch.CodeBlocked, Status: 403, Message: "refused"}, false, false},
		{&fetch.Error{Code: fetch.CodeHTTPStatus, Status: 404, Message: "missing"}, false, false},
		{&fetch.Error{Code: fetch.CodeHTTPStatus, Status: 502, Message: "bad gateway"}, false, true},
		{&fetch.Error{Code: fetch.CodeForbiddenAddress, Message: "private"}, false, false},
		{&fetch.Error{Code: fetch.CodeTooLarge, Message: "big"}, false, false},
		{context.Canceled, true, true},
	}
	for _, tt := range tests {
		err := fetchFailure(tt.err, tt.last)
		var f *Failure
		if errors.As(err, &f) == tt.retry {
			t.Errorf("%v (last attempt %v): got %v", tt.err, tt.last, err)
		}
		if f != nil && (f.Code == "" || f.Message == "") {
			t.Errorf("%v: failure without code or message: %+v", tt.err, f)
		}
	}
}
