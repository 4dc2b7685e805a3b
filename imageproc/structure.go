package imageproc

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
)

// This file reads the container of each accepted format far enough to know
// where the image ends, without decoding pixels. Decoders stop at the end of
// the image and ignore what follows, which is exactly where a polyglot puts
// its second meaning; they also skip what they do not need (the frames after
// a GIF's first), so a truncated file can decode.

var errTruncated = errors.New("the file is truncated")

var pngSignature = []byte("\x89PNG\r\n\x1a\n")

// sniff returns the format announced by the leading bytes, or "".
func sniff(b []byte) Format {
	switch {
	case bytes.HasPrefix(b, []byte{0xff, 0xd8, 0xff}):
		return JPEG
	case bytes.HasPrefix(b, pngSignature):
		return PNG
	case bytes.HasPrefix(b, []byte("GIF87a")), bytes.HasPrefix(b, []byte("GIF89a")):
		return GIF
	case len(b) >= 16 && string(b[0:4]) == "RIFF" && string(b[8:15]) == "WEBPVP8" &&
		(b[15] == ' ' || b[15] == 'L' || b[15] == 'X'):
		return WEBP
	}
	return ""
}

// imageEnd returns the offset just past the end of the image in b.
func imageEnd(f Format, b []byte) (int, error) {
	switch f {
	case JPEG:
		return jpegEnd(b)
	case PNG:
		return pngEnd(b)
	case GIF:
		return gifEnd(b)
	case WEBP:
		return webpEnd(b)
	}
	return 0, fmt.Errorf("no reader for %s", f)
}

// pngEnd walks the chunks, checking each CRC, up to IEND.
func pngEnd(b []byte) (int, error) {
	if !bytes.HasPrefix(b, pngSignature) {
		return 0, errors.New("not a PNG")
	}
	i := len(pngSignature)
	for first := true; ; first = false {
		if len(b)-i < 12 {
			return 0, errTruncated
		}
		n := int64(binary.BigEndian.Uint32(b[i:]))
		if n > 1<<31-1 {
			return 0, errors.New("PNG chunk length out of range")
		}
		typ := b[i+4 : i+8]
		for _, c := range typ {
			if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
				return 0, errors.New("invalid PNG chunk type")
			}
		}
		if first && string(typ) != "IHDR" {
			return 0, errors.New("PNG does not start with IHDR")
		}
		if n > int64(len(b)-i-12) {
			return 0, errTruncated
		}
		dataEnd := i + 8 + int(n)
		if crc32.ChecksumIEEE(b[i+4:dataEnd]) != binary.BigEndian.Uint32(b[dataEnd:]) {
			return 0, fmt.Errorf("PNG chunk %s has a bad checksum", typ)
		}
		i = dataEnd + 4
		if string(typ) == "IEND" {
			return i, nil
		}
	}
}

// gifEnd walks the blocks (skipping sub-block data) up to the trailer.
func gifEnd(b []byte) (int, error) {
	const header = 6 + 7 // signature and logical screen descriptor
	if len(b) < header {
		return 0, errTruncated
	}
	i := header
	if flags := b[10]; flags&0x80 != 0 {
		i += 3 << (flags&7 + 1) // global colour table
	}
	for {
		if i >= len(b) {
			return 0, errTruncated
		}
		switch b[i] {
		case 0x3b: // trailer
			return i + 1, nil
		case 0x21: // extension: introducer, label, sub-blocks
			var err error
			if i, err = skipSubBlocks(b, i+2); err != nil {
				return 0, err
			}
		case 0x2c: // image descriptor, local colour table, LZW code size, sub-blocks
			if len(b)-i < 11 {
				return 0, errTruncated
			}
			flags := b[i+9]
			i += 10
			if flags&0x80 != 0 {
				i += 3 << (flags&7 + 1)
			}
			var err error
			if i, err = skipSubBlocks(b, i+1); err != nil {
				return 0, err
			}
		default:
			return 0, fmt.Errorf("unknown GIF block 0x%02x", b[i])
		}
	}
}

func skipSubBlocks(b []byte, i int) (int, error) {
	for {
		if i >= len(b) {
			return 0, errTruncated
		}
		n := int(b[i])
		i++
		if n == 0 {
			return i, nil
		}
		i += n
	}
}

// maxJPEGScans bounds the scans of a progressive JPEG. Each scan may cost a
// pass over every block, and a scan can be a few bytes, so a 20 MB file of
// empty scans is a CPU bomb. Encoders write about ten; libjpeg-turbo's
// tools suggest a limit in the hundreds.
const maxJPEGScans = 256

