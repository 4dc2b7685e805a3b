package e2e

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"larder/mailer/mailertest"
)

// recipePage is a small recipe page of our own with schema.org JSON-LD,
// served on loopback for the import.
const recipePage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Lemon Drizzle Cake</title>
<script type="application/ld+json">
{
  "@context": "https://schema.org",
  "@type": "Recipe",
  "name": "Lemon Drizzle Cake",
  "description": "A plain sponge soaked in lemon syrup.",
  "recipeYield": "2 servings",
  "recipeCategory": "Dessert",
  "recipeIngredient": ["1 1/2 cups flour", "2 eggs", "1/2 cup sugar"],
  "recipeInstructions": [
    {"@type": "HowToStep", "text": "Whisk the eggs with the sugar until pale."},
    {"@type": "HowToStep", "text": "Fold in the flour."},
    {"@type": "HowToStep", "text": "Bake for 30 minutes at 180°C."}
  ]
}
</script></head>
<body><h1>Lemon Drizzle Cake</h1><p>Our test kitchen's cake.</p></body></html>`

const (
	recipeTitle = "Lemon Drizzle Cake"
	email       = "cook@example.test"
	password    = "Lemon-drizzle-2025"
)

// TestJourney walks the web client's main path in Chromium, each step
// building on the previous one: register, verify by email, sign in,
// import, scale, cook, cookbooks, and as administrator a backup and its
// restore.
func TestJourney(t *testing.T) {
	requirements(t)
	svc := startService(t)
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/lemon-drizzle" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(recipePage))
	}))
	t.Cleanup(page.Close)
	b := newBrowser(t, svc.URL)
	ctx := context.Background()

	// Each step is a subtest for its name in the output; a failed step
	// stops the journey, since the next ones build on it.
	step := func(name string, f func(t *testing.T)) {
		t.Helper()
		if !t.Run(name, func(t *testing.T) { b.t = t; f(t) }) {
			t.FailNow()
		}
		b.t = t
	}

	step("register", func(t *testing.T) {
		b.open("/register")
		b.fill("register-name", "Ada Cook")
		b.fill("register-email", email)
		b.fill("register-password", password)
		b.screenshot("register")
		b.click("register-submit")
		b.waitTestID("register-done")
	})

	step("verify email from the SMTP server", func(t *testing.T) {
		msg := svc.SMTP.Next(t, 20*time.Second)
		if !slices.Contains(msg.To, email) {
			t.Fatalf("the first email went to %v, want %s", msg.To, email)
		}
		p := msg.Parse(t)
		var link string
		for _, l := range mailertest.Links(p.Text) {
			if strings.HasPrefix(l, svc.URL+"/verify-email/") {
				link = l
			}
		}
		if link == "" {
			t.Fatalf("no %s/verify-email/ link in the email:\n%s", svc.URL, p.Text)
		}
		b.open(link)
		b.wait("the verification to succeed", `document.querySelector('[data-testid=verify-status]')?.dataset.state === 'ok'`)
		b.screenshot("verify-email")
		b.click("verify-continue")
		b.waitPath(`^/login$`)
	})

	step("login", func(t *testing.T) {
		b.signIn(email, password)
		b.screenshot("recipes-empty")
	})

	var recipeID string
	step("import a recipe from a local page", func(t *testing.T) {
		b.click("nav-import")
		b.waitPath(`^/import$`)
		b.fill("import-url", page.URL+"/lemon-drizzle")
		b.click("import-submit")
		b.waitPath(`^/recipes/[0-9a-f-]{36}$`)
		b.wait("the recipe's title", fmt.Sprintf(`document.querySelector('[data-testid=recipe-title]')?.innerText === %s`, js(recipeTitle)))
		recipeID = strings.TrimPrefix(eval[string](b, `location.pathname`), "/recipes/")
		if got, want := b.texts("ingredient-line"), []string{"1 1/2 cups flour", "2 eggs", "1/2 cup sugar"}; !slices.Equal(got, want) {
			b.fail("ingredient lines %q, want %q", got, want)
		}
		if got := b.texts("step"); len(got) != 3 || !strings.Contains(got[1], "Fold in the flour") {
			b.fail("steps %q, want the page's three steps", got)
		}
		b.screenshot("recipe")
	})

	step("scale the servings", func(t *testing.T) {
		if v := eval[string](b, `document.querySelector('[data-testid=servings-input]').value`); v != "2" {
			b.fail("servings %q, want the page's 2", v)
		}
		b.click("servings-increase")
		b.wait("3 servings", `document.querySelector('[data-testid=servings-input]').value === '3'`)
		b.click("servings-increase")
		b.wait("4 servings", `document.querySelector('[data-testid=servings-input]').value === '4'`)
		// Doubling: 1 1/2 → 3, 2 → 4, 1/2 → 1.
		want := []string{"3 cups flour", "4 eggs", "1 cup sugar"}
		b.wait("the doubled ingredient lines", fmt.Sprintf(`JSON.stringify([...document.querySelectorAll('[data-testid=ingredient-line]')].map(e => e.innerText.trim())) === %s`, js(mustJSON(want))))
		b.screenshot("recipe-scaled")
	})

	step("cooking mode", func(t *testing.T) {
		// Cooking mode reads the mapping once; the mapping job runs after the import.
		waitDB(t, svc, "the ingredient mapping", func() (bool, error) {
			var n int
			err := svc.DB.QueryRow(ctx, `SELECT count(*) FROM ingredient_instruction_mapping WHERE recipe_id = $1`, recipeID).Scan(&n)
			return n > 0, err
		})
		b.click("cook-mode-link")
		b.waitPath(`^/recipes/` + recipeID + `/cook$`)
		b.waitTestID("cook-mode")
		b.expectStep(1, "Whisk the eggs with the sugar", []string{"4 eggs", "1 cup sugar"})
		b.screenshot("cooking-mode")
		b.click("cook-next")
		b.expectStep(2, "Fold in the flour", []string{"3 cups flour"})
		b.click("cook-next")
		b.expectStep(3, "Bake for 30 minutes", nil)
		if eval[bool](b, `!document.querySelector('[data-testid=cook-next]').disabled`) {
			b.fail("next is enabled on the last step")
		}
		b.click("cook-prev")
		b.expectStep(2, "Fold in the flour", []string{"3 cups flour"})
		b.click("cook-prev")
		b.expectStep(1, "Whisk the eggs with the sugar", []string{"4 eggs", "1 cup sugar"})
		if eval[bool](b, `!document.querySelector('[data-testid=cook-prev]').disabled`) {
			b.fail("previous is enabled on the first step")
		}
	})

	var parentID, childID string
	step("cookbooks with a nested cookbook and an auto-filter", func(t *testing.T) {
		childID = b.createCookbook("Weeknight Bakes", "")
		parentID = b.createCookbook("Desserts", "Dessert")
		// parentID's edit page is open: include the other cookbook.
		b.choose("cookbook-include-select", childID)
		b.click("cookbook-include-submit")
		b.wait("the included cookbook in the editor", `[...document.querySelectorAll('[data-testid=cookbook-child]')].some(e => e.innerText.includes('Weeknight Bakes'))`)
		b.click("cookbook-done")
		b.waitPath(`^/cookbooks/` + parentID + `$`)
		b.wait("the recipe collected by the category filter", fmt.Sprintf(`!!document.querySelector('[data-testid=cookbook-recipes] [data-recipe-id=%s]')`, js(recipeID)))
		b.wait("the nested cookbook", fmt.Sprintf(`!!document.querySelector('[data-testid=cookbook-children] [data-cookbook-id=%s]')`, js(childID)))
		if got := b.text("cookbook-title"); got != "Desserts" {
			b.fail("cookbook title %q, want Desserts", got)
		}
		b.screenshot("cookbook")
		b.open("/cookbooks")
		b.wait("both cookbooks in the list", `document.querySelectorAll('[data-testid=cookbook-card]').length >= 2`)
		b.screenshot("cookbooks")
	})

	step("sign in as administrator", func(t *testing.T) {
		tag, err := svc.DB.Exec(ctx, `UPDATE app_user SET role = 'ADMIN' WHERE email = $1`, email)
		if err != nil || tag.RowsAffected() != 1 {
			t.Fatalf("promote %s: %v (%d rows)", email, err, tag.RowsAffected())
		}
		b.click("logout")
		b.waitTestID("nav-login")
		b.signIn(email, password)
		b.waitTestID("nav-admin-backups")
	})

	var backupName string
	step("create a backup", func(t *testing.T) {
		b.click("nav-admin-backups")
		b.waitPath(`^/admin/backups$`)
		b.waitTestID("backups-table")
		b.click("backup-create")
		b.wait("the backup to finish", `document.querySelector('[data-testid=backup-status]')?.innerText.includes('Backup created')`)
		b.wait("the backup in the list", `document.querySelectorAll('[data-testid=backup-row]').length === 1`)
		backupName = eval[string](b, `document.querySelector('[data-testid=backup-row]').dataset.name`)
		if backupName == "" {
			b.fail("the backup row has no data-name")
		}
		b.screenshot("admin-backups")
	})

	step("restore the backup behind the confirmation", func(t *testing.T) {
		// A change made after the backup, which the restore must undo.
		if _, err := svc.DB.Exec(ctx, `UPDATE recipe SET title = 'Changed after the backup' WHERE id = $1`, recipeID); err != nil {
			t.Fatal(err)
		}
		b.clickCSS(fmt.Sprintf(`[data-testid=backup-row][data-name=%s] [data-testid=backup-restore]`, js(backupName)))
		b.waitTestID("confirm-ok")
		b.screenshot("admin-backup-restore-confirm")
		b.click("confirm-ok")
		// Restoring replaces the sessions too: the page either reports the
		// restore or has been signed out by it.
		b.wait("the restore to end", `document.querySelector('[data-testid=backup-status]')?.innerText.includes('Restored') || !!document.querySelector('[data-testid=nav-login]')`)
		waitDB(t, svc, "the restored recipe title", func() (bool, error) {
			var title string
			err := svc.DB.QueryRow(ctx, `SELECT title FROM recipe WHERE id = $1`, recipeID).Scan(&title)
			return title == recipeTitle, err
		})
		if eval[bool](b, `!!document.querySelector('[data-testid=nav-login]')`) {
			t.Logf("the restore ended the session: the client is signed out at %s", eval[string](b, `location.pathname`))
		} else {
			t.Logf("the backups page reports: %q", b.text("backup-status"))
		}
		b.screenshot("after-restore")

		// Sign in again if the restore ended the session, and see the
		// restored data through the client.
		b.open("/login")
		b.wait("the sign-in form or the signed-in app", `!!document.querySelector('[data-testid=login-email]') || location.pathname === '/recipes'`)
		if eval[bool](b, `!!document.querySelector('[data-testid=login-email]')`) {
			b.signIn(email, password)
		}
		b.open("/recipes/" + recipeID)
		b.wait("the restored title", fmt.Sprintf(`document.querySelector('[data-testid=recipe-title]')?.innerText === %s`, js(recipeTitle)))
		b.open("/admin/backups")
		b.wait("the backup still listed", fmt.Sprintf(`!!document.querySelector('[data-testid=backup-row][data-name=%s]')`, js(backupName)))
		b.screenshot("admin-backups-restored")
	})
}

