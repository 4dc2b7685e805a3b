package jobs

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"slices"
	"testing"

	"github.com/google/uuid"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertest"

	"larder/config"
	"larder/filestore"
	"larder/imageproc"
	"larder/repo"
)

// imageJobBundle is the job environment of the renditions job.
type imageJobBundle struct {
	*jobEnv
	owner repo.User
}

func imageJobSetup(t *testing.T) *imageJobBundle {
	t.Helper()
	e := newJobEnv(t)
	return &imageJobBundle{jobEnv: e, owner: e.user}
}

// withImage creates a recipe or a cookbook whose image is a stored w×h
// encoding.
func (b *imageJobBundle) withImage(t *testing.T, target repo.ImageOwner, w, h int, alpha bool) (uuid.UUID, string) {
	t.Helper()
	ctx := context.Background()
	var id uuid.UUID
	prefix := RecipeImagePrefix
	if target == repo.CookbookImage {
		cb, err := repo.CreateCookbook(ctx, b.db, b.owner.ID, repo.CookbookInput{Name: "Pies"})
		if err != nil {
			t.Fatal(err)
		}
		id, prefix = cb.ID, CookbookImagePrefix
	} else {
		var err error
		if id, err = repo.CreateRecipe(ctx, b.db, b.owner.ID, repo.RecipeInput{Title: "Pie", Visibility: repo.VisibilityPublic}); err != nil {
			t.Fatal(err)
		}
	}
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			a := uint8(255)
			if alpha && y < h/2 {
				a = 100
			}
			img.SetNRGBA(x, y, color.NRGBA{uint8(x), uint8(y), 90, a})
		}
	}
	var raw bytes.Buffer
	if err := png.Encode(&raw, img); err != nil {
		t.Fatal(err)
	}
	enc, err := imageproc.Process(&raw, imageproc.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	key := filestore.NewKey(prefix, enc.Ext())
	if err := b.files.Put(ctx, key, bytes.NewReader(enc.Data)); err != nil {
		t.Fatal(err)
	}
	if _, err := repo.SetImage(ctx, b.db, target, id, &key); err != nil {
		t.Fatal(err)
	}
	return id, key
}

// variants are the renditions recorded on the row.
func (b *imageJobBundle) variants(t *testing.T, target repo.ImageOwner, id uuid.UUID) map[string]string {
	t.Helper()
	if target == repo.CookbookImage {
		cb, err := repo.GetCookbook(context.Background(), b.db, id)
		if err != nil {
			t.Fatal(err)
		}
		return cb.ImageVariants
	}
	rec, err := repo.GetRecipe(context.Background(), b.db, id, repo.Viewer{Admin: true})
	if err != nil {
		t.Fatal(err)
	}
	return rec.ImageVariants
}

var imageTargets = []repo.ImageOwner{repo.RecipeImage, repo.CookbookImage}

// work enqueues the job the way the upload handler does and works it.
func (b *imageJobBundle) work(t *testing.T, args river.JobArgs) (*rivertest.WorkResult, map[string]any) {
	t.Helper()
	row := b.enqueue(t, args, nil)
	if row.Queue != config.QueueImages || row.Kind != "image_process" {
		t.Fatalf("job on %s as %s", row.Queue, row.Kind)
	}
	res := workJob[ProcessImageArgs](t, b.db, &ProcessImageWorker{deps: b.deps}, row)
	var result map[string]any
	_ = json.Unmarshal(b.outcome(t, row.ID).Result, &result)
	return res, result
}

func TestProcessImageMakesVariants(t *testing.T) {
	t.Parallel()
	b := imageJobSetup(t)
	ctx := context.Background()
	for _, target := range imageTargets {
		for _, tt := range []struct {
			name  string
			w, h  int
			alpha bool
			want  map[string][2]int
		}{
			{"large photo", 1200, 900, false, map[string][2]int{"thumb": {320, 240}, "medium": {800, 600}}},
			// Never upscaled; transparency keeps PNG.
			{"small with alpha", 500, 100, true, map[string][2]int{"thumb": {320, 64}, "medium": {500, 100}}},
		} {
			name := string(target) + ": " + tt.name
			id, key := b.withImage(t, target, tt.w, tt.h, tt.alpha)
			res, result := b.work(t, ProcessImageArgs{Target: target, ID: id, ImageKey: key})
			if res.EventKind != river.EventKindJobCompleted || result["skipped"] != nil || result[string(target)+"Id"] != id.String() {
				t.Fatalf("%s: %s %v", name, res.EventKind, result)
			}
			variants := b.variants(t, target, id)
			if len(variants) != len(tt.want) {
				t.Fatalf("%s: variants %v", name, variants)
			}
			for size, dims := range tt.want {
				vk := variants[size]
				if want, _ := filestore.VariantKey(key, size); vk != want {
					t.Fatalf("%s: %s key %q, want %q", name, size, vk, want)
				}
				f, err := b.files.Open(ctx, vk)
				if err != nil {
					t.Fatal(err)
				}
				cfg, format, err := image.DecodeConfig(f)
				f.Close()
				wantFormat := "jpeg"
				if tt.alpha {
					wantFormat = "png"
				}
				if err != nil || cfg.Width != dims[0] || cfg.Height != dims[1] || format != wantFormat {
					t.Fatalf("%s: %s is %s %dx%d (%v)", name, size, format, cfg.Width, cfg.Height, err)
				}
			}
			// Working it again (a retry) overwrites the same files.
			before := b.storedKeys(t)
			b.work(t, ProcessImageArgs{Target: target, ID: id, ImageKey: key})
			if after := b.storedKeys(t); !slices.Equal(before, after) {
				t.Fatalf("%s: a second run left %v, before %v", name, after, before)
			}
		}
	}
}

