package handlers

import (
	"fmt"
	"net/http"
	"sort"
	"strings"
	"testing"

	"larder/repo"
)

// The authorization table: every API route, and what each kind of caller
// gets from it. Each resource's test file adds its routes in an init
// function; TestAuthzTableCoversEveryRoute fails when a route is missing, so
// a new route cannot ship without its rule.

// Callers the table is walked with.
const (
	anon  = "anonymous"
	other = "other user" // signed in, not the owner of anything involved
	owner = "owner"      // signed in, owns the resource the path names
	admin = "admin"
)

// Outcome classes: allowed means the auth rules let the request through
// (it may still fail validation); the others are the refusals.
const (
	allowed      = 0
	unauthorized = http.StatusUnauthorized
	forbidden    = http.StatusForbidden
	hidden       = http.StatusNotFound
)

type authzCase struct {
	method string
	route  string // the route as registered, e.g. /api/recipes/:id
	// prepare builds the concrete request for a run: the path (with the
	// owner's resources created) and an optional JSON body. nil means the
	// route's path is used as is.
	prepare func(t *testing.T, b *testBundle, owner repo.User) (path string, body any)
	want    map[string]int
	name    string // distinguishes several cases of one route (e.g. visibility)
}

var authzCases []authzCase

func addAuthz(c ...authzCase) { authzCases = append(authzCases, c...) }

// Rules used by most routes.
var (
	rulePublic   = map[string]int{anon: allowed, other: allowed, owner: allowed, admin: allowed}
	ruleAuth     = map[string]int{anon: unauthorized, other: allowed, owner: allowed, admin: allowed}
	ruleAdmin    = map[string]int{anon: unauthorized, other: forbidden, owner: forbidden, admin: allowed}
	ruleOwnerAll = map[string]int{anon: unauthorized, other: hidden, owner: allowed, admin: allowed}
)

func init() {
	addAuthz(
		authzCase{method: "GET", route: "/api/health", want: rulePublic},
		authzCase{method: "GET", route: "/api/openapi.json", want: rulePublic},
		authzCase{method: "GET", route: "/api/jobs/:id", want: ruleOwnerAll,
			prepare: func(t *testing.T, b *testBundle, u repo.User) (string, any) {
				return "/api/jobs/" + insertTestJob(t, b, u).String(), nil
			}},
	)
}

func classify(status int) int {
	switch status {
	case unauthorized, forbidden, hidden:
		return status
	}
	return allowed
}

func TestAuthzTable(t *testing.T) {
	t.Parallel()
	b := setup(t)
	for _, c := range authzCases {
		name := c.method + " " + c.route
		if c.name != "" {
			name += " (" + c.name + ")"
		}
		t.Run(name, func(t *testing.T) {
			ownerUser, ownerTok := b.user(t, repo.RoleUser)
			_, otherTok := b.user(t, repo.RoleUser)
			_, adminTok := b.user(t, repo.RoleAdmin)
			tokens := map[string]string{anon: "", other: otherTok, owner: ownerTok, admin: adminTok}
			for _, who := range []string{anon, other, owner, admin} {
				want, ok := c.want[who]
				if !ok {
					continue
				}
				path, body := c.route, any(nil)
				if c.prepare != nil {
					// A fresh resource per caller: a DELETE by one must not hide it from the next.
					path, body = c.prepare(t, b, ownerUser)
				}
				r := b.do(t, c.method, path, body, tokens[who])
				if got := classify(r.Status); got != want {
					t.Errorf("%s: status %d (class %d), want class %d; body %s", who, r.Status, got, want, r.Body)
				}
			}
		})
	}
}

func TestAuthzTableCoversEveryRoute(t *testing.T) {
	t.Parallel()
	b := setup(t)
	covered := map[string]bool{}
	for _, c := range authzCases {
		covered[c.method+" "+c.route] = true
	}
	var missing []string
	for _, r := range b.app.GetRoutes(true) {
		if !strings.HasPrefix(r.Path, "/api/") || r.Method == "HEAD" || r.Method == "USE" {
			continue
		}
		if !covered[r.Method+" "+r.Path] {
			missing = append(missing, fmt.Sprintf("%s %s", r.Method, r.Path))
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Fatalf("routes without a row in the authorization table:\n%s", strings.Join(missing, "\n"))
	}
}
