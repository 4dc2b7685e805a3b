package e2e

import (
	"context"
	"fmt"
	"regexp"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	pwhash "larder/password"
	"larder/repo"
)

// verifiedUser creates a verified user who signs in with the password.
func verifiedUser(t *testing.T, svc *service, name, email, pw string) repo.User {
	t.Helper()
	hash, err := pwhash.Hash(pw, 4)
	if err != nil {
		t.Fatal(err)
	}
	u, err := repo.CreateUser(context.Background(), svc.DB, repo.CreateUserParams{Email: email, Name: name, Role: repo.RoleUser,
		PasswordHash: &hash, EmailVerified: true})
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// setValue sets an input's value the way typing does for React (date inputs
// take no keys in a locale-independent way).
func (b *browser) setValue(testID, value string) {
	b.t.Helper()
	b.waitTestID(testID)
	eval[bool](b, fmt.Sprintf(`(() => {
		const e = document.querySelector(%s);
		Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set.call(e, %s);
		e.dispatchEvent(new Event('input', { bubbles: true }));
		return true;
	})()`, js(sel(testID)), js(value)))
}

// offline cuts the tab off the network (requests fail, navigator.onLine is
// false and the offline event fires), or connects it again.
func (b *browser) offline(off bool) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
	defer cancel()
	if _, err := chromedp.Call(ctx, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{
		MatchedNetworkConditions: []*network.Conditions{{Offline: off, DownloadThroughput: -1, UploadThroughput: -1}},
	}); err != nil {
		b.fail("network conditions: %v", err)
	}
	if _, err := chromedp.Call(ctx, network.OverrideNetworkState, network.OverrideNetworkStateParams{
		Offline: off, DownloadThroughput: -1, UploadThroughput: -1,
	}); err != nil {
		b.fail("network state: %v", err)
	}
}

// itemChecked is the JavaScript test "the list shows the item as checked".
func itemChecked(text string, checked bool) string {
	return fmt.Sprintf(`[...document.querySelectorAll('[data-testid=shopping-item]')].some(li =>
		li.querySelector('[data-testid=item-text]').innerText.trim() === %s && li.dataset.checked === %q)`, js(text), fmt.Sprint(checked))
}

func (b *browser) checkItem(text string) {
	b.t.Helper()
	b.wait("item "+text, itemChecked(text, false))
	eval[bool](b, fmt.Sprintf(`(() => {
		const li = [...document.querySelectorAll('[data-testid=shopping-item]')].find(li => li.querySelector('[data-testid=item-text]').innerText.trim() === %s);
		li.querySelector('[data-testid=item-check]').click();
		return true;
	})()`, js(text)))
}

var shoppingPath = regexp.MustCompile(`^/shopping/([0-9a-f-]{36})$`)

