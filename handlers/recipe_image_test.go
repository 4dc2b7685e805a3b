package handlers

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"io"
	"io/fs"
	"mime/multipart"
	"net"
	"net/http"
	"net/textproto"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/uuid"

	"larder/repo"
)

// rcMultipart builds a multipart body with one file part whose file name
// and declared type are the client's (and so not to be believed).
func rcMultipart(t *testing.T, field, filename, contentType string, content []byte) ([]byte, string) {
	t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", fmt.Sprintf(`form-data; name=%q; filename=%q`, field, filename))
	h.Set("Content-Type", contentType)
	part, err := w.CreatePart(h)
	if err != nil {
		t.Fatal(err)
	}
	part.Write(content)
	w.Close()
	return buf.Bytes(), w.FormDataContentType()
}

func rcUpload(t *testing.T, b *testBundle, tok string, id uuid.UUID, filename, contentType string, content []byte) response {
	t.Helper()
	body, ct := rcMultipart(t, "image", filename, contentType, content)
	return b.do(t, "POST", "/api/recipes/"+id.String()+"/image", body, tok, "Content-Type", ct)
}

// rcFiles lists the files under the upload directory.
func rcFiles(t *testing.T, b *testBundle) []string {
	t.Helper()
	var out []string
	root := b.deps.Config.UploadPath
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == root {
				return fs.SkipDir // nothing uploaded yet
			}
			return err
		}
		if !d.IsDir() {
			rel, _ := filepath.Rel(root, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

// quadrantJPEG is a w×h JPEG whose top-left quarter is red and the rest
// blue, with the given marker segments inserted after SOI.
func quadrantJPEG(t *testing.T, w, h int, segments ...[]byte) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			c := color.NRGBA{30, 30, 220, 255}
			if x < w/2 && y < h/2 {
				c = color.NRGBA{220, 30, 30, 255}
			}
			img.SetNRGBA(x, y, c)
		}
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 95}); err != nil {
		t.Fatal(err)
	}
	out := append([]byte{}, buf.Bytes()[:2]...)
	for _, s := range segments {
		out = append(out, s...)
	}
	return append(out, buf.Bytes()[2:]...)
}

const gpsSecret = "SECRET-GPS-48.8582N-2.2945E"

// exifSegment is an APP1 EXIF segment (big-endian TIFF) with the
// orientation and a GPS IFD whose area-information string is gpsSecret.
func exifSegment(orientation uint16) []byte {
	be := binary.BigEndian
	var t bytes.Buffer
	t.WriteString("MM\x00\x2a")
	binary.Write(&t, be, uint32(8))
	entry := func(tag, typ uint16, count, value uint32) {
		binary.Write(&t, be, tag)
		binary.Write(&t, be, typ)
		binary.Write(&t, be, count)
		binary.Write(&t, be, value)
	}
	// IFD0: orientation, GPS pointer.
	gpsOffset := uint32(8 + 2 + 2*12 + 4)
	binary.Write(&t, be, uint16(2))
	entry(0x0112, 3, 1, uint32(orientation)<<16)
	entry(0x8825, 4, 1, gpsOffset)
	binary.Write(&t, be, uint32(0))
	// GPS IFD: latitude ref and the area information.
	area := "ASCII\x00\x00\x00" + gpsSecret
	binary.Write(&t, be, uint16(2))
	entry(0x0001, 2, 2, uint32('N')<<24)
	entry(0x001c, 7, uint32(len(area)), gpsOffset+2+2*12+4)
	binary.Write(&t, be, uint32(0))
	t.WriteString(area)
	payload := append([]byte("Exif\x00\x00"), t.Bytes()...)
	seg := []byte{0xff, 0xe1, 0, 0}
	binary.BigEndian.PutUint16(seg[2:], uint16(len(payload)+2))
	return append(seg, payload...)
}

// bombPNG is a tiny PNG whose header claims w×h pixels.
func bombPNG(t *testing.T, w, h uint32) []byte {
	t.Helper()
	p := cbPNG(t, 1, 1)
	// IHDR is the first chunk: length(4) type(4) data(13) crc(4) after the 8-byte signature.
	binary.BigEndian.PutUint32(p[16:], w)
	binary.BigEndian.PutUint32(p[20:], h)
	binary.BigEndian.PutUint32(p[29:], crc32.ChecksumIEEE(p[12:29]))
	return p
}

