// Package imageproc validates uploaded images and re-encodes them.
//
// An upload is trusted for nothing: the type is decided by its bytes (JPEG,
// PNG, GIF and WEBP only), its header is read before any pixel is decoded so
// that a decompression bomb is refused cheaply, and the whole file must
// decode, with nothing but an image inside it, before it is accepted. What is
// stored is never the uploaded bytes but a fresh encoding (see Encode and
// Resize, Renditions): auto-oriented by the EXIF orientation, with all
// metadata (EXIF, GPS position, comments, colour profiles) dropped, as JPEG
// (quality 85) or, when the image has transparency, PNG. An animated GIF
// keeps its first frame; an animated WEBP is refused, as
// golang.org/x/image/webp cannot decode it.
//
// Decoding holds the whole file (at most Limits.MaxBytes) and the decoded
// pixels in memory: up to about 8 bytes per pixel at the 40-megapixel
// default, some 300 MB, so callers bound how many images they process at
// once.
//
// # Errors and HTTP status
//
// Every refusal wraps one of two sentinels, so the HTTP layer needs two cases:
//
//	switch {
//	case errors.Is(err, imageproc.ErrTooLarge): // also ErrTooManyPixels
//		// 413 payload_too_large
//	case errors.Is(err, imageproc.ErrUnsupportedType): // also ErrCorrupt
//		// 415 unsupported_media_type
//	}
//
// A decompression bomb (ErrTooManyPixels) is answered with 413: the request
// is too large in what it would cost to decode, not in a way the client can
// fix by changing the type, and the message names the pixel counts. A file
// that claims to be an image but is damaged, truncated or a polyglot
// (ErrCorrupt) is answered with 415 like any other non-image.
//
// The text of these errors is written for the uploader (no paths, no internal
// state), so a handler may use err.Error() as the message of the 4xx body.
// Any other error from Decode comes from the reader and is not the client's
// fault as far as this package knows.
package imageproc

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/draw"
	"image/gif"
	"image/jpeg"
	"image/png"
	"io"

	"github.com/disintegration/imaging"
	"golang.org/x/image/webp"
)

// Default limits. MaxBytes is the 20 MB of docs/api.md, read as 20 MiB.
const (
	DefaultMaxBytes     int64 = 20 << 20
	DefaultMaxPixels    int64 = 40_000_000
	DefaultMaxDimension       = 20_000
)

// kindError is a sentinel that is also another sentinel, so that callers may
// map the broad one to a status and still tell the narrow one apart.
type kindError struct {
	msg    string
	parent error
}

func (e *kindError) Error() string { return e.msg }
func (e *kindError) Unwrap() error { return e.parent }

var (
	// ErrTooLarge: the file is larger than Limits.MaxBytes (HTTP 413).
	ErrTooLarge = errors.New("image file is too large")
	// ErrUnsupportedType: the bytes are not a JPEG, PNG, GIF or WEBP image
	// (HTTP 415).
	ErrUnsupportedType = errors.New("unsupported image type: JPEG, PNG, GIF and WEBP images are accepted")
	// ErrTooManyPixels: the header announces more pixels, or a longer side,
	// than Limits allow; decoding it would exhaust memory. It is also
	// ErrTooLarge (HTTP 413).
	ErrTooManyPixels error = &kindError{msg: "image has too many pixels", parent: ErrTooLarge}
	// ErrCorrupt: the file starts like an accepted type but is truncated,
	// damaged, or carries something else after or instead of the image (a
	// polyglot). It is also ErrUnsupportedType (HTTP 415).
	ErrCorrupt error = &kindError{msg: "image is damaged or is not a single valid image", parent: ErrUnsupportedType}
)

// Format is an image encoding.
type Format string

// The formats Decode accepts; Encode and Resize produce only JPEG and PNG.
const (
	JPEG Format = "jpeg"
	PNG  Format = "png"
	GIF  Format = "gif"
	WEBP Format = "webp"
)

// ContentType is the MIME type of f, for the Content-Type header.
func (f Format) ContentType() string { return "image/" + string(f) }

// Ext is the file-name extension for f, with its dot.
func (f Format) Ext() string {
	if f == JPEG {
		return ".jpg"
	}
	return "." + string(f)
}

// Limits bound what Decode accepts. A zero field takes its default.
type Limits struct {
	MaxBytes     int64 // file size; DefaultMaxBytes
	MaxPixels    int64 // width*height; DefaultMaxPixels
	MaxDimension int   // width and height each; DefaultMaxDimension
}

func (l Limits) withDefaults() Limits {
	if l.MaxBytes <= 0 {
		l.MaxBytes = DefaultMaxBytes
	}
	if l.MaxPixels <= 0 {
		l.MaxPixels = DefaultMaxPixels
	}
	if l.MaxDimension <= 0 {
		l.MaxDimension = DefaultMaxDimension
	}
	return l
}

