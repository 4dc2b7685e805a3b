package imageproc

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"io"
	"strings"
	"testing"

	"golang.org/x/image/bmp"
	"golang.org/x/image/tiff"
	"golang.org/x/image/webp"
)

func TestDecodeAcceptsEachType(t *testing.T) {
	t.Parallel()
	palettedWithClear := paletted(0, 0, 10, 8, color.Palette{color.NRGBA{}, red}, 1)
	palettedWithClear.Pix[0] = 0 // one transparent pixel

	tests := []struct {
		name         string
		data         []byte
		format       Format
		w, h         int
		alpha        bool
		topLeft      color.Color // of the re-encoded output; nil to skip
		topLeftAlpha bool        // whether topLeft is compared exactly
	}{
		{"jpeg", encodeJPEG(t, quadrants(40, 20)), JPEG, 40, 20, false, red, false},
		{"png opaque", encodePNG(t, quadrants(40, 20)), PNG, 40, 20, false, red, false},
		{"png alpha", encodePNG(t, fading(40, 20)), PNG, 40, 20, true, color.NRGBA{220, 30, 30, 255}, true},
		{"png 16-bit grey", encodePNG(t, image.NewGray16(image.Rect(0, 0, 7, 5))), PNG, 7, 5, false, color.Black, false},
		{"png paletted with transparency", encodePNG(t, palettedWithClear), PNG, 10, 8, true, color.NRGBA{}, true},
		{"gif", encodeGIF(t, quadrants(40, 20)), GIF, 40, 20, false, red, false},
		{"gif transparent", encodeGIF(t, palettedWithClear), GIF, 10, 8, true, color.NRGBA{}, true},
		{"webp lossless", readTestdata(t, "opaque_lossless.webp"), WEBP, 16, 12, false, red, false},
		{"webp lossy", readTestdata(t, "opaque_lossy.webp"), WEBP, 16, 12, false, red, false},
		{"webp lossy alpha", readTestdata(t, "alpha_lossy.webp"), WEBP, 16, 12, true, nil, false},
		{"webp lossless alpha", readTestdata(t, "alpha_lossless.webp"), WEBP, 16, 12, true, red, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			im, err := Decode(bytes.NewReader(tt.data), Limits{})
			if err != nil {
				t.Fatalf("Decode: %v", err)
			}
			if im.Format() != tt.format || im.Width() != tt.w || im.Height() != tt.h || im.HasAlpha() != tt.alpha {
				t.Fatalf("got %s %d×%d alpha=%v, want %s %d×%d alpha=%v",
					im.Format(), im.Width(), im.Height(), im.HasAlpha(), tt.format, tt.w, tt.h, tt.alpha)
			}
			enc, err := Encode(im)
			if err != nil {
				t.Fatalf("Encode: %v", err)
			}
			wantOut := JPEG
			if tt.alpha {
				wantOut = PNG
			}
			if enc.Format != wantOut || sniff(enc.Data) != wantOut {
				t.Fatalf("output format %s (bytes say %s), want %s", enc.Format, sniff(enc.Data), wantOut)
			}
			if enc.ContentType() != "image/"+string(wantOut) {
				t.Errorf("ContentType = %s", enc.ContentType())
			}
			out, _, err := image.Decode(bytes.NewReader(enc.Data))
			if err != nil {
				t.Fatalf("output does not decode: %v", err)
			}
			if b := out.Bounds(); b.Dx() != tt.w || b.Dy() != tt.h || enc.Width != tt.w || enc.Height != tt.h {
				t.Fatalf("output %v (Encoded says %d×%d), want %d×%d", b, enc.Width, enc.Height, tt.w, tt.h)
			}
			if tt.topLeft != nil {
				tol := 40
				if tt.topLeftAlpha {
					tol = 0
				}
				if got := out.At(0, 0); !near(got, tt.topLeft, tol) {
					t.Errorf("top-left pixel %v, want %v", got, tt.topLeft)
				}
			}
		})
	}
}