func TestRecipeImageUploadReplaceDelete(t *testing.T) {
	t.Parallel()
	b := setup(t)
	u, tok := b.user(t, repo.RoleUser)
	id := rcInsert(t, b, u.ID, repo.VisibilityPublic)

	// Named .txt and declared as text: the bytes decide.
	r := rcUpload(t, b, tok, id, "notes.txt", "text/plain", cbPNG(t, 60, 40))
	wantStatus(t, r, 200)
	var first Recipe
	r.JSON(t, &first)
	if first.ImageURL == nil || !strings.HasPrefix(*first.ImageURL, "/uploads/recipes/") || !strings.HasSuffix(*first.ImageURL, ".jpg") ||
		strings.Contains(*first.ImageURL, "notes") {
		t.Fatalf("imageUrl %v", first.ImageURL)
	}
	// Served from /uploads with long caching, as the re-encoded JPEG.
	got := b.do(t, "GET", *first.ImageURL, nil, "")
	wantStatus(t, got, 200)
	if !bytes.HasPrefix(got.Body, []byte{0xff, 0xd8, 0xff}) || !strings.Contains(got.Header.Get("Cache-Control"), "max-age=31536000") {
		t.Fatalf("served %d bytes, Cache-Control %q", len(got.Body), got.Header.Get("Cache-Control"))
	}
	if files := rcFiles(t, b); len(files) != 1 || "/uploads/"+files[0] != *first.ImageURL {
		t.Fatalf("files %v", files)
	}

	// Replacing deletes the old file once the recipe names the new one.
	r = rcUpload(t, b, tok, id, "b.png", "image/png", cbPNG(t, 30, 30))
	wantStatus(t, r, 200)
	var second Recipe
	r.JSON(t, &second)
	if *second.ImageURL == *first.ImageURL {
		t.Fatal("the new image reuses the old key")
	}
	if files := rcFiles(t, b); len(files) != 1 || "/uploads/"+files[0] != *second.ImageURL {
		t.Fatalf("files after replace %v", files)
	}

	// DELETE /api/recipes/:id/image removes the file; imageUrl becomes null.
	wantStatus(t, b.do(t, "DELETE", "/api/recipes/"+id.String()+"/image", nil, tok), 204)
	if rec := rcGet(t, b, tok, id); rec.ImageURL != nil {
		t.Fatalf("imageUrl after delete %v", *rec.ImageURL)
	}
	if files := rcFiles(t, b); len(files) != 0 {
		t.Fatalf("files after delete %v", files)
	}
	wantStatus(t, b.do(t, "DELETE", "/api/recipes/"+id.String()+"/image", nil, tok), 204) // nothing to delete

	// Deleting the recipe deletes its image.
	wantStatus(t, rcUpload(t, b, tok, id, "d.png", "image/png", cbPNG(t, 10, 10)), 200)
	wantStatus(t, b.do(t, "DELETE", "/api/recipes/"+id.String(), nil, tok), 204)
	if files := rcFiles(t, b); len(files) != 0 {
		t.Fatalf("files after deleting the recipe %v", files)
	}
}

