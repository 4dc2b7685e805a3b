// Package archive reads the recipe collections other recipe apps export:
// Mealie (its recipe export and its backup), Tandoor, Paprika, Nextcloud
// Cookbook, and any zip or JSON file of schema.org Recipe objects. Open
// detects the format from the content, never from the file name; each
// format has its own file here and turns its export into the same
// extract.Recipe the page importer produces, with the recipe's image bytes
// and the list of fields the service has no place for.
//
// Archives come from users: every read is bounded. A zip whose entries
// would unpack to more than Limits.MaxTotalBytes, or that packs more
// tightly than Limits.MaxRatio, is refused as a whole (ErrTooLarge); an
// entry whose name leaves the archive ("../x", "/etc/x") is never read and
// is reported as a failed entry; a recipe that cannot be read is reported
// with its reason while the others are read. An export zipped again (a
// zip whose only file is another zip) is read inside, and so is each of
// Tandoor's recipe zips; no zip in a zip is held in memory: a stored one
// is read in place, a compressed one unpacked to a temporary file (released
// by Archive.Close, or once its recipe is read). The package touches no
// database and no file store.
package archive

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"iter"
	"path"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/unicode/norm"

	"larder/importer/extract"
)

// The formats Open recognizes, as reported to users.
const (
	FormatMealie       = "mealie"        // Mealie's recipe export zip
	FormatMealieBackup = "mealie_backup" // Mealie's backup zip (database.json + data/)
	FormatTandoor      = "tandoor"       // Tandoor's export zip of per-recipe zips
	FormatPaprika      = "paprika"       // .paprikarecipes: a zip of gzipped JSON recipes
	FormatNextcloud    = "nextcloud"     // Nextcloud Cookbook: folders with recipe.json and full.jpg
	FormatSchemaOrg    = "schema_org"    // any zip or JSON of schema.org Recipe objects
)

var (
	// ErrUnknownFormat: the file is none of the formats this package reads.
	ErrUnknownFormat = errors.New("the file is not an export we can read")
	// ErrCorrupt: the file looks like a zip or JSON but cannot be read.
	ErrCorrupt = errors.New("the archive is damaged")
	// ErrTooLarge: the archive would unpack to more than the limits allow
	// (a zip bomb, or simply too much).
	ErrTooLarge = errors.New("the archive unpacks to more than we accept")
	// ErrInvalidRecipe: an entry was read but is not a recipe we can keep
	// (no name, no lines).
	ErrInvalidRecipe = errors.New("the recipe is not valid")
	// ErrUnsafePath: an entry's name points outside the archive.
	ErrUnsafePath = errors.New("the entry's path points outside the archive; it was not read")
)

// Limits bound what reading an archive may cost.
type Limits struct {
	// MaxTotalBytes bounds the sum of the entries' uncompressed sizes.
	MaxTotalBytes int64
	// MaxRatio bounds how much larger than its compressed size an entry
	// of more than 1 MB may be.
	MaxRatio int64
	// MaxDocumentBytes bounds one JSON document (a recipe, Mealie's
	// database.json, a JSON file of recipes).
	MaxDocumentBytes int64
	// MaxImageBytes bounds one image.
	MaxImageBytes int64
	// MaxEntries bounds the number of entries of a zip (nested ones too).
	MaxEntries int
}

// DefaultLimits suit an upload of 500 MB: real exports (recipes, JPEG and
// WEBP photos) compress by far less than 100 to 1.
var DefaultLimits = Limits{
	MaxTotalBytes:    4 << 30,
	MaxRatio:         100,
	MaxDocumentBytes: 256 << 20,
	MaxImageBytes:    20 << 20,
	MaxEntries:       200_000,
}