func TestDecodeRefusesOtherTypes(t *testing.T) {
	t.Parallel()
	img := quadrants(8, 8)
	var bmpBuf, tiffBuf bytes.Buffer
	if err := bmp.Encode(&bmpBuf, img); err != nil {
		t.Fatal(err)
	}
	if err := tiff.Encode(&tiffBuf, img, nil); err != nil {
		t.Fatal(err)
	}
	var zipBuf bytes.Buffer
	zw := zip.NewWriter(&zipBuf)
	w, _ := zw.Create("photo.jpg")
	w.Write(encodeJPEG(t, img))
	zw.Close()

	tests := []struct {
		name string
		data []byte
	}{
		{"empty", nil},
		{"text file (whatever its name)", []byte("this is not a photo.jpg\n")},
		{"html", []byte("<!doctype html><html><script>alert(1)</script></html>")},
		{"svg", []byte(`<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`)},
		{"pdf", []byte("%PDF-1.7\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n")},
		// imaging registers BMP and TIFF decoders; they must not be reachable.
		{"bmp", bmpBuf.Bytes()},
		{"tiff", tiffBuf.Bytes()},
		{"zip holding a jpeg", zipBuf.Bytes()},
		{"jpeg magic alone", []byte{0xff, 0xd8}},
		{"riff that is not webp", []byte("RIFF\x04\x00\x00\x00WAVEfmt ")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := Decode(bytes.NewReader(tt.data), Limits{})
			if !errors.Is(err, ErrUnsupportedType) {
				t.Fatalf("err = %v, want ErrUnsupportedType", err)
			}
			if errors.Is(err, ErrCorrupt) || errors.Is(err, ErrTooLarge) {
				t.Fatalf("err = %v: a non-image is not a damaged image", err)
			}
		})
	}
}

func TestDecodeRefusesPolyglots(t *testing.T) {
	t.Parallel()
	img := quadrants(16, 16)
	pngData := encodePNG(t, img)
	gifData := encodeGIF(t, img)
	jpgData := encodeJPEG(t, img)
	webpData := readTestdata(t, "opaque_lossless.webp")
	const html = "<html><body><script>alert(document.cookie)</script></body></html>"

	var zipBuf bytes.Buffer
	zw := zip.NewWriter(&zipBuf)
	w, _ := zw.Create("evil.class")
	w.Write([]byte("\xca\xfe\xba\xbe payload"))
	zw.Close()

	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	// gifHeader is a genuine GIF header and logical screen descriptor
	// (16×16, no colour table) with HTML where the blocks should be.
	gifHeader := []byte("GIF89a\x10\x00\x10\x00\x00\x00\x00")

	tests := []struct {
		name string
		data []byte
	}{
		{"png signature then html", cat(pngSignature, []byte(html))},
		{"png header chunk then html", cat(pngData[:33], []byte(html))},
		{"png then html", cat(pngData, []byte(html))},
		{"png then zip", cat(pngData, zipBuf.Bytes())},
		{"gif header then html", cat(gifHeader, []byte(html))},
		{"gif then script", cat(gifData, []byte("<script>alert(1)</script>"))},
		{"gif then zip", cat(gifData, zipBuf.Bytes())},
		{"jpeg then zip", cat(jpgData, zipBuf.Bytes())},
		{"jpeg then html", cat(jpgData, []byte(html))},
		{"jpeg then php", cat(jpgData, []byte("\x00\x00<?php system($_GET['c']); ?>"))},
		{"jpeg then svg", cat(jpgData, []byte("junk<SVG onload=alert(1)>"))},
		{"webp then html", cat(webpData, []byte(html))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := Decode(bytes.NewReader(tt.data), Limits{})
			if !errors.Is(err, ErrCorrupt) || !errors.Is(err, ErrUnsupportedType) {
				t.Fatalf("err = %v, want ErrCorrupt (which is ErrUnsupportedType)", err)
			}
		})
	}
}

// A motion photo is a JPEG with a video after EOI; it must stay accepted.
func TestDecodeAcceptsJPEGWithMotionPhotoTrailer(t *testing.T) {
	t.Parallel()
	video := make([]byte, 64<<10)
	copy(video, "\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00mp42isom")
	for i := 24; i < len(video); i++ {
		video[i] = byte(i*7 + i>>8) // binary noise, some of it '<'
	}
	data := append(encodeJPEG(t, quadrants(32, 16)), video...)
	im, err := Decode(bytes.NewReader(data), Limits{})
	if err != nil {
		t.Fatalf("Decode: %v", err)
	}
	enc, err := Encode(im)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(enc.Data, []byte("ftypmp42")) {
		t.Fatal("the trailer survived re-encoding")
	}
}

