package jobs

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/riverqueue/river/rivertype"

	"larder/filestore"
	"larder/importer/archive"
	"larder/importer/archive/archivetest"
	"larder/repo"
	"larder/repo/repotest"
)

// storeArchive puts an upload in the file store, as the handler does.
func (b *importBundle) storeArchive(t testing.TB, data []byte) string {
	t.Helper()
	key := filestore.NewKey(ArchivePrefix, "bin")
	if err := b.files.Put(context.Background(), key, bytes.NewReader(data)); err != nil {
		t.Fatal(err)
	}
	return key
}

// runArchive stores data, enqueues and works an archive import, and returns
// the job's row and the stored key.
func (b *importBundle) runArchive(t *testing.T, data []byte, visibility string) (*rivertype.JobRow, string) {
	t.Helper()
	key := b.storeArchive(t, data)
	row := b.enqueue(t, ImportArchiveArgs{UserID: b.user.ID, FileKey: key, FileName: "export.zip", Visibility: visibility}, nil)
	workJob[ImportArchiveArgs](t, b.db, &ImportArchiveWorker{deps: b.deps}, row)
	return row, key
}

func (b *importBundle) archiveResult(t testing.TB, row *rivertype.JobRow) ArchiveImportResult {
	t.Helper()
	o := b.outcome(t, row.ID)
	if o.Code != nil {
		t.Fatalf("job failed: %s: %s", *o.Code, derefOr(o.Message))
	}
	var res ArchiveImportResult
	if err := json.Unmarshal(o.Result, &res); err != nil {
		t.Fatalf("result %s: %v", o.Result, err)
	}
	return res
}

func (b *importBundle) wantDeleted(t *testing.T, key string) {
	t.Helper()
	if _, err := b.files.Open(context.Background(), key); !errors.Is(err, filestore.ErrNotFound) {
		t.Errorf("the uploaded archive is still stored (%v)", err)
	}
}

// TestImportArchiveFormats imports an export of three recipes in each
// format: every recipe is created, PRIVATE, with its sections, labels,
// source and image (stored, with its renditions job), progress reaches 3
// of 3, the upload is deleted; importing the same file again creates
// nothing and lists every recipe as a duplicate.
func TestImportArchiveFormats(t *testing.T) {
	t.Parallel()
	db := repotest.DB(t)
	three := archivetest.Samples(3, true)
	tests := []struct {
		format string
		file   []byte
		image  bool // the archive holds the photos (else addresses)
	}{
		{archive.FormatMealie, archivetest.MealieExport(three), true},
		{archive.FormatMealieBackup, archivetest.MealieBackup(three), true},
		{archive.FormatTandoor, archivetest.Tandoor(three), true},
		{archive.FormatPaprika, archivetest.Paprika(three), true},
		{archive.FormatNextcloud, archivetest.Nextcloud(three), true},
		{archive.FormatSchemaOrg, archivetest.SchemaOrgZip(three), true},
		{archive.FormatSchemaOrg + "_json", archivetest.SchemaOrgJSON(three, "https://img.example.com/"), false},
		// An export zipped again (compressed): read through a file of its own.
		{archive.FormatMealie + "_zipped_again", archivetest.Zip(archivetest.File{Name: "mealie.zip", Data: archivetest.MealieExport(three)}), true},
	}
	for _, tt := range tests {
		t.Run(tt.format, func(t *testing.T) {
			t.Parallel()
			b := importSetupOn(t, db, loopbackFetcher())
			row, key := b.runArchive(t, tt.file, "")
			res := b.archiveResult(t, row)
			if res.Total != 3 || res.Created != 3 || res.Skipped != 0 || res.Failed != 0 || len(res.Recipes) != 3 {
				t.Fatalf("result %+v", res)
			}
			if res.FileName != "export.zip" || len(res.Unmapped) == 0 {
				t.Errorf("file name %q, unmapped %q", res.FileName, res.Unmapped)
			}
			b.wantDeleted(t, key)

			var detail archiveProgress
			var raw []byte
			if err := b.db.QueryRow(context.Background(), `SELECT progress_detail FROM app_job WHERE river_job_id = $1`, row.ID).Scan(&raw); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(raw, &detail); err != nil || detail.Done != 3 || detail.Total != 3 || detail.Format != res.Format {
				t.Errorf("progress detail %s (%v)", raw, err)
			}

			for i, r := range res.Recipes {
				if r.Status != ArchiveCreated || r.RecipeID == nil || r.Warning != "" {
					t.Fatalf("recipe %d: %+v", i, r)
				}
				rec, err := repo.GetRecipe(context.Background(), b.db, *r.RecipeID, repo.Viewer{UserID: &b.user.ID})
				if err != nil {
					t.Fatal(err)
				}
				want := archivetest.Sample(i+1, false)
				if rec.Title != want.Title || rec.Visibility != repo.VisibilityPrivate || derefOr(rec.SourceURL) != want.SourceURL {
					t.Errorf("recipe %d: %q %s %s", i, rec.Title, rec.Visibility, derefOr(rec.SourceURL))
				}
				if rec.Servings == nil || *rec.Servings != want.Servings {
					t.Errorf("recipe %d servings %v, want %d", i, rec.Servings, want.Servings)
				}
				ings := sectionTexts(rec.IngredientSections)
				if len(ings) < len(want.Ingredients) || !slices.Contains(ings, want.Ingredients[0]) {
					t.Errorf("recipe %d ingredients %q", i, ings)
				}
				if steps := sectionTexts(rec.InstructionSections); len(steps) != len(want.Steps) {
					t.Errorf("recipe %d steps %q", i, steps)
				}
				if len(rec.Categories)+len(rec.Tags) == 0 {
					t.Errorf("recipe %d has neither categories nor tags", i)
				}
				if tt.image {
					if rec.ImageKey == nil {
						t.Errorf("recipe %d has no image", i)
					} else {
						b.followUp(t, "image_process", rec.ID)
					}
				} else {
					b.followUp(t, "recipe_image_download", rec.ID)
				}
				b.followUp(t, "mapping_generate", rec.ID)
			}

			// The same export again: nothing new.
			again, _ := b.runArchive(t, tt.file, "")
			res2 := b.archiveResult(t, again)
			if res2.Created != 0 || res2.Skipped != 3 || res2.Failed != 0 {
				t.Fatalf("second run %+v", res2)
			}
			for i, r := range res2.Recipes {
				if r.RecipeID == nil || *r.RecipeID != *res.Recipes[i].RecipeID {
					t.Errorf("duplicate %d names %v, want %v", i, r.RecipeID, res.Recipes[i].RecipeID)
				}
			}
			if n := b.count(t, `SELECT count(*) FROM recipe WHERE owner_id = $1`, b.user.ID); n != 3 {
				t.Errorf("%d recipes after two runs, want 3", n)
			}
		})
	}
}

