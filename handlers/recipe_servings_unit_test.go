package handlers

import (
	"strings"
	"testing"

	"larder/repo"
)

// A yield that is not people keeps its noun: written, trimmed, read back
// with the forms of its word that agree with a number, and kept by an edit
// that sends it back; a refused edit changes nothing.
func TestRecipeServingsUnit(t *testing.T) {
	t.Parallel()
	b := setup(t)
	_, tok := b.user(t, repo.RoleUser)
	body := rcBody("Oat cookies")
	body["servings"], body["servingsUnit"] = 12, "  Cookies "
	rec := rcCreate(t, b, tok, body)
	w := rec.ServingsUnitWord
	if rec.ServingsUnit != "Cookies" || w == nil || w.One != "Cookie" || w.Other != "Cookies" || w.Start != 0 || w.End != 7 {
		t.Fatalf("created unit %q %+v", rec.ServingsUnit, w)
	}
	// People: no unit, no word; a unit in another language has no forms.
	if plain := rcCreate(t, b, tok, rcBody("Stew")); plain.ServingsUnit != "" || plain.ServingsUnitWord != nil {
		t.Fatalf("a recipe for people: %q %+v", plain.ServingsUnit, plain.ServingsUnitWord)
	}
	body["servingsUnit"] = "Gläser"
	if jars := rcCreate(t, b, tok, body); jars.ServingsUnit != "Gläser" || jars.ServingsUnitWord != nil {
		t.Fatalf("German unit: %q %+v", jars.ServingsUnit, jars.ServingsUnitWord)
	}

	path := "/api/recipes/" + rec.ID.String()
	edit := rcBody("Oat cookies")
	edit["servings"], edit["servingsUnit"] = 2, "small loaves"
	wantStatus(t, b.do(t, "PUT", path, edit, tok), 200)
	got := rcGet(t, b, tok, rec.ID)
	if got.ServingsUnit != "small loaves" || got.ServingsUnitWord == nil || got.ServingsUnitWord.One != "loaf" || got.ServingsUnitWord.Start != 6 {
		t.Fatalf("edited %q %+v", got.ServingsUnit, got.ServingsUnitWord)
	}
	edit["servingsUnit"] = strings.Repeat("loaf ", 9)
	if r := b.do(t, "PUT", path, edit, tok); r.Status != 400 || !strings.Contains(string(r.Body), `"servingsUnit":`) {
		t.Fatalf("long unit: %d %s", r.Status, r.Body)
	}
	if got := rcGet(t, b, tok, rec.ID); got.ServingsUnit != "small loaves" || *got.Servings != 2 {
		t.Fatalf("a refused edit changed the recipe: %d %q", *got.Servings, got.ServingsUnit)
	}
	// An edit that leaves the unit out writes people, as any field left out takes its default.
	delete(edit, "servingsUnit")
	wantStatus(t, b.do(t, "PUT", path, edit, tok), 200)
	if got := rcGet(t, b, tok, rec.ID); got.ServingsUnit != "" {
		t.Fatalf("unit left out reads %q", got.ServingsUnit)
	}
}