func TestDecodeRefusesTruncated(t *testing.T) {
	t.Parallel()
	img := quadrants(32, 32)
	anim := &gif.GIF{
		Image: []*image.Paletted{
			paletted(0, 0, 32, 32, color.Palette{red, blue}, 0),
			paletted(0, 0, 32, 32, color.Palette{red, blue}, 1),
		},
		Delay: []int{10, 10},
	}
	files := map[string][]byte{
		"jpeg":          encodeJPEG(t, img),
		"png":           encodePNG(t, img),
		"gif":           encodeGIF(t, img),
		"animated gif":  encodeGIFAll(t, anim),
		"webp lossless": readTestdata(t, "opaque_lossless.webp"),
		"webp alpha":    readTestdata(t, "alpha_lossy.webp"),
	}
	for name, data := range files {
		for _, cut := range []int{len(data) - 1, len(data) - 4, len(data) * 2 / 3, len(data) / 2, 30} {
			t.Run(fmt.Sprintf("%s/%d", name, cut), func(t *testing.T) {
				t.Parallel()
				_, err := Decode(bytes.NewReader(data[:cut]), Limits{})
				if !errors.Is(err, ErrCorrupt) {
					t.Fatalf("cut at %d of %d: err = %v, want ErrCorrupt", cut, len(data), err)
				}
			})
		}
	}
}

// A file whose bytes are an image in every respect but that has one damaged
// byte in the pixel data is refused: the whole file must decode.
func TestDecodeRefusesDamagedPixelData(t *testing.T) {
	t.Parallel()
	data := encodePNG(t, quadrants(32, 32))
	// Corrupt the zlib stream inside IDAT and fix up the CRC, so only a full
	// decode can notice.
	idat := bytes.Index(data, []byte("IDAT"))
	n := int(binary.BigEndian.Uint32(data[idat-4:]))
	bad := append([]byte{}, data...)
	for i := idat + 4 + 2; i < idat+4+n; i++ {
		bad[i] ^= 0x5a
	}
	fixed := append(append([]byte{}, bad[:idat-4]...), pngChunk("IDAT", bad[idat+4:idat+4+n])...)
	fixed = append(fixed, bad[idat+4+n+4:]...)
	if _, err := pngEnd(fixed); err != nil {
		t.Fatalf("the damaged file should be well-formed: %v", err)
	}
	_, err := Decode(bytes.NewReader(fixed), Limits{})
	if !errors.Is(err, ErrCorrupt) {
		t.Fatalf("err = %v, want ErrCorrupt", err)
	}
}

func TestDecodeSizeLimit(t *testing.T) {
	t.Parallel()
	data := encodePNG(t, quadrants(64, 64))
	size := int64(len(data))
	header := encodeJPEG(t, quadrants(8, 8))[:200]

	tests := []struct {
		name     string
		src      io.Reader
		maxBytes int64
		wantErr  error
		maxRead  int64
	}{
		{"exactly the limit", bytes.NewReader(data), size, nil, size},
		{"one byte over", bytes.NewReader(data), size - 1, ErrTooLarge, size},
		{"endless upload, small limit", io.MultiReader(bytes.NewReader(header), zeros{}), 1000, ErrTooLarge, 1001},
		{"endless upload, default 20 MB", io.MultiReader(bytes.NewReader(header), zeros{}), 0, ErrTooLarge, DefaultMaxBytes + 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cr := &countingReader{r: tt.src}
			_, err := Decode(cr, Limits{MaxBytes: tt.maxBytes})
			if !errors.Is(err, tt.wantErr) || (tt.wantErr == nil) != (err == nil) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if cr.n > tt.maxRead {
				t.Fatalf("read %d bytes, more than %d", cr.n, tt.maxRead)
			}
			if errors.Is(err, ErrTooManyPixels) {
				t.Fatal("an oversize file is not a pixel bomb")
			}
		})
	}
}

// Read errors are not the client's image being wrong.
func TestDecodeReadError(t *testing.T) {
	t.Parallel()
	boom := errors.New("connection reset")
	_, err := Decode(io.MultiReader(strings.NewReader("GIF89a"), errReader{boom}), Limits{})
	if !errors.Is(err, boom) || errors.Is(err, ErrUnsupportedType) || errors.Is(err, ErrTooLarge) {
		t.Fatalf("err = %v, want the read error alone", err)
	}
}

