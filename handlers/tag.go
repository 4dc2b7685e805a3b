package handlers

import (
	"strings"

	"github.com/gofiber/fiber/v2"

	"larder/repo"
)

// Tag is a tag with the number of recipes carrying it that the caller may read.
type Tag struct {
	Name  string `json:"name"`
	Count int64  `json:"count"`
}

// TagPage is a page of GET /api/tags.
type TagPage struct {
	Items      []Tag   `json:"items"`
	NextCursor *string `json:"nextCursor"`
	Total      int64   `json:"total"`
}

// listTags answers GET /api/tags: the tags of the recipes the caller may
// read, by name, each with how many of those recipes carry it; q keeps the
// names that start with it (for completion). Tags are created by using
// them on a recipe.
func (s *Server) listTags(c *fiber.Ctx) error {
	fe := fieldErrors{}
	// The position is the last tag's name.
	var after string
	limit, _ := listQuery(c, fe, &after, "q")
	prefix := strings.TrimSpace(c.Query("q"))
	if len(prefix) > recipeLabelMax {
		fe.add("q", "must be at most %d characters", recipeLabelMax)
	}
	if err := fe.err(); err != nil {
		return err
	}
	items, next, total, err := repo.ListTags(c.UserContext(), s.DB, viewer(c), prefix, limit, after)
	if err != nil {
		return err
	}
	out := TagPage{Items: make([]Tag, len(items)), Total: total}
	for i, t := range items {
		out.Items[i] = Tag{Name: t.Name, Count: t.Count}
	}
	if next != nil {
		out.NextCursor = encodeCursor(*next)
	}
	return c.JSON(out)
}
