package handlers

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"larder/config"
	"larder/repo"
)

func TestRecipeShares(t *testing.T) {
	t.Parallel()
	b := setup(t)
	owner, ownerTok := b.user(t, repo.RoleUser)
	friend, friendTok := b.user(t, repo.RoleUser)
	second, _ := b.user(t, repo.RoleUser)
	rec := rcCreate(t, b, ownerTok, map[string]any{"title": "Family Lasagne", "visibility": "SHARED"})
	p := "/api/recipes/" + rec.ID.String()

	// Not shared yet: the friend cannot see it anywhere.
	if r := b.do(t, "GET", p, nil, friendTok); r.Status != 404 {
		t.Fatalf("before sharing: %d", r.Status)
	}
	// By email, ignoring case: 201 with the share, then 200 when repeated.
	r := b.do(t, "POST", p+"/shares", map[string]string{"email": " " + strings.ToUpper(friend.Email) + " "}, ownerTok)
	wantStatus(t, r, 201)
	var sh Share
	r.JSON(t, &sh)
	if sh.UserID != friend.ID || sh.Email != friend.Email || sh.CreatedAt.IsZero() {
		t.Fatalf("share %+v", sh)
	}
	wantStatus(t, b.do(t, "POST", p+"/shares", map[string]string{"email": friend.Email}, ownerTok), 200)
	wantStatus(t, b.do(t, "POST", p+"/shares", map[string]string{"email": second.Email}, ownerTok), 201)

	if got := rcGet(t, b, friendTok, rec.ID); got.Title != "Family Lasagne" {
		t.Fatalf("friend reads %+v", got)
	}
	if l := rcList(t, b, friendTok, url.Values{}); len(l.Items) != 1 || l.Items[0].ID != rec.ID {
		t.Fatalf("friend's list %+v", l.Items)
	}
	var page SharePage
	b.do(t, "GET", p+"/shares?limit=1", nil, ownerTok).JSON(t, &page)
	if page.Total != 2 || len(page.Items) != 1 || page.Items[0].UserID != friend.ID || page.NextCursor == nil {
		t.Fatalf("shares page 1 %+v", page)
	}
	b.do(t, "GET", p+"/shares?limit=1&cursor="+*page.NextCursor, nil, ownerTok).JSON(t, &page)
	if len(page.Items) != 1 || page.Items[0].UserID != second.ID || page.NextCursor != nil {
		t.Fatalf("shares page 2 %+v", page)
	}
	// The friend may read but not manage the shares: visible, not owned.
	if r := b.do(t, "GET", p+"/shares", nil, friendTok); r.Status != 403 {
		t.Fatalf("friend lists shares: %d", r.Status)
	}

	// Refusals.
	tests := []struct {
		body   any
		status int
		code   string
	}{
		{map[string]string{"email": owner.Email}, 400, "invalid_request"},
		{map[string]string{"email": "nobody@example.test"}, 404, "not_found"},
		{map[string]string{"email": ""}, 400, "validation_failed"},
		{map[string]int{"email": 3}, 400, "validation_failed"},
		{"", 400, "invalid_request"},
	}
	for _, tt := range tests {
		r := b.do(t, "POST", p+"/shares", tt.body, ownerTok)
		if r.Status != tt.status || r.ErrorCode() != tt.code {
			t.Errorf("%v: %d %s", tt.body, r.Status, r.Body)
		}
	}

	// Removing the share hides the recipe from the friend again.
	wantStatus(t, b.do(t, "DELETE", p+"/shares/"+friend.ID.String(), nil, ownerTok), 204)
	if r := b.do(t, "GET", p, nil, friendTok); r.Status != 404 {
		t.Fatalf("after unsharing: %d", r.Status)
	}
	if r := b.do(t, "DELETE", p+"/shares/"+friend.ID.String(), nil, ownerTok); r.Status != 404 {
		t.Fatalf("unsharing twice: %d", r.Status)
	}
	if r := b.do(t, "DELETE", p+"/shares/not-a-user", nil, ownerTok); r.Status != 404 {
		t.Fatalf("unsharing a bad id: %d", r.Status)
	}

	// A share counts only while the recipe is SHARED: PRIVATE hides it from
	// the recipient, PUBLIC shows it to everyone.
	body := map[string]any{"title": "Family Lasagne", "visibility": "PRIVATE"}
	wantStatus(t, b.do(t, "PUT", p, body, ownerTok), 200)
	secondTok, err := b.deps.Tokens.Access(second.ID, second.Role, second.SessionVersion)
	if err != nil {
		t.Fatal(err)
	}
	if r := b.do(t, "GET", p, nil, secondTok); r.Status != 404 {
		t.Fatalf("recipient of a PRIVATE recipe: %d", r.Status)
	}
	body["visibility"] = "SHARED"
	wantStatus(t, b.do(t, "PUT", p, body, ownerTok), 200)
	wantStatus(t, b.do(t, "GET", p, nil, secondTok), 200)

	// Deleting the recipe removes its shares.
	wantStatus(t, b.do(t, "DELETE", p, nil, ownerTok), 204)
	var n int
	if err := b.db.QueryRow(t.Context(), "SELECT count(*) FROM recipe_share").Scan(&n); err != nil || n != 0 {
		t.Fatalf("%d shares left", n)
	}
}

