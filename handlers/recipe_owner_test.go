package handlers

import (
	"encoding/json"
	"strings"
	"testing"

	"larder/repo"
)

// A reader other than the owner learns who the recipe is from (the name,
// never the email); the owner's own view carries no such line.
func TestRecipeReadOwnerName(t *testing.T) {
	t.Parallel()
	b := setup(t)
	owner, tok := b.user(t, repo.RoleUser)
	friend, friendTok := b.user(t, repo.RoleUser)
	rec := rcCreate(t, b, tok, map[string]any{"title": "Granny's pie", "visibility": "SHARED"})
	wantStatus(t, b.do(t, "POST", "/api/recipes/"+rec.ID.String()+"/shares", map[string]string{"email": friend.Email}, tok), 201)

	read := func(tok string) RecipeRead {
		t.Helper()
		r := b.do(t, "GET", "/api/recipes/"+rec.ID.String(), nil, tok)
		wantStatus(t, r, 200)
		if strings.Contains(string(r.Body), owner.Email) {
			t.Fatalf("the owner's email leaks: %s", r.Body)
		}
		var out RecipeRead
		if err := json.Unmarshal(r.Body, &out); err != nil {
			t.Fatal(err)
		}
		return out
	}
	if got := read(friendTok); got.OwnerName == nil || *got.OwnerName != owner.Name || got.Title != "Granny's pie" {
		t.Fatalf("friend reads %+v", got)
	}
	if got := read(tok); got.OwnerName != nil {
		t.Fatalf("owner reads ownerName %q", *got.OwnerName)
	}
}