type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) { return 0, r.err }

func TestDecodeRefusesBombs(t *testing.T) {
	t.Parallel()
	// Headers patched to claim more pixels than they hold.
	jpg := encodeJPEG(t, quadrants(16, 16))
	sof := bytes.Index(jpg, []byte{0xff, 0xc0})
	jpegBomb := append([]byte{}, jpg...)
	binary.BigEndian.PutUint16(jpegBomb[sof+5:], 50000) // height
	binary.BigEndian.PutUint16(jpegBomb[sof+7:], 50000) // width

	gifBomb := encodeGIF(t, quadrants(16, 16))
	binary.LittleEndian.PutUint16(gifBomb[6:], 50000)
	binary.LittleEndian.PutUint16(gifBomb[8:], 50000)

	webpBomb := readTestdata(t, "alpha_lossy.webp") // VP8X: canvas size - 1 in 24 bits
	if string(webpBomb[12:16]) != "VP8X" {
		t.Fatal("testdata/alpha_lossy.webp should start with VP8X")
	}
	// 20000×20000: x/image/webp itself refuses canvases over 2^31-1 pixels,
	// so a bigger claim would not test our limit.
	copy(webpBomb[24:30], []byte{0x1f, 0x4e, 0x00, 0x1f, 0x4e, 0x00})

	tests := []struct {
		name string
		data []byte
		lim  Limits
		msg  string
	}{
		{"png 50000×50000", bombPNG(50000, 50000, true), Limits{}, "50000×50000 is 2500000000 pixels"},
		{"png 50000×50000, header only", bombPNG(50000, 50000, false), Limits{}, "50000×50000"},
		{"png 7000×7000 just over 40 MP", bombPNG(7000, 7000, true), Limits{}, "49000000 pixels"},
		{"png one side too long", bombPNG(30000, 10, true), Limits{}, "30000×10"},
		{"jpeg 50000×50000", jpegBomb, Limits{}, "50000×50000"},
		{"gif 50000×50000", gifBomb, Limits{}, "50000×50000"},
		{"webp 20000×20000", webpBomb, Limits{}, "20000×20000 is 400000000 pixels"},
		{"custom pixel limit", encodePNG(t, quadrants(100, 100)), Limits{MaxPixels: 9999}, "10000 pixels"},
		{"custom side limit", encodePNG(t, quadrants(100, 10)), Limits{MaxDimension: 99}, "100×10"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := Decode(bytes.NewReader(tt.data), tt.lim)
			if !errors.Is(err, ErrTooManyPixels) || !errors.Is(err, ErrTooLarge) {
				t.Fatalf("err = %v, want ErrTooManyPixels (which is ErrTooLarge)", err)
			}
			if !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("message %q does not contain %q", err, tt.msg)
			}
		})
	}

	// Exactly at the custom limits is accepted.
	if _, err := Decode(bytes.NewReader(encodePNG(t, quadrants(100, 100))), Limits{MaxPixels: 10000, MaxDimension: 100}); err != nil {
		t.Fatalf("100×100 at a 10000-pixel limit: %v", err)
	}
}

func TestJPEGScanLimit(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, quadrants(16, 16), nil); err != nil {
		t.Fatal(err)
	}
	jpg := buf.Bytes()
	sos := bytes.Index(jpg, []byte{0xff, 0xda})
	sosLen := int(binary.BigEndian.Uint16(jpg[sos+2:]))
	scan := append(append([]byte{}, jpg[sos:sos+2+sosLen]...), 0x00) // header + 1 byte of data
	build := func(n int) []byte {
		out := append([]byte{}, jpg[:sos]...)
		for range n {
			out = append(out, scan...)
		}
		return append(out, 0xff, 0xd9)
	}
	if _, err := jpegEnd(build(maxJPEGScans)); err != nil {
		t.Fatalf("%d scans: %v", maxJPEGScans, err)
	}
	_, err := Decode(bytes.NewReader(build(maxJPEGScans+1)), Limits{})
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "scans") {
		t.Fatalf("err = %v, want ErrCorrupt naming the scans", err)
	}
}