// A recipe at every limit the API accepts (a 200-character title of many
// words, 30 categories and 30 tags of 100 characters, shared with
// repo.MaxShares users) saves, and lists, filters and searches like any
// other; the share beyond the cap is 409. Each entry of the list index must
// fit in a third of a page: labels in full did not (migration 0011).
func TestRecipeAtEveryLimit(t *testing.T) {
	t.Parallel()
	b := setup(t)
	_, ownerTok := b.user(t, repo.RoleUser)
	label := func(kind string, i int) string {
		sum := sha256.Sum256(fmt.Appendf(nil, "%s %d", kind, i))
		return strings.Repeat(hex.EncodeToString(sum[:]), 2)[:100] // hardly compressible
	}
	var categories, tags []string
	for i := range 30 {
		categories = append(categories, label("category", i))
		tags = append(tags, label("tag", i))
	}
	var words []string
	for i := 0; 4*(len(words)+1) <= 200; i++ {
		words = append(words, fmt.Sprintf("z%02x", i))
	}
	title := strings.Join(words, " ")
	rec := rcCreate(t, b, ownerTok, map[string]any{"title": title, "visibility": "SHARED",
		"categories": categories, "tags": tags})
	p := "/api/recipes/" + rec.ID.String()

	var readerTok string
	for i := range repo.MaxShares {
		u, tok := b.user(t, repo.RoleUser)
		wantStatus(t, b.do(t, "POST", p+"/shares", map[string]string{"email": u.Email}, ownerTok), 201)
		if i == 0 {
			readerTok = tok
		}
	}
	extra, _ := b.user(t, repo.RoleUser)
	r := b.do(t, "POST", p+"/shares", map[string]string{"email": extra.Email}, ownerTok)
	if r.Status != 409 || r.ErrorCode() != "conflict" {
		t.Fatalf("share %d: %d %s", repo.MaxShares+1, r.Status, r.Body)
	}

	for _, q := range []url.Values{
		{},
		{"category": {strings.ToUpper(categories[29])}},
		{"tag": {tags[17]}},
		{"category": {categories[3]}, "tag": {strings.ToUpper(tags[0])}},
		{"q": {words[len(words)-1]}},
		{"q": {words[5]}, "category": {categories[0]}},
	} {
		if l := rcList(t, b, readerTok, q); len(l.Items) != 1 || l.Items[0].ID != rec.ID || l.Total != 1 {
			t.Errorf("%v: %d items, total %d", q, len(l.Items), l.Total)
		}
	}
	if l := rcList(t, b, readerTok, url.Values{"category": {categories[0][:99]}}); len(l.Items) != 0 || l.Total != 0 {
		t.Errorf("a category's prefix matches: %+v", l)
	}
	// An edit that keeps it at the limits saves too.
	wantStatus(t, b.do(t, "PUT", p, map[string]any{"title": strings.ToUpper(title), "visibility": "SHARED",
		"categories": tags, "tags": categories}, ownerTok), 200)
}