// A household plans the week, builds its list, and shops with two phones,
// one of which loses its signal in the shop.
func TestPlannerAndSharedShoppingList(t *testing.T) {
	requirements(t)
	svc := startService(t)
	ctx := context.Background()
	const pw = "Correct horse battery 9"
	ada := verifiedUser(t, svc, "Ada", "ada@example.test", pw)
	verifiedUser(t, svc, "Bob", "bob@example.test", pw)
	four := 4
	recipes := map[string][]string{
		"Pancakes":       {"1 cup milk", "2 large eggs, beaten", "200 g flour"},
		"Tomato soup":    {"200 ml milk", "1 kg tomatoes", "1 onion"},
		"Spanish omelet": {"4 eggs", "500 g potatoes", "1 onion"},
	}
	ids := map[string]string{}
	for title, lines := range recipes {
		items := make([]repo.Item, len(lines))
		for i, l := range lines {
			items[i] = repo.Item{Text: l}
		}
		id, err := repo.CreateRecipe(ctx, svc.DB, ada.ID, repo.RecipeInput{Title: title, Visibility: repo.VisibilityPrivate, Servings: &four,
			IngredientSections: []repo.Section{{Items: items}}, InstructionSections: []repo.Section{{Items: []repo.Item{{Text: "Cook."}}}}})
		if err != nil {
			t.Fatal(err)
		}
		ids[title] = id.String()
	}

	a := newBrowser(t, svc.URL)
	a.signIn("ada@example.test", pw)
	// This week's Monday, as the planner computes it in the browser.
	monday := eval[string](a, `(() => { const d = new Date(); d.setDate(d.getDate() - (d.getDay() + 6) % 7);
		const p = n => String(n).padStart(2, '0'); return d.getFullYear() + '-' + p(d.getMonth() + 1) + '-' + p(d.getDate()); })()`)
	days := map[string]int{"Pancakes": 0, "Tomato soup": 2, "Spanish omelet": 4}
	for title, offset := range days {
		a.open("/recipes/" + ids[title])
		a.click("add-to-plan")
		a.setValue("plan-date", eval[string](a, fmt.Sprintf(`(() => { const d = new Date(%s + 'T12:00:00'); d.setDate(d.getDate() + %d);
			const p = n => String(n).padStart(2, '0'); return d.getFullYear() + '-' + p(d.getMonth() + 1) + '-' + p(d.getDate()); })()`, js(monday), offset)))
		a.choose("plan-meal", "dinner")
		a.click("plan-submit")
		a.wait("the entry to be planned", `document.querySelector('[data-testid=add-to-plan]') !== null && document.body.innerText.includes('Planned for dinner')`)
	}
	a.open("/plan")
	a.wait("three planned dinners", `document.querySelectorAll('[data-testid=plan-entry]').length === 3`)
	a.screenshot("planner-week")
	// A desktop shows the days side by side; a phone one day per row.
	sameRow := `(() => { const d = [...document.querySelectorAll('.week-day')]; return d.length === 7 && d[1].getBoundingClientRect().top === d[0].getBoundingClientRect().top; })()`
	if !eval[bool](a, sameRow) {
		a.fail("the desktop week is not a grid of days")
	}
	a.run("phone viewport", chromedp.EmulateViewport(390, 844))
	a.wait("one day per row", `(() => { const d = [...document.querySelectorAll('.week-day')]; return d[1].getBoundingClientRect().top >= d[0].getBoundingClientRect().bottom; })()`)
	a.screenshot("planner-week-phone")
	a.run("desktop viewport", chromedp.EmulateViewport(1280, 900))
	a.click("plan-to-list")
	a.waitPath(shoppingPath.String())
	listID := shoppingPath.FindStringSubmatch(eval[string](a, `location.pathname`))[1]
	// 1 cup + 200 ml of milk is one item; eggs 2 + 4; onions 1 + 1.
	a.wait("merged milk", `[...document.querySelectorAll('[data-testid=shopping-item]')].some(li => li.innerText.includes('milk') && /\d/.test(li.innerText))`)
	if n := eval[int](a, `[...document.querySelectorAll('[data-testid=item-text]')].filter(e => e.innerText.trim() === 'milk').length`); n != 1 {
		a.fail("milk is on the list %d times", n)
	}
	a.wait("six eggs", `[...document.querySelectorAll('[data-testid=shopping-item]')].some(li => li.innerText.includes('6') && li.innerText.includes('eggs'))`)
	// Share the list with the household.
	eval[bool](a, `(document.querySelector('.list-settings').open = true, true)`)
	a.fill("list-share-email", "bob@example.test")
	a.click("list-share-submit")
	a.wait("the share", `document.body.innerText.includes('bob@example.test')`)
	a.screenshot("shopping-list")

	b := newBrowser(t, svc.URL)
	b.signIn("bob@example.test", pw)
	b.open("/shopping/" + listID)
	b.wait("Bob's list", itemChecked("milk", false))
	b.wait("Bob's live stream", `document.querySelector('[data-testid=sync-status]').innerText === 'Live'`)
	a.wait("Ada's live stream", `document.querySelector('[data-testid=sync-status]').innerText === 'Live'`)

	// Ada checks the milk; Bob's phone shows it without reloading.
	start := time.Now()
	a.checkItem("milk")
	b.waitFor("the milk checked on Bob's phone", itemChecked("milk", true), 5*time.Second)
	t.Logf("a check-off reached the other device in %s", time.Since(start).Round(time.Millisecond))

	// Bob loses his signal, checks two items; Ada sees nothing yet.
	b.offline(true)
	b.wait("Bob offline", `document.querySelector('[data-testid=sync-status]').innerText.startsWith('Offline')`)
	b.checkItem("eggs")
	b.checkItem("flour")
	b.wait("two queued changes", `document.querySelector('[data-testid=sync-status]').innerText === 'Offline · 2 changes will sync'`)
	b.wait("the check-offs shown offline", itemChecked("eggs", true)+" && "+itemChecked("flour", true))
	if eval[bool](a, itemChecked("eggs", true)) {
		a.fail("Ada sees a check-off Bob made offline")
	}
	b.screenshot("shopping-offline")

	// Back online: both reach the server, and Ada's phone.
	b.offline(false)
	a.waitFor("Bob's offline check-offs on Ada's phone", itemChecked("eggs", true)+" && "+itemChecked("flour", true), 10*time.Second)
	b.wait("Bob's queue empty", `!document.querySelector('[data-testid=sync-status]').innerText.startsWith('Offline') && localStorage.getItem('larder.shopping.queue.`+listID+`') === null`)
	var checked int
	if err := svc.DB.QueryRow(ctx, `SELECT count(*) FROM shopping_item WHERE list_id = $1 AND checked AND deleted_at IS NULL`, listID).Scan(&checked); err != nil || checked != 3 {
		t.Fatalf("checked items in the database: %d (%v), want 3", checked, err)
	}
}