// Recipe is one recipe read from an archive, or the reason one could not be.
type Recipe struct {
	// Entry names where in the archive the recipe was ("recipes/soup/soup.json").
	Entry string
	// Recipe is the recipe; Recipe.ImageURL is an address to download the
	// image from when the archive holds no image bytes for it.
	Recipe extract.Recipe
	// Image is the recipe's image as stored in the archive, nil when none.
	Image []byte
	// ImageErr is why the image the archive holds for the recipe was not
	// read (too large, damaged); the recipe is read without it.
	ImageErr error
	// Warning tells what of the recipe was read in a lesser form than the
	// archive holds it, to be shown with the recipe ("the full-size photo
	// could not be read (…); the thumbnail was used"); empty when nothing
	// was.
	Warning string
	// Unmapped names the fields the recipe carries that the service has
	// no place for ("nutrition", "rating"), to be reported, not lost silently.
	Unmapped []string
	// Err is why the entry could not be read; the other fields are then
	// empty except Entry.
	Err error
}

// Archive is an opened export.
type Archive struct {
	// Format is one of the Format constants.
	Format string
	// Total is how many recipes (and unreadable recipe entries) Recipes
	// yields.
	Total int
	each  func(yield func(Recipe) bool)
	// closers release what reading the archive needs beyond the caller's
	// file (an export zipped again is unpacked to a temporary file).
	closers []io.Closer
}

// Close releases what Open took beyond the caller's file; the archive's
// recipes are not read after.
func (a *Archive) Close() error {
	var errs []error
	for _, c := range a.closers {
		errs = append(errs, c.Close())
	}
	a.closers = nil
	return errors.Join(errs...)
}

// Recipes yields the archive's recipes one at a time, in the archive's
// order; only one recipe's data (and image) is held at a time.
func (a *Archive) Recipes() iter.Seq[Recipe] { return a.each }

// Open reads the file's directory (for a zip) or document (for JSON),
// detects its format and returns the archive. It fails with ErrTooLarge,
// ErrCorrupt or ErrUnknownFormat (wrapped, with details).
func Open(r io.ReaderAt, size int64, lim Limits) (*Archive, error) {
	head := make([]byte, 512)
	n, err := r.ReadAt(head, 0)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("read archive: %w", err)
	}
	head = head[:n]
	switch {
	case bytes.HasPrefix(head, []byte("PK\x03\x04")) || bytes.HasPrefix(head, []byte("PK\x05\x06")):
		z, err := openZip(r, size, lim)
		if err != nil {
			return nil, err
		}
		a, err := z.detect()
		if err != nil {
			z.close()
			return nil, err
		}
		a.closers = z.closers
		return a, nil
	case bytes.HasPrefix(head, []byte{0x1f, 0x8b}):
		// Gzipped JSON: Paprika's single-recipe export (.paprikarecipe),
		// or any JSON document of recipes gzipped (.json.gz).
		return openGzip(r, size, lim)
	case looksLikeJSON(jsonText(head)):
		if size > lim.MaxDocumentBytes {
			return nil, fmt.Errorf("%w: a JSON file of %d MB (at most %d MB)", ErrTooLarge, size>>20, lim.MaxDocumentBytes>>20)
		}
		doc := make([]byte, size)
		if _, err := r.ReadAt(doc, 0); err != nil && !errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("read archive: %w", err)
		}
		return openJSONDocument(doc, lim)
	}
	return nil, ErrUnknownFormat
}

// looksLikeJSON reports a document starting with { or [ (after white
// space).
func looksLikeJSON(head []byte) bool {
	head = bytes.TrimLeft(head, " \t\r\n")
	return len(head) > 0 && (head[0] == '{' || head[0] == '[')
}

// jsonText returns a JSON document as UTF-8 without a byte order mark.
// JSON may be written in UTF-16 too (RFC 8259 before it required UTF-8;
// Windows PowerShell 5.1 writes files so by default): a UTF-16 byte order
// mark says so, and so does, without one, a first character that is ASCII
// written with a zero byte before (big-endian) or after (little-endian) it.
// A document in neither that is not valid UTF-8 was saved in the Windows
// code page (Notepad before Windows 10 1903, Excel, older tools write
// "ANSI", Windows-1252, by default): read as UTF-8 its accented letters
// would be lost ("Crème" → "Cr�me").
func jsonText(b []byte) []byte {
	var enc encoding.Encoding
	switch {
	case bytes.HasPrefix(b, []byte("\xEF\xBB\xBF")):
		return b[3:]
	case bytes.HasPrefix(b, []byte{0xFF, 0xFE}), len(b) >= 2 && b[0] != 0 && b[1] == 0:
		enc = unicode.UTF16(unicode.LittleEndian, unicode.UseBOM)
	case bytes.HasPrefix(b, []byte{0xFE, 0xFF}), len(b) >= 2 && b[0] == 0 && b[1] != 0:
		enc = unicode.UTF16(unicode.BigEndian, unicode.UseBOM)
	case !utf8.Valid(b):
		if out, err := charmap.Windows1252.NewDecoder().Bytes(b); err == nil {
			return out
		}
		return b
	default:
		return b
	}
	// UseBOM reads the mark when there is one and the given byte order
	// when there is none; an odd last byte (a head cut short) is dropped.
	out, err := enc.NewDecoder().Bytes(b[:len(b)&^1])
	if err != nil {
		return b
	}
	return out
}

