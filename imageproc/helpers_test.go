package imageproc

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// Test images are built here from image/* encoders; the WEBP files in
// testdata were made with cwebp/img2webp (Debian package webp) from 16×12
// PNGs: left half red, right half blue, the alpha ones fading downwards.

var (
	red    = color.NRGBA{220, 30, 30, 255}
	blue   = color.NRGBA{30, 30, 220, 255}
	green  = color.NRGBA{30, 200, 30, 255}
	yellow = color.NRGBA{230, 230, 30, 255}
)

// quadrants is a w×h image whose quarters are red, blue (top) and green,
// yellow (bottom), so that every rotation and flip gives a different picture.
func quadrants(w, h int) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			var c color.NRGBA
			switch {
			case y < h/2 && x < w/2:
				c = red
			case y < h/2:
				c = blue
			case x < w/2:
				c = green
			default:
				c = yellow
			}
			img.SetNRGBA(x, y, c)
		}
	}
	return img
}

// fading is quadrants with an alpha that falls from top to bottom.
func fading(w, h int) *image.NRGBA {
	img := quadrants(w, h)
	for y := range h {
		for x := range w {
			img.Pix[img.PixOffset(x, y)+3] = uint8(255 - 200*y/h)
		}
	}
	return img
}

func encodePNG(t testing.TB, img image.Image) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func encodeJPEG(t testing.TB, img image.Image) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 95}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func encodeGIF(t testing.TB, img image.Image) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := gif.Encode(&buf, img, nil); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// paletted returns a w×h single-colour frame at offset (x0, y0).
func paletted(x0, y0, w, h int, pal color.Palette, index uint8) *image.Paletted {
	p := image.NewPaletted(image.Rect(x0, y0, x0+w, y0+h), pal)
	for i := range p.Pix {
		p.Pix[i] = index
	}
	return p
}

func encodeGIFAll(t testing.TB, g *gif.GIF) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := gif.EncodeAll(&buf, g); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// pngChunk encodes one PNG chunk with its CRC.
func pngChunk(typ string, data []byte) []byte {
	var b bytes.Buffer
	binary.Write(&b, binary.BigEndian, uint32(len(data)))
	b.WriteString(typ)
	b.Write(data)
	binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(append([]byte(typ), data...)))
	return b.Bytes()
}

// bombPNG is a complete, well-formed 1-bit greyscale PNG whose IHDR claims
// w×h pixels but whose IDAT holds almost nothing: a few hundred bytes that
// would make a decoder allocate w*h bytes. withEnd=false leaves out IDAT and
// IEND, as a hand-made bomb often does.
func bombPNG(w, h uint32, withEnd bool) []byte {
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], w)
	binary.BigEndian.PutUint32(ihdr[4:], h)
	ihdr[8] = 1 // bit depth
	ihdr[9] = 0 // greyscale
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	zw.Write(make([]byte, 4096))
	zw.Close()
	out := append([]byte{}, pngSignature...)
	out = append(out, pngChunk("IHDR", ihdr)...)
	if withEnd {
		out = append(out, pngChunk("IDAT", z.Bytes())...)
		out = append(out, pngChunk("IEND", nil)...)
	}
	return out
}

// withSegments inserts JPEG marker segments right after SOI.
func withSegments(jpg []byte, segs ...[]byte) []byte {
	out := append([]byte{}, jpg[:2]...)
	for _, s := range segs {
		out = append(out, s...)
	}
	return append(out, jpg[2:]...)
}

// segment encodes a JPEG marker segment.
func segment(marker byte, payload []byte) []byte {
	s := []byte{0xff, marker, 0, 0}
	binary.BigEndian.PutUint16(s[2:], uint16(len(payload)+2))
	return append(s, payload...)
}

// gpsSecret is written into the GPS IFD; it must not appear in any output.
const gpsSecret = "SECRET-GPS-AREA"

// exifAPP1 builds an EXIF APP1 segment (big-endian TIFF) with an IFD0 that
// holds the orientation and a pointer to a GPS IFD with a latitude of
// 48°51'29" N and a GPSAreaInformation string. orientation 0 leaves the tag
// out.
func exifAPP1(orientation uint16) []byte {
	be := binary.BigEndian
	var t bytes.Buffer // TIFF structure; offsets are from its start
	t.WriteString("MM\x00\x2a")
	binary.Write(&t, be, uint32(8)) // IFD0 offset

	type entry struct {
		tag, typ uint16
		count    uint32
		value    uint32 // value (left-justified for SHORT) or offset
	}
	writeIFD := func(es []entry) {
		binary.Write(&t, be, uint16(len(es)))
		for _, e := range es {
			binary.Write(&t, be, e.tag)
			binary.Write(&t, be, e.typ)
			binary.Write(&t, be, e.count)
			binary.Write(&t, be, e.value)
		}
		binary.Write(&t, be, uint32(0)) // no next IFD
	}

	var ifd0 []entry
	if orientation != 0 {
		ifd0 = append(ifd0, entry{0x0112, 3, 1, uint32(orientation) << 16})
	}
	ifd0Size := 2 + 12*(len(ifd0)+1) + 4
	gpsOffset := uint32(8 + ifd0Size)
	ifd0 = append(ifd0, entry{0x8825, 4, 1, gpsOffset}) // GPS IFD pointer
	writeIFD(ifd0)

	// GPS IFD: LatitudeRef "N", Latitude (3 RATIONALs), AreaInformation.
	const gpsEntries = 3
	dataOffset := gpsOffset + uint32(2+12*gpsEntries+4)
	area := "ASCII\x00\x00\x00" + gpsSecret
	writeIFD([]entry{
		{0x0001, 2, 2, uint32('N') << 24},
		{0x0002, 5, 3, dataOffset},
		{0x001c, 7, uint32(len(area)), dataOffset + 24},
	})
	for _, v := range []uint32{48, 1, 51, 1, 29, 1} {
		binary.Write(&t, be, v)
	}
	t.WriteString(area)

	return segment(0xe1, append([]byte("Exif\x00\x00"), t.Bytes()...))
}

// countingReader counts the bytes read from it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// zeros is an endless reader of zero bytes.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// near reports whether two colours are within tol per channel (for JPEG).
func near(a, b color.Color, tol int) bool {
	r1, g1, b1, a1 := a.RGBA()
	r2, g2, b2, a2 := b.RGBA()
	d := func(x, y uint32) bool {
		diff := int(x>>8) - int(y>>8)
		return diff <= tol && diff >= -tol
	}
	return d(r1, r2) && d(g1, g2) && d(b1, b2) && d(a1, a2)
}

// jpegMarkers lists the markers of a JPEG's segments up to its first SOS.
func jpegMarkers(t testing.TB, b []byte) []byte {
	t.Helper()
	var ms []byte
	i := 2
	for i+4 <= len(b) {
		if b[i] != 0xff {
			t.Fatalf("no marker at %d", i)
		}
		m := b[i+1]
		ms = append(ms, m)
		if m == 0xda {
			break
		}
		i += 2 + int(binary.BigEndian.Uint16(b[i+2:]))
	}
	return ms
}

// pngChunkTypes lists the chunk types of a PNG.
func pngChunkTypes(t testing.TB, b []byte) []string {
	t.Helper()
	var types []string
	for i := 8; i+8 <= len(b); {
		n := int(binary.BigEndian.Uint32(b[i:]))
		types = append(types, string(b[i+4:i+8]))
		i += 12 + n
	}
	return types
}

func encodeJPEGQ(w io.Writer, img image.Image, q int) error {
	return jpeg.Encode(w, img, &jpeg.Options{Quality: q})
}
