package backup

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	kflate "github.com/klauspost/compress/flate"

	"larder/filestore"
	"larder/migrations"
)

// Limits bound what an archive may hold, so a hostile or broken archive is
// refused before it fills a disk or the memory.
type Limits struct {
	// MaxEntries is the most entries an archive may have.
	MaxEntries int
	// MaxDirectoryBytes bounds the ZIP central directory, which is read
	// into memory.
	MaxDirectoryBytes int64
	// MaxEntryBytes is the largest uncompressed entry.
	MaxEntryBytes int64
	// MaxTotalBytes is the largest uncompressed total.
	MaxTotalBytes int64
	// MaxRatio is the largest uncompressed/compressed ratio of an entry
	// over RatioFloor bytes (the archive as a whole is held to it too).
	// Text dumps compress 3-20×; a ZIP bomb compresses ~1000×.
	MaxRatio int64
	// RatioFloor exempts small entries from MaxRatio: a few kilobytes of
	// repeated text compress well and harm no one.
	RatioFloor int64
	// MaxManifestBytes bounds the manifest, which is decoded in memory.
	MaxManifestBytes int64
}

// DefaultLimits are generous for any real installation (half a million
// files, a terabyte) and still refuse a bomb long before it matters.
var DefaultLimits = Limits{
	MaxEntries:        500_000,
	MaxDirectoryBytes: 128 << 20,
	MaxEntryBytes:     64 << 30,
	MaxTotalBytes:     1 << 40,
	MaxRatio:          200,
	RatioFloor:        1 << 20,
	MaxManifestBytes:  128 << 20,
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits
	if l.MaxEntries > 0 {
		d.MaxEntries = l.MaxEntries
	}
	if l.MaxDirectoryBytes > 0 {
		d.MaxDirectoryBytes = l.MaxDirectoryBytes
	}
	if l.MaxEntryBytes > 0 {
		d.MaxEntryBytes = l.MaxEntryBytes
	}
	if l.MaxTotalBytes > 0 {
		d.MaxTotalBytes = l.MaxTotalBytes
	}
	if l.MaxRatio > 0 {
		d.MaxRatio = l.MaxRatio
	}
	if l.RatioFloor > 0 {
		d.RatioFloor = l.RatioFloor
	}
	if l.MaxManifestBytes > 0 {
		d.MaxManifestBytes = l.MaxManifestBytes
	}
	return d
}

// archive is an opened archive whose directory and manifest passed the
// checks; its entries are verified as they are streamed.
type archive struct {
	r        io.ReaderAt
	closer   io.Closer
	size     int64
	zr       *zip.Reader
	limits   Limits
	manifest *Manifest
	entries  map[string]*zip.File
	expected map[string]Entry
	// order lists the entries (the manifest aside) by position in the file,
	// so reading them all is one sequential pass over the disk.
	order []*zip.File
	total int64 // uncompressed bytes of order
}

func (a *archive) Close() error {
	if a.closer != nil {
		return a.closer.Close()
	}
	return nil
}

// Verify checks the archive at path completely: structure, entry names and
// modes, bounds, the manifest, and the size and SHA-256 of every entry as
// its data streams. A *Refusal says what is wrong.
func Verify(path string, limits Limits) (*Manifest, error) {
	a, err := openArchive(path, limits, migrations.Latest())
	if err != nil {
		return nil, err
	}
	defer a.Close()
	if err := a.readAll(nil, nil, nil); err != nil {
		return nil, err
	}
	return a.manifest, nil
}