// zipArchive is an opened zip whose entries passed the size checks.
type zipArchive struct {
	r  io.ReaderAt // the zip's bytes
	zr *zip.Reader
	// depth counts the zips this one is wrapped in (see unwrap).
	depth int
	// closers are temporary files the zip or the zips in it are read from.
	closers []io.Closer
	lim     Limits
	files   []*zip.File // regular files with safe names, in archive order
	// fileNames are the files' names as read: UTF-8, "/"-separated,
	// cleaned (see entryName).
	fileNames []string
	// unsafe are entries whose names leave the archive; they are reported,
	// never read.
	unsafe []string
	byName map[string]*zip.File
	// byDir lists the entry names of each folder, built on first use:
	// finding a recipe's photo must not scan every entry per recipe.
	byDir map[string][]string
}

// inDir returns the names of the entries directly in dir ("." for the top).
func (z *zipArchive) inDir(dir string) []string {
	if z.byDir == nil {
		z.byDir = map[string][]string{}
		for _, n := range z.names() {
			d := path.Dir(n)
			z.byDir[d] = append(z.byDir[d], n)
		}
	}
	return z.byDir[cleanName(dir)]
}

// openZip reads the zip directory and refuses it when its entries would
// unpack to more than the limits.
func openZip(r io.ReaderAt, size int64, lim Limits) (*zipArchive, error) {
	zr, err := zip.NewReader(r, size)
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	return checkZip(r, zr, lim)
}

func checkZip(r io.ReaderAt, zr *zip.Reader, lim Limits) (*zipArchive, error) {
	if len(zr.File) > lim.MaxEntries {
		return nil, fmt.Errorf("%w: %d entries (at most %d)", ErrTooLarge, len(zr.File), lim.MaxEntries)
	}
	z := &zipArchive{r: r, zr: zr, lim: lim, byName: map[string]*zip.File{}}
	raw := make([]string, len(zr.File))
	for i, f := range zr.File {
		raw[i] = f.Name
	}
	enc := nameDecoder(raw)
	var total uint64
	for _, f := range zr.File {
		if f.FileInfo().IsDir() {
			continue
		}
		total += f.UncompressedSize64
		if total > uint64(lim.MaxTotalBytes) {
			return nil, fmt.Errorf("%w: its entries unpack to more than %d MB", ErrTooLarge, lim.MaxTotalBytes>>20)
		}
		if f.UncompressedSize64 > 1<<20 && f.UncompressedSize64 > uint64(lim.MaxRatio)*max(f.CompressedSize64, 1) {
			return nil, fmt.Errorf("%w: entry %q is compressed %d to 1 (a zip bomb?)", ErrTooLarge, clipName(f.Name),
				f.UncompressedSize64/max(f.CompressedSize64, 1))
		}
		raw := entryName(f.Name, enc)
		if !safeName(raw) {
			z.unsafe = append(z.unsafe, clipName(raw))
			continue
		}
		name := cleanName(raw)
		if ignoredName(name) {
			continue
		}
		z.files = append(z.files, f)
		z.fileNames = append(z.fileNames, name)
		z.byName[name] = f
	}
	return z, nil
}

