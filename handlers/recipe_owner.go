package handlers

import (
	"github.com/gofiber/fiber/v2"

	"larder/repo"
)

// RecipeRead is the answer of GET /api/recipes/:id: the recipe, and for a
// reader other than its owner, the owner's display name, so a shared recipe
// can say who shared it. The owner's email is never shown to readers.
type RecipeRead struct {
	Recipe
	OwnerName *string `json:"ownerName,omitempty"`
}

// recipeRead adds the owner's name to rec when the caller is someone else.
func (s *Server) recipeRead(c *fiber.Ctx, rec repo.Recipe) (RecipeRead, error) {
	out := RecipeRead{Recipe: s.recipeView(rec)}
	if me := caller(c); me != nil && me.ID == rec.OwnerID {
		return out, nil
	}
	u, err := repo.GetUser(c.UserContext(), s.DB, rec.OwnerID)
	if err != nil {
		return out, err
	}
	out.OwnerName = &u.Name
	return out, nil
}