// Sharing tells nothing about which addresses have accounts: an unverified
// account answers exactly like no account, and each user has a bounded
// number of attempts per hour.
func TestShareDoesNotProbeAccounts(t *testing.T) {
	t.Parallel()
	clock := newTestClock()
	def, err := config.Load(func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	b := setup(t, withClock(clock), func(d *Deps) {
		d.Config.ShareRateLimit, d.Config.ShareRateLimitWindow = def.ShareRateLimit, def.ShareRateLimitWindow
	})
	_, ownerTok := b.user(t, repo.RoleUser)
	_, otherTok := b.user(t, repo.RoleUser)
	unverified, err := repo.CreateUser(context.Background(), b.db, repo.CreateUserParams{
		Email: "pending-" + uuid.NewString()[:8] + "@example.test", Role: repo.RoleUser})
	if err != nil {
		t.Fatal(err)
	}
	rec := rcCreate(t, b, ownerTok, map[string]any{"title": "Secret Stew", "visibility": "SHARED"})
	p := "/api/recipes/" + rec.ID.String() + "/shares"

	none := b.do(t, "POST", p, map[string]string{"email": "nobody-" + uuid.NewString()[:8] + "@example.test"}, ownerTok)
	pending := b.do(t, "POST", p, map[string]string{"email": unverified.Email}, ownerTok)
	wantStatus(t, none, 404)
	if pending.Status != none.Status || string(pending.Body) != string(none.Body) {
		t.Fatalf("unverified account: %d %s; no account: %d %s", pending.Status, pending.Body, none.Status, none.Body)
	}

	// 30 attempts an hour per user (two are used above), then 429 with
	// Retry-After; another user keeps their own count.
	for i := 3; i <= 30; i++ {
		if r := b.do(t, "POST", p, map[string]string{"email": fmt.Sprintf("guess%d@example.test", i)}, ownerTok); r.Status != 404 {
			t.Fatalf("attempt %d: %d %s", i, r.Status, r.Body)
		}
	}
	r := b.do(t, "POST", p, map[string]string{"email": "guess31@example.test"}, ownerTok)
	if wait, _ := strconv.Atoi(r.Header.Get("Retry-After")); r.Status != 429 || r.ErrorCode() != "rate_limited" || wait < 3599 || wait > 3601 {
		t.Fatalf("31st attempt: %d %s Retry-After %q", r.Status, r.Body, r.Header.Get("Retry-After"))
	}
	otherRec := rcCreate(t, b, otherTok, map[string]any{"title": "Other", "visibility": "SHARED"})
	wantStatus(t, b.do(t, "POST", "/api/recipes/"+otherRec.ID.String()+"/shares", map[string]string{"email": "x@example.test"}, otherTok), 404)
	// An hour later the owner may try again.
	clock.Advance(time.Hour)
	wantStatus(t, b.do(t, "POST", p, map[string]string{"email": "guess32@example.test"}, ownerTok), 404)
}

// Adding a member to a meal plan or a shopping list shares by email as a
// recipe share does, under the same rules: an unverified account answers
// exactly like no account on every route, and the attempts of all of them
// come out of one per-user budget.
func TestMemberShareDoesNotProbeAccounts(t *testing.T) {
	t.Parallel()
	clock := newTestClock()
	def, err := config.Load(func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	b := setup(t, withClock(clock), func(d *Deps) {
		d.Config.ShareRateLimit, d.Config.ShareRateLimitWindow = def.ShareRateLimit, def.ShareRateLimitWindow
	})
	owner, ownerTok := b.user(t, repo.RoleUser)
	friend, _ := b.user(t, repo.RoleUser)
	unverified, err := repo.CreateUser(context.Background(), b.db, repo.CreateUserParams{
		Email: "pending-" + uuid.NewString()[:8] + "@example.test", Role: repo.RoleUser})
	if err != nil {
		t.Fatal(err)
	}
	rec := rcCreate(t, b, ownerTok, map[string]any{"title": "Household Stew", "visibility": "SHARED"})
	paths := []string{
		"/api/recipes/" + rec.ID.String() + "/shares",
		"/api/mealplans/" + mpDefaultPlan(t, b, owner).ID.String() + "/members",
		"/api/shopping-lists/" + slList(t, b, owner, "metric").String() + "/members",
	}
	attempts := 0
	var first response
	for _, p := range paths {
		none := b.do(t, "POST", p, map[string]string{"email": "nobody-" + uuid.NewString()[:8] + "@example.test"}, ownerTok)
		pending := b.do(t, "POST", p, map[string]string{"email": unverified.Email}, ownerTok)
		wantStatus(t, b.do(t, "POST", p, map[string]string{"email": friend.Email}, ownerTok), 201)
		attempts += 3
		wantStatus(t, none, 404)
		if pending.Status != none.Status || string(pending.Body) != string(none.Body) {
			t.Fatalf("%s: unverified account: %d %s; no account: %d %s", p, pending.Status, pending.Body, none.Status, none.Body)
		}
		if first.Body == nil {
			first = none
		} else if string(none.Body) != string(first.Body) {
			t.Fatalf("%s answers %s for no account, recipes %s", p, none.Body, first.Body)
		}
	}
	for ; attempts < def.ShareRateLimit; attempts++ {
		wantStatus(t, b.do(t, "POST", paths[attempts%len(paths)], map[string]string{"email": fmt.Sprintf("guess%d@example.test", attempts)}, ownerTok), 404)
	}
	for _, p := range paths {
		if r := b.do(t, "POST", p, map[string]string{"email": "one-more@example.test"}, ownerTok); r.Status != 429 || r.ErrorCode() != "rate_limited" {
			t.Fatalf("%s past the budget: %d %s", p, r.Status, r.Body)
		}
	}
	clock.Advance(def.ShareRateLimitWindow)
	wantStatus(t, b.do(t, "POST", paths[1], map[string]string{"email": "later@example.test"}, ownerTok), 404)
}
