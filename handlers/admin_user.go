package handlers

import (
	"errors"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"

	"larder/repo"
)

// adminUserRoutes registers the administrators' user management.
func (s *Server) adminUserRoutes(api fiber.Router) {
	api.Get("/admin/users", s.requireAdmin, s.listUsers)
	api.Patch("/admin/users/:id", s.requireAdmin, s.setUserRole)
}

// userPage is a page of users in the list shape of docs/api.md.
type userPage struct {
	Items      []User  `json:"items"`
	NextCursor *string `json:"nextCursor"`
	Total      int     `json:"total"`
}

// listUsers pages through every account, newest first. Filters: q (part of
// the email or name, ignoring case) and role.
func (s *Server) listUsers(c *fiber.Ctx) error {
	fe := fieldErrors{}
	limit, cur := timeListQuery(c, fe, "q", "role")
	role := c.Query("role")
	if role != "" && role != repo.RoleUser && role != repo.RoleAdmin {
		fe.add("role", "must be USER or ADMIN")
	}
	var after *repo.UserCursor
	if cur != nil {
		after = &repo.UserCursor{CreatedAt: cur.CreatedAt, ID: cur.ID}
	}
	if err := fe.err(); err != nil {
		return err
	}
	// One extra row tells whether there is a next page.
	users, total, err := repo.ListUsers(c.UserContext(), s.DB, repo.ListUsersParams{
		Limit: limit + 1, After: after, Query: strings.TrimSpace(c.Query("q")), Role: role,
	})
	if err != nil {
		return err
	}
	page := userPage{Items: []User{}, Total: total}
	if len(users) > limit {
		last := users[limit-1]
		page.NextCursor = encodeCursor(timeCursor{CreatedAt: last.CreatedAt, ID: last.ID})
		users = users[:limit]
	}
	for _, u := range users {
		page.Items = append(page.Items, userView(u))
	}
	return c.JSON(page)
}

// setUserRole changes a user's role ({"role": "USER"|"ADMIN"}). The last
// administrator cannot be demoted, by someone else or by themselves.
func (s *Server) setUserRole(c *fiber.Ctx) error {
	id, err := uuid.Parse(c.Params("id"))
	if err != nil {
		return errNotFound("user")
	}
	var in struct {
		Role string `json:"role"`
	}
	if err := decodeJSON(c, &in); err != nil {
		return err
	}
	if in.Role != repo.RoleUser && in.Role != repo.RoleAdmin {
		fe := fieldErrors{}
		fe.add("role", "must be USER or ADMIN")
		return fe.err()
	}
	u, err := repo.SetUserRole(c.UserContext(), s.DB, id, in.Role)
	switch {
	case errors.Is(err, repo.ErrLastAdmin):
		return errConflict("this is the last administrator; make someone else an administrator first")
	case errors.Is(err, repo.ErrNotFound):
		return errNotFound("user")
	case err != nil:
		return err
	}
	return c.JSON(fiber.Map{"user": userView(u)})
}
