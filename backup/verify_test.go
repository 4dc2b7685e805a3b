package backup

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"larder/filestore"
	"larder/migrations"
)

func TestValidName(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		ok   bool
	}{
		{"backup-20250102T030405Z.zip", true},
		{"backup-20251231T235959Z.zip", true},
		{"backup-20250102T030405Z.zip.tmp", false},
		{".tmp-backup-20250102T030405Z.zip", false},
		{"backup-20250102T030405.zip", false},
		{"backup-2025012T030405Z.zip", false},
		{"backup-20251302T030405Z.zip", false}, // month 13
		{"backup-20250102T250405Z.zip", false}, // hour 25
		{"../backup-20250102T030405Z.zip", false},
		{"backup-20250102T030405Z.zip/../../etc/passwd", false},
		{"backup-20250102T030405Z.zip\x00", false},
		{"backup-２０２５0102T030405Z.zip", false}, // \d must not match other digits
		{"", false},
	}
	for _, tt := range tests {
		if got := ValidName(tt.name); got != tt.ok {
			t.Errorf("ValidName(%q) = %v, want %v", tt.name, got, tt.ok)
		}
		if _, err := Stat(t.Context(), filestore.Local{Root: t.TempDir()}, tt.name); errors.Is(err, ErrInvalidName) == tt.ok {
			t.Errorf("Stat(%q): %v", tt.name, err)
		}
	}
}

func TestCheckEntryName(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		ok   bool
	}{
		{"manifest.json", true},
		{"database/recipe.copy", true},
		{"database/ingredient_instruction_mapping.copy", true},
		{"uploads/recipes/ab/abcdef.jpg", true},
		{"uploads/empty.bin", true},
		{"uploads/../../etc/passwd", false},
		{"uploads/recipes/../../../x", false},
		{"../uploads/x.jpg", false},
		{"/etc/passwd", false},
		{"/uploads/x.jpg", false},
		{`uploads\..\x.jpg`, false},
		{"uploads/./x.jpg", false},
		{"uploads//x.jpg", false},
		{"uploads/", false},
		{"uploads", false},
		{"uploads/.tmp-1234", false},
		{"uploads/.htaccess", false},
		{"uploads/with space.jpg", false},
		{"uploads/C:/x.jpg", false},
		{"uploads/x\x00.jpg", false},
		{"uploads/x\n.jpg", false},
		{"database/../manifest.json", false},
		{"database/Recipe.copy", false},
		{"database/recipe; DROP TABLE x.copy", false},
		{"database/recipe.sql", false},
		{"other/file", false},
		{"", false},
		{strings.Repeat("a/", 600) + "b", false},
	}
	for _, tt := range tests {
		err := checkEntryName(tt.name)
		if (err == nil) != tt.ok {
			t.Errorf("checkEntryName(%q) = %v, want ok %v", tt.name, err, tt.ok)
		}
		var r *Refusal
		if err != nil && !errors.As(err, &r) {
			t.Errorf("checkEntryName(%q): %T is not a *Refusal", tt.name, err)
		}
	}
}

// Whatever name is accepted stays under the directory it is joined to.
func FuzzCheckEntryName(f *testing.F) {
	for _, s := range []string{"uploads/a/b.jpg", "uploads/../x", "database/t.copy", "/x", `a\b`, "uploads/a/./b", "uploads/%2e%2e/x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		if checkEntryName(name) != nil {
			return
		}
		root := filepath.FromSlash("/srv/staging")
		joined := filepath.Join(root, filepath.FromSlash(name))
		if !strings.HasPrefix(joined, root+string(filepath.Separator)) {
			t.Fatalf("%q accepted but joins to %q, outside %q", name, joined, root)
		}
		if strings.Contains(name, "..") && strings.Contains("/"+name+"/", "/../") {
			t.Fatalf("%q accepted with a .. element", name)
		}
	})
}