// signIn fills the login form and waits for the recipe list.
func (b *browser) signIn(email, password string) {
	b.t.Helper()
	b.open("/login")
	b.fill("login-email", email)
	b.fill("login-password", password)
	b.click("login-submit")
	b.waitPath(`^/recipes$`)
	b.waitTestID("user-menu")
}

// expectStep checks cooking mode's current step: its counter, its text and
// the (scaled) ingredients mapped to it.
func (b *browser) expectStep(n int, text string, ingredients []string) {
	b.t.Helper()
	b.wait(fmt.Sprintf("step %d", n), fmt.Sprintf(`document.querySelector('[data-testid=cook-step-counter]')?.innerText.startsWith('Step %d of 3')`, n))
	if got := b.text("cook-step-text"); !strings.Contains(got, text) {
		b.fail("step %d reads %q, want %q", n, got, text)
	}
	got := b.texts("cook-ingredient")
	slices.Sort(got)
	want := slices.Clone(ingredients)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		b.fail("step %d shows ingredients %q, want %q", n, got, want)
	}
}

var cookbookEditPath = regexp.MustCompile(`^/cookbooks/([0-9a-f-]{36})/edit$`)

// createCookbook creates a cookbook through the form, with an optional
// auto-filter category, and returns its id; its edit page stays open.
func (b *browser) createCookbook(name, category string) string {
	b.t.Helper()
	b.open("/cookbooks/new")
	b.fill("cookbook-name", name)
	if category != "" {
		b.fill("autofilter-categories-input", category)
		b.click("autofilter-categories-add")
		b.wait("the category chip", fmt.Sprintf(`[...document.querySelectorAll('[data-testid=autofilter-categories] .chip')].some(e => e.innerText.includes(%s))`, js(category)))
	}
	b.click("cookbook-save")
	b.waitPath(cookbookEditPath.String())
	m := cookbookEditPath.FindStringSubmatch(eval[string](b, `location.pathname`))
	b.waitTestID("cookbook-include-select")
	return m[1]
}

// waitDB polls the database until check is true.
func waitDB(t *testing.T, svc *service, what string, check func() (bool, error)) {
	t.Helper()
	deadline := time.Now().Add(waitTimeout)
	for {
		ok, err := check()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s (last error: %v)", what, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func mustJSON(v []string) string {
	parts := make([]string, len(v))
	for i, s := range v {
		parts[i] = js(s)
	}
	return "[" + strings.Join(parts, ",") + "]"
}