// TestImportArchiveDuplicatesWithoutSource: without a source address a
// recipe is the same when its title and ingredients are.
func TestImportArchiveDuplicatesWithoutSource(t *testing.T) {
	t.Parallel()
	b := importSetup(t, loopbackFetcher())
	recs := archivetest.Samples(2, false)
	for i := range recs {
		recs[i].SourceURL = ""
	}
	changed := append([]archivetest.Recipe{}, recs...)
	changed[1].Ingredients = append([]string{"1 leek"}, changed[1].Ingredients...)

	first, _ := b.runArchive(t, archivetest.Paprika(recs), "")
	if res := b.archiveResult(t, first); res.Created != 2 {
		t.Fatalf("first run %+v", res)
	}
	second, _ := b.runArchive(t, archivetest.Paprika(changed), "")
	res := b.archiveResult(t, second)
	if res.Created != 1 || res.Skipped != 1 || res.Recipes[0].Status != ArchiveSkipped || res.Recipes[1].Status != ArchiveCreated {
		t.Fatalf("second run %+v", res)
	}
}

// TestImportArchiveVisibility: the visibility asked for applies to every recipe.
func TestImportArchiveVisibility(t *testing.T) {
	t.Parallel()
	b := importSetup(t, loopbackFetcher())
	row, _ := b.runArchive(t, archivetest.Nextcloud(archivetest.Samples(2, false)), repo.VisibilityShared)
	res := b.archiveResult(t, row)
	if res.Created != 2 {
		t.Fatalf("%+v", res)
	}
	if n := b.count(t, `SELECT count(*) FROM recipe WHERE owner_id = $1 AND visibility = 'SHARED'`, b.user.ID); n != 2 {
		t.Errorf("%d SHARED recipes, want 2", n)
	}
}