// wantRefusal fails unless err is a *Refusal with the code whose message
// contains substr.
func wantRefusal(t *testing.T, err error, code, substr string) {
	t.Helper()
	var r *Refusal
	if !errors.As(err, &r) {
		t.Fatalf("err = %v (%T), want a refusal containing %q", err, err, substr)
	}
	if r.Code != code || !strings.Contains(r.Message, substr) {
		t.Fatalf("refusal %s %q, want %s containing %q", r.Code, r.Message, code, substr)
	}
}

// Every way an archive can be wrong is refused by Verify, with a message
// that says what is wrong.
func TestVerifyRefusals(t *testing.T) {
	t.Parallel()
	bomb := make([]byte, 8<<20) // zeros: deflate shrinks them ~1000 times
	tests := []struct {
		name   string
		edit   func(t *testing.T, entries []testEntry, m *Manifest) ([]testEntry, *Manifest, bool)
		after  func(t *testing.T, p string)
		limits Limits
		code   string
		want   string
	}{
		{name: "valid"},
		{name: "zip slip", want: "climbs out", edit: func(t *testing.T, e []testEntry, m *Manifest) ([]testEntry, *Manifest, bool) {
			return append(e, testEntry{name: "uploads/../../../etc/cron.d/x", data: []byte("x")}), m, true
		}},
		{name: "absolute path", want: "absolute", edit: func(t *testing.T, e []testEntry, m *Manifest) ([]testEntry, *Manifest, bool) {
			return append(e, testEntry{name: "/etc/cron.d/x", data: []byte("x")}), m, true
		}},
		{name: "backslash", want: "backslash", edit: func(t *testing.T, e []testEntry, m *Manifest) ([]testEntry, *Manifest, bool) {
			return append(e, testEntry{name: `uploads\..\..\x`, data: []byte("x")}), m, true
		}},
		{name: "symlink", want: "not a regular file", edit: func(t *testing.T, e []testEntry, m *Manifest) ([]testEntry, *Manifest, bool) {
			return append(e, testEntry{name: "uploads/recipes/link.jpg", data: []byte("/etc/passwd"), mode: fs.ModeSymlink | 0o777}), m, true
		}},
		{name: "directory entry", want: "not a regular file", edit: func(t *testing.T, e []testEntry, m *Manifest) ([]testEntry, *Manifest, bool) {
			return append(e, testEntry{name: "uploads/recipes/dir", mode: fs.ModeDir | 0o755}), m, true
		}},
		{name: "device entry", want: "not a regular file", edit: func(t *testing.T, e []testEntry, m *Manifest) ([]testEntry, *Manifest, bool) {
			return append(e, testEntry{name: "uploads/recipes/dev", mode: fs.ModeDevice | 0o644}), m, true
		}},
		{name: "hidden name", want: "not a file-store key", edit: func(t *testing.T, e []testEntry, m *Manifest) ([]testEntry, *Manifest, bool) {
			return append(e, testEntry{name: "uploads/.htaccess", data: []byte("x")}), m, true
		}},
		{name: "unexpected entry", want: "not a manifest", edit: func(t *testing.T, e []testEntry, m *Manifest) ([]testEntry, *Manifest, bool) {
			return append(e, testEntry{name: "run.sh", data: []byte("x")}), m, true
		}},
		{name: "duplicate entry", want: "twice", edit: func(t *testing.T, e []testEntry, m *Manifest) ([]testEntry, *Manifest, bool) {
			return append(e, e[1]), m, false
		}},
		{name: "checksum mismatch in the last entry", want: "SHA-256", edit: func(t *testing.T, e []testEntry, m *Manifest) ([]testEntry, *Manifest, bool) {
			writeArchive(t, os.DevNull, e, m, true) // fills the manifest
			last := &e[len(e)-1]
			last.data = bytes.Clone(last.data)
			last.data[0] ^= 1 // same size, other content
			return e, m, false
		}},
		{name: "size differs from the manifest", want: "the manifest says", edit: func(t *testing.T, e []testEntry, m *Manifest) ([]testEntry, *Manifest, bool) {
			writeArchive(t, os.DevNull, e, m, true)
			e[1].data = e[1].data[:10]
			return e, m, false
		}},
		{name: "entry missing from the manifest", want: "not in the manifest", edit: func(t *testing.T, e []testEntry, m *Manifest) ([]testEntry, *Manifest, bool) {
			writeArchive(t, os.DevNull, e, m, true)
			return append(e, testEntry{name: "uploads/extra.jpg", data: []byte("x")}), m, false
		}},
		{name: "manifest entry missing from the archive", want: "not in the archive", edit: func(t *testing.T, e []testEntry, m *Manifest) ([]testEntry, *Manifest, bool) {
			writeArchive(t, os.DevNull, e, m, true)
			return e[:2], m, false
		}},
		{name: "no manifest", want: "no manifest.json", edit: func(t *testing.T, e []testEntry, m *Manifest) ([]testEntry, *Manifest, bool) {
			return e, nil, false
		}},
		{name: "manifest not JSON", want: "not valid JSON", edit: func(t *testing.T, e []testEntry, m *Manifest) ([]testEntry, *Manifest, bool) {
			return append(e, testEntry{name: ManifestName, data: []byte("{"), method: zip.Deflate}), nil, false
		}},
		{name: "another application", want: "not a Larder backup", edit: func(t *testing.T, e []testEntry, m *Manifest) ([]testEntry, *Manifest, bool) {
			m.Application = "other"
			return e, m, true
		}},
		{name: "table without its entry", want: "has no entry", edit: func(t *testing.T, e []testEntry, m *Manifest) ([]testEntry, *Manifest, bool) {
			m.Tables = append(m.Tables, Table{Name: "recipe", Entry: "database/recipe.copy", Columns: []string{"id"}})
			return e, m, true
		}},
		{name: "newer schema version", code: "backup_newer_schema", want: "upgrade Larder", edit: func(t *testing.T, e []testEntry, m *Manifest) ([]testEntry, *Manifest, bool) {
			m.SchemaVersion = migrations.Latest() + 1
			return e, m, true
		}},
		{name: "truncated", want: "truncated", after: func(t *testing.T, p string) {
			fi, _ := os.Stat(p)
			if err := os.Truncate(p, fi.Size()/2); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "truncated by one byte", want: "truncated", after: func(t *testing.T, p string) {
			fi, _ := os.Stat(p)
			if err := os.Truncate(p, fi.Size()-1); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "zip bomb", want: "ZIP bomb", edit: func(t *testing.T, e []testEntry, m *Manifest) ([]testEntry, *Manifest, bool) {
			return append(e, testEntry{name: "uploads/recipes/bomb.jpg", data: bomb, method: zip.Deflate}), m, true
		}},
		{name: "zip bomb with a lying header", want: "entry uploads/recipes/small.jpg", edit: func(t *testing.T, e []testEntry, m *Manifest) ([]testEntry, *Manifest, bool) {
			// The header and the manifest say 1000 bytes; the data inflates
			// to 8 MB. Only a check while streaming can see it.
			writeArchive(t, os.DevNull, append(e, testEntry{name: "uploads/recipes/small.jpg", data: bomb[:1000]}), m, true)
			comp := deflated(t, bomb)
			return append(e, testEntry{header: rawHeader("uploads/recipes/small.jpg", comp, bomb[:1000], 1000), raw: comp}), m, false
		}},
		{name: "corrupt compressed data", want: "damaged", edit: func(t *testing.T, e []testEntry, m *Manifest) ([]testEntry, *Manifest, bool) {
			data := []byte(strings.Repeat("some text that compresses\n", 100))
			writeArchive(t, os.DevNull, append(e, testEntry{name: "uploads/recipes/text.txt", data: data}), m, true)
			comp := deflated(t, data)
			for i := 5; i < len(comp)-5; i += 7 {
				comp[i] ^= 0x5a
			}
			return append(e, testEntry{header: rawHeader("uploads/recipes/text.txt", comp, data, uint64(len(data))), raw: comp}), m, false
		}},
		{name: "unknown compression method", want: "compression method", edit: func(t *testing.T, e []testEntry, m *Manifest) ([]testEntry, *Manifest, bool) {
			writeArchive(t, os.DevNull, append(e, testEntry{name: "uploads/recipes/x.jpg", data: []byte("abc")}), m, true)
			h := rawHeader("uploads/recipes/x.jpg", []byte("abc"), []byte("abc"), 3)
			h.Method = 99
			return append(e, testEntry{header: h, raw: []byte("abc")}), m, false
		}},
		{name: "overlapping entries", want: "overlap", after: func(t *testing.T, p string) {
			pointSecondAtFirst(t, p)
		}},
		{name: "too many entries", limits: Limits{MaxEntries: 3}, want: "entries; at most 3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			entries, m := handmade()
			fix := true
			if tt.edit != nil {
				entries, m, fix = tt.edit(t, entries, m)
			}
			p := filepath.Join(t.TempDir(), "backup-20250102T030405Z.zip")
			writeArchive(t, p, entries, m, fix)
			if tt.after != nil {
				tt.after(t, p)
			}
			got, err := Verify(p, tt.limits)
			if tt.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				if got.Files != 2 || len(got.Entries) != 3 {
					t.Fatalf("manifest %+v", got)
				}
				return
			}
			code := tt.code
			if code == "" {
				code = "backup_invalid"
			}
			wantRefusal(t, err, code, tt.want)
		})
	}
}