// entryName reads an entry's name as the tool that wrote the zip meant it.
// A name that is not UTF-8 is in the code page enc chosen for the zip (see
// nameDecoder; macOS writes UTF-8 without saying so, which Go reads as it
// is). Windows tools that predate the format's rule (.NET before 4.6.1,
// some backup apps) separate folders with backslashes; a name with no
// forward slash has its backslashes read as separators, after decoding:
// in Shift-JIS the byte of a backslash is also the second half of
// characters. The name is then checked like any other: "..\x" leaves the
// archive just as "../x" does.
func entryName(name string, enc encoding.Encoding) string {
	name = decodeName(name, enc)
	if !strings.Contains(name, "/") {
		name = strings.ReplaceAll(name, "\\", "/")
	}
	return name
}

// safeName reports a relative entry name that stays inside the archive.
func safeName(name string) bool {
	if name == "" || strings.ContainsAny(name, "\\\x00") || strings.HasPrefix(name, "/") || !utf8.ValidString(name) {
		return false
	}
	if len(name) >= 2 && name[1] == ':' {
		return false // a drive letter
	}
	c := path.Clean(name)
	return c != ".." && !strings.HasPrefix(c, "../")
}

// ignoredName skips what operating systems add to zips (macOS resource
// forks, Finder and Explorer metadata: Explorer keeps a folder's view
// settings in desktop.ini).
func ignoredName(name string) bool {
	base := path.Base(name)
	return strings.HasPrefix(name, "__MACOSX/") || base == ".DS_Store" || base == "Thumbs.db" || strings.EqualFold(base, "desktop.ini") ||
		strings.HasPrefix(base, "._")
}

func clipName(s string) string {
	s = strings.ToValidUTF8(s, "?")
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}

// read returns an entry's content, at most max bytes: an entry that says
// (or turns out) to be larger is refused before more is read. Every entry
// read whole goes through here, with the limit of its kind, which no real
// export reaches: Limits.MaxDocumentBytes for a JSON document,
// Limits.MaxImageBytes for a photo, maxPageBytes for a saved page; what
// is larger is reported for the recipe it holds (tooLargeError).
func (z *zipArchive) read(f *zip.File, max int64) ([]byte, error) {
	if f.UncompressedSize64 > uint64(max) {
		return nil, fileTooLarge(clipName(f.Name), max)
	}
	rc, err := f.Open()
	if err != nil {
		return nil, fmt.Errorf("%w: %q: %v", ErrCorrupt, clipName(f.Name), err)
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, max+1))
	if err != nil {
		return nil, fmt.Errorf("%w: %q: %v", ErrCorrupt, clipName(f.Name), err)
	}
	if int64(len(b)) > max {
		return nil, fileTooLarge(clipName(f.Name), max)
	}
	return b, nil
}

// tooLargeError is one file of an archive (or one part of a file) larger
// than the most read of one of its kind. It is the reason given for the
// recipe the file holds, in words about that file, while the archive's
// other recipes are read; it is an ErrTooLarge, so a file the whole
// archive depends on (Mealie's database.json) refuses the archive.
type tooLargeError struct {
	what  string // `the file "Soup/recipe.json"`
	limit int64
}

func (e tooLargeError) Error() string {
	return fmt.Sprintf("%s is larger than %d MB, the most we read of it", e.what, e.limit>>20)
}

func (e tooLargeError) Is(target error) bool { return target == ErrTooLarge }

// fileTooLarge says that the entry name ("" for the uploaded file itself)
// is larger than limit.
func fileTooLarge(name string, limit int64) error {
	if name == "" {
		return tooLargeError{"the file", limit}
	}
	return tooLargeError{fmt.Sprintf("the file %q", name), limit}
}

// file returns the entry named name (cleaned), or nil.
func (z *zipArchive) file(name string) *zip.File { return z.byName[cleanName(name)] }

// cleanName is the one form of a name entries are kept and looked up by:
// cleaned, and in Unicode's composed form (NFC). macOS writes names
// decomposed ("e" and a combining accent for "è"), while the documents
// inside the zip (a page's <img src>, a recipe's image path) write them
// composed, as nearly everything else does: both are the same name.
func cleanName(name string) string {
	return strings.TrimPrefix(path.Clean(norm.NFC.String(name)), "./")
}