// TestImportArchiveBadFiles: a file that cannot be read as a whole fails
// the job with a clear code, creates nothing and is deleted.
func TestImportArchiveBadFiles(t *testing.T) {
	t.Parallel()
	db := repotest.DB(t)
	good := archivetest.MealieExport(archivetest.Samples(2, false))
	tests := []struct {
		name, code string
		file       []byte
	}{
		{"corrupt", "corrupt_archive", good[:len(good)-40]},
		{"unknown", "unknown_format", []byte("GIF89a not an export")},
		{"bomb", "archive_too_large", archivetest.Bomb(30 << 20)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b := importSetupOn(t, db, loopbackFetcher())
			row, key := b.runArchive(t, tt.file, "")
			o := b.outcome(t, row.ID)
			if derefOr(o.Code) != tt.code || o.Message == nil || *o.Message == "" {
				t.Fatalf("outcome %s: %s", derefOr(o.Code), derefOr(o.Message))
			}
			if got := b.row(t, row.ID); got.State != rivertype.JobStateCancelled {
				t.Errorf("River state %s, want cancelled", got.State)
			}
			if n := b.count(t, `SELECT count(*) FROM recipe WHERE owner_id = $1`, b.user.ID); n != 0 {
				t.Errorf("%d recipes", n)
			}
			b.wantDeleted(t, key)
		})
	}
	t.Run("missing upload", func(t *testing.T) {
		t.Parallel()
		b := importSetupOn(t, db, loopbackFetcher())
		row := b.enqueue(t, ImportArchiveArgs{UserID: b.user.ID, FileKey: filestore.NewKey(ArchivePrefix, "bin")}, nil)
		workJob[ImportArchiveArgs](t, b.db, &ImportArchiveWorker{deps: b.deps}, row)
		if o := b.outcome(t, row.ID); derefOr(o.Code) != "archive_missing" {
			t.Fatalf("outcome %s", derefOr(o.Code))
		}
	})
}

// TestImportArchivePartly: unsafe paths, an unreadable entry, a recipe
// without a name and a broken image are listed, and the good recipes of
// the same archive are created.
func TestImportArchivePartly(t *testing.T) {
	t.Parallel()
	b := importSetup(t, loopbackFetcher())
	recs := archivetest.Samples(2, false)
	recs[1].Image = []byte("this is not a picture")
	good := archivetest.Nextcloud(recs)
	files := unzip(t, good)
	files = append(files,
		archivetest.File{Name: "../outside/recipe.json", Data: files[0].Data},
		archivetest.File{Name: "Recipes/Broken/recipe.json", Data: []byte(`{"name": "Broken", `)},
		archivetest.File{Name: "Recipes/Nameless/recipe.json", Data: []byte(`{"@type": "Recipe", "recipeIngredient": ["1 egg"]}`)},
	)
	row, _ := b.runArchive(t, archivetest.Zip(files...), "")
	res := b.archiveResult(t, row)
	if res.Total != 5 || res.Created != 2 || res.Failed != 3 {
		t.Fatalf("result %+v", res)
	}
	byEntry := map[string]ArchiveRecipeResult{}
	for _, r := range res.Recipes {
		byEntry[r.Entry] = r
	}
	if r := byEntry["../outside/recipe.json"]; r.Status != ArchiveFailed || r.Reason != archive.ErrUnsafePath.Error() {
		t.Errorf("unsafe entry: %+v", r)
	}
	if r := byEntry["Recipes/Broken/recipe.json"]; r.Status != ArchiveFailed || r.Reason == "" {
		t.Errorf("broken entry: %+v", r)
	}
	if r := byEntry["Recipes/Nameless/recipe.json"]; r.Status != ArchiveFailed || !strings.HasSuffix(r.Reason, "the recipe has no name") {
		t.Errorf("nameless entry: %+v", r)
	}
	if r := byEntry["Recipes/Test soup 2/recipe.json"]; r.Status != ArchiveCreated || r.Warning == "" {
		t.Errorf("recipe with a broken image: %+v", r)
	}
	if n := b.count(t, `SELECT count(*) FROM recipe WHERE owner_id = $1`, b.user.ID); n != 2 {
		t.Errorf("%d recipes, want 2", n)
	}
	// Nothing half-made: no ingredient or step without its recipe, no
	// image file without a recipe naming it.
	var keys []string
	_ = b.files.Walk(context.Background(), func(key string, _ int64) error { keys = append(keys, key); return nil })
	if n := b.count(t, `SELECT count(*) FROM recipe WHERE owner_id = $1 AND image_key IS NOT NULL`, b.user.ID); n != len(keys) {
		t.Errorf("%d stored files %q for %d recipes with images", len(keys), keys, n)
	}
}

