package handlers

import (
	"encoding/base64"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
)

// Paging of every list route (docs/api.md): ?limit= (default 24, 1 to 100) and
// ?cursor=, an opaque token the previous page gave as nextCursor. A cursor
// is the JSON of the list's own position type, base64url-encoded; one
// that does not decode is the one error below, whatever the list.

const (
	defaultPageLimit = 24
	maxPageLimit     = 100
	badCursorMessage = "is not a cursor this list gave out"
)

// listQuery reads a list route's query into fe's problems: every parameter
// the route does not take is refused, all named at once (a misspelled
// ?pagee= or an ?offset= from another API would otherwise be ignored
// without a word); then limit, and the cursor, decoded into cur (a pointer
// to the list's position type). filters are the route's other parameters.
// hasCursor reports whether a valid cursor was given.
func listQuery(c *fiber.Ctx, fe fieldErrors, cur any, filters ...string) (limit int, hasCursor bool) {
	allowed := append([]string{"limit", "cursor"}, filters...)
	c.Request().URI().QueryArgs().VisitAll(func(key, _ []byte) {
		if k := string(key); !slices.Contains(allowed, k) {
			fe.add(k, "is not a parameter of this list (it takes %s)", strings.Join(allowed, ", "))
		}
	})
	limit = defaultPageLimit
	if v := c.Query("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > maxPageLimit {
			fe.add("limit", "must be a whole number from 1 to %d", maxPageLimit)
		} else {
			limit = n
		}
	}
	if v := c.Query("cursor"); v != "" {
		if !decodeCursor(v, cur) {
			fe.add("cursor", badCursorMessage)
		} else {
			hasCursor = true
		}
	}
	return limit, hasCursor
}

// badCursor records a cursor that decoded but does not fit the request
// (a search cursor without the search, say).
func badCursor(fe fieldErrors) { fe.add("cursor", badCursorMessage) }

// encodeCursor turns a list position into the opaque nextCursor.
func encodeCursor(pos any) *string {
	raw, _ := json.Marshal(pos)
	s := base64.RawURLEncoding.EncodeToString(raw)
	return &s
}

func decodeCursor(s string, pos any) bool {
	raw, err := base64.RawURLEncoding.DecodeString(s)
	return err == nil && json.Unmarshal(raw, pos) == nil
}

// timeCursor is the position in a list ordered newest (or oldest) first on
// (created_at, id), the order of most lists.
type timeCursor struct {
	CreatedAt time.Time `json:"t"`
	ID        uuid.UUID `json:"i"`
}

// timeListQuery is listQuery for lists paged by timeCursor: after is nil
// without a cursor.
func timeListQuery(c *fiber.Ctx, fe fieldErrors, filters ...string) (limit int, after *timeCursor) {
	var cur timeCursor
	limit, has := listQuery(c, fe, &cur, filters...)
	if !has {
		return limit, nil
	}
	if cur.ID == uuid.Nil || cur.CreatedAt.IsZero() {
		badCursor(fe)
		return limit, nil
	}
	return limit, &cur
}
