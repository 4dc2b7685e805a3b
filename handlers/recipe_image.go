package handlers

import (
	"errors"

	"github.com/gofiber/fiber/v2"

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
	err = s.uploadImage(c, repo.RecipeImage, rec.ID, jobs.RecipeImagePrefix)
	if errors.Is(err, repo.ErrNotFound) {
		return errNotFound("recipe") // deleted while the image was processed
	}
	if err != nil {
		return err
	}
	rec, err = repo.GetRecipe(c.UserContext(), s.DB, rec.ID, viewer(c))
	if err != nil {
		return err
	}
	return c.JSON(s.recipeView(rec))
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
	err = s.removeImage(c.UserContext(), repo.RecipeImage, rec.ID)
	if errors.Is(err, repo.ErrNotFound) {
		return errNotFound("recipe")
	}
	if err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}
