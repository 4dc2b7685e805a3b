package handlers

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"testing"

	"larder/filestore"
	"larder/filestore/s3test"
	"larder/repo"
	"larder/storage"
)

// Range requests on /uploads: one byte range answers 206 with those bytes
// read from the store at their offset, whichever store holds the file;
// the type, nosniff and cache headers stay; a range past the end is 416;
// anything else gets the whole file.
func TestUploadsRanges(t *testing.T) {
	t.Parallel()
	stores := map[string]func(*Deps){
		"local": func(*Deps) {},
		"s3": func(d *Deps) {
			bucket := s3test.Store(t)
			db := d.DB
			d.Storage = storage.Stores{
				Files: filestore.Generations{Base: bucket.WithPrefix("uploads"), Current: func(ctx context.Context) (string, error) {
					return repo.FileGeneration(ctx, db)
				}},
				Backups: bucket.WithPrefix("backups"),
				Scratch: filepath.Join(t.TempDir(), "tmp"),
			}
		},
	}
	for name, opt := range stores {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			b := setup(t, opt)
			_, tok := b.user(t, "USER")
			r := b.do(t, "POST", "/api/recipes", map[string]any{"title": "Soup"}, tok)
			wantStatus(t, r, 201)
			var rec Recipe
			r.JSON(t, &rec)
			r = rcUpload(t, b, tok, rec.ID, "soup.jpg", "image/jpeg", quadrantJPEG(t, 64, 48))
			wantStatus(t, r, 200)
			r.JSON(t, &rec)
			addr := *rec.ImageURL
			if _, ok := b.deps.Storage.Files.Base.(*filestore.S3); name == "s3" && !ok {
				t.Fatalf("the app's files are in %T", b.deps.Storage.Files.Base)
			}

			full := b.do(t, "GET", addr, nil, "")
			wantStatus(t, full, 200)
			whole := full.Body
			n := len(whole)
			if n < 100 || full.Header.Get("Accept-Ranges") != "bytes" {
				t.Fatalf("whole file: %d bytes, Accept-Ranges %q", n, full.Header.Get("Accept-Ranges"))
			}
			partial := []struct {
				header      string
				first, last int
			}{
				{"bytes=0-9", 0, 9},
				{"bytes=10-", 10, n - 1},
				{"bytes=-5", n - 5, n - 1},
				{"bytes=-100000", 0, n - 1},
				{fmt.Sprintf("bytes=%d-%d", n-3, n+50), n - 3, n - 1},
				{" bytes=7-7 ", 7, 7},
			}
			for _, p := range partial {
				r := b.do(t, "GET", addr, nil, "", "Range", p.header)
				want := fmt.Sprintf("bytes %d-%d/%d", p.first, p.last, n)
				if r.Status != 206 || r.Header.Get("Content-Range") != want || string(r.Body) != string(whole[p.first:p.last+1]) {
					t.Errorf("Range %q: %d, Content-Range %q (want %q), %d bytes", p.header, r.Status, r.Header.Get("Content-Range"), want, len(r.Body))
					continue
				}
				if r.Header.Get("Content-Type") != "image/jpeg" || r.Header.Get("X-Content-Type-Options") != "nosniff" ||
					r.Header.Get("Cache-Control") != full.Header.Get("Cache-Control") {
					t.Errorf("Range %q: headers %v", p.header, r.Header)
				}
			}
			head := b.do(t, "HEAD", addr, nil, "", "Range", "bytes=0-9")
			if head.Status != 206 || head.Header.Get("Content-Length") != "10" {
				t.Errorf("HEAD with a range: %d, Content-Length %q", head.Status, head.Header.Get("Content-Length"))
			}
			for _, h := range []string{fmt.Sprintf("bytes=%d-", n), "bytes=-0"} {
				r := b.do(t, "GET", addr, nil, "", "Range", h)
				if r.Status != 416 || r.Header.Get("Content-Range") != fmt.Sprintf("bytes */%d", n) || r.ErrorCode() != "range_not_satisfiable" {
					t.Errorf("Range %q: %d, Content-Range %q, %s", h, r.Status, r.Header.Get("Content-Range"), r.Body)
				}
			}
			// Ignored: the whole file.
			for _, h := range [][]string{{"Range", "bytes=5-2"}, {"Range", "bytes=0-1,4-5"}, {"Range", "items=0-1"},
				{"Range", "bytes=x-"}, {"Range", "bytes=0-9", "If-Range", `"abc"`}} {
				r := b.do(t, "GET", addr, nil, "", h...)
				if r.Status != 200 || string(r.Body) != string(whole) || r.Header.Get("Content-Range") != "" {
					t.Errorf("%q: %d, %d bytes", h, r.Status, len(r.Body))
				}
			}
			// A bad signature is still refused, range or not.
			if r := b.do(t, "GET", addr+"x", nil, "", "Range", "bytes=0-9"); r.Status != 404 {
				t.Errorf("tampered signature with a range: %d", r.Status)
			}
		})
	}
}

func TestSingleByteRange(t *testing.T) {
	for _, tc := range []struct {
		header      string
		size        int64
		first, last int64
		ok          bool
		err         error
	}{
		{"", 10, 0, 0, false, nil},
		{"bytes=0-0", 10, 0, 0, true, nil},
		{"bytes=2-", 10, 2, 9, true, nil},
		{"bytes=-3", 10, 7, 9, true, nil},
		{"bytes=-30", 10, 0, 9, true, nil},
		{"bytes=5-100", 10, 5, 9, true, nil},
		{"bytes=10-", 10, 0, 0, false, errUnsatisfiable},
		{"bytes=-0", 10, 0, 0, false, errUnsatisfiable},
		{"bytes=-1", 0, 0, 0, false, errUnsatisfiable},
		{"bytes=0-", 0, 0, 0, false, errUnsatisfiable},
		{"bytes=3-2", 10, 0, 0, false, nil},
		{"bytes=1-2,4-5", 10, 0, 0, false, nil},
		{"bytes=+1-2", 10, 0, 0, false, nil},
		{"bytes=1", 10, 0, 0, false, nil},
		{"bytes=-", 10, 0, 0, false, nil},
		{"bytes=99999999999999999999-", 10, 0, 0, false, nil},
		{"BYTES=0-1", 10, 0, 0, false, nil},
	} {
		first, last, ok, err := singleByteRange(tc.header, tc.size)
		if first != tc.first || last != tc.last || ok != tc.ok || !errors.Is(err, tc.err) || (tc.err == nil && err != nil) {
			t.Errorf("singleByteRange(%q, %d) = %d, %d, %v, %v", tc.header, tc.size, first, last, ok, err)
		}
	}
}

// Whatever the header, a range it accepts lies inside the file.
func FuzzSingleByteRange(f *testing.F) {
	for _, s := range []string{"bytes=0-9", "bytes=-5", "bytes=5-", "bytes=9-3", "bytes=0-1,2-3", "bytes=-0", "bytes=18446744073709551615-"} {
		f.Add(s, int64(10))
	}
	f.Fuzz(func(t *testing.T, header string, size int64) {
		if size < 0 {
			return
		}
		first, last, ok, err := singleByteRange(header, size)
		if err != nil && (ok || !errors.Is(err, errUnsatisfiable)) {
			t.Fatalf("%q/%d: ok %v with error %v", header, size, ok, err)
		}
		if ok && (first < 0 || first > last || last >= size) {
			t.Fatalf("%q/%d: range %d-%d outside the file", header, size, first, last)
		}
	})
}
