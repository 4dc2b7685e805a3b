package archive_test

import (
	"archive/zip"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"larder/importer/archive"
	"larder/importer/archive/archivetest"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden.json")

func open(t *testing.T, b []byte) (*archive.Archive, error) {
	t.Helper()
	a, err := archive.Open(bytes.NewReader(b), int64(len(b)), archive.DefaultLimits)
	if a != nil {
		t.Cleanup(func() {
			if err := a.Close(); err != nil {
				t.Errorf("close: %v", err)
			}
		})
	}
	return a, err
}

// read is what a golden file holds for one recipe: the recipe, whether it
// had image bytes, what was left unmapped, or the error.
type read struct {
	Entry    string          `json:"entry"`
	Recipe   json.RawMessage `json:"recipe,omitempty"`
	Image    int             `json:"imageBytes,omitempty"`
	Unmapped []string        `json:"unmapped,omitempty"`
	Err      string          `json:"error,omitempty"`
}

func readAll(t *testing.T, a *archive.Archive) []read {
	t.Helper()
	var out []read
	for r := range a.Recipes() {
		x := read{Entry: r.Entry, Image: len(r.Image), Unmapped: r.Unmapped}
		if r.Err != nil {
			x.Err = r.Err.Error()
		} else {
			b, err := json.Marshal(r.Recipe)
			if err != nil {
				t.Fatal(err)
			}
			x.Recipe = b
		}
		out = append(out, x)
	}
	return out
}

// TestFormats opens an export of two recipes (one with groups) in each
// format, checks the detected format and count, and compares what is read
// with testdata/<format>.golden.json (go test -update rewrites them).
func TestFormats(t *testing.T) {
	t.Parallel()
	two := archivetest.Samples(2, true)
	pngs := archivetest.Samples(2, false)
	for i := range pngs {
		pngs[i].Image = archivetest.PNG(i)
	}
	tests := []struct {
		name, format string
		file         []byte
	}{
		{"mealie", archive.FormatMealie, archivetest.MealieExport(two)},
		{"mealie_backup", archive.FormatMealieBackup, archivetest.MealieBackup(two)},
		{"tandoor", archive.FormatTandoor, archivetest.Tandoor(two)},
		{"paprika", archive.FormatPaprika, archivetest.Paprika(two)},
		{"nextcloud", archive.FormatNextcloud, archivetest.Nextcloud(two)},
		{"schema_org_zip", archive.FormatSchemaOrg, archivetest.SchemaOrgZip(pngs)},
		{"schema_org_json", archive.FormatSchemaOrg, archivetest.SchemaOrgJSON(two, "https://img.example.com/")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			a, err := open(t, tt.file)
			if err != nil {
				t.Fatal(err)
			}
			if a.Format != tt.format || a.Total != 2 {
				t.Fatalf("format %q total %d, want %q 2", a.Format, a.Total, tt.format)
			}
			got := readAll(t, a)
			if len(got) != 2 {
				t.Fatalf("read %d recipes, want 2", len(got))
			}
			for i, r := range got {
				if r.Err != "" {
					t.Fatalf("recipe %d: %s", i, r.Err)
				}
				if tt.name != "schema_org_json" && r.Image == 0 {
					t.Errorf("recipe %d has no image", i)
				}
				if len(r.Unmapped) == 0 {
					t.Errorf("recipe %d: nothing reported unmapped (the fixtures carry nutrition or ratings)", i)
				}
			}
			compareGolden(t, filepath.Join("testdata", tt.name+".golden.json"), got)
		})
	}
}

func compareGolden(t *testing.T, golden string, v any) {
	t.Helper()
	got, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("differs from %s:\n--- got\n%s\n--- want\n%s", golden, got, want)
	}
}

// TestDetectionIgnoresNames: a Paprika export renamed .zip, or a Mealie
// export renamed .paprikarecipes, is still what its content says.
func TestDetectionIgnoresNames(t *testing.T) {
	t.Parallel()
	// The name a file arrives with is not even passed to Open; this test
	// shows that entries named like another format's do not mislead it.
	b := archivetest.Zip(archivetest.File{Name: "notes.paprika.txt", Data: []byte("x")},
		archivetest.File{Name: "soup.json", Data: archivetest.SchemaOrgJSON(archivetest.Samples(1, false), "")})
	a, err := open(t, b)
	if err != nil {
		t.Fatal(err)
	}
	if a.Format != archive.FormatSchemaOrg || a.Total != 1 {
		t.Fatalf("format %q total %d", a.Format, a.Total)
	}
}