// names returns the cleaned names of the readable entries, in order.
func (z *zipArchive) names() []string { return z.fileNames }

// unsafeEntries yields a failed entry for each name that leaves the archive.
func (z *zipArchive) unsafeEntries(yield func(Recipe) bool) bool {
	for _, n := range z.unsafe {
		if !yield(Recipe{Entry: n, Err: ErrUnsafePath}) {
			return false
		}
	}
	return true
}

// perEntry is an archive of one recipe per entry whose name match
// accepts, each read by recipe; the unsafe entries come first, each an
// error. Entries are taken by position, not looked up by name: a zip may
// hold two entries of one name (Tandoor names each recipe's zip after the
// recipe, so two recipes of one name give two "Soup.zip"), and each is a
// recipe of its own.
func (z *zipArchive) perEntry(format string, match func(name string) bool, recipe func(name string, f *zip.File) Recipe) *Archive {
	var entries []int
	for i, n := range z.names() {
		if match(n) {
			entries = append(entries, i)
		}
	}
	return &Archive{Format: format, Total: len(entries) + len(z.unsafe), each: func(yield func(Recipe) bool) {
		if !z.unsafeEntries(yield) {
			return
		}
		for _, i := range entries {
			if !yield(recipe(z.fileNames[i], z.files[i])) {
				return
			}
		}
	}}
}

// readObject reads the entry named name as one JSON object.
func (z *zipArchive) readObject(name string) (map[string]any, error) {
	return z.readObjectFile(z.file(name))
}

// readObjectFile reads the entry as one JSON object.
func (z *zipArchive) readObjectFile(f *zip.File) (map[string]any, error) {
	b, err := z.read(f, z.lim.MaxDocumentBytes)
	if err != nil {
		return nil, err
	}
	return decodeObject(b)
}

// detect picks the format from the entries' names and, where names are not
// enough, their content.
func (z *zipArchive) detect() (*Archive, error) {
	names := z.names()
	if f := z.wrapped(); f != nil {
		// An export zipped again: read the export. A zip holding one zip
		// that holds recipe.json is not one: it is Tandoor's export of a
		// single recipe, read below.
		iz, err := z.unwrap(f)
		if err != nil {
			return nil, err
		}
		if !iz.tandoorRecipeZip() {
			a, err := iz.detect()
			z.closers = append(z.closers, iz.closers...)
			return a, err
		}
		iz.close()
	}
	switch {
	case isMealieBackup(names):
		return z.mealieBackup()
	case hasSuffix(names, ".paprikarecipe"):
		return z.paprika(), nil
	case isTandoor(z, names):
		return z.tandoor(), nil
	case z.isTandoorFolders():
		return z.tandoorFolders(), nil
	case isMealieExport(names):
		return z.mealieExport(), nil
	case z.isMealieFlat():
		return z.mealieFlatExport(), nil
	case z.isMealieDownload():
		return z.mealieDownload(), nil
	case isNextcloud(names):
		return z.nextcloud(), nil
	}
	if a := z.schemaOrg(); a != nil {
		return a, nil
	}
	if len(z.unsafe) > 0 && len(z.files) == 0 {
		return nil, fmt.Errorf("%w: every entry's path points outside the archive", ErrCorrupt)
	}
	return nil, ErrUnknownFormat
}

func hasSuffix(names []string, suffix string) bool {
	for _, n := range names {
		if strings.HasSuffix(strings.ToLower(n), suffix) {
			return true
		}
	}
	return false
}

// imageNames are the file extensions of the images an export may hold.
var imageExts = []string{".jpg", ".jpeg", ".png", ".webp", ".gif"}

func isImageName(name string) bool {
	lower := strings.ToLower(name)
	for _, e := range imageExts {
		if strings.HasSuffix(lower, e) {
			return true
		}
	}
	return false
}

// setImage reads an image entry into the recipe. An image that cannot be
// read costs the recipe its image, not the recipe: the reason is kept in
// ImageErr (cleared when a later candidate is read). A nil entry (no
// image found) changes nothing.
func (z *zipArchive) setImage(rec *Recipe, f *zip.File) {
	if f == nil {
		return
	}
	b, err := z.read(f, z.lim.MaxImageBytes)
	if err != nil {
		rec.ImageErr = imageError(clipName(f.Name), err, z.lim.MaxImageBytes)
		return
	}
	rec.Image, rec.ImageErr = b, nil
}