func TestAnimatedWEBPRefused(t *testing.T) {
	t.Parallel()
	_, err := Decode(bytes.NewReader(readTestdata(t, "anim.webp")), Limits{})
	if !errors.Is(err, ErrUnsupportedType) || !strings.Contains(err.Error(), "animated") {
		t.Fatalf("err = %v, want ErrUnsupportedType naming animation", err)
	}
}

func TestGIFFirstFrame(t *testing.T) {
	t.Parallel()
	pal := color.Palette{color.NRGBA{}, red, blue}
	tests := []struct {
		name   string
		g      *gif.GIF
		format Format
		at     map[image.Point]color.Color
	}{
		{
			name: "animation keeps frame one",
			g: &gif.GIF{
				Image: []*image.Paletted{paletted(0, 0, 20, 10, pal, 1), paletted(0, 0, 20, 10, pal, 2)},
				Delay: []int{10, 10},
			},
			format: JPEG,
			at:     map[image.Point]color.Color{{0, 0}: red, {19, 9}: red},
		},
		{
			name: "first frame smaller than the screen",
			g: &gif.GIF{
				Image:  []*image.Paletted{paletted(5, 2, 10, 5, pal, 2)},
				Delay:  []int{0},
				Config: image.Config{Width: 20, Height: 10, ColorModel: pal},
			},
			format: PNG,
			at:     map[image.Point]color.Color{{0, 0}: color.NRGBA{}, {5, 2}: blue, {14, 6}: blue, {15, 7}: color.NRGBA{}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			im, err := Decode(bytes.NewReader(encodeGIFAll(t, tt.g)), Limits{})
			if err != nil {
				t.Fatal(err)
			}
			enc, err := Encode(im)
			if err != nil {
				t.Fatal(err)
			}
			if enc.Format != tt.format || enc.Width != 20 || enc.Height != 10 {
				t.Fatalf("got %s %d×%d, want %s 20×10", enc.Format, enc.Width, enc.Height, tt.format)
			}
			out, _, err := image.Decode(bytes.NewReader(enc.Data))
			if err != nil {
				t.Fatal(err)
			}
			for p, want := range tt.at {
				if got := out.At(p.X, p.Y); !near(got, want, 40) {
					t.Errorf("pixel %v = %v, want %v", p, got, want)
				}
			}
		})
	}
}

func TestEXIFOrientation(t *testing.T) {
	t.Parallel()
	// The source is 40×20 with quarters red, blue / green, yellow. Each case
	// gives the quarters (TL, TR, BL, BR) a viewer honouring the tag shows.
	tests := []struct {
		orientation    uint16
		w, h           int
		tl, tr, bl, br color.Color
	}{
		{0, 40, 20, red, blue, green, yellow},
		{1, 40, 20, red, blue, green, yellow},
		{2, 40, 20, blue, red, yellow, green}, // mirrored
		{3, 40, 20, yellow, green, blue, red}, // rotated 180°
		{6, 20, 40, green, red, yellow, blue}, // rotated 90° clockwise
		{8, 20, 40, blue, yellow, red, green}, // rotated 90° counter-clockwise
		{5, 20, 40, red, green, blue, yellow}, // transposed
	}
	for _, tt := range tests {
		t.Run(string(rune('0'+tt.orientation)), func(t *testing.T) {
			t.Parallel()
			data := withSegments(encodeJPEG(t, quadrants(40, 20)), exifAPP1(tt.orientation))
			im, err := Decode(bytes.NewReader(data), Limits{})
			if err != nil {
				t.Fatal(err)
			}
			enc, err := Encode(im)
			if err != nil {
				t.Fatal(err)
			}
			// The output carries no orientation tag, so its pixels must
			// already be upright.
			out, err := jpeg.Decode(bytes.NewReader(enc.Data))
			if err != nil {
				t.Fatal(err)
			}
			if b := out.Bounds(); b.Dx() != tt.w || b.Dy() != tt.h {
				t.Fatalf("size %v, want %d×%d", b.Size(), tt.w, tt.h)
			}
			w, h := tt.w, tt.h
			for _, q := range []struct {
				x, y int
				want color.Color
			}{{w / 4, h / 4, tt.tl}, {3 * w / 4, h / 4, tt.tr}, {w / 4, 3 * h / 4, tt.bl}, {3 * w / 4, 3 * h / 4, tt.br}} {
				if got := out.At(q.x, q.y); !near(got, q.want, 40) {
					t.Errorf("pixel (%d,%d) = %v, want %v", q.x, q.y, got, q.want)
				}
			}
		})
	}
}

