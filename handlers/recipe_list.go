package handlers

import (
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"

	"larder/repo"
)

// recipeQueryMax bounds the length of a search.
const recipeQueryMax = 200

// RecipePage is a page of GET /api/recipes in the list shape of docs/api.md.
type RecipePage struct {
	Items      []RecipeSummary `json:"items"`
	NextCursor *string         `json:"nextCursor"`
	Total      int64           `json:"total"`
}

// recipeCursor is the opaque cursor of GET /api/recipes: the sort key of
// the last recipe of a page, and whether it belongs to a search, whose order
// differs (a search cursor given without q, or the other way round, is
// refused rather than silently starting somewhere odd).
type recipeCursor struct {
	Search    bool      `json:"s,omitempty"`
	Tier      int       `json:"r,omitempty"`
	CreatedAt time.Time `json:"t"`
	ID        uuid.UUID `json:"i"`
}

func encodeRecipeCursor(c *repo.RecipeCursor, search bool) *string {
	if c == nil {
		return nil
	}
	return encodeCursor(recipeCursor{Search: search, Tier: c.Tier, CreatedAt: c.CreatedAt, ID: c.ID})
}

// listRecipes answers GET /api/recipes: the recipes the caller may read,
// newest first, or the best matches first for q; filters category, tag,
// visibility and owner (me, or a user id).
func (s *Server) listRecipes(c *fiber.Ctx) error {
	fe := fieldErrors{}
	var cursor recipeCursor
	limit, hasCursor := listQuery(c, fe, &cursor, "q", "category", "tag", "visibility", "owner")
	if hasCursor && (cursor.ID == uuid.Nil || cursor.CreatedAt.IsZero()) {
		badCursor(fe)
		hasCursor = false
	}
	var f repo.RecipeFilter
	f.Category = strings.TrimSpace(c.Query("category"))
	f.Tag = strings.TrimSpace(c.Query("tag"))
	if v := c.Query("visibility"); v != "" {
		switch v {
		case repo.VisibilityPrivate, repo.VisibilityShared, repo.VisibilityPublic:
			f.Visibility = v
		default:
			fe.add("visibility", "must be PRIVATE, SHARED or PUBLIC")
		}
	}
	switch o := c.Query("owner"); {
	case o == "":
	case o == "me":
		me := caller(c)
		if me == nil {
			return errUnauthenticated("owner=me needs a signed-in user: send an access token")
		}
		f.OwnerID = &me.ID
	default:
		id, err := uuid.Parse(o)
		if err != nil {
			fe.add("owner", "must be me or a user id")
		} else {
			f.OwnerID = &id
		}
	}
	q := strings.TrimSpace(c.Query("q"))
	if utf8.RuneCountInString(q) > recipeQueryMax {
		fe.add("q", "must be at most %d characters", recipeQueryMax)
	}
	var after *repo.RecipeCursor
	if err := fe.err(); err != nil {
		return err
	}

	ctx := c.UserContext()
	if q != "" {
		tq, err := s.ListCache.searchQuery(ctx, s.DB, q)
		if err != nil {
			return err
		}
		f.Search = tq
	}
	if hasCursor {
		if cursor.Search != (f.Search != nil) {
			fe.add("cursor", "belongs to a different query; start again without it")
			return fe.err()
		}
		after = &repo.RecipeCursor{Tier: cursor.Tier, CreatedAt: cursor.CreatedAt, ID: cursor.ID}
	}
	v := viewer(c)
	// The total first: it tells a search how to find its matches.
	total, err := s.countRecipes(ctx, v, f)
	if err != nil {
		return err
	}
	var page repo.RecipePage
	if total > 0 {
		f.Matches = total
		if page, err = repo.ListRecipes(ctx, s.DB, v, f, limit, after); err != nil {
			return err
		}
	}
	out := RecipePage{Items: make([]RecipeSummary, len(page.Items)), Total: total,
		NextCursor: encodeRecipeCursor(page.Next, f.Search != nil)}
	for i, r := range page.Items {
		out.Items[i] = s.recipeSummaryView(r)
	}
	return c.JSON(out)
}
