package handlers

import (
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
	"github.com/ulule/limiter/v3"

	"larder/repo"
)

// Share is a recipe shared with a user. The recipe is readable by that
// user while its visibility is SHARED.
type Share struct {
	UserID    uuid.UUID `json:"userId"`
	Email     string    `json:"email"`
	Name      string    `json:"name"`
	CreatedAt time.Time `json:"createdAt"`
}

func shareView(s repo.Share) Share {
	return Share{UserID: s.UserID, Email: s.Email, Name: s.Name, CreatedAt: s.CreatedAt.UTC()}
}

// SharePage is a page of GET /api/recipes/:id/shares.
type SharePage struct {
	Items      []Share `json:"items"`
	NextCursor *string `json:"nextCursor"`
	Total      int64   `json:"total"`
}

// listShares answers GET /api/recipes/:id/shares (owner only), oldest first.
func (s *Server) listShares(c *fiber.Ctx) error {
	rec, err := s.ownedRecipe(c, false)
	if err != nil {
		return err
	}
	fe := fieldErrors{}
	limit, cur := timeListQuery(c, fe)
	if err := fe.err(); err != nil {
		return err
	}
	var after *repo.ShareCursor
	if cur != nil {
		after = &repo.ShareCursor{CreatedAt: cur.CreatedAt, UserID: cur.ID}
	}
	items, next, total, err := repo.ListShares(c.UserContext(), s.DB, rec.ID, limit, after)
	if err != nil {
		return err
	}
	out := SharePage{Items: make([]Share, len(items)), Total: total}
	for i, sh := range items {
		out.Items[i] = shareView(sh)
	}
	if next != nil {
		out.NextCursor = encodeCursor(timeCursor{CreatedAt: next.CreatedAt, ID: next.UserID})
	}
	return c.JSON(out)
}

// errNoShareAccount is the one answer for an address that cannot receive
// a share, whether no account has it or its account is not verified: the
// two must look alike, or the route tells who registered without
// confirming (anyone can register any address).
var errNoShareAccount = newError(fiber.StatusNotFound, "not_found",
	"no account you can share with has this email address")

// shareLimit bounds a user's share-by-email attempts (SHARE_RATE_LIMIT),
// one budget over every route that shares by email (recipes, meal plans,
// shopping lists): each attempt tells whether an address has an account,
// so without a bound those routes would list the service's users.
func (s *Server) shareLimit() fiber.Handler {
	return s.limits.limitUser("share", limiter.Rate{Limit: int64(s.Config.ShareRateLimit), Period: s.Config.ShareRateLimitWindow})
}

// shareRecipient reads {email} and finds the account that a recipe, plan
// or list owned by ownerID is shared with: 400 without an email or for
// the owner's own (self says why), errNoShareAccount for an address
// without a verified account. Its routes go behind shareLimit.
func (s *Server) shareRecipient(c *fiber.Ctx, ownerID uuid.UUID, self string) (repo.User, error) {
	var body struct {
		Email string `json:"email"`
	}
	if err := decodeJSON(c, &body); err != nil {
		return repo.User{}, err
	}
	email := strings.TrimSpace(body.Email)
	if email == "" {
		fe := fieldErrors{}
		fe.add("email", "is required")
		return repo.User{}, fe.err()
	}
	u, err := repo.GetUserByEmail(c.UserContext(), s.DB, email)
	if errors.Is(err, repo.ErrNotFound) || (err == nil && !u.EmailVerified) {
		return repo.User{}, errNoShareAccount
	}
	if err != nil {
		return repo.User{}, err
	}
	if u.ID == ownerID {
		return repo.User{}, errInvalid("%s", self)
	}
	return u, nil
}

// addShare answers POST /api/recipes/:id/shares {email} (owner only): 201
// with the share, or 200 with the existing one when already shared. Sharing
// with yourself is 400; an address without a verified account is 404; a
// share beyond repo.MaxShares is 409. Attempts are limited per user
// (SHARE_RATE_LIMIT): each one tells whether an address has an account, so
// without a bound the route would list the service's users.
func (s *Server) addShare(c *fiber.Ctx) error {
	rec, err := s.ownedRecipe(c, false)
	if err != nil {
		return err
	}
	u, err := s.shareRecipient(c, rec.OwnerID, "you cannot share a recipe with yourself")
	if err != nil {
		return err
	}
	ctx := c.UserContext()
	share, created, err := repo.AddShare(ctx, s.DB, rec.ID, u.ID)
	if errors.Is(err, repo.ErrNotFound) {
		return errNotFound("recipe") // deleted meanwhile
	}
	if errors.Is(err, repo.ErrTooManyShares) {
		return errConflict("this recipe is shared with %d users, the most a recipe can be: remove a share first, or make it PUBLIC", repo.MaxShares)
	}
	if err != nil {
		return err
	}
	status := http.StatusOK
	if created {
		s.ListCache.Invalidate()
		status = http.StatusCreated
	}
	return c.Status(status).JSON(shareView(share))
}

// removeShare answers DELETE /api/recipes/:id/shares/:userId (owner only):
// 204, or 404 when the recipe is not shared with that user.
func (s *Server) removeShare(c *fiber.Ctx) error {
	rec, err := s.ownedRecipe(c, false)
	if err != nil {
		return err
	}
	userID, err := uuid.Parse(c.Params("userId"))
	if err != nil {
		return errNotFound("share")
	}
	err = repo.RemoveShare(c.UserContext(), s.DB, rec.ID, userID)
	if errors.Is(err, repo.ErrNotFound) {
		return errNotFound("share")
	}
	if err != nil {
		return err
	}
	s.ListCache.Invalidate()
	return c.SendStatus(fiber.StatusNoContent)
}
