package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"larder/importer/archive/archivetest"
	pwhash "larder/password"
	"larder/repo"
)

// TestArchiveImport signs in, then imports one export of each format from
// the Import page's "Import from another app": it chooses the file, waits
// for the result (the detected format, two recipes created), opens a
// created recipe and checks its title and, where the export holds the
// photo, its image.
func TestArchiveImport(t *testing.T) {
	requirements(t)
	svc := startService(t)
	const pw = "Archive-import-pass-1"
	hash, err := pwhash.Hash(pw, 4)
	if err != nil {
		t.Fatal(err)
	}
	email := "archives@example.test"
	if _, err := repo.CreateUser(context.Background(), svc.DB, repo.CreateUserParams{
		Email: email, Name: "Archive Cook", Role: repo.RoleUser, PasswordHash: &hash, EmailVerified: true,
	}); err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t, svc.URL)
	b.signIn(email, pw)

	dir := t.TempDir()
	formats := []struct {
		name, label, file string
		build             func([]archivetest.Recipe) []byte
		image             bool
	}{
		{"mealie", "Mealie recipe export", "mealie.zip", archivetest.MealieExport, true},
		{"mealie backup", "Mealie backup", "mealie_2026.01.02.zip", archivetest.MealieBackup, true},
		{"tandoor", "Tandoor export", "export.zip", archivetest.Tandoor, true},
		{"paprika", "Paprika export", "My Recipes.paprikarecipes", archivetest.Paprika, true},
		{"nextcloud", "Nextcloud Cookbook", "Recipes.zip", archivetest.Nextcloud, true},
		{"schema.org zip", "schema.org recipes", "recipes.zip", archivetest.SchemaOrgZip, true},
		{"schema.org json", "schema.org recipes", "recipes.json", func(r []archivetest.Recipe) []byte { return archivetest.SchemaOrgJSON(r, "") }, false},
	}
	for i, f := range formats {
		recipes := archivetest.Samples(2, f.image)
		for k := range recipes {
			recipes[k].Title = fmt.Sprintf("%s soup %d", strings.ToUpper(f.name[:1])+f.name[1:], k+1)
			recipes[k].SourceURL = fmt.Sprintf("https://recipes.example.com/%d/%d", i, k)
		}
		path := filepath.Join(dir, f.file)
		if err := os.WriteFile(path, f.build(recipes), 0o644); err != nil {
			t.Fatal(err)
		}

		b.open("/import")
		b.waitTestID("archive-file")
		b.run("choose "+f.file, chromedp.SetUploadFiles(chromedp.CSS(sel("archive-file")), []string{path}))
		b.click("archive-submit")
		b.waitTestID("archive-result")
		if got := b.text("archive-format"); !strings.Contains(got, f.label) {
			b.fail("%s: detected format reads %q, want %q", f.name, got, f.label)
		}
		if got := b.text("archive-summary"); got != "2 created" {
			b.fail("%s: summary %q, want \"2 created\"", f.name, got)
		}
		b.screenshot("archive-" + strings.ReplaceAll(f.name, " ", "-"))

		b.clickCSS(sel("archive-created") + " li:first-child a")
		b.waitPath(`^/recipes/[0-9a-f-]{36}$`)
		if got := b.text("recipe-title"); got != recipes[0].Title {
			b.fail("%s: opened %q, want %q", f.name, got, recipes[0].Title)
		}
		if f.image {
			b.wait(f.name+" recipe image", `(() => { const i = document.querySelector('img.recipe-hero, .recipe-hero img'); return i && i.complete && i.naturalWidth > 0; })()`)
		}
	}
}
