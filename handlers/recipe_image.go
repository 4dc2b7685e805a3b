package handlers

import (
	"errors"

	"github.com/gofiber/fiber/v2"
	"github.com/jackc/pgx/v5"

	"larder/filestore"
	"larder/imageproc"
	"larder/jobs"
	"larder/repo"
)

// uploadRecipeImage answers POST /api/recipes/:id/image (owner only) with
// the recipe. The multipart field "image" is checked by its bytes (JPEG,
// PNG, GIF or WEBP; 415 otherwise, 413 over 20 MB or for a decompression
// bomb), re-encoded without metadata and stored under a new random key.
// The recipe then names it, in the transaction that also enqueues the job
// making its smaller renditions; only after that has committed are the
// replaced files deleted. Any failure before leaves the previous image and
// imageUrl as they were, and deletes the new file.
func (s *Server) uploadRecipeImage(c *fiber.Ctx) error {
	rec, err := s.ownedRecipe(c, false)
	if err != nil {
		return err
	}
	enc, err := processImageUpload(c, "image")
	if err != nil {
		return err
	}
	ctx, me := c.UserContext(), caller(c)
	key, err := s.storeImage(ctx, jobs.RecipeImagePrefix, enc)
	if err != nil {
		return err
	}
	var old *repo.StoredImage
	err = pgx.BeginFunc(ctx, s.DB, func(tx pgx.Tx) error {
		var err error
		if old, err = repo.SetRecipeImage(ctx, tx, rec.ID, &key); err != nil {
			return err
		}
		_, err = s.Queue.Enqueue(ctx, tx, &me.ID, jobs.ProcessImageArgs{RecipeID: rec.ID, ImageKey: key})
		return err
	})
	if err != nil {
		s.deleteStoredFiles(ctx, []string{key})
		if errors.Is(err, repo.ErrNotFound) {
			return errNotFound("recipe") // deleted while the image was processed
		}
		return err
	}
	s.deleteStoredFiles(ctx, recipeImageFiles(old))
	rec, err = repo.GetRecipe(ctx, s.DB, rec.ID, viewer(c))
	if err != nil {
		return err
	}
	return c.JSON(recipeView(rec))
}

// deleteRecipeImage answers DELETE /api/recipes/:id/image, and the same
// path without /api as the specification prints it (owner only): the
// stored files are deleted and imageUrl becomes null. 204, also when there
// was no image.
func (s *Server) deleteRecipeImage(c *fiber.Ctx) error {
	rec, err := s.ownedRecipe(c, false)
	if err != nil {
		return err
	}
	old, err := repo.SetRecipeImage(c.UserContext(), s.DB, rec.ID, nil)
	if errors.Is(err, repo.ErrNotFound) {
		return errNotFound("recipe")
	}
	if err != nil {
		return err
	}
	s.deleteStoredFiles(c.UserContext(), recipeImageFiles(old))
	return c.SendStatus(fiber.StatusNoContent)
}

// recipeImageFiles lists every file of a stored image: the image, the
// renditions recorded for it, and the renditions its key implies, which an
// image job still running when the image was replaced may have written
// without recording them.
func recipeImageFiles(img *repo.StoredImage) []string {
	if img == nil {
		return nil
	}
	seen := map[string]bool{img.Key: true}
	keys := []string{img.Key}
	add := func(k string) {
		if !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
	}
	for _, k := range img.Variants {
		add(k)
	}
	for _, size := range imageproc.Sizes() {
		if k, err := filestore.VariantKey(img.Key, size.Name); err == nil {
			add(k)
		}
	}
	return keys
}