// TestBadArchives: what cannot be read as a whole is refused with a clear
// error; what is wrong with one entry is reported for that entry while the
// others are read.
// nest zips b again n times.
func nest(b []byte, n int) []byte {
	for range n {
		b = archivetest.Zip(archivetest.File{Name: "export.zip", Data: b})
	}
	return b
}

func TestBadArchives(t *testing.T) {
	t.Parallel()
	good := archivetest.Nextcloud(archivetest.Samples(2, true))
	truncated := good[:len(good)/2]

	tests := []struct {
		name string
		file []byte
		want error
	}{
		{"corrupt zip", truncated, archive.ErrCorrupt},
		{"not an export", []byte("%PDF-1.4\n..."), archive.ErrUnknownFormat},
		{"zip of something else", archivetest.Zip(archivetest.File{Name: "a.txt", Data: []byte("hello")}), archive.ErrUnknownFormat},
		{"json without recipes", []byte(`{"hello": "world"}`), archive.ErrUnknownFormat},
		{"broken json", []byte(`{"@type": "Recipe", "name": `), archive.ErrCorrupt},
		{"zip bomb", archivetest.Bomb(50 << 20), archive.ErrTooLarge},
		{"empty", nil, archive.ErrUnknownFormat},
		// An export zipped again is read inside; what is wrong with it is
		// said as for the export itself.
		{"damaged zip in a zip", archivetest.Zip(archivetest.File{Name: "export.zip", Data: truncated}), archive.ErrCorrupt},
		{"damaged zip stored in a zip", archivetest.Zip(archivetest.File{Name: "export.zip", Data: truncated, Store: true}), archive.ErrCorrupt},
		{"zip bomb in a zip", archivetest.Zip(archivetest.File{Name: "export.zip", Data: archivetest.Bomb(50 << 20)}), archive.ErrTooLarge},
		// Three zips around an export are not looked through.
		{"zips nested too deep", nest(archivetest.MealieExport(archivetest.Samples(1, false)), 3), archive.ErrUnknownFormat},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := open(t, tt.file)
			if !errors.Is(err, tt.want) {
				t.Fatalf("error %v, want %v", err, tt.want)
			}
		})
	}

	t.Run("total size", func(t *testing.T) {
		t.Parallel()
		lim := archive.DefaultLimits
		lim.MaxTotalBytes = 1000
		b := archivetest.MealieExport(archivetest.Samples(3, true))
		if _, err := archive.Open(bytes.NewReader(b), int64(len(b)), lim); !errors.Is(err, archive.ErrTooLarge) {
			t.Fatalf("error %v, want ErrTooLarge", err)
		}
	})

	t.Run("path traversal and bad entries", func(t *testing.T) {
		t.Parallel()
		recs := archivetest.Samples(3, false)
		good := archivetest.Paprika(recs)
		zr, err := zip.NewReader(bytes.NewReader(good), int64(len(good)))
		if err != nil {
			t.Fatal(err)
		}
		var files []archivetest.File
		for _, f := range zr.File {
			rc, _ := f.Open()
			var buf bytes.Buffer
			_, _ = buf.ReadFrom(rc)
			rc.Close()
			files = append(files, archivetest.File{Name: f.Name, Data: buf.Bytes()})
		}
		files = append(files,
			archivetest.File{Name: "../../etc/evil.paprikarecipe", Data: files[0].Data},
			archivetest.File{Name: "/abs.paprikarecipe", Data: files[0].Data},
			// A Windows tool's separators are read as folders, and so
			// leave the archive just the same.
			archivetest.File{Name: `..\..\evil.paprikarecipe`, Data: files[0].Data},
			archivetest.File{Name: "broken.paprikarecipe", Data: []byte("not gzip")},
		)
		a, err := open(t, archivetest.Zip(files...))
		if err != nil {
			t.Fatal(err)
		}
		if a.Format != archive.FormatPaprika || a.Total != 7 {
			t.Fatalf("format %q total %d, want paprika 7", a.Format, a.Total)
		}
		ok, unsafe, broken := 0, 0, 0
		for r := range a.Recipes() {
			switch {
			case r.Err == nil:
				ok++
			case errors.Is(r.Err, archive.ErrUnsafePath):
				unsafe++
			case errors.Is(r.Err, archive.ErrCorrupt):
				broken++
			default:
				t.Errorf("%s: %v", r.Entry, r.Err)
			}
		}
		if ok != 3 || unsafe != 3 || broken != 1 {
			t.Fatalf("ok %d unsafe %d broken %d, want 3 3 1", ok, unsafe, broken)
		}
	})

	t.Run("photo over the limit", func(t *testing.T) {
		t.Parallel()
		// A photo larger than MaxImageBytes costs its recipe the photo,
		// with the reason, and nothing else: the recipe and the next
		// one's photo are read.
		lim := archive.DefaultLimits
		lim.MaxImageBytes = 1 << 20
		huge := make([]byte, lim.MaxImageBytes+1)
		_, _ = rand.NewChaCha8([32]byte{}).Read(huge) // noise: it does not compress
		files, err := archivetest.Unzip(archivetest.Nextcloud(archivetest.Samples(2, true)))
		if err != nil {
			t.Fatal(err)
		}
		// Its thumbnail is left out: with one, the thumbnail would be
		// taken in the photo's place.
		files = slices.DeleteFunc(files, func(f archivetest.File) bool { return strings.HasSuffix(f.Name, "1/thumb.jpg") })
		for i, f := range files {
			if strings.HasSuffix(f.Name, "1/full.jpg") {
				files[i] = archivetest.File{Name: f.Name, Data: huge, Store: true}
			}
		}
		b := archivetest.Zip(files...)
		a, err := archive.Open(bytes.NewReader(b), int64(len(b)), lim)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for r := range a.Recipes() {
			got = append(got, fmt.Sprintf("%s err=%v image=%d imageErr=%v", r.Recipe.Title, r.Err, len(r.Image), r.ImageErr))
			if r.Err != nil || r.Recipe.Title == "" {
				t.Errorf("%s: %v", r.Entry, r.Err)
			}
			switch {
			case strings.HasSuffix(r.Entry, "1/recipe.json"):
				if r.Image != nil || r.ImageErr == nil || !strings.Contains(r.ImageErr.Error(), "larger than 1 MB") {
					t.Errorf("recipe with the huge photo: %s", got[len(got)-1])
				}
			case r.Image == nil || r.ImageErr != nil:
				t.Errorf("recipe with a sound photo: %s", got[len(got)-1])
			}
		}
		if len(got) != 2 {
			t.Fatalf("read %q", got)
		}
	})

	t.Run("invalid recipe among good ones", func(t *testing.T) {
		t.Parallel()
		b := archivetest.Zip(
			archivetest.File{Name: "a.json", Data: archivetest.SchemaOrgJSON(archivetest.Samples(1, false), "")},
			archivetest.File{Name: "b.json", Data: []byte(`{"@type": "Recipe", "description": "no name, no lines"}`)},
		)
		a, err := open(t, b)
		if err != nil {
			t.Fatal(err)
		}
		var errs []string
		n := 0
		for r := range a.Recipes() {
			n++
			if r.Err != nil {
				errs = append(errs, r.Entry+": "+r.Err.Error())
			}
		}
		if n != 2 || len(errs) != 1 || !strings.HasPrefix(errs[0], "b.json") {
			t.Fatalf("read %d, errors %q", n, errs)
		}
	})
}