// openArchive opens path and checks everything that can be checked without
// reading entry data: the directory's size, entry names, modes, methods,
// declared sizes and ratios, overlaps, and the manifest against the entries.
func openArchive(p string, limits Limits, latestSchema int) (*archive, error) {
	limits = limits.withDefaults()
	f, err := os.Open(p)
	if err != nil {
		return nil, fmt.Errorf("open backup: %w", err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("stat backup: %w", err)
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, refuse("the backup is not a regular file")
	}
	a := &archive{r: f, closer: f, size: fi.Size(), limits: limits}
	if err := a.open(latestSchema); err != nil {
		f.Close()
		return nil, err
	}
	return a, nil
}

// open checks the archive in a.r (a.size bytes).
func (a *archive) open(latestSchema int) error {
	if err := checkDirectory(a.r, a.size, a.limits); err != nil {
		return err
	}
	var err error
	a.zr, err = zip.NewReader(a.r, a.size)
	if err != nil {
		return refuse("the file is not a readable ZIP archive (is it truncated?): %v", err)
	}
	a.zr.RegisterDecompressor(zip.Deflate, func(r io.Reader) io.ReadCloser { return kflate.NewReader(r) })

	if len(a.zr.File) > a.limits.MaxEntries {
		return refuse("the archive has %d entries; at most %d are accepted", len(a.zr.File), a.limits.MaxEntries)
	}
	a.entries = make(map[string]*zip.File, len(a.zr.File))
	type span struct {
		start, end int64
		name       string
	}
	spans := make([]span, 0, len(a.zr.File))
	var total uint64
	for _, zf := range a.zr.File {
		if err := checkEntryName(zf.Name); err != nil {
			return err
		}
		if _, dup := a.entries[zf.Name]; dup {
			return refuse("the archive holds %s twice", zf.Name)
		}
		a.entries[zf.Name] = zf
		if mode := zf.Mode(); !mode.IsRegular() {
			return refuse("entry %s is not a regular file (%s); links and directories are refused", zf.Name, mode.Type())
		}
		if zf.Flags&0x1 != 0 {
			return refuse("entry %s is encrypted", zf.Name)
		}
		if zf.Method != zip.Store && zf.Method != zip.Deflate {
			return refuse("entry %s uses an unsupported compression method %d", zf.Name, zf.Method)
		}
		if zf.UncompressedSize64 > uint64(a.limits.MaxEntryBytes) {
			return refuse("entry %s is %d bytes uncompressed; at most %d are accepted", zf.Name, zf.UncompressedSize64, a.limits.MaxEntryBytes)
		}
		if zf.Method == zip.Store && zf.CompressedSize64 != zf.UncompressedSize64 {
			return refuse("entry %s is stored but its sizes differ", zf.Name)
		}
		if tooCompressed(zf.UncompressedSize64, zf.CompressedSize64, a.limits) {
			return refuse("entry %s expands %d bytes into %d, more than %d times: refused as a ZIP bomb",
				zf.Name, zf.CompressedSize64, zf.UncompressedSize64, a.limits.MaxRatio)
		}
		total += zf.UncompressedSize64
		if total > uint64(a.limits.MaxTotalBytes) {
			return refuse("the archive expands to more than %d bytes", a.limits.MaxTotalBytes)
		}
		off, err := zf.DataOffset()
		if err != nil {
			return refuse("entry %s: %v", zf.Name, err)
		}
		end := off + int64(zf.CompressedSize64)
		if off < 0 || end < off || end > a.size {
			return refuse("entry %s lies outside the archive (is it truncated?)", zf.Name)
		}
		spans = append(spans, span{off, end, zf.Name})
	}
	if a.size > 0 && total/uint64(a.size) > uint64(a.limits.MaxRatio) && total > uint64(a.limits.RatioFloor) {
		return refuse("the archive expands %d bytes into %d: refused as a ZIP bomb", a.size, total)
	}
	// Entries sharing data are the overlapping-file ZIP bomb.
	sort.Slice(spans, func(i, j int) bool { return spans[i].start < spans[j].start })
	for i := 1; i < len(spans); i++ {
		if spans[i].start < spans[i-1].end {
			return refuse("entries %s and %s overlap: refused as a ZIP bomb", spans[i-1].name, spans[i].name)
		}
	}

	mf, ok := a.entries[ManifestName]
	if !ok {
		return refuse("the archive has no %s; it is not a Larder backup", ManifestName)
	}
	if mf.UncompressedSize64 > uint64(a.limits.MaxManifestBytes) {
		return refuse("the manifest is larger than %d bytes", a.limits.MaxManifestBytes)
	}
	rc, err := mf.Open()
	if err != nil {
		return refuse("the manifest cannot be read: %v", err)
	}
	raw, err := io.ReadAll(io.LimitReader(rc, a.limits.MaxManifestBytes+1))
	rc.Close()
	if err != nil {
		return refuse("the manifest is damaged: %v", err)
	}
	if int64(len(raw)) > a.limits.MaxManifestBytes {
		return refuse("the manifest is larger than %d bytes", a.limits.MaxManifestBytes)
	}
	var m Manifest
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(&m); err != nil {
		return refuse("the manifest is not valid JSON: %v", err)
	}
	if err := m.check(latestSchema); err != nil {
		return err
	}
	a.manifest = &m

	a.expected = make(map[string]Entry, len(m.Entries))
	for _, e := range m.Entries {
		zf, ok := a.entries[e.Name]
		if !ok {
			return refuse("entry %s is in the manifest but not in the archive", e.Name)
		}
		if zf.UncompressedSize64 != uint64(e.Size) {
			return refuse("entry %s is %d bytes but the manifest says %d", e.Name, zf.UncompressedSize64, e.Size)
		}
		a.expected[e.Name] = e
	}
	for name, zf := range a.entries {
		if name == ManifestName {
			continue
		}
		if _, ok := a.expected[name]; !ok {
			return refuse("entry %s is not in the manifest", name)
		}
		a.order = append(a.order, zf)
		a.total += int64(zf.UncompressedSize64)
	}
	offsets := make(map[*zip.File]int64, len(a.order))
	for _, s := range spans {
		offsets[a.entries[s.name]] = s.start
	}
	sort.Slice(a.order, func(i, j int) bool { return offsets[a.order[i]] < offsets[a.order[j]] })
	return nil
}

func tooCompressed(uncompressed, compressed uint64, l Limits) bool {
	if uncompressed <= uint64(l.RatioFloor) {
		return false
	}
	return compressed == 0 || uncompressed/compressed > uint64(l.MaxRatio)
}

// checkEntryName accepts only the names this package writes: the
// manifest, database/<table>.copy and uploads/<file-store key>. Whatever
// the prefix, the name must be clean and relative, with no "." or ".."
// element, no backslash and no control character, so that joining it under
// a directory stays inside; file-store keys are narrower still (ASCII
// letters, digits, '.', '_', '-', no leading dot).
func checkEntryName(name string) error {
	bad := func(why string) error { return refuse("entry name %q is refused: %s", name, why) }
	switch {
	case name == "":
		return bad("empty")
	case len(name) > 1024:
		return bad("too long")
	case !utf8.ValidString(name):
		return bad("not UTF-8")
	case strings.ContainsRune(name, '\\'):
		return bad("it contains a backslash")
	case strings.HasPrefix(name, "/") || path.IsAbs(name) || filepath.IsAbs(name):
		return bad("it is an absolute path")
	case strings.IndexFunc(name, unicode.IsControl) >= 0:
		return bad("it contains a control character")
	}
	for _, seg := range strings.Split(name, "/") {
		switch {
		case seg == "..":
			return bad("it climbs out of its directory")
		case seg == "." || seg == "":
			return bad("it is not a clean path")
		case len(seg) > 255:
			return bad("a path element is too long")
		}
	}
	if path.Clean(name) != name || !filepath.IsLocal(name) {
		return bad("it is not a clean relative path")
	}
	switch {
	case name == ManifestName:
		return nil
	case strings.HasPrefix(name, tablePrefix):
		table, ok := strings.CutSuffix(strings.TrimPrefix(name, tablePrefix), tableSuffix)
		if !ok || !identifier.MatchString(table) {
			return bad("not a table dump name")
		}
		return nil
	case strings.HasPrefix(name, filesPrefix):
		// Only names the file store could have made are restored.
		if filestore.ValidateKey(strings.TrimPrefix(name, filesPrefix)) != nil {
			return bad("not a file-store key")
		}
		return nil
	}
	return bad("not a manifest, table dump or uploaded file")
}

// checkDirectory reads the ZIP end-of-directory record (and its ZIP64
// form) and refuses an archive that announces more entries, or a larger
// directory, than allowed, before archive/zip reads the directory into
// memory.
func checkDirectory(f io.ReaderAt, size int64, l Limits) error {
	const eocdLen, maxComment, locatorLen = 22, 65535, 20
	if size < eocdLen {
		return refuse("the file is too short to be a ZIP archive (is it truncated?)")
	}
	tailLen := min(size, eocdLen+maxComment+locatorLen)
	tail := make([]byte, tailLen)
	if _, err := f.ReadAt(tail, size-tailLen); err != nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("read backup: %w", err)
	}
	pos := -1
	for i := len(tail) - eocdLen; i >= 0; i-- {
		if binary.LittleEndian.Uint32(tail[i:]) == 0x06054b50 &&
			i+eocdLen+int(binary.LittleEndian.Uint16(tail[i+20:])) == len(tail) {
			pos = i
			break
		}
	}
	if pos < 0 {
		return refuse("the file has no ZIP directory (is it truncated?)")
	}
	rec := tail[pos:]
	entries := uint64(binary.LittleEndian.Uint16(rec[10:]))
	dirSize := uint64(binary.LittleEndian.Uint32(rec[12:]))
	dirOffset := uint64(binary.LittleEndian.Uint32(rec[16:]))
	if entries == 0xffff || dirSize == 0xffffffff || dirOffset == 0xffffffff {
		if pos < locatorLen || binary.LittleEndian.Uint32(tail[pos-locatorLen:]) != 0x07064b50 {
			return refuse("the ZIP64 directory locator is missing (is the file truncated?)")
		}
		off := int64(binary.LittleEndian.Uint64(tail[pos-locatorLen+8:]))
		var z64 [56]byte
		if off < 0 || off > size-56 {
			return refuse("the ZIP64 directory record lies outside the file (is it truncated?)")
		}
		if _, err := f.ReadAt(z64[:], off); err != nil {
			return fmt.Errorf("read backup: %w", err)
		}
		if binary.LittleEndian.Uint32(z64[:]) != 0x06064b50 {
			return refuse("the ZIP64 directory record is damaged")
		}
		entries = binary.LittleEndian.Uint64(z64[32:])
		dirSize = binary.LittleEndian.Uint64(z64[40:])
	}
	if entries > uint64(l.MaxEntries) {
		return refuse("the archive announces %d entries; at most %d are accepted", entries, l.MaxEntries)
	}
	if dirSize > uint64(l.MaxDirectoryBytes) || dirSize > uint64(size) {
		return refuse("the archive's directory is %d bytes, more than allowed or than the file itself", dirSize)
	}
	return nil
}