// pointSecondAtFirst rewrites the archive's central directory so that its
// second entry's data is the first entry's: the overlapping-entries bomb.
func pointSecondAtFirst(t *testing.T, p string) {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	sig := []byte{'P', 'K', 1, 2}
	first := bytes.Index(b, sig)
	second := bytes.Index(b[first+4:], sig) + first + 4
	if first < 0 || second < first+4 {
		t.Fatal("no central directory")
	}
	copy(b[second+42:second+46], b[first+42:first+46])
	// Same method, CRC and sizes too, so only the overlap is wrong.
	copy(b[second+10:second+28], b[first+10:first+28])
	if binary.LittleEndian.Uint32(b[second+42:]) != binary.LittleEndian.Uint32(b[first+42:]) {
		t.Fatal("patch failed")
	}
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// Arbitrary bytes never panic the reader, and whatever passes satisfies
// every rule.
func FuzzVerify(f *testing.F) {
	entries, m := handmade()
	dir := f.TempDir()
	p := filepath.Join(dir, "seed.zip")
	writeArchive(f, p, entries, m, true)
	seed, err := os.ReadFile(p)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Add(seed[:len(seed)/2])
	f.Add([]byte("PK\x05\x06" + strings.Repeat("\x00", 18)))
	f.Fuzz(func(t *testing.T, data []byte) {
		// In memory, so the fuzzer spends its time in the reader, not on files.
		a := &archive{r: bytes.NewReader(data), size: int64(len(data)),
			limits: Limits{MaxEntries: 100, MaxTotalBytes: 1 << 20}.withDefaults()}
		err := a.open(migrations.Latest())
		if err == nil {
			err = a.readAll(nil, nil, nil)
		}
		if err != nil {
			var r *Refusal
			if !errors.As(err, &r) {
				t.Fatalf("not a refusal: %v", err)
			}
			return
		}
		for _, e := range a.manifest.Entries {
			if checkEntryName(e.Name) != nil {
				t.Fatalf("accepted entry %q", e.Name)
			}
		}
	})
}