func TestRecipeImageRefusals(t *testing.T) {
	t.Parallel()
	b := setup(t)
	u, tok := b.user(t, repo.RoleUser)
	id := rcInsert(t, b, u.ID, repo.VisibilityPrivate)
	r := rcUpload(t, b, tok, id, "keep.png", "image/png", cbPNG(t, 20, 20))
	wantStatus(t, r, 200)
	var before Recipe
	r.JSON(t, &before)
	filesBefore := rcFiles(t, b)

	png := cbPNG(t, 16, 16)
	jpg := quadrantJPEG(t, 16, 16)
	oversize := append(append([]byte{}, png...), make([]byte, MaxImageBytes)...)
	tests := []struct {
		name, filename, contentType string
		content                     []byte
		status                      int
	}{
		{"html named .jpg", "photo.jpg", "image/jpeg", []byte("<!doctype html><script>alert(1)</script>"), 415},
		{"svg", "logo.png", "image/png", []byte(`<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>`), 415},
		{"pdf", "scan.jpg", "image/jpeg", []byte("%PDF-1.7\n1 0 obj\n"), 415},
		{"png polyglot with html", "x.png", "image/png", append(append([]byte{}, png...), "<html><script>alert(1)</script></html>"...), 415},
		{"jpeg polyglot with zip", "x.jpg", "image/jpeg", append(append([]byte{}, jpg...), "PK\x03\x04\x14\x00\x00\x00\x08\x00payload.js"...), 415},
		{"truncated jpeg", "x.jpg", "image/jpeg", jpg[:len(jpg)/2], 415},
		{"gif signature only", "x.gif", "image/gif", []byte("GIF89a\x01\x00\x01\x00garbage"), 415},
		{"empty file", "x.png", "image/png", nil, 415},
		{"decompression bomb", "bomb.png", "image/png", bombPNG(t, 50_000, 50_000), 413},
		{"over 20 MB", "big.png", "image/png", oversize, 413},
	}
	for _, tt := range tests {
		r := rcUpload(t, b, tok, id, tt.filename, tt.contentType, tt.content)
		if r.Status != tt.status {
			t.Errorf("%s: %d %s", tt.name, r.Status, r.Body)
			continue
		}
		if code := map[int]string{413: "payload_too_large", 415: "unsupported_media_type"}[tt.status]; r.ErrorCode() != code {
			t.Errorf("%s: code %q", tt.name, r.ErrorCode())
		}
	}
	// Not multipart, or without the field.
	if r := b.do(t, "POST", "/api/recipes/"+id.String()+"/image", png, tok, "Content-Type", "image/png"); r.Status != 415 {
		t.Errorf("raw body: %d", r.Status)
	}
	body, ct := rcMultipart(t, "photo", "x.png", "image/png", png)
	if r := b.do(t, "POST", "/api/recipes/"+id.String()+"/image", body, tok, "Content-Type", ct); r.Status != 400 ||
		!strings.Contains(string(r.Body), `"image"`) {
		t.Errorf("wrong field: %d %s", r.Status, r.Body)
	}

	// A body over the server's limit is refused before it is read.
	base := b.serve(t)
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /api/recipes/%s/image HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\n"+
		"Content-Type: multipart/form-data; boundary=b\r\nContent-Length: %d\r\n\r\n--b\r\n", id, tok, MaxImageBytes+4<<20)
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 413 || !strings.Contains(string(raw), "payload_too_large") {
		t.Errorf("oversize body: %d %s", resp.StatusCode, raw)
	}

	// None of it touched the recipe or the stored files.
	if after := rcGet(t, b, tok, id); after.ImageURL == nil || *after.ImageURL != *before.ImageURL {
		t.Fatalf("imageUrl changed: %v", after.ImageURL)
	}
	if files := rcFiles(t, b); !slices.Equal(files, filesBefore) {
		t.Fatalf("files %v, before %v", files, filesBefore)
	}
}

// The stored image is a new encoding: turned upright by its EXIF
// orientation, and without the EXIF block, so no GPS position survives.
func TestRecipeImageMetadataStripped(t *testing.T) {
	t.Parallel()
	b := setup(t)
	u, tok := b.user(t, repo.RoleUser)
	id := rcInsert(t, b, u.ID, repo.VisibilityPublic)
	upload := quadrantJPEG(t, 40, 20, exifSegment(6)) // 6: rotate 90° clockwise to display
	if !bytes.Contains(upload, []byte(gpsSecret)) {
		t.Fatal("fixture lacks the GPS block")
	}
	r := rcUpload(t, b, tok, id, "IMG_0001.JPG", "image/jpeg", upload)
	wantStatus(t, r, 200)
	var rec Recipe
	r.JSON(t, &rec)
	got := b.do(t, "GET", *rec.ImageURL, nil, "")
	wantStatus(t, got, 200)
	for _, leak := range []string{gpsSecret, "Exif", "MM\x00\x2a"} {
		if bytes.Contains(got.Body, []byte(leak)) {
			t.Errorf("stored image still holds %q", leak)
		}
	}
	img, err := jpeg.Decode(bytes.NewReader(got.Body))
	if err != nil {
		t.Fatal(err)
	}
	if bnd := img.Bounds(); bnd.Dx() != 20 || bnd.Dy() != 40 {
		t.Fatalf("stored %dx%d, want the upright 20x40", bnd.Dx(), bnd.Dy())
	}
	// Rotated clockwise, the red top-left quarter is now top-right.
	if r, _, bl, _ := img.At(15, 5).RGBA(); r>>8 < 150 || bl>>8 > 100 {
		t.Fatalf("top-right pixel is not red: the image was not turned")
	}
}