// readAll streams the entries only accepts (all when nil), the manifest
// apart, in file order, checking each one's size, ratio and SHA-256 as it
// goes. For each entry, use (if not nil) gets the verified stream; it must
// read it to the end or return an error. progress (if not nil) gets the
// size of each entry done.
func (a *archive) readAll(only func(name string) bool, use func(name string, r io.Reader) error, progress func(n int64)) error {
	for _, zf := range a.order {
		if only != nil && !only(zf.Name) {
			continue
		}
		err := a.stream(zf.Name, func(r io.Reader) error {
			if use != nil {
				return use(zf.Name, r)
			}
			return discard(r)
		})
		if err != nil {
			return err
		}
		if progress != nil {
			progress(int64(zf.UncompressedSize64))
		}
	}
	return nil
}

// discard reads r to the end in large reads (io.Discard's own ReadFrom
// would read 8 KB at a time).
func discard(r io.Reader) error {
	bufp := copyBuffers.Get().(*[]byte)
	defer copyBuffers.Put(bufp)
	_, err := io.CopyBuffer(struct{ io.Writer }{io.Discard}, r, *bufp)
	return err
}

// stream opens entry name and hands fn a reader that fails, with a
// *Refusal, as soon as the data is longer than the manifest says or
// expands more than the ratio allows, and at the end if the size or
// SHA-256 differ. fn's reads see only data that has passed those checks so
// far; the final verdict comes when fn has read to the end.
func (a *archive) stream(name string, fn func(r io.Reader) error) error {
	zf, ok := a.entries[name]
	want, listed := a.expected[name]
	if !ok || !listed {
		return refuse("entry %s is missing", name)
	}
	rc, err := zf.Open()
	if err != nil {
		return refuse("entry %s cannot be read: %v", name, err)
	}
	defer rc.Close()
	er := &entryReader{r: rc, name: name, want: want, compressed: int64(zf.CompressedSize64),
		limits: a.limits, h: sha256.New()}
	err = fn(er)
	if er.verdict != nil {
		// The data was refused; whatever fn made of that is secondary.
		return er.verdict
	}
	if err != nil {
		return err
	}
	if !er.finished {
		// fn stopped early; read the rest so the checksum covers it all.
		if err := discard(er); err != nil {
			return err
		}
	}
	return er.verdict
}

