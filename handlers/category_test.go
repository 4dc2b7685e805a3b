package handlers

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"larder/repo"
)

// GET /api/categories serves the category menu: what the caller may read,
// with counts, whatever the recipes already loaded are; bad input is a 400.
func TestListCategories(t *testing.T) {
	t.Parallel()
	b := setup(t)
	_, tok := b.user(t, repo.RoleUser)
	_, otherTok := b.user(t, repo.RoleUser)
	rcCreate(t, b, tok, map[string]any{"title": "Stew", "visibility": "PUBLIC", "categories": []string{"Dinner", "Winter"}})
	rcCreate(t, b, tok, map[string]any{"title": "Pie", "visibility": "PUBLIC", "categories": []string{"dinner"}})
	rcCreate(t, b, tok, map[string]any{"title": "Secret", "visibility": "PRIVATE", "categories": []string{"Hidden", "Dinner"}})

	menu := func(tok, query string) (string, TagPage) {
		t.Helper()
		r := b.do(t, "GET", "/api/categories"+query, nil, tok)
		wantStatus(t, r, 200)
		var p TagPage
		if err := json.Unmarshal(r.Body, &p); err != nil {
			t.Fatal(err)
		}
		s := ""
		for _, c := range p.Items {
			s += fmt.Sprintf("%s:%d ", c.Name, c.Count)
		}
		return s, p
	}
	for _, tc := range []struct{ who, tok, want string }{
		{"owner", tok, "Dinner:3 Hidden:1 Winter:1 "},
		{"other user", otherTok, "Dinner:2 Winter:1 "},
		{"signed out", "", "Dinner:2 Winter:1 "},
	} {
		if got, p := menu(tc.tok, ""); got != tc.want || p.NextCursor != nil || p.Total != int64(len(p.Items)) {
			t.Errorf("%s: %q %+v, want %q", tc.who, got, p, tc.want)
		}
	}
	got, p := menu(tok, "?limit=1")
	if got != "Dinner:3 " || p.NextCursor == nil || p.Total != 3 {
		t.Fatalf("first page %q %+v", got, p)
	}
	if got, _ := menu(tok, "?limit=5&cursor="+*p.NextCursor); got != "Hidden:1 Winter:1 " {
		t.Fatalf("second page %q", got)
	}
	if got, _ := menu(tok, "?q=wi"); got != "Winter:1 " {
		t.Fatalf("prefix %q", got)
	}
	for _, q := range []string{"?cursor=%25%25", "?limit=0"} {
		r := b.do(t, "GET", "/api/categories"+q, nil, tok)
		if wantStatus(t, r, 400); r.ErrorCode() == "" {
			t.Errorf("%s: body %s", q, r.Body)
		}
	}
}

func init() {
	addAuthz(authzCase{method: "GET", route: "/api/categories", want: rulePublic})
}

// With the list cache, the menus are reused until a recipe changes, and
// each viewer keeps their own.
func TestListCategoriesCached(t *testing.T) {
	t.Parallel()
	b := setup(t, func(d *Deps) { d.ListCache = NewListCache(time.Hour) })
	_, tok := b.user(t, repo.RoleUser)
	rcCreate(t, b, tok, map[string]any{"title": "Stew", "visibility": "PUBLIC", "categories": []string{"Dinner"}})
	names := func(tok string) string {
		t.Helper()
		r := b.do(t, "GET", "/api/categories", nil, tok)
		wantStatus(t, r, 200)
		var p TagPage
		if err := json.Unmarshal(r.Body, &p); err != nil {
			t.Fatal(err)
		}
		s := ""
		for _, c := range p.Items {
			s += fmt.Sprintf("%s:%d ", c.Name, c.Count)
		}
		return s
	}
	if got := names(""); got != "Dinner:1 " {
		t.Fatalf("first %q", got)
	}
	rcCreate(t, b, tok, map[string]any{"title": "Pie", "visibility": "PRIVATE", "categories": []string{"Dessert"}})
	if got := names(tok); got != "Dessert:1 Dinner:1 " {
		t.Fatalf("owner after a create %q", got)
	}
	if got := names(""); got != "Dinner:1 " {
		t.Fatalf("signed out after a private create %q", got)
	}
	rcCreate(t, b, tok, map[string]any{"title": "Soup", "visibility": "PUBLIC", "categories": []string{"Dinner"}})
	if got := names(""); got != "Dinner:2 " {
		t.Fatalf("signed out after a public create %q", got)
	}
}
