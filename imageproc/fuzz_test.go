package imageproc

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/gif"
	"testing"
)

func fuzzSeeds(f *testing.F) {
	f.Add(encodeJPEG(f, quadrants(8, 6)))
	f.Add(withSegments(encodeJPEG(f, quadrants(8, 6)), exifAPP1(6)))
	f.Add(encodePNG(f, fading(8, 6)))
	f.Add(encodePNG(f, paletted(0, 0, 4, 4, color.Palette{color.NRGBA{}, red}, 1)))
	f.Add(encodeGIF(f, quadrants(8, 6)))
	f.Add(encodeGIFAll(f, &gif.GIF{
		Image:  []*image.Paletted{paletted(1, 1, 3, 3, color.Palette{red, blue}, 1), paletted(0, 0, 6, 6, color.Palette{red, blue}, 0)},
		Delay:  []int{1, 1},
		Config: image.Config{Width: 6, Height: 6, ColorModel: color.Palette{red, blue}},
	}))
	for _, name := range []string{"opaque_lossless.webp", "opaque_lossy.webp", "alpha_lossy.webp", "alpha_lossless.webp", "anim.webp"} {
		f.Add(readTestdata(f, name))
	}
	f.Add(bombPNG(50000, 50000, true))
	f.Add([]byte("GIF89a<script>"))
}

// FuzzDecode checks that every input is either refused with one of the
// documented sentinels or yields an image within the limits that encodes to
// a file this package accepts again, with the same size and a clean end.
func FuzzDecode(f *testing.F) {
	fuzzSeeds(f)
	lim := Limits{MaxBytes: 1 << 16, MaxPixels: 1 << 16, MaxDimension: 1024}
	f.Fuzz(func(t *testing.T, data []byte) {
		im, err := Decode(bytes.NewReader(data), lim)
		if err != nil {
			if !errors.Is(err, ErrTooLarge) && !errors.Is(err, ErrUnsupportedType) {
				t.Fatalf("refusal without a sentinel: %v", err)
			}
			return
		}
		w, h := im.Width(), im.Height()
		if w < 1 || h < 1 || int64(w)*int64(h) > lim.MaxPixels || w > lim.MaxDimension || h > lim.MaxDimension {
			t.Fatalf("accepted %d×%d outside the limits", w, h)
		}
		enc, err := Encode(im)
		if err != nil {
			t.Fatalf("Encode: %v", err)
		}
		again, err := Decode(bytes.NewReader(enc.Data), Limits{})
		if err != nil {
			t.Fatalf("our own output is refused: %v", err)
		}
		if again.Width() != w || again.Height() != h || again.Format() != enc.Format || again.HasAlpha() != im.HasAlpha() {
			t.Fatalf("round trip: %s %d×%d alpha=%v, want %s %d×%d alpha=%v",
				again.Format(), again.Width(), again.Height(), again.HasAlpha(), enc.Format, w, h, im.HasAlpha())
		}
	})
}

// FuzzImageEnd checks that the container walkers never read out of bounds
// and report an end inside the input.
func FuzzImageEnd(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, format := range []Format{JPEG, PNG, GIF, WEBP} {
			end, err := imageEnd(format, data)
			if err == nil && (end < 1 || end > len(data)) {
				t.Fatalf("%s: end %d outside 1..%d", format, end, len(data))
			}
			if err == nil && format == sniff(data) {
				_ = checkTrailer(format, data[end:])
			}
		}
	})
}