// An upload that fails after its file was stored (here: the job cannot be
// enqueued) leaves the previous image, its file and imageUrl as they were,
// and deletes the new file.
func TestRecipeImageFailedUploadKeepsPrevious(t *testing.T) {
	t.Parallel()
	b := setup(t)
	u, tok := b.user(t, repo.RoleUser)
	id := rcInsert(t, b, u.ID, repo.VisibilityPublic)
	r := rcUpload(t, b, tok, id, "a.png", "image/png", cbPNG(t, 20, 20))
	wantStatus(t, r, 200)
	var before Recipe
	r.JSON(t, &before)
	filesBefore := rcFiles(t, b)

	if _, err := b.db.Exec(context.Background(), `CREATE FUNCTION refuse_image_job() RETURNS trigger LANGUAGE plpgsql AS
		$$ BEGIN IF NEW.kind = 'image_process' THEN RAISE EXCEPTION 'queue unavailable'; END IF; RETURN NEW; END $$;
		CREATE TRIGGER refuse_image_job BEFORE INSERT ON river_job FOR EACH ROW EXECUTE FUNCTION refuse_image_job()`); err != nil {
		t.Fatal(err)
	}
	if r := rcUpload(t, b, tok, id, "b.png", "image/png", cbPNG(t, 30, 30)); r.Status != 500 {
		t.Fatalf("upload with a failing enqueue: %d %s", r.Status, r.Body)
	}
	after := rcGet(t, b, tok, id)
	if after.ImageURL == nil || *after.ImageURL != *before.ImageURL || !after.UpdatedAt.Equal(before.UpdatedAt) {
		t.Fatalf("imageUrl %v, before %v", after.ImageURL, *before.ImageURL)
	}
	if files := rcFiles(t, b); !slices.Equal(files, filesBefore) {
		t.Fatalf("files %v, before %v", files, filesBefore)
	}
	wantStatus(t, b.do(t, "GET", *before.ImageURL, nil, ""), 200)
}

// The image job makes the renditions; the recipe exposes them as
// imageVariants, and they go with the image.
func TestRecipeImageVariants(t *testing.T) {
	t.Parallel()
	b := setup(t)
	u, tok := b.user(t, repo.RoleUser)
	startImageWorkers(t, b)
	id := rcInsert(t, b, u.ID, repo.VisibilityPublic)
	wantStatus(t, rcUpload(t, b, tok, id, "big.jpg", "image/jpeg", quadrantJPEG(t, 1000, 600)), 200)
	var jobID uuid.UUID
	if err := b.db.QueryRow(context.Background(), `SELECT id FROM app_job WHERE kind = 'image_process' AND user_id = $1`, u.ID).Scan(&jobID); err != nil {
		t.Fatal(err)
	}
	if j := finishedJob(t, b, tok, jobID); j.State != "completed" {
		t.Fatalf("job %+v", j)
	}
	rec := rcGet(t, b, "", id)
	for name, width := range map[string]int{"thumb": 320, "medium": 800} {
		u := rec.ImageVariants[name]
		if !strings.HasPrefix(u, strings.TrimSuffix(*rec.ImageURL, ".jpg")+"_") {
			t.Fatalf("%s: %q next to %q", name, u, *rec.ImageURL)
		}
		r := b.do(t, "GET", u, nil, "")
		wantStatus(t, r, 200)
		cfg, err := jpeg.DecodeConfig(bytes.NewReader(r.Body))
		if err != nil || cfg.Width != width || cfg.Height != width*600/1000 {
			t.Fatalf("%s: %+v %v", name, cfg, err)
		}
	}
	// The list shows them too.
	if l := rcList(t, b, "", nil); len(l.Items) != 1 || l.Items[0].ImageVariants["thumb"] != rec.ImageVariants["thumb"] {
		t.Fatalf("list %+v", l.Items)
	}
	if files := rcFiles(t, b); len(files) != 3 {
		t.Fatalf("files %v", files)
	}
	wantStatus(t, b.do(t, "DELETE", "/api/recipes/"+id.String(), nil, tok), 204)
	if files := rcFiles(t, b); len(files) != 0 {
		t.Fatalf("files after deleting the recipe %v", files)
	}
}
