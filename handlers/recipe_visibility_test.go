package handlers

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"larder/repo"
)

// A SHARED recipe that its owner makes PRIVATE is no longer readable by the
// users it was shared with. The share records stay (sharing it again needs
// no new invitations), so every read path must test the visibility, not the
// shares alone: the recipe, the list and its totals, the filtered and
// searched lists, and the tag and category counts, with and without the
// list cache.
func TestPrivateRecipeLeavesItsShareRecipients(t *testing.T) {
	t.Parallel()
	for _, cached := range []bool{false, true} {
		t.Run(fmt.Sprintf("list cache %v", cached), func(t *testing.T) {
			t.Parallel()
			b := setup(t, func(d *Deps) {
				if cached {
					d.ListCache = NewListCache(time.Minute)
				}
			})
			_, ownerTok := b.user(t, repo.RoleUser)
			friend, friendTok := b.user(t, repo.RoleUser)
			body := rcBody("Family curry")
			body["visibility"] = "SHARED"
			rec := rcCreate(t, b, ownerTok, body)
			p := "/api/recipes/" + rec.ID.String()
			wantStatus(t, b.do(t, "POST", p+"/shares", map[string]string{"email": friend.Email}, ownerTok), 201)

			// What the friend sees of it: the recipe's status, and the totals
			// of the lists and counts it belongs to.
			seen := func() string {
				t.Helper()
				var parts []string
				parts = append(parts, fmt.Sprintf("get %d", b.do(t, "GET", p, nil, friendTok).Status))
				for _, q := range []string{"", "category=dinner", "tag=quick", "q=tomatoes", "visibility=SHARED"} {
					v, _ := url.ParseQuery(q)
					page := rcList(t, b, friendTok, v)
					parts = append(parts, fmt.Sprintf("list(%s) %d/%d", q, len(page.Items), page.Total))
				}
				for _, route := range []string{"/api/tags", "/api/categories"} {
					r := b.do(t, "GET", route, nil, friendTok)
					wantStatus(t, r, 200)
					var tp TagPage
					r.JSON(t, &tp)
					parts = append(parts, fmt.Sprintf("%s %d", route, tp.Total))
				}
				return strings.Join(parts, ", ")
			}
			shared := "get 200, list() 1/1, list(category=dinner) 1/1, list(tag=quick) 1/1, list(q=tomatoes) 1/1, list(visibility=SHARED) 1/1, /api/tags 2, /api/categories 2"
			if got := seen(); got != shared {
				t.Fatalf("while shared: %s\nwant %s", got, shared)
			}

			body["visibility"] = "PRIVATE"
			wantStatus(t, b.do(t, "PUT", p, body, ownerTok), 200)
			gone := "get 404, list() 0/0, list(category=dinner) 0/0, list(tag=quick) 0/0, list(q=tomatoes) 0/0, list(visibility=SHARED) 0/0, /api/tags 0, /api/categories 0"
			if got := seen(); got != gone {
				t.Fatalf("once PRIVATE: %s\nwant %s", got, gone)
			}
		})
	}
}