// FuzzOpen feeds arbitrary bytes (seeded with an export of each format) to
// Open and reads every recipe: no panic, no more recipes than Total, and
// every recipe either has an error or a title.
func FuzzOpen(f *testing.F) {
	s := archivetest.Samples(2, true)
	for _, b := range [][]byte{archivetest.MealieExport(s), archivetest.MealieBackup(s), archivetest.Tandoor(s), archivetest.Paprika(s),
		archivetest.Nextcloud(s), archivetest.SchemaOrgZip(s), archivetest.SchemaOrgJSON(s, ""), archivetest.PaprikaRecipe(s[0]),
		archivetest.TandoorRecipe(s[0]), archivetest.MealieJSON(s)} {
		f.Add(b)
	}
	for _, v := range archivetest.Variants() {
		f.Add(v.File)
	}
	f.Add([]byte(`[{"@type":"Recipe","name":"x","recipeIngredient":"a"}]`))
	lim := archive.DefaultLimits
	lim.MaxTotalBytes = 64 << 20
	f.Fuzz(func(t *testing.T, b []byte) {
		a, err := archive.Open(bytes.NewReader(b), int64(len(b)), lim)
		if err != nil {
			if !errors.Is(err, archive.ErrCorrupt) && !errors.Is(err, archive.ErrUnknownFormat) && !errors.Is(err, archive.ErrTooLarge) {
				t.Fatalf("unexpected error %v", err)
			}
			return
		}
		defer a.Close()
		n := 0
		for r := range a.Recipes() {
			n++
			if r.Err == nil && strings.TrimSpace(r.Recipe.Title) == "" {
				t.Fatalf("entry %q read without a title", r.Entry)
			}
		}
		if n > a.Total {
			t.Fatalf("read %d recipes, Total %d", n, a.Total)
		}
	})
}