// imageError says why the image named name was left out.
func imageError(name string, err error, maxImage int64) error {
	if errors.Is(err, ErrTooLarge) {
		return fmt.Errorf("the photo %q is larger than %d MB", name, maxImage>>20)
	}
	return fmt.Errorf("the photo %q cannot be read: %w", name, err)
}

// present reports which of keys carry a value in m (not null, "", 0, [] or
// {}), for the unmapped-field report.
func present(m map[string]any, keys ...string) []string {
	var out []string
	for _, k := range keys {
		if hasValue(m[k]) {
			out = append(out, k)
		}
	}
	return out
}

func hasValue(v any) bool {
	switch v := v.(type) {
	case nil:
		return false
	case string:
		return strings.TrimSpace(v) != ""
	case float64:
		return v != 0
	case bool:
		return v
	case []any:
		for _, e := range v {
			if hasValue(e) {
				return true
			}
		}
		return false
	case map[string]any:
		// JSON-LD's keywords (@type, @id, @context) name an object and
		// hold none of its values: Nextcloud Cookbook writes an empty
		// nutrition as {"@type": "NutritionInformation"}.
		for k, e := range v {
			if !strings.HasPrefix(k, "@") && hasValue(e) {
				return true
			}
		}
		return false
	}
	return true
}

// str reads a string field (numbers are written as they are).
func str(m map[string]any, keys ...string) string {
	for _, k := range keys {
		switch v := m[k].(type) {
		case string:
			if s := strings.TrimSpace(v); s != "" {
				return s
			}
		case float64:
			return trimFloat(v)
		}
	}
	return ""
}

// trimFloat writes a number without a decimal part when it has none: a
// quantity 2.0 is "2".
func trimFloat(f float64) string {
	s := fmt.Sprintf("%.3f", f)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	return s
}

func obj(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

func list(v any) []any {
	l, _ := v.([]any)
	return l
}

// names reads a list of labels written as strings, objects with a name, or
// one comma-separated string.
func labels(v any) []string {
	var out []string
	switch v := v.(type) {
	case string:
		for p := range strings.SplitSeq(v, ",") {
			if p = strings.TrimSpace(p); p != "" {
				out = append(out, p)
			}
		}
	case []any:
		for _, e := range v {
			switch e := e.(type) {
			case string:
				if e = strings.TrimSpace(e); e != "" {
					out = append(out, e)
				}
			case map[string]any:
				if n := str(e, "name", "title"); n != "" {
					out = append(out, n)
				}
			}
		}
	}
	return out
}

// withNotes keeps a recipe's notes, which have no field of their own here,
// at the end of its description.
func withNotes(description string, notes []string) string {
	var kept []string
	for _, n := range notes {
		if n = strings.TrimSpace(n); n != "" {
			kept = append(kept, n)
		}
	}
	if len(kept) == 0 {
		return description
	}
	block := "Notes:\n" + strings.Join(kept, "\n")
	if strings.TrimSpace(description) == "" {
		return block
	}
	return strings.TrimSpace(description) + "\n\n" + block
}

// finish tidies a recipe built from a format's fields like a page's.
func finish(r *extract.Recipe) { extract.Tidy(r) }

// sectionsFromLines makes one unnamed section of lines.
func sectionsFromLines(lines []string) []extract.Section {
	if len(lines) == 0 {
		return nil
	}
	return []extract.Section{{Items: lines}}
}

// decodeObject decodes a JSON document that must be an object.
func decodeObject(doc []byte) (map[string]any, error) {
	if len(bytes.TrimSpace(doc)) == 0 {
		return nil, fmt.Errorf("%w: the file is empty", ErrCorrupt)
	}
	v, err := extract.DecodeJSON(jsonText(doc))
	if err != nil {
		return nil, fmt.Errorf("%w: not valid JSON: %v", ErrCorrupt, err)
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%w: the JSON is not an object", ErrCorrupt)
	}
	return m, nil
}