// jpegEnd walks the marker segments, and the entropy-coded data after each
// SOS, up to EOI. Stray bytes between segments are skipped as libjpeg and
// image/jpeg do.
func jpegEnd(b []byte) (int, error) {
	if !bytes.HasPrefix(b, []byte{0xff, 0xd8}) {
		return 0, errors.New("not a JPEG")
	}
	i, scans := 2, 0
	for {
		j := bytes.IndexByte(b[i:], 0xff)
		if j < 0 {
			return 0, errTruncated
		}
		i += j
		for i < len(b) && b[i] == 0xff { // fill bytes
			i++
		}
		if i >= len(b) {
			return 0, errTruncated
		}
		m := b[i]
		i++
		switch {
		case m == 0xd9: // EOI
			return i, nil
		case m == 0xd8:
			return 0, errors.New("second JPEG start-of-image marker")
		case m == 0x00 || m == 0x01 || 0xd0 <= m && m <= 0xd7:
			continue // stuffed byte, TEM or RSTn: no length
		}
		if len(b)-i < 2 {
			return 0, errTruncated
		}
		n := int(binary.BigEndian.Uint16(b[i:]))
		if n < 2 {
			return 0, errors.New("invalid JPEG segment length")
		}
		if len(b)-i < n {
			return 0, errTruncated
		}
		i += n
		if m == 0xda { // SOS: entropy-coded data follows
			if scans++; scans > maxJPEGScans {
				return 0, fmt.Errorf("the JPEG has more than %d scans", maxJPEGScans)
			}
			var err error
			if i, err = skipEntropy(b, i); err != nil {
				return 0, err
			}
		}
	}
}

// skipEntropy returns the offset of the marker that ends entropy-coded data.
func skipEntropy(b []byte, i int) (int, error) {
	for {
		j := bytes.IndexByte(b[i:], 0xff)
		if j < 0 {
			return 0, errTruncated
		}
		i += j
		if i+1 >= len(b) {
			return 0, errTruncated
		}
		switch n := b[i+1]; {
		case n == 0x00 || 0xd0 <= n && n <= 0xd7: // stuffed 0xff, RSTn
			i += 2
		case n == 0xff: // fill byte before a marker
			i++
		default:
			return i, nil
		}
	}
}

// webpEnd checks that the chunks exactly fill the RIFF container. It also
// refuses animated WEBP, which golang.org/x/image/webp cannot decode.
func webpEnd(b []byte) (int, error) {
	if len(b) < 12 {
		return 0, errTruncated
	}
	total := 8 + int64(binary.LittleEndian.Uint32(b[4:]))
	if total > int64(len(b)) {
		return 0, errTruncated
	}
	end := int(total)
	for i := 12; i < end; {
		if end-i < 8 {
			return 0, errors.New("WEBP chunk header crosses the end of the file")
		}
		fourCC := string(b[i : i+4])
		n := int64(binary.LittleEndian.Uint32(b[i+4:]))
		if fourCC == "VP8X" && n >= 1 && i+8 < end && b[i+8]&0x02 != 0 {
			return 0, errors.New("animated WEBP is not supported")
		}
		next := int64(i) + 8 + n + n&1
		// A last chunk of odd length may omit its padding byte.
		if next > total && !(n&1 == 1 && next == total+1) {
			return 0, errors.New("WEBP chunk crosses the end of the file")
		}
		i = int(min(next, total))
	}
	return end, nil
}

// checkTrailer decides about bytes after the end of the image. For PNG, GIF
// and WEBP there is no reason for any. Phones append data to JPEG files
// (Google and Samsung motion photos put a video after EOI), so a JPEG
// trailer is refused only when it is an archive or markup: the two halves of
// the classic polyglots. Re-encoding drops a trailer either way; the refusal
// stops a file that is also something else at the door.
func checkTrailer(f Format, t []byte) error {
	if len(t) == 0 {
		return nil
	}
	if f != JPEG {
		return fmt.Errorf("%d bytes follow the end of the image", len(t))
	}
	if what := polyglotKind(t); what != "" {
		return fmt.Errorf("%s follows the end of the image", what)
	}
	return nil
}

// polyglotKind names what t looks like if it is a ZIP archive or HTML, SVG,
// XML or PHP markup, or returns "".
func polyglotKind(t []byte) string {
	// A ZIP reader looks for the end-of-central-directory record at most
	// 22+65535 bytes from the end, so that is where an appended archive is
	// found; a random byte sequence has it there with negligible odds.
	tail := t[max(0, len(t)-(22+65535)):]
	if bytes.HasPrefix(t, []byte("PK\x03\x04")) || bytes.Contains(tail, []byte("PK\x05\x06")) {
		return "a ZIP archive"
	}
	for k := 0; ; k++ {
		j := bytes.IndexByte(t[k:], '<')
		if j < 0 {
			return ""
		}
		k += j
		for _, tag := range markupTags {
			if hasTag(t[k+1:], tag) {
				return "markup (<" + tag + ")"
			}
		}
	}
}

// markupTags are matched case-insensitively after '<' and must be followed
// by a space, '>' or '/', which keeps chance matches in binary data (such as
// a motion photo's video) out.
var markupTags = []string{"script", "html", "body", "svg", "iframe", "object", "embed", "!doctype", "?php", "?xml"}

func hasTag(b []byte, tag string) bool {
	if len(b) <= len(tag) || !bytes.EqualFold(b[:len(tag)], []byte(tag)) {
		return false
	}
	switch b[len(tag)] {
	case ' ', '\t', '\r', '\n', '\f', '>', '/':
		return true
	}
	return false
}
