package repo_test

import (
	"context"
	"errors"
	"maps"
	"slices"
	"testing"

	"github.com/google/uuid"

	"larder/repo"
	"larder/repo/repotest"
)

// Recipes and cookbooks keep their images by the same rules.
func TestImageLifecycle(t *testing.T) {
	t.Parallel()
	for _, owner := range []repo.ImageOwner{repo.RecipeImage, repo.CookbookImage} {
		t.Run(string(owner), func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			tx := repotest.Tx(t)
			u := repotest.CreateUser(t, tx, repo.RoleUser)
			var id uuid.UUID
			var variantsOf func() map[string]string
			var del func() (*repo.StoredImage, error)
			if owner == repo.RecipeImage {
				var err error
				if id, err = repo.CreateRecipe(ctx, tx, u.ID, repo.RecipeInput{Title: "Pie", Visibility: repo.VisibilityPrivate}); err != nil {
					t.Fatal(err)
				}
				variantsOf = func() map[string]string {
					r, err := repo.GetRecipe(ctx, tx, id, repo.Viewer{Admin: true})
					if err != nil {
						t.Fatal(err)
					}
					return r.ImageVariants
				}
				del = func() (*repo.StoredImage, error) { return repo.DeleteRecipe(ctx, tx, id) }
			} else {
				cb, err := repo.CreateCookbook(ctx, tx, u.ID, repo.CookbookInput{Name: "Pies"})
				if err != nil {
					t.Fatal(err)
				}
				id = cb.ID
				variantsOf = func() map[string]string {
					cb, err := repo.GetCookbook(ctx, tx, id)
					if err != nil {
						t.Fatal(err)
					}
					return cb.ImageVariants
				}
				del = func() (*repo.StoredImage, error) { return repo.DeleteCookbook(ctx, tx, id) }
			}

			first, second := "x/ab/first.jpg", "x/ab/second.jpg"
			if old, err := repo.SetImage(ctx, tx, owner, id, &first); err != nil || old != nil {
				t.Fatalf("first image: %v %v", old, err)
			}
			if key, err := repo.GetImageKey(ctx, tx, owner, id); err != nil || key == nil || *key != first {
				t.Fatalf("key %v %v", key, err)
			}
			v1 := map[string]string{"thumb": "x/ab/first_thumb.jpg", "medium": "x/ab/first_medium.jpg"}
			if replaced, ok, err := repo.SetImageVariants(ctx, tx, owner, id, first, v1); err != nil || !ok || len(replaced) != 0 {
				t.Fatalf("variants: %v %v %v", replaced, ok, err)
			}
			if got := variantsOf(); !maps.Equal(got, v1) {
				t.Fatalf("recorded %v", got)
			}
			// Recording again (a retried job) reports what it replaced.
			v2 := map[string]string{"thumb": "x/ab/first_thumb.jpg"}
			if replaced, ok, err := repo.SetImageVariants(ctx, tx, owner, id, first, v2); err != nil || !ok ||
				!slices.Equal(replaced, []string{"x/ab/first_medium.jpg"}) {
				t.Fatalf("second record: %v %v %v", replaced, ok, err)
			}

			// A replacement returns the old image with its renditions and
			// empties them; renditions of the old key are then refused.
			old, err := repo.SetImage(ctx, tx, owner, id, &second)
			if err != nil || old == nil || old.Key != first || !maps.Equal(old.Variants, v2) {
				t.Fatalf("replaced: %+v %v", old, err)
			}
			if got := variantsOf(); len(got) != 0 {
				t.Fatalf("variants after the replacement %v", got)
			}
			if _, ok, err := repo.SetImageVariants(ctx, tx, owner, id, first, v1); err != nil || ok {
				t.Fatalf("renditions of a replaced image: %v %v", ok, err)
			}

			v3 := map[string]string{"thumb": "x/ab/second_thumb.jpg"}
			if _, ok, err := repo.SetImageVariants(ctx, tx, owner, id, second, v3); err != nil || !ok {
				t.Fatalf("variants: %v %v", ok, err)
			}
			img, err := del()
			if err != nil || img == nil || img.Key != second || !maps.Equal(img.Variants, v3) {
				t.Fatalf("delete: %+v %v", img, err)
			}
			if _, err := repo.GetImageKey(ctx, tx, owner, id); !errors.Is(err, repo.ErrNotFound) {
				t.Fatalf("key of a deleted row: %v", err)
			}
			if _, err := repo.SetImage(ctx, tx, owner, id, &first); !errors.Is(err, repo.ErrNotFound) {
				t.Fatalf("image of a deleted row: %v", err)
			}
			if _, ok, err := repo.SetImageVariants(ctx, tx, owner, id, second, v3); err != nil || ok {
				t.Fatalf("renditions of a deleted row: %v %v", ok, err)
			}
		})
	}
}

// Only the kinds of rows with an image reach SQL.
func TestImageOwnerRefusesOtherTables(t *testing.T) {
	t.Parallel()
	tx := repotest.Tx(t)
	ctx := context.Background()
	owner := repo.ImageOwner("app_user")
	if owner.Valid() || !repo.RecipeImage.Valid() || !repo.CookbookImage.Valid() {
		t.Fatal("Valid")
	}
	key := "x/ab/k.jpg"
	if _, err := repo.SetImage(ctx, tx, owner, uuid.New(), &key); err == nil {
		t.Fatal("SetImage accepted another table")
	}
	if _, err := repo.GetImageKey(ctx, tx, owner, uuid.New()); err == nil {
		t.Fatal("GetImageKey accepted another table")
	}
	if _, _, err := repo.SetImageVariants(ctx, tx, owner, uuid.New(), key, nil); err == nil {
		t.Fatal("SetImageVariants accepted another table")
	}
}
