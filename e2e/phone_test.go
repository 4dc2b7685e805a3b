package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/google/uuid"

	"larder/repo"
)

// Sizes the client is held to: a 390 × 844 phone, the narrowest common
// phone (360 px) for the menu, and a desktop.
const (
	phoneW, phoneH     = 390, 844
	narrowW, narrowH   = 360, 740
	desktopW, desktopH = 1280, 900
)

// seenDialogs counts the browser prompts TestPhone accepted.
var seenDialogs atomic.Int32

// axeSource is axe-core's browser build, from the web client's dev
// dependencies (npm ci in web/).
const axeSource = "../web/node_modules/axe-core/axe.min.js"

// phoneSeed is what TestPhone's database holds before the browser starts.
type phoneSeed struct {
	ada, ben         seedUser
	soup, pie, other uuid.UUID
	kept, unopened   uuid.UUID
	cookbook         uuid.UUID
	categories       int // distinct categories Ada may read
}

type seedUser struct {
	id              uuid.UUID
	name, email, pw string
}

// TestPhone walks the client as a cook uses it on a phone, then audits
// every main page at phone and desktop sizes (axe-core), checks that the
// client installs and works offline (TestLighthouse measures the recipe
// page). Screenshots of each page at both sizes go to
// e2e/screenshots (ignored by git).
func TestPhone(t *testing.T) {
	requirements(t)
	axe, err := os.ReadFile(axeSource)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("axe-core is missing (cd web && npm ci): %v", err)
		}
		t.Skipf("axe-core is missing (cd web && npm ci): %v", err)
	}
	svc := startService(t)
	seed := seedPhone(t, svc)

	// The browser reaches the service through a proxy the test can cut,
	// as a kitchen loses its signal.
	var offline atomic.Bool
	target, _ := url.Parse(svc.URL)
	forward := httputil.NewSingleHostReverseProxy(target)
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if offline.Load() {
			if hj, ok := w.(http.Hijacker); ok {
				if conn, _, err := hj.Hijack(); err == nil {
					conn.Close()
					return
				}
			}
			http.Error(w, "offline", http.StatusBadGateway)
			return
		}
		forward.ServeHTTP(w, r)
	}))
	t.Cleanup(proxy.Close)

	b := newBrowser(t, proxy.URL)
	b.size(phoneW, phoneH, true)
	// The browser's own prompts (beforeunload): counted, then accepted.
	dialogs := make(chan string, 8)
	if err := chromedp.Listen(b.ctx, func(ev any) {
		if e, ok := ev.(*page.EventJavascriptDialogOpening); ok {
			select {
			case dialogs <- string(e.Type):
			default:
			}
		}
	}); err != nil {
		t.Fatal(err)
	}
	go func() {
		for range dialogs {
			_, _ = chromedp.Call(b.ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: true})
			seenDialogs.Add(1)
		}
	}()
	step := func(name string, f func(t *testing.T)) {
		t.Helper()
		if !t.Run(name, func(t *testing.T) { b.t = t; f(t) }) {
			t.FailNow()
		}
		b.t = t
	}

	step("signed out: no refresh call on load", func(t *testing.T) {
		b.open("/recipes")
		b.waitTestID("nav-login")
		b.wait("the list", `document.querySelectorAll('[data-testid=recipe-card]').length > 0`)
		if n := eval[int](b, `performance.getEntriesByType('resource').filter(e => e.name.includes('/api/auth/refresh')).length`); n != 0 {
			b.fail("a signed-out load called /api/auth/refresh %d times (a 401 in the console)", n)
		}
	})

	step("a shared link signed out offers sign-in and comes back, saying who shared it", func(t *testing.T) {
		b.open("/recipes/" + seed.pie.String())
		b.waitTestID("error-signed-out")
		b.click("error-sign-in")
		b.waitPath(`^/login$`)
		b.fill("login-email", seed.ben.email)
		b.fill("login-password", seed.ben.pw)
		b.click("login-submit")
		b.waitPath(`^/recipes/` + seed.pie.String() + `$`)
		b.wait("the recipe", `document.querySelector('[data-testid=recipe-title]')?.innerText === "Granny's pie"`)
		if got := b.text("recipe-owner"); got != "Shared with you by "+seed.ada.name {
			b.fail("owner line %q", got)
		}
		b.click("logout")
		b.waitTestID("nav-login")
	})

	step("sign in on a phone", func(t *testing.T) {
		b.open("/login")
		b.fill("login-email", seed.ada.email)
		b.fill("login-password", seed.ada.pw)
		b.click("login-submit")
		b.waitPath(`^/recipes$`)
		b.waitTestID("logout") // the name is not shown on a phone
	})

	step("the category menu is every readable category, whatever the search", func(t *testing.T) {
		want := seed.categories + 1 // and "All"
		options := `document.querySelector('[data-testid=filter-category]').options.length`
		b.wait(fmt.Sprintf("%d category options", want), fmt.Sprintf(`%s === %d`, options, want))
		b.fill("recipe-search", "Tomato")
		b.wait("the search's one result", `document.querySelector('[data-testid=recipe-list-total]')?.innerText === '1 recipe'`)
		if n := eval[int](b, options); n != want {
			b.fail("the category menu has %d options after a search, want %d", n, want)
		}
		b.choose("filter-category", "Cat3")
		b.wait("the URL to hold the category", `location.search.includes('category=Cat3')`)
	})

	step("servings: a stepper, and a box that can be cleared and retyped", func(t *testing.T) {
		b.open("/recipes/" + seed.soup.String())
		b.waitTestID("servings-input")
		in := sel("servings-input")
		b.run("clear the servings", chromedp.Focus(chromedp.CSS(in)),
			chromedp.SendKeys(chromedp.CSS(in), kb.End+kb.Backspace))
		b.wait("an empty box", `document.querySelector('[data-testid=servings-input]').value === ''`)
		b.run("type 3", chromedp.SendKeys(chromedp.CSS(in), "3"))
		b.wait("3 servings", `document.querySelector('[data-testid=servings-input]').value === '3'`)
		b.wait("scaled lines", `[...document.querySelectorAll('[data-testid=ingredient-line]')].some(e => e.innerText.trim() === '3 tomatoes')`)
		b.click("servings-increase")
		b.wait("4 servings", `document.querySelector('[data-testid=servings-input]').value === '4'`)
	})

	step("add to cookbook from the recipe page", func(t *testing.T) {
		b.click("add-to-cookbook")
		b.waitTestID("add-to-cookbook-select")
		b.click("add-to-cookbook-submit")
		b.wait("the confirmation", `document.querySelector('[data-testid=add-to-cookbook-status]')?.innerText.startsWith('Added to')`)
		var n int
		if err := svc.DB.QueryRow(context.Background(), `SELECT count(*) FROM cookbook_recipe WHERE cookbook_id = $1 AND recipe_id = $2`,
			seed.cookbook, seed.soup).Scan(&n); err != nil || n != 1 {
			t.Fatalf("cookbook_recipe rows %d (%v)", n, err)
		}
	})

	step("cooking mode: ticks and several timers from the step's words", func(t *testing.T) {
		b.open("/recipes/" + seed.soup.String() + "/cook")
		b.waitTestID("cook-mode")
		b.click("cook-next")
		b.wait("step 2", `document.querySelector('[data-testid=cook-step-counter]')?.innerText.startsWith('Step 2 of 2')`)
		if got, want := b.text("cook-step-text"), "Simmer in the stock for 20 minutes, then rest 10–15 min and blend."; got != want {
			b.fail("the step reads %q with its timer buttons, want %q", got, want)
		}
		if got := b.texts("cook-timer-start"); strings.Join(got, "|") != "20 minutes|10–15 min" {
			b.fail("timer buttons %q", got)
		}
		b.clickCSS(`[data-testid=cook-timer-start]:nth-of-type(1)`)
		b.clickCSS(`[data-testid=cook-timer-start]:nth-of-type(2)`)
		b.wait("two timers", `document.querySelectorAll('[data-testid=cook-timer]').length === 2`)
		clocks := eval[[]string](b, `[...document.querySelectorAll('[data-testid=cook-timer] [role=timer]')].map(e => e.innerText)`)
		if len(clocks) != 2 || !strings.HasPrefix(clocks[0], "19:") && clocks[0] != "20:00" || !strings.HasPrefix(clocks[1], "9:") && clocks[1] != "10:00" {
			b.fail("timer clocks %q", clocks)
		}
		b.click("cook-show-all")
		b.clickCSS(`[data-testid=cook-ingredient-tick]`)
		b.wait("a ticked ingredient", `document.querySelector('[data-testid=cook-ingredient-tick]').checked`)
		b.click("cook-step-done")
		b.wait("the step ticked", `document.querySelector('[data-testid=cook-step-done]').checked`)
		b.screenshot("phone-cooking-timers")
		// Timers and ticks are kept across a reload (a screen lock that dropped the page).
		b.open("/recipes/" + seed.soup.String() + "/cook")
		b.wait("the timers after a reload", `document.querySelectorAll('[data-testid=cook-timer]').length === 2`)
		b.click("cook-timer-dismiss")
		b.wait("one timer", `document.querySelectorAll('[data-testid=cook-timer]').length === 1`)
	})

	step("leaving the editor with changes asks first", func(t *testing.T) {
		b.open("/recipes/" + seed.soup.String() + "/edit")
		b.fill("recipe-description", " Changed.")
		b.click("menu-toggle")
		b.click("nav-recipes")
		b.clickCSS(`dialog[open] [data-testid=confirm-cancel]`)
		b.wait("the question to close", `!document.querySelector('dialog[open]')`)
		b.waitPath(`^/recipes/` + seed.soup.String() + `/edit$`)
		b.click("menu-toggle")
		b.click("nav-recipes")
		b.clickCSS(`dialog[open] [data-testid=confirm-ok]`)
		b.waitPath(`^/recipes$`)
		// Closing or reloading the tab with changes: the browser asks.
		b.open("/recipes/" + seed.soup.String() + "/edit")
		b.fill("recipe-description", " Changed again.")
		before := seenDialogs.Load()
		b.open("/recipes")
		if seenDialogs.Load() == before {
			b.fail("leaving the page with unsaved changes did not ask (beforeunload)")
		}
		b.waitPath(`^/recipes$`)
		// The silent refresh rotates the session cookie: let it land before
		// the next page load, as a person reading the page would.
		b.waitTestID("logout")
		// Saving is not leaving without saving: no question.
		b.open("/recipes/" + seed.soup.String() + "/edit")
		b.fill("recipe-description", "Saved.")
		b.click("recipe-save")
		b.waitPath(`^/recipes/` + seed.soup.String() + `$`)
		b.wait("the saved description", `document.querySelector('.lead')?.innerText === 'Saved.'`)
		if eval[bool](b, `!!document.querySelector('dialog[open]')`) {
			b.fail("saving asked whether to leave")
		}
	})

	step("mapping editor: regenerated ticks show at once, Save stays in reach", func(t *testing.T) {
		before := seenDialogs.Load()
		b.open("/recipes/" + seed.soup.String() + "/mappings")
		b.waitTestID("mapping-regenerate")
		if seenDialogs.Load() != before {
			b.fail("a page without changes asked before unloading")
		}
		b.click("mapping-regenerate")
		b.wait("the regenerated ticks", `document.querySelector('[data-testid=mapping-status]')?.innerText === 'Regenerated.' && [...document.querySelectorAll('[data-testid=mapping-checkbox]')].some(c => c.checked)`)
		b.clickCSS(`[data-testid=mapping-step][open] [data-testid=mapping-checkbox]`)
		eval[bool](b, `(window.scrollTo(0, document.body.scrollHeight), true)`)
		inView := `(() => { const r = document.querySelector('[data-testid=mapping-save]').getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; })()`
		if !eval[bool](b, inView) {
			b.fail("Save is out of view at the bottom of the page")
		}
		b.click("mapping-save")
		b.wait("saved", `document.querySelector('[data-testid=mapping-status]')?.innerText === 'Saved.'`)
	})

	step("the menu fits 360 px and reaches every link", func(t *testing.T) {
		b.size(narrowW, narrowH, true)
		b.open("/recipes")
		b.waitTestID("menu-toggle")
		b.noSidewaysScroll("/recipes")
		b.click("menu-toggle")
		for _, id := range []string{"nav-cookbooks", "nav-import", "nav-new-recipe", "nav-admin-users", "nav-admin-backups"} {
			b.waitTestID(id)
			if !eval[bool](b, fmt.Sprintf(`(() => { const r = document.querySelector(%s).getBoundingClientRect(); return r.left >= 0 && r.right <= innerWidth; })()`, js(sel(id)))) {
				b.fail("%s is not within the %d px screen", id, narrowW)
			}
		}
		b.click("nav-admin-backups")
		b.waitTestID("backups-table")
		b.noSidewaysScroll("/admin/backups")
		b.size(phoneW, phoneH, true)
	})

	var listPath string
	step("a shopping list to audit and to open offline", func(t *testing.T) {
		b.open("/shopping")
		b.fill("new-list-name", "Groceries")
		b.click("new-list-submit")
		b.waitPath(`^/shopping/[0-9a-f-]{36}$`)
		b.waitTestID("list-name")
		b.fill("new-item", "2 lemons")
		b.click("new-item-submit")
		b.wait("the item", `[...document.querySelectorAll('[data-testid=item-text]')].some(e => e.innerText.includes('lemons'))`)
		listPath = eval[string](b, `location.pathname`)
	})

	pages := []struct{ name, path, ready string }{
		{"recipes", "/recipes", "recipe-card"},
		{"recipe", "/recipes/" + seed.soup.String(), "recipe-title"},
		{"editor", "/recipes/" + seed.soup.String() + "/edit", "recipe-form"},
		{"new-recipe", "/recipes/new", "recipe-form"},
		{"cooking-mode", "/recipes/" + seed.soup.String() + "/cook", "cook-mode"},
		{"mappings", "/recipes/" + seed.soup.String() + "/mappings", "mapping-save"},
		{"import", "/import", "import-url"},
		{"cookbooks", "/cookbooks", "cookbook-card"},
		{"cookbook", "/cookbooks/" + seed.cookbook.String(), "cookbook-title"},
		{"plan", "/plan", "week"},
		{"shopping-lists", "/shopping", "shopping-list-link"},
		{"shopping-list", listPath, "shopping-item"},
		{"admin-users", "/admin/users", "users-table"},
		{"admin-backups", "/admin/backups", "backups-table"},
	}
	audit := func(size string, pages []struct{ name, path, ready string }) {
		for _, p := range pages {
			b.open(p.path)
			b.waitTestID(p.ready)
			b.wait("the page to settle", `!document.querySelector('.skeleton')`)
			b.screenshot(size + "-" + p.name)
			b.injectAxe(axe)
			found := evalAsync[[]string](b, axeSeriousAndCritical)
			if len(found) > 0 {
				t.Errorf("axe at %s on %s: %d serious or critical violations:\n  %s", size, p.path, len(found), strings.Join(found, "\n  "))
			}
			if size == "phone" { // (once: the dark theme changes colours only)
				b.noSidewaysScroll(p.path)
				if small := eval[[]string](b, smallTouchTargets); len(small) > 0 {
					t.Errorf("touch targets under 44 × 44 px on %s:\n  %s", p.path, strings.Join(small, "\n  "))
				}
			}
		}
		t.Logf("axe-core: %d pages at %s size, serious or critical violations reported above (none when nothing is)", len(pages), size)
	}

	step("axe and touch targets on every main page at phone size", func(t *testing.T) { audit("phone", pages) })
	step("axe on every main page at desktop size", func(t *testing.T) {
		b.size(desktopW, desktopH, false)
		audit("desktop", pages)
		b.size(phoneW, phoneH, true)
	})
	step("axe in the dark theme on the kitchen pages", func(t *testing.T) { // recipe list to mapping editor
		dark := &emulation.MediaFeature{Name: "prefers-color-scheme", Value: "dark"}
		if _, err := chromedp.Call(b.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{dark}}); err != nil {
			t.Fatal(err)
		}
		defer func() {
			_, _ = chromedp.Call(b.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: ""}}})
		}()
		audit("phone-dark", pages[:6])
	})

	step("installable: a manifest and a service worker that controls the page", func(t *testing.T) {
		b.open("/recipes")
		b.waitTestID("recipe-card")
		b.waitForAsync("the service worker to be ready", `navigator.serviceWorker.ready.then(() => true)`)
		b.open("/recipes")
		b.wait("the service worker to control the page", `!!navigator.serviceWorker.controller`)
		raw := evalAsync[string](b, `(async () => {
			const href = document.querySelector('link[rel=manifest]')?.href;
			return href ? JSON.stringify(await (await fetch(href)).json()) : '';
		})()`)
		var m struct {
			Name, ShortName, StartURL, Display string
			Icons                              []struct{ Src, Sizes, Type string }
		}
		if err := json.Unmarshal([]byte(strings.NewReplacer(`"short_name"`, `"shortName"`, `"start_url"`, `"startURL"`).Replace(raw)), &m); err != nil {
			b.fail("manifest %q: %v", raw, err)
		}
		sizes := map[string]bool{}
		for _, ic := range m.Icons {
			if ic.Type == "image/png" {
				sizes[ic.Sizes] = true
			}
		}
		if m.Name == "" || m.StartURL == "" || (m.Display != "standalone" && m.Display != "fullscreen" && m.Display != "minimal-ui") ||
			!sizes["192x192"] || !sizes["512x512"] {
			b.fail("manifest lacks what installing needs: %s", raw)
		}
		for _, ic := range []string{"/icon-192.png", "/icon-512.png"} {
			if st := evalAsync[int](b, fmt.Sprintf(`(async () => (await fetch(%s)).status)()`, js(ic))); st != 200 {
				b.fail("%s answers %d", ic, st)
			}
		}
	})

	step("the built client is served cached for good, compressed", func(t *testing.T) {
		get := func(path, accept string) (*http.Response, []byte) {
			req, _ := http.NewRequest(http.MethodGet, svc.URL+path, nil)
			req.Header.Set("Accept-Encoding", accept)
			resp, err := http.DefaultTransport.RoundTrip(req) // as sent: no transparent decompression
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var body bytes.Buffer
			_, _ = body.ReadFrom(resp.Body)
			return resp, body.Bytes()
		}
		resp, html := get("/recipes", "")
		if cc := resp.Header.Get("Cache-Control"); cc != "no-cache" {
			t.Errorf("index.html Cache-Control %q", cc)
		}
		m := regexp.MustCompile(`src="(/assets/[^"]+\.js)"`).FindSubmatch(html)
		if m == nil {
			t.Fatalf("no entry script in %s", html)
		}
		for _, enc := range []string{"br", "gzip"} {
			resp, _ := get(string(m[1]), enc)
			if resp.StatusCode != 200 || resp.Header.Get("Content-Encoding") != enc ||
				resp.Header.Get("Cache-Control") != "public, max-age=31536000, immutable" {
				t.Errorf("%s with %s: %d, Content-Encoding %q, Cache-Control %q", m[1], enc, resp.StatusCode,
					resp.Header.Get("Content-Encoding"), resp.Header.Get("Cache-Control"))
			}
		}
		if resp, _ := get("/sw.js", "br"); resp.Header.Get("Cache-Control") != "no-cache" {
			t.Errorf("sw.js Cache-Control %q", resp.Header.Get("Cache-Control"))
		}
	})

	step("offline: opened and kept recipes open, other pages say they need the network", func(t *testing.T) {
		b.open("/recipes/" + seed.kept.String())
		b.click("keep-offline")
		b.wait("kept", `document.querySelector('[data-testid=keep-offline]').getAttribute('aria-pressed') === 'true'`)
		// Only the kept copy of that one: forget the recipes opened so far.
		b.waitForAsync("the opened-recipes cache to be emptied", `caches.delete('larder-recipes').then(() => true)`)
		b.open("/recipes/" + seed.soup.String())
		b.wait("the soup", `document.querySelector('[data-testid=recipe-title]')?.innerText === 'Tomato soup'`)

		offline.Store(true)
		defer offline.Store(false)
		b.open("/recipes/" + seed.soup.String())
		b.wait("the soup opened before, offline", `document.querySelector('[data-testid=recipe-title]')?.innerText === 'Tomato soup'`)
		b.screenshot("phone-offline-recipe")
		b.open("/recipes/" + seed.kept.String())
		b.wait("the kept recipe, offline", `document.querySelector('[data-testid=recipe-title]')?.innerText === 'Kept for the kitchen'`)
		b.open("/recipes/" + seed.unopened.String())
		b.waitTestID("error-offline")
		// The notice lists what opens offline, kept first: no dead end.
		b.waitTestID("offline-recipes")
		if got := eval[[]string](b, `[...document.querySelectorAll('[data-testid=offline-recipes] a')].map(a => a.innerText)`); strings.Join(got, "|") != "Kept for the kitchen|Tomato soup" {
			b.fail("recipes offered offline: %q", got)
		}
		b.clickCSS(`[data-testid=offline-recipes] a`)
		b.wait("the kept recipe from the list", `document.querySelector('[data-testid=recipe-title]')?.innerText === 'Kept for the kitchen'`)
		// A page for signed-in cooks: the session cannot be checked offline,
		// which is no reason to send the cook to the sign-in page.
		b.open("/cookbooks")
		b.waitTestID("error-offline")
		b.screenshot("phone-offline-needs-network")
		// A shopping list works offline on its own (its queue), even opened cold.
		b.open(listPath)
		b.wait("the list offline", `[...document.querySelectorAll('[data-testid=item-text]')].some(e => e.innerText.includes('lemons'))`)
		b.screenshot("phone-offline-shopping-list")
	})
}

