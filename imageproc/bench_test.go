package imageproc

import (
	"bytes"
	"image"
	"math/rand/v2"
	"sync"
	"testing"
)

// photo12MP is a 4000×3000 JPEG (quality 90) with gradients and noise, about
// the size and entropy of a phone photo, tagged with EXIF orientation 1 or 6.
var photo12MP = sync.OnceValues(func() ([]byte, []byte) {
	const w, h = 4000, 3000
	img := image.NewYCbCr(image.Rect(0, 0, w, h), image.YCbCrSubsampleRatio420)
	rng := rand.New(rand.NewPCG(1, 2))
	for y := range h {
		for x := range w {
			img.Y[y*img.YStride+x] = uint8((x*255/w+y*255/h)/2 + rng.IntN(24))
		}
	}
	for i := range img.Cb {
		img.Cb[i] = uint8(100 + rng.IntN(16))
		img.Cr[i] = uint8(140 + rng.IntN(16))
	}
	var buf bytes.Buffer
	if err := encodeJPEGQ(&buf, img, 90); err != nil {
		panic(err)
	}
	return withSegments(buf.Bytes(), exifAPP1(1)), withSegments(buf.Bytes(), exifAPP1(6))
})

func benchDecode(b *testing.B, data []byte) *Image {
	im, err := Decode(bytes.NewReader(data), Limits{})
	if err != nil {
		b.Fatal(err)
	}
	return im
}

// BenchmarkDecode12MP: validation and decoding of an upload.
func BenchmarkDecode12MP(b *testing.B) {
	upright, rotated := photo12MP()
	for _, bc := range []struct {
		name string
		data []byte
	}{{"upright", upright}, {"orientation6", rotated}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(bc.data)))
			for b.Loop() {
				benchDecode(b, bc.data)
			}
		})
	}
}

// BenchmarkUpload12MP: what the upload handler does (Process).
func BenchmarkUpload12MP(b *testing.B) {
	upright, rotated := photo12MP()
	for _, bc := range []struct {
		name string
		data []byte
	}{{"upright", upright}, {"orientation6", rotated}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Process(bytes.NewReader(bc.data), Limits{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkResize12MP: one rendition from a decoded 12 MP image.
func BenchmarkResize12MP(b *testing.B) {
	upright, _ := photo12MP()
	im := benchDecode(b, upright)
	for _, s := range Sizes() {
		b.Run(s.Name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Resize(im, s.Width); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkImageJob12MP: what the image job does with a stored 12 MP
// original: decode it and write every rendition, with Renditions and, for
// comparison, with one Resize per size.
func BenchmarkImageJob12MP(b *testing.B) {
	upright, _ := photo12MP()
	b.Run("Renditions", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Renditions(benchDecode(b, upright), Sizes()); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Resize each", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			im := benchDecode(b, upright)
			for _, s := range Sizes() {
				if _, err := Resize(im, s.Width); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}
