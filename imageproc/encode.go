package imageproc

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"io"
	"slices"

	"github.com/disintegration/imaging"
)

// JPEGQuality is the quality of every JPEG this package writes: visually
// close to the source at a third of the size of quality 95.
const JPEGQuality = 85

// Encoded is an image encoded for storage. It carries no metadata: the
// encoders of image/jpeg and image/png write no EXIF, XMP, ICC or text
// segments, so nothing of the upload's metadata survives.
type Encoded struct {
	Data          []byte
	Format        Format // JPEG or PNG
	Width, Height int
}

// ContentType is the MIME type of the encoded bytes.
func (e *Encoded) ContentType() string { return e.Format.ContentType() }

// Ext is the file-name extension of the encoded bytes, with its dot.
func (e *Encoded) Ext() string { return e.Format.Ext() }

// Size names a smaller rendition the client shows in lists.
type Size struct {
	Name  string // a stable name, usable in file keys: "thumb", "medium"
	Width int    // maximum width in pixels; the height keeps the aspect ratio
}

// The renditions the image job produces.
var (
	Thumb  = Size{Name: "thumb", Width: 320}
	Medium = Size{Name: "medium", Width: 800}
)

// Sizes lists the renditions the image job produces, largest first.
func Sizes() []Size { return []Size{Medium, Thumb} }

// OutputFormat is the format Encode and Resize write for im: PNG when it has
// transparency, JPEG otherwise. Every rendition of one image has the same
// format, so its stored files share an extension.
func OutputFormat(im *Image) Format {
	if im.alpha {
		return PNG
	}
	return JPEG
}

// Encode re-encodes im at its full (auto-oriented) size.
func Encode(im *Image) (*Encoded, error) {
	return encode(im.img, OutputFormat(im))
}

// Resize encodes im scaled down to width pixels wide. An image that is not
// wider than width is encoded at its own size: never upscaled.
func Resize(im *Image, width int) (*Encoded, error) {
	if width < 1 {
		return nil, fmt.Errorf("resize to width %d: width must be positive", width)
	}
	img := im.img
	if img.Bounds().Dx() > width {
		// Lanczos is the sharpest of imaging's filters for downscaling; the
		// benchmarks show it costs little more than the cheaper ones here.
		img = imaging.Resize(img, width, 0, imaging.Lanczos)
	}
	return encode(img, OutputFormat(im))
}

// Renditions encodes im at each of sizes, like Resize, and returns the
// results in the order of sizes. It is what the image job calls: a smaller
// rendition is computed from a larger one when that one is at least twice
// its width, which halves the cost of the usual pair (the filter's cost
// grows with the source, and a second Lanczos pass at that ratio is not
// visible).
func Renditions(im *Image, sizes []Size) ([]*Encoded, error) {
	order := make([]int, len(sizes))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return sizes[b].Width - sizes[a].Width })

	out := make([]*Encoded, len(sizes))
	format := OutputFormat(im)
	var prev image.Image // the last rendition made, widest first
	for _, i := range order {
		w := sizes[i].Width
		if w < 1 {
			return nil, fmt.Errorf("rendition %q: width must be positive", sizes[i].Name)
		}
		src := im.img
		if prev != nil && prev.Bounds().Dx() >= 2*w {
			src = prev
		}
		img := src
		if src.Bounds().Dx() > w {
			img = imaging.Resize(src, w, 0, imaging.Lanczos)
			prev = img
		}
		enc, err := encode(img, format)
		if err != nil {
			return nil, fmt.Errorf("rendition %q: %w", sizes[i].Name, err)
		}
		out[i] = enc
	}
	return out, nil
}

// Process decodes r under lim and re-encodes it at full size: what an upload
// handler stores.
func Process(r io.Reader, lim Limits) (*Encoded, error) {
	im, err := Decode(r, lim)
	if err != nil {
		return nil, err
	}
	return Encode(im)
}

func encode(img image.Image, f Format) (*Encoded, error) {
	var buf bytes.Buffer
	var err error
	switch f {
	case JPEG:
		err = imaging.Encode(&buf, img, imaging.JPEG, imaging.JPEGQuality(JPEGQuality))
	case PNG:
		err = imaging.Encode(&buf, img, imaging.PNG)
	default:
		err = errors.New("only JPEG and PNG are written")
	}
	if err != nil {
		return nil, fmt.Errorf("encode %s: %w", f, err)
	}
	b := img.Bounds()
	return &Encoded{Data: buf.Bytes(), Format: f, Width: b.Dx(), Height: b.Dy()}, nil
}