// TestImportArchivePhotoLeftOut: a photo the archive holds for a recipe
// that cannot be read (here Paprika's photo_data that is not base64) costs
// the recipe its photo, not the recipe, and the result says why.
func TestImportArchivePhotoLeftOut(t *testing.T) {
	t.Parallel()
	b := importSetup(t, loopbackFetcher())
	recs := archivetest.Samples(2, true)
	files := unzip(t, archivetest.Paprika(recs))
	files[0].Data = archivetest.GzipJSON(map[string]any{"name": recs[0].Title, "ingredients": "1 egg", "directions": "Boil the egg.",
		"photo_data": "this is not base64!"})
	row, _ := b.runArchive(t, archivetest.Zip(files...), "")
	res := b.archiveResult(t, row)
	if res.Created != 2 || res.Failed != 0 {
		t.Fatalf("result %+v", res)
	}
	if w := res.Recipes[0].Warning; !strings.Contains(w, "not base64") {
		t.Errorf("warning of the recipe whose photo was left out: %q", w)
	}
	if w := res.Recipes[1].Warning; w != "" {
		t.Errorf("warning of the recipe with its photo: %q", w)
	}
	if n := b.count(t, `SELECT count(*) FROM recipe WHERE owner_id = $1 AND image_key IS NOT NULL`, b.user.ID); n != 1 {
		t.Errorf("%d recipes with an image, want 1", n)
	}
}

// TestImportArchiveThumbnailWarning: a Nextcloud Cookbook folder whose
// full.jpg is damaged in the zip gives its recipe the thumbnail, stored as
// its image, and the result tells the user the photo is the smaller one and
// why.
func TestImportArchiveThumbnailWarning(t *testing.T) {
	t.Parallel()
	b := importSetup(t, loopbackFetcher())
	recs := archivetest.Samples(1, false)
	full, thumb := archivetest.Photo(1, 640, 480), archivetest.Photo(2, 256, 192)
	dir := "Recipes/" + recs[0].Title + "/"
	data := archivetest.Zip(append(unzip(t, archivetest.Nextcloud(recs)),
		archivetest.File{Name: dir + "full.jpg", Data: full, Store: true},
		archivetest.File{Name: dir + "thumb.jpg", Data: thumb, Store: true})...)
	// A byte of the stored full.jpg changed: its checksum fails.
	data[bytes.Index(data, full)+len(full)/2] ^= 0xff
	row, _ := b.runArchive(t, data, "")
	res := b.archiveResult(t, row)
	if res.Created != 1 || len(res.Recipes) != 1 {
		t.Fatalf("result %+v", res)
	}
	w := res.Recipes[0].Warning
	if !strings.HasPrefix(w, `the full-size photo could not be read (the photo "`+dir+`full.jpg" cannot be read: `) ||
		!strings.HasSuffix(w, "); the thumbnail was used") {
		t.Errorf("warning %q", w)
	}
	if n := b.count(t, `SELECT count(*) FROM recipe WHERE owner_id = $1 AND image_key IS NOT NULL`, b.user.ID); n != 1 {
		t.Errorf("%d recipes with an image, want 1", n)
	}
}

func unzip(t *testing.T, b []byte) []archivetest.File {
	t.Helper()
	a, err := archivetest.Unzip(b)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestImportArchiveOtherUsersDuplicates: another user's copy of a recipe is
// not a duplicate.
func TestImportArchiveOtherUsersDuplicates(t *testing.T) {
	t.Parallel()
	db := repotest.DB(t)
	file := archivetest.Tandoor(archivetest.Samples(1, false))
	for range 2 {
		b := importSetupOn(t, db, loopbackFetcher())
		row, _ := b.runArchive(t, file, "")
		if res := b.archiveResult(t, row); res.Created != 1 {
			t.Fatalf("%+v", res)
		}
	}
}

// TestArchiveResultFixture decodes the web client's fixture
// (web/src/lib/archiveImport.fixture.json, which its unit tests read) into
// the job's own types, refusing unknown fields, and encodes it back: the
// client's idea of the result and progress is the server's.
func TestArchiveResultFixture(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("../web/src/lib/archiveImport.fixture.json")
	if err != nil {
		t.Fatal(err)
	}
	var fx map[string]struct {
		Kind   string          `json:"kind"`
		Detail json.RawMessage `json:"detail"`
		Result json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal(raw, &fx); err != nil {
		t.Fatal(err)
	}
	if len(fx) == 0 {
		t.Fatal("no jobs in the fixture")
	}
	for name, job := range fx {
		if job.Kind != (ImportArchiveArgs{}).Kind() {
			t.Errorf("%s: kind %q", name, job.Kind)
		}
		var p archiveProgress
		strictRoundTrip(t, name+" detail", job.Detail, &p)
		if string(job.Result) != "null" {
			var res ArchiveImportResult
			strictRoundTrip(t, name+" result", job.Result, &res)
		}
	}
}

func strictRoundTrip(t *testing.T, what string, raw json.RawMessage, v any) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	back, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var a, b any
	_ = json.Unmarshal(raw, &a)
	_ = json.Unmarshal(back, &b)
	if !reflect.DeepEqual(a, b) {
		t.Errorf("%s: the fixture is not what the server writes:\n fixture %s\n server  %s", what, raw, back)
	}
}