// A job for an image that has since been replaced or removed does nothing
// and leaves no file behind.
func TestProcessImageSkipsReplacedImage(t *testing.T) {
	t.Parallel()
	b := imageJobSetup(t)
	ctx := context.Background()
	for _, target := range imageTargets {
		id, oldKey := b.withImage(t, target, 400, 300, false)
		_, newKey := b.withImage(t, target, 400, 300, false) // another row's
		if _, err := repo.SetImage(ctx, b.db, target, id, &newKey); err != nil {
			t.Fatal(err)
		}
		before := b.storedKeys(t)
		res, result := b.work(t, ProcessImageArgs{Target: target, ID: id, ImageKey: oldKey})
		if res.EventKind != river.EventKindJobCompleted || result["skipped"] == nil {
			t.Fatalf("%s: %s %v", target, res.EventKind, result)
		}
		if after := b.storedKeys(t); !slices.Equal(before, after) {
			t.Fatalf("%s: files %v, before %v", target, after, before)
		}
		if variants := b.variants(t, target, id); len(variants) != 0 {
			t.Fatalf("%s: variants %v", target, variants)
		}
		// A deleted row: the same.
		var err error
		if target == repo.CookbookImage {
			_, err = repo.DeleteCookbook(ctx, b.db, id)
		} else {
			_, err = repo.DeleteRecipe(ctx, b.db, id)
		}
		if err != nil {
			t.Fatal(err)
		}
		if res, result := b.work(t, ProcessImageArgs{Target: target, ID: id, ImageKey: newKey}); res.EventKind != river.EventKindJobCompleted || result["skipped"] == nil {
			t.Fatalf("deleted %s: %s %v", target, res.EventKind, result)
		}
		if after := b.storedKeys(t); !slices.Equal(before, after) {
			t.Fatalf("deleted %s: files %v, before %v", target, after, before)
		}
	}
}

// A stored file that cannot be read is a failure a person can see, not a
// retry loop.
func TestProcessImageMissingFileFails(t *testing.T) {
	t.Parallel()
	b := imageJobSetup(t)
	ctx := context.Background()
	for _, target := range imageTargets {
		id, key := b.withImage(t, target, 100, 100, false)
		if err := b.files.Delete(ctx, key); err != nil {
			t.Fatal(err)
		}
		res, _ := b.work(t, ProcessImageArgs{Target: target, ID: id, ImageKey: key})
		if code := derefOr(b.outcome(t, res.Job.ID).Code); code != "missing_file" {
			t.Fatalf("%s: %s: error code %q", target, res.EventKind, code)
		}
		if res.EventKind != river.EventKindJobCancelled {
			t.Fatalf("%s: event %s", target, res.EventKind)
		}
	}
}

// A job queued by the version before cookbooks had renditions names its
// recipe as recipeId; it is still worked.
func TestProcessImageLegacyArgs(t *testing.T) {
	t.Parallel()
	b := imageJobSetup(t)
	id, key := b.withImage(t, repo.RecipeImage, 400, 300, false)
	legacy := legacyProcessImageArgs{RecipeID: id, ImageKey: key}
	raw, _ := json.Marshal(legacy)
	var args ProcessImageArgs
	if err := json.Unmarshal(raw, &args); err != nil || args != (ProcessImageArgs{Target: repo.RecipeImage, ID: id, ImageKey: key}) {
		t.Fatalf("decoded %s as %+v %v", raw, args, err)
	}
	// Through River, as the worker gets it.
	res, result := b.work(t, legacy)
	if res.EventKind != river.EventKindJobCompleted || result["recipeId"] != id.String() || len(b.variants(t, repo.RecipeImage, id)) != 2 {
		t.Fatalf("%s %v", res.EventKind, result)
	}
	// The current shape round-trips.
	current := ProcessImageArgs{Target: repo.CookbookImage, ID: uuid.New(), ImageKey: "cookbooks/ab/abcd.jpg"}
	raw, _ = json.Marshal(current)
	if err := json.Unmarshal(raw, &args); err != nil || args != current {
		t.Fatalf("round trip %s: %+v %v", raw, args, err)
	}
	// A target that is no kind of row with an image ends the job.
	res, _ = b.work(t, ProcessImageArgs{Target: "app_user", ID: id, ImageKey: key})
	if code := derefOr(b.outcome(t, res.Job.ID).Code); code != "bad_target" || res.EventKind != river.EventKindJobCancelled {
		t.Fatalf("%s: error code %q", res.EventKind, code)
	}
}

// legacyProcessImageArgs are the arguments of image_process before it
// served cookbooks.
type legacyProcessImageArgs struct {
	RecipeID uuid.UUID `json:"recipeId"`
	ImageKey string    `json:"imageKey"`
}

func (legacyProcessImageArgs) Kind() string { return "image_process" }

func (legacyProcessImageArgs) InsertOpts() river.InsertOpts { return queueOpts(config.QueueImages, 5) }