func TestMetadataStripped(t *testing.T) {
	t.Parallel()
	jpg := withSegments(encodeJPEG(t, quadrants(64, 48)),
		exifAPP1(6),
		segment(0xe1, []byte("http://ns.adobe.com/xap/1.0/\x00<x:xmpmeta>"+gpsSecret+"</x:xmpmeta>")),
		segment(0xe2, []byte("ICC_PROFILE\x00\x01\x01"+gpsSecret)),
		segment(0xfe, []byte("comment "+gpsSecret)),
	)
	// Make sure the fixture carries what we claim it carries.
	if !bytes.Contains(jpg, []byte("Exif\x00\x00MM")) || !bytes.Contains(jpg, []byte(gpsSecret)) {
		t.Fatal("fixture has no EXIF GPS block")
	}

	p := encodePNG(t, fading(64, 48))
	end := len(p) - 12 // before IEND
	pngWithText := append(append(append([]byte{}, p[:end]...),
		pngChunk("tEXt", []byte("Comment\x00"+gpsSecret))...), p[end:]...)
	pngWithText = append(append(pngWithText[:33:33], pngChunk("eXIf", exifAPP1(1)[10:])...), pngWithText[33:]...)

	tests := []struct {
		name string
		data []byte
	}{
		{"jpeg with exif gps, xmp, icc, comment", jpg},
		{"png with tEXt and eXIf", pngWithText},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			im, err := Decode(bytes.NewReader(tt.data), Limits{})
			if err != nil {
				t.Fatal(err)
			}
			outs := map[string]*Encoded{}
			if outs["full"], err = Encode(im); err != nil {
				t.Fatal(err)
			}
			for _, s := range Sizes() {
				if outs[s.Name], err = Resize(im, s.Width/10); err != nil {
					t.Fatal(err)
				}
			}
			for name, enc := range outs {
				for _, leak := range []string{"Exif", gpsSecret, "xmpmeta", "ICC_PROFILE", "MM\x00\x2a"} {
					if bytes.Contains(enc.Data, []byte(leak)) {
						t.Errorf("%s: output contains %q", name, leak)
					}
				}
				switch enc.Format {
				case JPEG:
					for _, m := range jpegMarkers(t, enc.Data) {
						if 0xe0 <= m && m <= 0xef || m == 0xfe {
							t.Errorf("%s: output has an APP%d/COM segment (0x%02x)", name, m-0xe0, m)
						}
					}
				case PNG:
					for _, typ := range pngChunkTypes(t, enc.Data) {
						switch typ {
						case "IHDR", "PLTE", "tRNS", "IDAT", "IEND":
						default:
							t.Errorf("%s: output has a %s chunk", name, typ)
						}
					}
				}
			}
		})
	}
}

func TestResize(t *testing.T) {
	t.Parallel()
	wide, err := Decode(bytes.NewReader(encodeJPEG(t, quadrants(1000, 500))), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	small, err := Decode(bytes.NewReader(encodePNG(t, quadrants(200, 100))), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	clear, err := Decode(bytes.NewReader(encodePNG(t, fading(1000, 500))), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		im     *Image
		width  int
		w, h   int
		format Format
	}{
		{"thumb", wide, Thumb.Width, 320, 160, JPEG},
		{"medium", wide, Medium.Width, 800, 400, JPEG},
		{"same width", wide, 1000, 1000, 500, JPEG},
		{"never upscaled", small, Medium.Width, 200, 100, JPEG},
		{"transparent stays png", clear, Thumb.Width, 320, 160, PNG},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			enc, err := Resize(tt.im, tt.width)
			if err != nil {
				t.Fatal(err)
			}
			cfg, format, err := image.DecodeConfig(bytes.NewReader(enc.Data))
			if err != nil {
				t.Fatal(err)
			}
			if cfg.Width != tt.w || cfg.Height != tt.h || enc.Width != tt.w || enc.Height != tt.h || Format(format) != tt.format || enc.Format != tt.format {
				t.Fatalf("got %s %d×%d (Encoded: %s %d×%d), want %s %d×%d",
					format, cfg.Width, cfg.Height, enc.Format, enc.Width, enc.Height, tt.format, tt.w, tt.h)
			}
			out, _, _ := image.Decode(bytes.NewReader(enc.Data))
			if got := out.At(tt.w/4, tt.h/4); !near(got, red, 60) && tt.format == JPEG {
				t.Errorf("top-left quarter is %v, want red", got)
			}
		})
	}
	for _, width := range []int{0, -1} {
		if _, err := Resize(wide, width); err == nil {
			t.Errorf("Resize to width %d: no error", width)
		}
	}
}

