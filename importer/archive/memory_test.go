package archive_test

import (
	"bytes"
	"encoding/base64"
	"errors"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"larder/importer/archive"
	"larder/importer/archive/archivetest"
)

// TestNestedZipsNotHeldInMemory: a Tandoor export whose first recipe zip is
// large (here 16 MB, a file the importer never reads beside recipe.json) is
// detected and read without the recipe zip ever being in memory, whether
// the zip is stored in the export or compressed in it: what the whole
// Open-and-read allocates stays far below the recipe zip's size.
//
// Not parallel: the measure (runtime.MemStats.TotalAlloc) counts every
// goroutine's allocations, and a top-level test that is not parallel runs
// while the parallel ones wait.
func TestNestedZipsNotHeldInMemory(t *testing.T) {
	const filler = 16 << 20
	noise := make([]byte, filler)
	_, _ = rand.NewChaCha8([32]byte{1}).Read(noise) // does not compress: the zip stays large
	samples := archivetest.Samples(2, true)
	inner, err := archivetest.Unzip(archivetest.TandoorRecipe(samples[0]))
	if err != nil {
		t.Fatal(err)
	}
	big := archivetest.Zip(append(inner, archivetest.File{Name: "video.mp4", Data: noise, Store: true})...)

	for _, stored := range []bool{false, true} {
		name := "compressed in the export"
		if stored {
			name = "stored in the export"
		}
		t.Run(name, func(t *testing.T) {
			b := archivetest.Zip(
				archivetest.File{Name: "Big_soup.zip", Data: big, Store: stored},
				archivetest.File{Name: "Small_soup.zip", Data: archivetest.TandoorRecipe(samples[1])},
			)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			a, err := archive.Open(bytes.NewReader(b), int64(len(b)), archive.DefaultLimits)
			if err != nil {
				t.Fatal(err)
			}
			defer a.Close()
			n := 0
			for r := range a.Recipes() {
				if r.Err != nil || r.Image == nil {
					t.Errorf("%s: err %v, image %d bytes", r.Entry, r.Err, len(r.Image))
				}
				n++
			}
			runtime.ReadMemStats(&after)
			if a.Format != archive.FormatTandoor || n != 2 {
				t.Fatalf("format %q, %d recipes; want tandoor, 2", a.Format, n)
			}
			// The bound is a sixteenth of the recipe zip: room for the
			// zip directories, the decompressors' windows, a copy buffer
			// and the two small recipes, and none for the zip itself.
			if got := after.TotalAlloc - before.TotalAlloc; got > filler/16 {
				t.Errorf("reading the export allocated %d KB, more than %d KB: the %d MB recipe zip was held in memory",
					got>>10, filler/16>>10, filler>>20)
			} else {
				t.Logf("allocated %d KB", got>>10)
			}
		})
	}
}

// TestOversizedRecipeFile: a recipe's file larger than the most read of a
// document (Limits.MaxDocumentBytes, lowered here to 1 MB) costs that
// recipe, with a reason naming the file and the limit, and the archive's
// other recipe is read, in every format whose recipes are files of their
// own.
func TestOversizedRecipeFile(t *testing.T) {
	t.Parallel()
	lim := archive.DefaultLimits
	lim.MaxDocumentBytes = 1 << 20
	noise := make([]byte, 3<<20/2)
	_, _ = rand.NewChaCha8([32]byte{2}).Read(noise)
	samples := archivetest.Samples(2, false)
	// Letters that do not compress: the zip's ratio check does not refuse
	// the whole archive first.
	samples[0].Description = base64.StdEncoding.EncodeToString(noise)
	for _, tt := range []struct {
		format string
		file   []byte
	}{
		{archive.FormatNextcloud, archivetest.Nextcloud(samples)},
		{archive.FormatTandoor, archivetest.Tandoor(samples)},
		{archive.FormatPaprika, archivetest.Paprika(samples)},
		{archive.FormatMealie, archivetest.MealieExport(samples)},
		{archive.FormatSchemaOrg, archivetest.SchemaOrgZip(samples)},
	} {
		t.Run(tt.format, func(t *testing.T) {
			t.Parallel()
			a, err := archive.Open(bytes.NewReader(tt.file), int64(len(tt.file)), lim)
			if err != nil {
				t.Fatal(err)
			}
			defer a.Close()
			if a.Format != tt.format || a.Total != 2 {
				t.Fatalf("format %q total %d", a.Format, a.Total)
			}
			var reasons []string
			read := 0
			for r := range a.Recipes() {
				switch {
				case r.Err == nil && r.Recipe.Title == samples[1].Title:
					read++
				case errors.Is(r.Err, archive.ErrTooLarge):
					reasons = append(reasons, r.Err.Error())
				default:
					t.Errorf("%s: %q, %v", r.Entry, r.Recipe.Title, r.Err)
				}
			}
			if read != 1 || len(reasons) != 1 {
				t.Fatalf("read %d, too large %q", read, reasons)
			}
			if !strings.HasPrefix(reasons[0], `the file "`) || !strings.HasSuffix(reasons[0], "is larger than 1 MB, the most we read of it") {
				t.Errorf("reason %q does not name the file and the limit", reasons[0])
			}
		})
	}
}
