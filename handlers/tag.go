package handlers

import (
	"context"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"

	"larder/repo"
)

// Tag is a tag with the number of recipes carrying it that the caller may read.
type Tag struct {
	Name  string `json:"name"`
	Count int64  `json:"count"`
}

// TagPage is a page of GET /api/tags or GET /api/categories.
type TagPage struct {
	Items      []Tag   `json:"items"`
	NextCursor *string `json:"nextCursor"`
	Total      int64   `json:"total"`
}

// listTags answers GET /api/tags: the tags of the recipes the caller may
// read, by name, each with how many of those recipes carry it; q keeps the
// names that start with it (for completion). Tags are created by using
// them on a recipe.
func (s *Server) listTags(c *fiber.Ctx) error { return s.listLabels(c, "tags", repo.ListTags) }

// listCategories answers GET /api/categories as listTags answers for tags:
// the recipe list's category menu.
func (s *Server) listCategories(c *fiber.Ctx) error {
	return s.listLabels(c, "categories", repo.ListCategories)
}

// labelLister is repo.ListTags or repo.ListCategories.
type labelLister func(ctx context.Context, db repo.DBTX, v repo.Viewer, prefix string, limit int, after string) ([]repo.TagCount, *string, int64, error)

// labelPage is one answer of a labelLister, as the list cache keeps it.
type labelPage struct {
	items []repo.TagCount
	next  *string
	total int64
}

// listLabels answers a page of names with counts from list, for the caller.
// Every recipe list loads its menus, and counting them visits every
// readable recipe: pages are kept in the list cache, which every change of
// a recipe, a tag or a share empties (ListCache).
func (s *Server) listLabels(c *fiber.Ctx, kind string, list labelLister) error {
	fe := fieldErrors{}
	// The position is the last name of the previous page.
	var after string
	limit, _ := listQuery(c, fe, &after, "q")
	prefix := strings.TrimSpace(c.Query("q"))
	if len(prefix) > recipeLabelMax {
		fe.add("q", "must be at most %d characters", recipeLabelMax)
	}
	if err := fe.err(); err != nil {
		return err
	}
	v := viewer(c)
	// The page depends on what the caller may read: the keys of its parts,
	// as one field ahead of the caller's own strings (which may hold any
	// byte), so no query can name another caller's page.
	var who []string
	for _, p := range v.ReadParts() {
		who = append(who, p.Key)
	}
	key := strings.Join([]string{"labels", kind, strings.Join(who, "+"), prefix, strconv.Itoa(limit), after}, "\x00")
	page, err := cached(s.ListCache, key, func() (labelPage, error) {
		items, next, total, err := list(c.UserContext(), s.DB, v, prefix, limit, after)
		return labelPage{items, next, total}, err
	})
	if err != nil {
		return err
	}
	items, next, total := page.items, page.next, page.total
	out := TagPage{Items: make([]Tag, len(items)), Total: total}
	for i, t := range items {
		out.Items[i] = Tag{Name: t.Name, Count: t.Count}
	}
	if next != nil {
		out.NextCursor = encodeCursor(*next)
	}
	return c.JSON(out)
}