// Image is a validated, decoded and auto-oriented image. Its pixels live in
// memory: about 4 bytes per pixel once oriented or resized, so a caller that
// processes images concurrently should bound how many at a time.
type Image struct {
	img    image.Image
	format Format
	alpha  bool
}

// Format is the format the upload was in (not the one Encode produces).
func (im *Image) Format() Format { return im.format }

// Width is the width after auto-orientation.
func (im *Image) Width() int { return im.img.Bounds().Dx() }

// Height is the height after auto-orientation.
func (im *Image) Height() int { return im.img.Bounds().Dy() }

// HasAlpha reports whether any pixel is not fully opaque; such an image is
// encoded as PNG, any other as JPEG.
func (im *Image) HasAlpha() bool { return im.alpha }

// Decode reads one image from r and validates it. It reads at most
// lim.MaxBytes+1 bytes, so a larger upload is refused without being read to
// its end. The checks run cheapest first, and nothing is decoded before the
// header has been checked against the pixel limits.
func Decode(r io.Reader, lim Limits) (*Image, error) {
	lim = lim.withDefaults()
	data, err := io.ReadAll(io.LimitReader(r, lim.MaxBytes+1))
	if err != nil {
		return nil, fmt.Errorf("read image: %w", err)
	}
	if int64(len(data)) > lim.MaxBytes {
		return nil, fmt.Errorf("%w: the limit is %s", ErrTooLarge, formatBytes(lim.MaxBytes))
	}
	return decodeBytes(data, lim)
}

func decodeBytes(data []byte, lim Limits) (*Image, error) {
	format := sniff(data)
	if format == "" {
		return nil, ErrUnsupportedType
	}

	// The header alone, so that a bomb costs nothing. A PNG header carries a
	// CRC; the others do not, so a garbage "header" may also land here, which
	// still refuses the file.
	cfg, err := decodeConfig(format, data)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	if cfg.Width < 1 || cfg.Height < 1 {
		return nil, fmt.Errorf("%w: it has no pixels", ErrCorrupt)
	}
	pixels := int64(cfg.Width) * int64(cfg.Height)
	if pixels > lim.MaxPixels || cfg.Width > lim.MaxDimension || cfg.Height > lim.MaxDimension {
		return nil, fmt.Errorf("%w: %d×%d is %d pixels; the limit is %d pixels and %d pixels per side",
			ErrTooManyPixels, cfg.Width, cfg.Height, pixels, lim.MaxPixels, lim.MaxDimension)
	}

	// The container must be whole and hold only the image: this refuses
	// truncated files and polyglots (an image followed by HTML, a script or
	// a ZIP), which a decoder alone would accept.
	end, err := imageEnd(format, data)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	if err := checkTrailer(format, data[end:]); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}

	// sniff has fixed the format, and image.Decode (used by imaging) picks
	// the decoder by the same magic numbers, so the BMP and TIFF decoders
	// that imaging registers can never be reached.
	img, err := imaging.Decode(bytes.NewReader(data[:end]), imaging.AutoOrientation(true))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	if format == GIF {
		img = onCanvas(img, cfg.Width, cfg.Height)
	}
	return &Image{img: img, format: format, alpha: hasAlpha(img)}, nil
}

func decodeConfig(f Format, data []byte) (image.Config, error) {
	r := bytes.NewReader(data)
	switch f {
	case JPEG:
		return jpeg.DecodeConfig(r)
	case PNG:
		return png.DecodeConfig(r)
	case GIF:
		return gif.DecodeConfig(r)
	case WEBP:
		return webp.DecodeConfig(r)
	}
	return image.Config{}, fmt.Errorf("no decoder for %s", f)
}

// onCanvas places a GIF's first frame on the logical screen it belongs to:
// a frame may cover only part of the screen, and browsers show the rest as
// transparent.
func onCanvas(img image.Image, w, h int) image.Image {
	screen := image.Rect(0, 0, w, h)
	if img.Bounds() == screen {
		return img
	}
	canvas := image.NewNRGBA(screen)
	draw.Draw(canvas, img.Bounds(), img, img.Bounds().Min, draw.Src)
	return canvas
}

// hasAlpha reports whether some pixel is not fully opaque. Every concrete
// type the decoders return has an Opaque method; the loop is the fallback.
func hasAlpha(img image.Image) bool {
	if o, ok := img.(interface{ Opaque() bool }); ok {
		return !o.Opaque()
	}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if _, _, _, a := img.At(x, y).RGBA(); a != 0xffff {
				return true
			}
		}
	}
	return false
}

func formatBytes(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// Sniff returns the format the leading bytes of a file announce (16 are
// enough), or "" for anything but JPEG, PNG, GIF and WEBP.
func Sniff(head []byte) Format { return sniff(head) }

// FormatOfExt returns the format a stored file's extension names (".jpg",
// ".png", ".gif", ".webp"), or "" for any other: the allow-list of what is
// stored and served.
func FormatOfExt(ext string) Format {
	for _, f := range []Format{JPEG, PNG, GIF, WEBP} {
		if ext == f.Ext() {
			return f
		}
	}
	return ""
}
