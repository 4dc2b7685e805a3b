package extract

import "testing"

// TestListGoesOn checks the byte scan that decides whether the DOM is built
// to look for a longer ingredient list: only a line that is a list item's
// whole text, with another item after it, counts.
func TestListGoesOn(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, page string
		want       bool
	}{
		{"item followed by an item", `<ul><li>1 pinch salt</li><li>3 eggs</li></ul>`, true},
		{"inside spans, next item on a new line", "<ul><li class=\"i\"><span>1 pinch salt</span></li>\n  <li><h3>Filling</h3></li></ul>", true},
		{"last item of its list", `<ul><li>1 pinch salt</li></ul><ul><li>3 eggs</li></ul>`, false},
		{"end of a step", `<ol><li>Season with 1 pinch salt</li><li>Bake.</li></ol>`, false},
		{"name part of a longer item", `<ul><li><span>2 g</span> <span>1 pinch salt</span></li><li>3 eggs</li></ul>`, false},
		{"in script data", `<script>{"list":["1 pinch salt","3 eggs"]}</script><ul><li>3 eggs</li></ul>`, false},
		{"in a paragraph", `<p>1 pinch salt</p><ul><li>3 eggs</li></ul>`, false},
		{"a link tag is not an item", `<link rel="x">1 pinch salt</link><li>3 eggs</li>`, false},
		{"second place counts", `<p>Add 1 pinch salt.</p><ul><li>1 pinch salt</li><li>3 eggs</li></ul>`, true},
	}
	for _, tt := range tests {
		p := newPage([]byte(tt.page), "https://example.com/")
		if got := p.listGoesOn("1 pinch salt"); got != tt.want {
			t.Errorf("%s: listGoesOn = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestDOMOnlyWhenNeeded checks that a page whose JSON-LD gives the recipe
// builds no DOM when the words the cheap scans look for sit only in its
// addresses and text: the DOM costs more than the rest of the reading.
func TestDOMOnlyWhenNeeded(t *testing.T) {
	t.Parallel()
	page := `<html><head><script type="application/ld+json">{"@type":"Recipe","name":"Soup",
"recipeIngredient":["1 onion","1 l stock","2 carrots"],"recipeInstructions":["Chop.","Fry.","Add the stock.","Simmer for 20 minutes."],
"recipeCategory":"Soups","recipeYield":"4","image":"https://example.com/soup.jpg"}</script></head>
<body><a href="/fresh-recipe-ideas">More</a><a href="/search-recipe?q=hrecipe-ish">Search</a>
<p>1 onion</p><ul><li>Chop.</li></ul></body></html>`
	p := newPage([]byte(page), "https://example.com/soup")
	p.sites = true
	if r := p.extract(); countItems(r.InstructionSections) != 4 {
		t.Fatalf("recipe not read: %+v", r)
	}
	if p.docDone {
		t.Error("the DOM was built for a page that needs none")
	}
	// A tag with the class does build it.
	p = newPage([]byte(`<div class="hrecipe"><h2 class="fn">Soup</h2><li class="ingredient">1 onion</li></div>`), "https://example.com/")
	p.extract()
	if !p.docDone {
		t.Error("no DOM for a page with an hRecipe class")
	}
}
