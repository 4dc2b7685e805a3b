package jobs

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"io"
	"log/slog"
	"slices"
	"testing"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivertest"
	"github.com/riverqueue/river/rivertype"

	"larder/config"
	"larder/filestore"
	"larder/imageproc"
	"larder/repo"
	"larder/repo/repotest"
)

type imageJobBundle struct {
	db    *pgxpool.Pool
	files filestore.Local
	q     *Queue
	tw    *rivertest.Worker[ProcessImageArgs, pgx.Tx]
	owner repo.User
}

func imageJobSetup(t *testing.T) *imageJobBundle {
	t.Helper()
	db := repotest.DB(t)
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	cfg, err := config.Load(func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	files := filestore.Local{Root: t.TempDir()}
	deps := &Deps{DB: db, Logger: logger, Config: cfg, Files: files}
	q, err := NewQueue(db, logger)
	if err != nil {
		t.Fatal(err)
	}
	tw := rivertest.NewWorker(t, riverpgxv5.New(db), &river.Config{Logger: logger},
		river.Worker[ProcessImageArgs](&ProcessImageWorker{deps: deps}))
	return &imageJobBundle{db: db, files: files, q: q, tw: tw, owner: repotest.CreateUser(t, db, repo.RoleUser)}
}

// recipeWithImage creates a recipe whose image is a stored w×h encoding.
func (b *imageJobBundle) recipeWithImage(t *testing.T, w, h int, alpha bool) (uuid.UUID, string) {
	t.Helper()
	ctx := context.Background()
	id, err := repo.CreateRecipe(ctx, b.db, b.owner.ID, repo.RecipeInput{Title: "Pie", Visibility: repo.VisibilityPublic})
	if err != nil {
		t.Fatal(err)
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
	key := filestore.NewKey(RecipeImagePrefix, enc.Ext())
	if err := b.files.Put(ctx, key, bytes.NewReader(enc.Data)); err != nil {
		t.Fatal(err)
	}
	if _, err := repo.SetRecipeImage(ctx, b.db, id, &key); err != nil {
		t.Fatal(err)
	}
	return id, key
}

// work enqueues the job the way the upload handler does and works it.
func (b *imageJobBundle) work(t *testing.T, args ProcessImageArgs) (*rivertest.WorkResult, map[string]any) {
	t.Helper()
	ctx := context.Background()
	var row *rivertype.JobRow
	err := pgx.BeginFunc(ctx, b.db, func(tx pgx.Tx) error {
		id, err := b.q.Enqueue(ctx, tx, &b.owner.ID, args)
		if err != nil {
			return err
		}
		var riverID int64
		if err := tx.QueryRow(ctx, `SELECT river_job_id FROM app_job WHERE id = $1`, id).Scan(&riverID); err != nil {
			return err
		}
		row, err = b.q.client.JobGetTx(ctx, tx, riverID)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if row.Queue != config.QueueImages || row.Kind != "image_process" {
		t.Fatalf("job on %s as %s", row.Queue, row.Kind)
	}
	var res *rivertest.WorkResult
	err = pgx.BeginFunc(ctx, b.db, func(tx pgx.Tx) error {
		var err error
		res, err = b.tw.WorkJob(ctx, t, tx, row)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	var raw []byte
	if err := b.db.QueryRow(ctx, `SELECT result FROM app_job WHERE river_job_id = $1`, row.ID).Scan(&raw); err != nil {
		t.Fatal(err)
	}
	var result map[string]any
	_ = json.Unmarshal(raw, &result)
	return res, result
}

func (b *imageJobBundle) keys(t *testing.T) []string {
	t.Helper()
	var keys []string
	if err := b.files.Walk(context.Background(), func(k string, _ int64) error { keys = append(keys, k); return nil }); err != nil {
		t.Fatal(err)
	}
	slices.Sort(keys)
	return keys
}

func TestProcessImageMakesVariants(t *testing.T) {
	t.Parallel()
	b := imageJobSetup(t)
	ctx := context.Background()
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
		id, key := b.recipeWithImage(t, tt.w, tt.h, tt.alpha)
		res, result := b.work(t, ProcessImageArgs{RecipeID: id, ImageKey: key})
		if res.EventKind != river.EventKindJobCompleted || result["skipped"] != nil {
			t.Fatalf("%s: %s %v", tt.name, res.EventKind, result)
		}
		rec, err := repo.GetRecipe(ctx, b.db, id, repo.Viewer{Admin: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(rec.ImageVariants) != len(tt.want) {
			t.Fatalf("%s: variants %v", tt.name, rec.ImageVariants)
		}
		for name, size := range tt.want {
			vk := rec.ImageVariants[name]
			if want, _ := filestore.VariantKey(key, name); vk != want {
				t.Fatalf("%s: %s key %q, want %q", tt.name, name, vk, want)
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
			if err != nil || cfg.Width != size[0] || cfg.Height != size[1] || format != wantFormat {
				t.Fatalf("%s: %s is %s %dx%d (%v)", tt.name, name, format, cfg.Width, cfg.Height, err)
			}
		}
		// Working it again (a retry) overwrites the same files.
		before := b.keys(t)
		b.work(t, ProcessImageArgs{RecipeID: id, ImageKey: key})
		if after := b.keys(t); !slices.Equal(before, after) {
			t.Fatalf("%s: a second run left %v, before %v", tt.name, after, before)
		}
	}
}

// A job for an image that has since been replaced or removed does nothing
// and leaves no file behind.
func TestProcessImageSkipsReplacedImage(t *testing.T) {
	t.Parallel()
	b := imageJobSetup(t)
	ctx := context.Background()
	id, oldKey := b.recipeWithImage(t, 400, 300, false)
	_, newKey := b.recipeWithImage(t, 400, 300, false) // another recipe's
	if _, err := repo.SetRecipeImage(ctx, b.db, id, &newKey); err != nil {
		t.Fatal(err)
	}
	before := b.keys(t)
	res, result := b.work(t, ProcessImageArgs{RecipeID: id, ImageKey: oldKey})
	if res.EventKind != river.EventKindJobCompleted || result["skipped"] == nil {
		t.Fatalf("%s %v", res.EventKind, result)
	}
	if after := b.keys(t); !slices.Equal(before, after) {
		t.Fatalf("files %v, before %v", after, before)
	}
	rec, err := repo.GetRecipe(ctx, b.db, id, repo.Viewer{Admin: true})
	if err != nil || len(rec.ImageVariants) != 0 {
		t.Fatalf("variants %v %v", rec.ImageVariants, err)
	}
	// A deleted recipe: the same.
	if _, err := repo.DeleteRecipe(ctx, b.db, id); err != nil {
		t.Fatal(err)
	}
	if res, result := b.work(t, ProcessImageArgs{RecipeID: id, ImageKey: newKey}); res.EventKind != river.EventKindJobCompleted || result["skipped"] == nil {
		t.Fatalf("deleted recipe: %s %v", res.EventKind, result)
	}
}

// A stored file that cannot be read is a failure a person can see, not a
// retry loop.
func TestProcessImageMissingFileFails(t *testing.T) {
	t.Parallel()
	b := imageJobSetup(t)
	ctx := context.Background()
	id, key := b.recipeWithImage(t, 100, 100, false)
	if err := b.files.Delete(ctx, key); err != nil {
		t.Fatal(err)
	}
	res, _ := b.work(t, ProcessImageArgs{RecipeID: id, ImageKey: key})
	var code string
	if err := b.db.QueryRow(ctx, `SELECT error_code FROM app_job WHERE river_job_id = $1`, res.Job.ID).Scan(&code); err != nil || code != "missing_file" {
		t.Fatalf("%s: error code %q %v", res.EventKind, code, err)
	}
	if res.EventKind != river.EventKindJobCancelled {
		t.Fatalf("event %s", res.EventKind)
	}
}