func TestProcess(t *testing.T) {
	t.Parallel()
	enc, err := Process(bytes.NewReader(withSegments(encodeJPEG(t, quadrants(40, 20)), exifAPP1(6))), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if enc.Format != JPEG || enc.Width != 20 || enc.Height != 40 || enc.Ext() != ".jpg" {
		t.Fatalf("got %s %d×%d %s", enc.Format, enc.Width, enc.Height, enc.Ext())
	}
	if _, err := Process(strings.NewReader("hello"), Limits{}); !errors.Is(err, ErrUnsupportedType) {
		t.Fatalf("err = %v", err)
	}
}

func TestFormatNames(t *testing.T) {
	t.Parallel()
	for f, want := range map[Format][2]string{
		JPEG: {"image/jpeg", ".jpg"}, PNG: {"image/png", ".png"},
		GIF: {"image/gif", ".gif"}, WEBP: {"image/webp", ".webp"},
	} {
		if f.ContentType() != want[0] || f.Ext() != want[1] {
			t.Errorf("%s: %s %s", f, f.ContentType(), f.Ext())
		}
	}
}

// The std decoders this package relies on are the ones registered; a
// sanity check that WEBP really goes through x/image/webp.
func TestWEBPDecoderRegistered(t *testing.T) {
	t.Parallel()
	data := readTestdata(t, "opaque_lossless.webp")
	if _, err := webp.Decode(bytes.NewReader(data)); err != nil {
		t.Fatal(err)
	}
	if _, name, err := image.DecodeConfig(bytes.NewReader(data)); err != nil || name != "webp" {
		t.Fatalf("image.DecodeConfig: %s %v", name, err)
	}
}

func TestRenditions(t *testing.T) {
	t.Parallel()
	im, err := Decode(bytes.NewReader(encodeJPEG(t, quadrants(2000, 1000))), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	// Smallest first, to check the results follow the order asked for.
	sizes := []Size{{"tiny", 100}, Thumb, Medium, {"huge", 4000}}
	outs, err := Renditions(im, sizes)
	if err != nil {
		t.Fatal(err)
	}
	want := [][2]int{{100, 50}, {320, 160}, {800, 400}, {2000, 1000}}
	for i, enc := range outs {
		cfg, _, err := image.DecodeConfig(bytes.NewReader(enc.Data))
		if err != nil {
			t.Fatal(err)
		}
		if cfg.Width != want[i][0] || cfg.Height != want[i][1] || enc.Format != JPEG {
			t.Errorf("%s: %s %d×%d, want %v", sizes[i].Name, enc.Format, cfg.Width, cfg.Height, want[i])
		}
		// Computed from a larger rendition or not, the picture is the same
		// as a direct Resize.
		direct, err := Resize(im, sizes[i].Width)
		if err != nil {
			t.Fatal(err)
		}
		a, _, _ := image.Decode(bytes.NewReader(enc.Data))
		b, _, _ := image.Decode(bytes.NewReader(direct.Data))
		for _, p := range []image.Point{{cfg.Width / 4, cfg.Height / 4}, {3 * cfg.Width / 4, 3 * cfg.Height / 4}} {
			if !near(a.At(p.X, p.Y), b.At(p.X, p.Y), 12) {
				t.Errorf("%s at %v: %v, direct resize %v", sizes[i].Name, p, a.At(p.X, p.Y), b.At(p.X, p.Y))
			}
		}
	}
	if _, err := Renditions(im, []Size{{"zero", 0}}); err == nil {
		t.Error("a zero width is accepted")
	}
}
