package jobs

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/google/uuid"

	"larder/imageproc"
	"larder/repo"
)

// TestImageStoreReplace checks the one routine every image replacement
// goes through (uploads, downloads, imports): the row names the new file
// and its renditions job is queued, the replaced files go, and whatever
// does not replace the image (a row that keeps its own, a deleted row)
// leaves the row and the store as they were.
func TestImageStoreReplace(t *testing.T) {
	t.Parallel()
	b := imageJobSetup(t)
	ctx := context.Background()
	store := b.deps.images(b.q)
	enc, err := imageproc.Process(bytes.NewReader(testPNG(t, 30, 20)), imageproc.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	imageKey := func(target repo.ImageOwner, id uuid.UUID) string {
		t.Helper()
		k, err := repo.GetImageKey(ctx, b.db, target, id)
		if err != nil || k == nil {
			t.Fatalf("image key: %v %v", k, err)
		}
		return *k
	}
	for _, target := range imageTargets {
		id, old := b.withImage(t, target, 40, 30, false)

		// An imported image gives way to the row's own.
		key, err := store.Replace(ctx, NewImage{Owner: target, ID: id, Prefix: "kept", KeepExisting: true}, enc)
		if err != nil || key != "" || imageKey(target, id) != old || !slices.Equal(b.storedKeys(t), []string{old}) {
			t.Fatalf("%s keep existing: %q %v, files %v", target, key, err, b.storedKeys(t))
		}

		// A replacement: the new file is named and queued, the old one gone.
		key, err = store.Replace(ctx, NewImage{Owner: target, ID: id, Prefix: "new", Requester: &b.owner.ID}, enc)
		if err != nil || key == "" || imageKey(target, id) != key || !slices.Equal(b.storedKeys(t), []string{key}) {
			t.Fatalf("%s replace: %q %v, files %v", target, key, err, b.storedKeys(t))
		}
		var queued int
		if err := b.db.QueryRow(ctx, `SELECT count(*) FROM river_job WHERE kind = 'image_process' AND args->>'imageKey' = $1`, key).
			Scan(&queued); err != nil || queued != 1 {
			t.Fatalf("%s renditions jobs for %s: %d %v", target, key, queued, err)
		}

		// A deleted row: nothing changes, the new file is not kept.
		for _, keep := range []bool{false, true} {
			got, err := store.Replace(ctx, NewImage{Owner: target, ID: uuid.New(), Prefix: "gone", KeepExisting: keep}, enc)
			if got != "" || (keep && err != nil) || (!keep && !errors.Is(err, repo.ErrNotFound)) || !slices.Equal(b.storedKeys(t), []string{key}) {
				t.Fatalf("%s deleted row (keep %v): %q %v, files %v", target, keep, got, err, b.storedKeys(t))
			}
		}

		// Removing the image removes its files.
		if err := store.Remove(ctx, target, id); err != nil || len(b.storedKeys(t)) != 0 {
			t.Fatalf("%s remove: %v, files %v", target, err, b.storedKeys(t))
		}
		if k, err := repo.GetImageKey(ctx, b.db, target, id); err != nil || k != nil {
			t.Fatalf("%s after remove: %v %v", target, k, err)
		}
	}
}