// TestSinglePaprikaRecipe: one recipe exported from Paprika on its own (a
// gzipped JSON file, not a zip) is read too.
func TestSinglePaprikaRecipe(t *testing.T) {
	t.Parallel()
	r := archivetest.Sample(1, true)
	a, err := open(t, archivetest.PaprikaRecipe(r))
	if err != nil {
		t.Fatal(err)
	}
	if a.Format != archive.FormatPaprika || a.Total != 1 {
		t.Fatalf("format %q total %d", a.Format, a.Total)
	}
	for rec := range a.Recipes() {
		if rec.Err != nil || rec.Recipe.Title != r.Title || len(rec.Image) == 0 {
			t.Fatalf("%+v", rec)
		}
	}
	// Gzipped JSON that is not a Paprika recipe is not taken for one.
	if _, err := open(t, archivetest.GzipJSON(map[string]any{"hello": "world"})); !errors.Is(err, archive.ErrUnknownFormat) {
		t.Fatalf("error %v, want ErrUnknownFormat", err)
	}
}

// TestSingleRecipeFiles: one recipe exported alone by Tandoor (its
// recipe.json and image in a zip) and Mealie recipes as JSON outside a zip
// are read too.
func TestSingleRecipeFiles(t *testing.T) {
	t.Parallel()
	two := archivetest.Samples(2, true)
	tests := []struct {
		name, format string
		file         []byte
		total        int
		image        bool
	}{
		{"tandoor recipe zip", archive.FormatTandoor, archivetest.TandoorRecipe(two[0]), 1, true},
		{"mealie json list", archive.FormatMealie, archivetest.MealieJSON(two), 2, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			a, err := open(t, tt.file)
			if err != nil {
				t.Fatal(err)
			}
			if a.Format != tt.format || a.Total != tt.total {
				t.Fatalf("format %q total %d", a.Format, a.Total)
			}
			i := 0
			for rec := range a.Recipes() {
				if rec.Err != nil || rec.Recipe.Title != two[i].Title || (len(rec.Image) > 0) != tt.image || len(rec.Recipe.IngredientSections) == 0 {
					t.Fatalf("recipe %d: %+v", i, rec)
				}
				i++
			}
		})
	}
}

// TestPaprikaPhotoForms: photo_data written as plain base64 or as a data
// address (RFC 2397) gives the photo's bytes; text that is not base64
// leaves the recipe without a photo and says why.
func TestPaprikaPhotoForms(t *testing.T) {
	t.Parallel()
	photo := archivetest.JPEG(50)
	b64 := base64.StdEncoding.EncodeToString(photo)
	forms := []struct {
		data     string
		want     []byte
		errorHas string
	}{
		{b64, photo, ""},
		{"data:image/jpeg;base64," + b64, photo, ""},
		{"not base64!", nil, "not base64"},
	}
	var files []archivetest.File
	for i, f := range forms {
		files = append(files, archivetest.File{Name: fmt.Sprintf("%d.paprikarecipe", i), Data: archivetest.GzipJSON(map[string]any{
			"name": fmt.Sprintf("Recipe %d", i), "ingredients": "1 egg", "directions": "Boil the egg.", "photo_data": f.data})})
	}
	a, err := open(t, archivetest.Zip(files...))
	if err != nil {
		t.Fatal(err)
	}
	i := 0
	for r := range a.Recipes() {
		f := forms[i]
		i++
		if r.Err != nil || !bytes.Equal(r.Image, f.want) {
			t.Errorf("%s: error %v, %d bytes, want %d", r.Entry, r.Err, len(r.Image), len(f.want))
		}
		if (f.errorHas == "") != (r.ImageErr == nil) || r.ImageErr != nil && !strings.Contains(r.ImageErr.Error(), f.errorHas) {
			t.Errorf("%s: image error %v, want one with %q", r.Entry, r.ImageErr, f.errorHas)
		}
	}
	if i != len(forms) {
		t.Fatalf("read %d recipes", i)
	}
}

