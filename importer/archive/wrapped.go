package archive

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
)

// maxWrapDepth bounds how many zips deep an export is looked for: an
// export zipped again, perhaps inside its folder zipped once more.
const maxWrapDepth = 2

// wrapped returns the only file of a zip that holds nothing but another
// archive: people zip their export again, or download the folder they
// unpacked it to as a zip ("Export/Recipes.paprikarecipes" inside
// "Export.zip"). The inner file is known by its content, a zip's
// signature, not by its name: Paprika's .paprikarecipes, Tandoor's and
// Mealie's exports are all zips. Nil when the zip is anything else.
func (z *zipArchive) wrapped() *zip.File {
	if len(z.files) != 1 || len(z.unsafe) > 0 || z.depth >= maxWrapDepth {
		return nil
	}
	f := z.files[0]
	rc, err := f.Open()
	if err != nil {
		return nil
	}
	defer rc.Close()
	head := make([]byte, 4)
	if _, err := io.ReadFull(rc, head); err != nil || !isZipHead(head) {
		return nil
	}
	return f
}

func isZipHead(head []byte) bool {
	return bytes.HasPrefix(head, []byte("PK\x03\x04")) || bytes.HasPrefix(head, []byte("PK\x05\x06"))
}

// unwrap opens the zip stored in the entry f: an export zipped again, or
// one of the zips an export is made of (Tandoor's zip per recipe). A
// stored (uncompressed) entry is read in place; a compressed one is
// unpacked to a temporary file first: what an entry says of itself is not
// trusted, an export may be hundreds of megabytes, and no zip in a zip is
// held in memory. The file is unlinked as soon as it is created, so it
// cannot be left behind; it is closed by the returned zip's close, or, for
// an export zipped again, with the archive (Archive.Close).
func (z *zipArchive) unwrap(f *zip.File) (*zipArchive, error) {
	var (
		r    io.ReaderAt
		size = int64(f.UncompressedSize64)
		tmp  *os.File
	)
	if f.Method == zip.Store {
		off, err := f.DataOffset()
		if err != nil {
			return nil, fmt.Errorf("%w: %q: %v", ErrCorrupt, clipName(f.Name), err)
		}
		r = io.NewSectionReader(z.r, off, size)
	} else {
		var err error
		tmp, size, err = z.spool(f)
		if err != nil {
			return nil, err
		}
		r = tmp
	}
	zr, err := zip.NewReader(r, size)
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
		if tmp != nil {
			tmp.Close()
		}
		return nil, fmt.Errorf("%w: the archive inside, %q, cannot be read: %v", ErrCorrupt, clipName(f.Name), err)
	}
	iz, err := checkZip(r, zr, z.lim)
	if err != nil {
		if tmp != nil {
			tmp.Close()
		}
		return nil, err
	}
	iz.depth = z.depth + 1
	if tmp != nil {
		iz.closers = []io.Closer{tmp}
	}
	return iz, nil
}

// copyBuffers are what spool copies through: an export re-packed with its
// recipe zips compressed has one spooled per recipe, and a buffer each
// would double what reading such an export allocates.
var copyBuffers = sync.Pool{New: func() any { return new([32 << 10]byte) }}

// spool unpacks the entry to an unlinked temporary file, at most
// Limits.MaxTotalBytes (the entry's own size was counted against it, but
// its header may lie).
func (z *zipArchive) spool(f *zip.File) (*os.File, int64, error) {
	rc, err := f.Open()
	if err != nil {
		return nil, 0, fmt.Errorf("%w: %q: %v", ErrCorrupt, clipName(f.Name), err)
	}
	defer rc.Close()
	tmp, err := os.CreateTemp("", "larder-archive-inner-*")
	if err != nil {
		return nil, 0, fmt.Errorf("unpack %q: %w", clipName(f.Name), err)
	}
	os.Remove(tmp.Name())
	buf := copyBuffers.Get().(*[32 << 10]byte)
	defer copyBuffers.Put(buf)
	// The file is wrapped so that its ReadFrom, which would allocate a
	// buffer of its own for a source that is not a file, is not used.
	n, err := io.CopyBuffer(struct{ io.Writer }{tmp}, io.LimitReader(rc, z.lim.MaxTotalBytes+1), buf[:])
	switch {
	case err != nil:
		tmp.Close()
		return nil, 0, fmt.Errorf("%w: %q: %v", ErrCorrupt, clipName(f.Name), err)
	case n > z.lim.MaxTotalBytes:
		tmp.Close()
		return nil, 0, fmt.Errorf("%w: %q unpacks to more than %d MB", ErrTooLarge, clipName(f.Name), z.lim.MaxTotalBytes>>20)
	}
	return tmp, n, nil
}

// tandoorRecipeZip reports a zip of one Tandoor recipe (Tandoor's
// recipe.json at the top): a Tandoor export of a single recipe is a zip
// holding only it.
func (z *zipArchive) tandoorRecipeZip() bool {
	return z.file("recipe.json") != nil && z.isTandoorFolders()
}

// close releases the zip's temporary files.
func (z *zipArchive) close() {
	for _, c := range z.closers {
		c.Close()
	}
	z.closers = nil
}