// entryReader is the checked stream of one entry.
type entryReader struct {
	r          io.Reader
	name       string
	want       Entry
	compressed int64
	limits     Limits
	h          hash.Hash
	n          int64
	finished   bool
	verdict    error
}

func (e *entryReader) Read(p []byte) (int, error) {
	if e.finished {
		return 0, io.EOF
	}
	if e.verdict != nil {
		return 0, e.verdict
	}
	n, err := e.r.Read(p)
	if n > 0 {
		e.n += int64(n)
		if e.n > e.want.Size {
			e.verdict = refuse("entry %s holds more data than the manifest's %d bytes", e.name, e.want.Size)
			return 0, e.verdict
		}
		if e.n > e.limits.RatioFloor && (e.compressed == 0 || e.n/e.compressed > e.limits.MaxRatio) {
			e.verdict = refuse("entry %s expands more than %d times: refused as a ZIP bomb", e.name, e.limits.MaxRatio)
			return 0, e.verdict
		}
		e.h.Write(p[:n])
	}
	switch {
	case err == io.EOF:
		e.finished = true
		if e.n != e.want.Size {
			e.verdict = refuse("entry %s is %d bytes, not the %d the manifest says (is the archive truncated?)", e.name, e.n, e.want.Size)
			return n, e.verdict
		}
		if got := hex.EncodeToString(e.h.Sum(nil)); got != e.want.SHA256 {
			e.verdict = refuse("entry %s does not match its SHA-256 in the manifest", e.name)
			return n, e.verdict
		}
		return n, io.EOF
	case err != nil:
		// archive/zip's own CRC and size checks, or a read error.
		if errors.Is(err, zip.ErrChecksum) || errors.Is(err, zip.ErrFormat) || errors.Is(err, io.ErrUnexpectedEOF) || isCorrupt(err) {
			e.verdict = refuse("entry %s is damaged: %v", e.name, err)
			return n, e.verdict
		}
		return n, fmt.Errorf("read entry %s: %w", e.name, err)
	}
	return n, nil
}

// isCorrupt reports whether err comes from a decompressor rejecting its input.
func isCorrupt(err error) bool {
	var ce kflate.CorruptInputError
	return errors.As(err, &ce)
}