// seedPhone creates the users, recipes and cookbook TestPhone walks.
func seedPhone(t *testing.T, svc *service) phoneSeed {
	t.Helper()
	ctx := context.Background()
	register := func(name, email string) seedUser {
		u := seedUser{name: name, email: email, pw: "Phone-kitchen-2025"}
		body, _ := json.Marshal(map[string]string{"name": name, "email": email, "password": u.pw})
		resp, err := http.Post(svc.URL+"/api/auth/register", "application/json", bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusCreated && resp.StatusCode != http.StatusOK {
			t.Fatalf("register %s: %d", email, resp.StatusCode)
		}
		if err := svc.DB.QueryRow(ctx, `UPDATE app_user SET email_verified = true WHERE email = $1 RETURNING id`, email).Scan(&u.id); err != nil {
			t.Fatal(err)
		}
		return u
	}
	s := phoneSeed{ada: register("Ada Cook", "ada@example.test"), ben: register("Ben Friend", "ben@example.test")}
	if _, err := svc.DB.Exec(ctx, `UPDATE app_user SET role = 'ADMIN' WHERE id = $1`, s.ada.id); err != nil {
		t.Fatal(err)
	}
	four := 4
	add := func(in repo.RecipeInput) uuid.UUID {
		if in.Servings == nil {
			in.Servings = &four
		}
		if in.IngredientSections == nil {
			in.IngredientSections = []repo.Section{{Items: []repo.Item{{Text: "1 onion"}}}}
			in.InstructionSections = []repo.Section{{Items: []repo.Item{{Text: "Chop the onion."}}}}
		}
		id, err := repo.CreateRecipe(ctx, svc.DB, s.ada.id, in)
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	s.soup = add(repo.RecipeInput{Title: "Tomato soup", Visibility: "PUBLIC", Categories: []string{"Soup", "Dinner"}, Tags: []string{"quick"},
		IngredientSections: []repo.Section{{Items: []repo.Item{{Text: "4 tomatoes"}, {Text: "1 onion"}, {Text: "500 ml stock"}}}},
		InstructionSections: []repo.Section{{Items: []repo.Item{{Text: "Chop the tomatoes and the onion."},
			{Text: "Simmer in the stock for 20 minutes, then rest 10–15 min and blend."}}}}})
	s.pie = add(repo.RecipeInput{Title: "Granny's pie", Visibility: "SHARED", Categories: []string{"Dessert"}})
	if _, _, err := repo.AddShare(ctx, svc.DB, s.pie, s.ben.id); err != nil {
		t.Fatal(err)
	}
	s.other = add(repo.RecipeInput{Title: "Secret stew", Visibility: "PRIVATE", Categories: []string{"Secret"}})
	for i := 1; i <= 6; i++ {
		add(repo.RecipeInput{Title: fmt.Sprintf("Weeknight dish %d", i), Visibility: "PUBLIC", Categories: []string{fmt.Sprintf("Cat%d", i)}})
	}
	s.kept = add(repo.RecipeInput{Title: "Kept for the kitchen", Visibility: "PRIVATE", Categories: []string{"Secret"}})
	s.unopened = add(repo.RecipeInput{Title: "Never opened", Visibility: "PRIVATE"})
	s.categories = 2 + 1 + 1 + 6 // Soup, Dinner, Dessert, Secret, Cat1–6
	cb, err := repo.CreateCookbook(ctx, svc.DB, s.ada.id, repo.CookbookInput{Name: "Soups"})
	if err != nil {
		t.Fatal(err)
	}
	s.cookbook = cb.ID
	return s
}

// size sets the viewport; mobile also emulates touch and the meta viewport.
func (b *browser) size(w, h int64, mobile bool) {
	b.t.Helper()
	if mobile {
		b.run("phone viewport", chromedp.EmulateViewport(w, h, chromedp.EmulateMobile, chromedp.EmulateTouch))
	} else {
		b.run("desktop viewport", chromedp.EmulateViewport(w, h))
	}
}

// waitForAsync evaluates a promise-valued expression until it resolves true.
func (b *browser) waitForAsync(what, expr string) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, waitTimeout)
	defer cancel()
	ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](expr, chromedp.EvalAwaitPromise))
	if err != nil || !ok {
		b.fail("%s: %v (%v)", what, ok, err)
	}
}