// TestDamagedSavedPage: a saved page (MHTML) cut short is an entry that
// failed with its reason, beside the pages that read.
func TestDamagedSavedPage(t *testing.T) {
	t.Parallel()
	var v archivetest.Variant
	for _, x := range archivetest.Variants() {
		if x.Name == "schema/saved pages mhtml" {
			v = x
		}
	}
	files, err := archivetest.Unzip(v.File)
	if err != nil || len(files) == 0 {
		t.Fatalf("variant: %v", err)
	}
	page := files[0]
	cut := archivetest.File{Name: "Saved pages/Cut short.mhtml", Data: page.Data[:len(page.Data)/2]}
	a, err := open(t, archivetest.Zip(page, cut))
	if err != nil {
		t.Fatal(err)
	}
	if a.Total != 2 {
		t.Errorf("total %d, want 2", a.Total)
	}
	var got []string
	for r := range a.Recipes() {
		got = append(got, fmt.Sprintf("%s: %q %v", r.Entry, r.Recipe.Title, r.Err))
		switch {
		case r.Entry == cut.Name && !errors.Is(r.Err, archive.ErrCorrupt):
			t.Errorf("cut page: %v, want ErrCorrupt", r.Err)
		case r.Entry == page.Name && (r.Err != nil || r.Recipe.Title != "Minestrone"):
			t.Errorf("whole page: %q %v", r.Recipe.Title, r.Err)
		}
	}
	if len(got) != 2 {
		t.Errorf("read %q", got)
	}
}

// TestNextcloudThumbnailForPhoto: when a Cookbook folder's full.jpg cannot
// be read (larger than the limit, or damaged in the zip) its thumbnail is
// taken, and the recipe's warning says the full-size photo was not used and
// why; a folder whose full.jpg reads takes it, with no warning.
func TestNextcloudThumbnailForPhoto(t *testing.T) {
	t.Parallel()
	lim := archive.DefaultLimits
	lim.MaxImageBytes = 1 << 20
	full, thumb := archivetest.Photo(1, 640, 480), archivetest.Photo(2, 256, 192)
	huge := make([]byte, lim.MaxImageBytes+1)
	_, _ = rand.NewChaCha8([32]byte{}).Read(huge) // noise: it does not compress
	folder := func(fullData []byte) []byte {
		s := archivetest.Samples(1, false)[0]
		files, err := archivetest.Unzip(archivetest.Nextcloud([]archivetest.Recipe{s}))
		if err != nil {
			t.Fatal(err)
		}
		dir := "Recipes/" + s.Title + "/"
		return archivetest.Zip(append(files,
			archivetest.File{Name: dir + "full.jpg", Data: fullData, Store: true},
			archivetest.File{Name: dir + "thumb.jpg", Data: thumb, Store: true})...)
	}
	// Damaged: a byte of the stored full.jpg changed after the zip was
	// written, so its checksum no longer matches.
	damaged := folder(full)
	i := bytes.Index(damaged, full)
	damaged[i+len(full)/2] ^= 0xff

	tests := []struct {
		name      string
		file      []byte
		image     []byte
		wantCause string // in the warning, "" for none
	}{
		{"full photo read", folder(full), full, ""},
		{"full photo too large", folder(huge), thumb, `the photo "Recipes/Test soup 1/full.jpg" is larger than 1 MB`},
		{"full photo damaged", damaged, thumb, `the photo "Recipes/Test soup 1/full.jpg" cannot be read: `},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			a, err := archive.Open(bytes.NewReader(tt.file), int64(len(tt.file)), lim)
			if err != nil {
				t.Fatal(err)
			}
			defer a.Close()
			n := 0
			for r := range a.Recipes() {
				n++
				if r.Err != nil || r.ImageErr != nil || !bytes.Equal(r.Image, tt.image) {
					t.Fatalf("err %v, image error %v, image of %d bytes (want %d)", r.Err, r.ImageErr, len(r.Image), len(tt.image))
				}
				if tt.wantCause == "" {
					if r.Warning != "" {
						t.Errorf("warning %q, want none", r.Warning)
					}
					continue
				}
				if !strings.HasPrefix(r.Warning, "the full-size photo could not be read ("+tt.wantCause) ||
					!strings.HasSuffix(r.Warning, "); the thumbnail was used") {
					t.Errorf("warning %q, want the full-size photo's reason (%s…) and that the thumbnail was used", r.Warning, tt.wantCause)
				}
			}
			if n != 1 {
				t.Fatalf("%d recipes, want 1", n)
			}
		})
	}
}
