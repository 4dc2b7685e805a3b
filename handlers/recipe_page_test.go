package handlers

import (
	"context"
	"encoding/json"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"larder/repo"
	"larder/web"
)

// A public recipe's page carries its link preview and the preload of its
// photo in the size the page shows it; no other page tells anything about
// a recipe.
func TestRecipePagePreview(t *testing.T) {
	t.Parallel()
	const index = `<!doctype html><html><head><meta charset="UTF-8" /><title>Larder</title></head><body><div id="root"></div></body></html>`
	b := setup(t, func(d *Deps) { d.Web = fstest.MapFS{"index.html": {Data: []byte(index)}} })
	ctx := context.Background()
	u, _ := b.user(t, repo.RoleUser)
	public := rcInsertWith(t, b, u.ID, repo.RecipeInput{Title: `Fish & "chips" <b>`, Description: "Crisp, with <i>mushy</i> peas.",
		Visibility: repo.VisibilityPublic, IngredientSections: []repo.Section{{Items: []repo.Item{{Text: "2 fillets"}}}}})
	key := "recipes/ab/ab12cd34ef56.jpg"
	if _, err := repo.SetImage(ctx, b.db, repo.RecipeImage, public, &key); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := repo.SetImageVariants(ctx, b.db, repo.RecipeImage, public, key, map[string]string{
		"thumb": "recipes/ab/ab12cd34ef56_thumb.jpg", "medium": "recipes/ab/ab12cd34ef56_medium.jpg"}); err != nil || !ok {
		t.Fatalf("variants: %v %v", ok, err)
	}
	noPhoto := rcInsertWith(t, b, u.ID, repo.RecipeInput{Title: "Plain toast", Visibility: repo.VisibilityPublic})
	private := rcInsertWith(t, b, u.ID, repo.RecipeInput{Title: "Secret stew", Visibility: repo.VisibilityPrivate})
	shared := rcInsertWith(t, b, u.ID, repo.RecipeInput{Title: "Family pie", Visibility: repo.VisibilityShared})

	page := string(b.do(t, "GET", "/recipes/"+public.String(), nil, "").Body)
	rec := rcGet(t, b, "", public)
	for _, want := range []string{
		`<title>Fish &amp; &#34;chips&#34; &lt;b&gt; · Larder</title>`,
		`<meta property="og:title" content="Fish &amp; &#34;chips&#34; &lt;b&gt;" />`,
		`<meta property="og:description" content="Crisp, with &lt;i&gt;mushy&lt;/i&gt; peas." />`,
		`<meta property="og:url" content="` + b.deps.Config.AppURL + `/recipes/` + public.String() + `" />`,
		`<meta property="og:image" content="` + b.deps.Config.AppURL + *rec.ImageURL + `" />`,
		// The srcset and sizes the page's img has (web/src/lib/format.ts
		// and recipePhoto.json), so the browser picks the same rendition.
		`<link rel="preload" as="image" href="` + *rec.ImageURL + `" imagesrcset="` + rec.ImageVariants["thumb"] + ` 320w, ` +
			rec.ImageVariants["medium"] + ` 800w" imagesizes="` + web.RecipePhotoSizes() + `" fetchpriority="high" />`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the public recipe's page lacks %s:\n%s", want, page)
		}
	}
	// The recipe as the API answers a visitor, in a data block that no text
	// of the recipe can close.
	block := regexp.MustCompile(`<script type="application/json" id="recipe-data" data-id="` + public.String() + `">([^<]*)</script>`).FindStringSubmatch(page)
	if block == nil {
		t.Fatalf("no recipe data block:\n%s", page)
	}
	var embedded, api any
	if err := json.Unmarshal([]byte(block[1]), &embedded); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b.do(t, "GET", "/api/recipes/"+public.String(), nil, "").Body, &api); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(embedded, api) {
		t.Errorf("the page's recipe %v\nis not the API's %v", embedded, api)
	}
	if strings.Count(page, "<title>") != 1 || !strings.Contains(page, `</head><body><div id="root"></div>`) {
		t.Errorf("the page is not the client's with one title:\n%s", page)
	}

	// Without a photo: the preview, no preload.
	if p := string(b.do(t, "GET", "/recipes/"+noPhoto.String(), nil, "").Body); !strings.Contains(p, `content="Plain toast"`) ||
		strings.Contains(p, "preload") || strings.Contains(p, "og:image") {
		t.Errorf("a public recipe without a photo:\n%s", p)
	}
	// Private, shared, missing, malformed, and the recipe's other pages: the
	// client's page as built, whoever asks.
	for _, path := range []string{"/recipes/" + private.String(), "/recipes/" + shared.String(),
		"/recipes/00000000-0000-4000-8000-000000000000", "/recipes/not-a-uuid", "/recipes/" + public.String() + "/edit",
		"/recipes/" + public.String() + "/cook"} {
		r := b.do(t, "GET", path, nil, "")
		wantStatus(t, r, 200)
		if string(r.Body) != index {
			t.Errorf("%s: %s", path, r.Body)
		}
	}
}