// evalAsync evaluates a promise-valued expression and decodes what it resolves to.
func evalAsync[T any](b *browser, expr string) T {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, waitTimeout)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		b.fail("evaluate %s: %v", expr, err)
	}
	return v
}

// noSidewaysScroll fails when the page is wider than the screen.
func (b *browser) noSidewaysScroll(path string) {
	b.t.Helper()
	if w := eval[[]int](b, `[document.documentElement.scrollWidth, innerWidth]`); w[0] > w[1] {
		b.fail("%s scrolls sideways: %d px of content on a %d px screen", path, w[0], w[1])
	}
}

// injectAxe loads axe-core into the page (once per document).
func (b *browser) injectAxe(source []byte) {
	b.t.Helper()
	if eval[bool](b, `typeof window.axe === 'object'`) {
		return
	}
	eval[bool](b, string(source)+";\ntrue")
}

// axeSeriousAndCritical runs axe-core with the WCAG 2.1 A/AA rules and its
// best practices, and lists the serious and critical violations.
const axeSeriousAndCritical = `axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } })
	.then(r => r.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
		.map(v => v.impact + ' ' + v.id + ': ' + v.help + ' at ' + v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(', ')))`

// smallTouchTargets lists the controls a finger must hit that are smaller
// than 44 × 44 px (a checkbox counts by its label; links inside running
// text are exempt, as WCAG 2.5.8 has it).
const smallTouchTargets = `(() => {
	const shown = (e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== 'hidden'; };
	const out = [];
	for (const e of document.querySelectorAll('button, a.button, a.pill, .mainnav a, select, input, summary, textarea')) {
		if (!shown(e) || e.closest('.visually-hidden, .skip-link, dialog:not([open])')) continue;
		if (e.tagName !== 'SUMMARY' && e.closest('details:not([open])')) continue; // folded away
		let box = e;
		if (e.type === 'checkbox' || e.type === 'radio') box = e.closest('label') || e;
		const r = box.getBoundingClientRect();
		if (r.height < 43.5 || r.width < 43.5) out.push(Math.round(r.width) + '×' + Math.round(r.height) + ' ' + box.outerHTML.slice(0, 90));
	}
	return out;
})()`
