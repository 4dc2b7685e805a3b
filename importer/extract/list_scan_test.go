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
