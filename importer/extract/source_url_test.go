package extract

import "testing"

// TestSourceURL: the address the caller read the page from is the source
// link; the recipe's own url (microdata itemprop="url", as a Paprika HTML
// export writes it, or JSON-LD "url") is the source link only when the
// caller gives no real address.
func TestSourceURL(t *testing.T) {
	t.Parallel()
	microdata := `<html><body><div itemscope itemtype="https://schema.org/Recipe">
<h1 itemprop="name">Plum cake</h1><a itemprop="url" href="https://cakes.example.org/plum">source</a>
<ul><li itemprop="recipeIngredient">6 plums</li></ul>
<div itemprop="recipeInstructions"><p>Bake the plums.</p></div>
<div itemprop="author" itemscope itemtype="https://schema.org/Person"><a itemprop="url" href="https://example.net/me">Me</a></div>
</div></body></html>`
	relative := `<html><body><div itemscope itemtype="https://schema.org/Recipe">
<h1 itemprop="name">Plum cake</h1><a itemprop="url" href="/plum">source</a>
<ul><li itemprop="recipeIngredient">6 plums</li></ul></div></body></html>`
	jsonld := `<html><head><script type="application/ld+json">{"@type":"Recipe","name":"Plum cake",
"url":"https://cakes.example.org/plum","recipeIngredient":["6 plums"]}</script></head></html>`
	for _, tt := range []struct {
		name, page, pageURL, want string
	}{
		{"microdata url without a caller address", microdata, "", "https://cakes.example.org/plum"},
		{"the caller's address wins", microdata, "https://www.example.com/plum-cake", "https://www.example.com/plum-cake"},
		{"an archive's placeholder address is no address", microdata, "https://archive.invalid/Plum%20cake.html", "https://cakes.example.org/plum"},
		{"a file address is no address", microdata, "file:///home/me/plum.html", "https://cakes.example.org/plum"},
		{"a relative url resolves against the caller's address", relative, "https://cakes.example.org/a/b", "https://cakes.example.org/a/b"},
		{"a relative url without a caller address is dropped", relative, "", ""},
		{"JSON-LD url", jsonld, "", "https://cakes.example.org/plum"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r, err := FromHTML([]byte(tt.page), tt.pageURL)
			if err != nil {
				t.Fatal(err)
			}
			if r.SourceURL != tt.want {
				t.Errorf("source %q, want %q", r.SourceURL, tt.want)
			}
		})
	}
}
