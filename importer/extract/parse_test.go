package extract

import (
	"encoding/json"
	"net/url"
	"reflect"
	"strings"
	"testing"
)

func intPtr(n int) *int { return &n }

func TestParseServings(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   any
		want *int
	}{
		{4.0, intPtr(4)},
		{"4", intPtr(4)},
		{"4 servings", intPtr(4)},
		{"Serves 4-6", intPtr(6)},
		{"Serves 10 to 12", intPtr(12)},
		{"8 – 10 portions", intPtr(10)},
		{[]any{"4", "4 servings"}, intPtr(4)},
		{[]any{"", "6 people"}, intPtr(6)},
		{[]any{10.0}, intPtr(10)},
		{"1 loaf", intPtr(1)},
		{"Makes 24 cookies", intPtr(24)},
		{"Serves 4.0", intPtr(4)},
		{"2人分", intPtr(2)},
		{"serves four", intPtr(4)},
		{"a dozen", intPtr(12)},
		{"4 1.25 cups curry", intPtr(4)},
		{"Makes about 2 dozen", intPtr(24)},
		{"2-3 dozen cookies", intPtr(36)},
		{"two dozen rolls", intPtr(24)},
		{"Serves four to six", intPtr(6)},
		{"serves four to 6", intPtr(6)},
		{"Makes one 9x13 pan", intPtr(1)},
		{"12 cookies", intPtr(12)},
		{map[string]any{"@type": "QuantitativeValue", "minValue": 4.0, "maxValue": 6.0}, intPtr(6)},
		{map[string]any{"@type": "QuantitativeValue", "value": 3.0}, intPtr(3)},
		{map[string]any{"value": map[string]any{"x": []any{}}}, nil},
		{"", nil},
		{"some", nil},
		{0.0, nil},
		{-2.0, nil},
		{"0", nil},
		{true, nil},
		{nil, nil},
	}
	for _, tt := range tests {
		got := parseServings(tt.in)
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("parseServings(%#v) = %v, want %v", tt.in, deref(got), deref(tt.want))
		}
	}
}

func deref(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}

func TestParseMinutes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   any
		want *int
	}{
		{"PT1H30M", intPtr(90)},
		{"P0DT0H20M", intPtr(20)},
		{"PT90M", intPtr(90)},
		{"PT0.5H", intPtr(30)},
		{"PT1H30", intPtr(90)},
		{"P1D", intPtr(1440)},
		{"P0Y0M0DT0H35M0.000S", intPtr(35)},
		{"PT45S", intPtr(1)},
		{"pt20m", intPtr(20)},
		{"1 hour 30 minutes", intPtr(90)},
		{"1 hr 30 mins", intPtr(90)},
		{"45 min", intPtr(45)},
		{"1h30", intPtr(90)},
		{"1:15", intPtr(75)},
		{"12-15 minutes", intPtr(15)},
		{"PT1H90M", intPtr(150)},
		{"P1DT2H", intPtr(1560)},
		{"P30M", intPtr(30)},
		{"P1H30M", intPtr(90)},
		{"an hour", intPtr(60)},
		{"half an hour", intPtr(30)},
		{"an hour and a half", intPtr(90)},
		{"1 hr. 15 min.", intPtr(75)},
		{"1 Std. 20 Min.", intPtr(80)},
		{"a 5 minute rest", intPtr(5)},
		{"Bake for a while", nil},
		{"half", nil},
		{"1½ hours", intPtr(90)},
		{"2 Stunden", intPtr(120)},
		{"20", intPtr(20)},
		{25.0, intPtr(25)},
		{map[string]any{"maxValue": "PT10M"}, intPtr(10)},
		{"PT0M", nil},
		{"PT", nil},
		{"", nil},
		{"soon", nil},
		{map[string]any{"unexpected": true}, nil},
		{-5.0, nil},
	}
	for _, tt := range tests {
		got := parseMinutes(tt.in)
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("parseMinutes(%#v) = %v, want %v", tt.in, deref(got), deref(tt.want))
		}
	}
}

func TestCleanText(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"  a  b\n\tc ", "a b c"},
		{"Cr&amp;egrave;me", "Crème"},
		{"&amp;amp;amp;", "&"},
		{"&lt;b&gt;bold&lt;/b&gt; text", "bold text"},
		{"<p>one</p><p>two</p>", "one two"},
		{"cook < 5 min & serve", "cook < 5 min & serve"},
		{"AT&T", "AT&T"},
		{"2&nbsp;cups", "2 cups"},
		{"zero\u200bwidth", "zerowidth"},
		{"Â½ cup", "½ cup"},
		{"donâ€™t", "don’t"},
		{"<script>alert(1)</script>safe", "safe"},
		{"&#x1F600; &#128512;", "😀 😀"},
		{"a <!-- note --> b", "a b"},
		{"\xff\xfeok", "ok"},
		{"&am\u200bp;", "&"},
	}
	for _, tt := range tests {
		if got := cleanText(tt.in); got != tt.want {
			t.Errorf("cleanText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestTidyLine(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"- 1 cup sugar", "1 cup sugar"},
		{"• 130 g mel", "130 g mel"},
		{"▢ 2 eggs", "2 eggs"},
		{"-5 °C freezer", "-5 °C freezer"},
		{"Tortillas , (wheat)", "Tortillas , (wheat)"}, // as the text writes it
		{"1 scotch bonnet ((optional))", "1 scotch bonnet (optional)"},
		{"oil (or fat (not butter))", "oil (or fat (not butter))"},
	}
	for _, tt := range tests {
		if got := tidyLine(tt.in); got != tt.want {
			t.Errorf("tidyLine(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestSplitSteps(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want []string
	}{
		{"Mix.\nBake.", []string{"Mix.", "Bake."}},
		{"<p>Mix.</p><p>Bake.</p>", []string{"Mix.", "Bake."}},
		{"1. Mix the flour. 2. Add 1.5 cups water. 3. Bake.", []string{"Mix the flour.", "Add 1.5 cups water.", "Bake."}},
		{"1. Mix\n2. Bake", []string{"Mix", "Bake"}},
		{"Line the tin with paper.Snap the chocolate.Melt it.", []string{"Line the tin with paper.", "Snap the chocolate.", "Melt it."}},
		{"Stir for 2 minutes.", []string{"Stir for 2 minutes."}},
		{"Heat to 180 C. Bake 3.5 hours in the U.S.A. style.", []string{"Heat to 180 C. Bake 3.5 hours in the U.S.A. style."}},
		{"Zo maak je het:\n1. Kook.\n2. Serveer.", []string{"Zo maak je het:", "Kook.", "Serveer."}},
		{"Step 1: Mix the flour. Step 2: Add water. Step 3: Bake.", []string{"Mix the flour.", "Add water.", "Bake."}},
		{"Schritt 1: Mehl mischen. Schritt 2: Backen.", []string{"Mehl mischen.", "Backen."}},
		{"Step 1: Mix. Step 2: Add. Repeat step 2 twice. Step 3: Bake.", []string{"Mix.", "Add. Repeat step 2 twice.", "Bake."}},
		// "Step 1" without punctuation is the step's title, kept as sites keep it.
		{"Step 1 Mix the flour. Step 2 Add water.", []string{"Step 1 Mix the flour.", "Step 2 Add water."}},
		{"1 - Mix the flour\n2 - Bake", []string{"Mix the flour", "Bake"}},
		{"1.5 cups water\n2. Bake", []string{"1.5 cups water", "2. Bake"}},
		{"Mix well. Step back and admire.", []string{"Mix well. Step back and admire."}},
	}
	for _, tt := range tests {
		if got := splitSteps(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("splitSteps(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestParseLenientJSON(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		want []any
	}{
		{"plain", `{"a": [1, "x", true, null]}`, []any{map[string]any{"a": []any{1.0, "x", true}}}},
		{"trailing commas", `{"a": [1, 2,], "b": 3,}`, []any{map[string]any{"a": []any{1.0, 2.0}, "b": 3.0}}},
		{"raw newline", "{\"a\": \"one\ntwo\"}", []any{map[string]any{"a": "one\ntwo"}}},
		{"two objects", `{"a":1}{"b":2}`, []any{map[string]any{"a": 1.0}, map[string]any{"b": 2.0}}},
		{"comma between", `{"a":1},{"b":2}`, []any{map[string]any{"a": 1.0}, map[string]any{"b": 2.0}}},
		{"html comment and cdata", "<!--//--><![CDATA[//><!--\n{\"a\":1}\n//--><!]]>", []any{map[string]any{"a": 1.0}}},
		{"bom", "\uFEFF{\"a\":1}", []any{map[string]any{"a": 1.0}}},
		{"stray quotes", `{"name": "the "best" cake", "b": 1}`, []any{map[string]any{"name": `the "best" cake`, "b": 1.0}}},
		{"single quotes and bare keys", `{name: 'x', n: 2}`, []any{map[string]any{"name": "x", "n": 2.0}}},
		{"escapes", `{"a": "\u00e9\ud83d\ude00\'\/"}`, []any{map[string]any{"a": "é😀'/"}}},
		{"comments", "{/* c */\"a\": 1 // d\n}", []any{map[string]any{"a": 1.0}}},
		{"unterminated", `{"a": [1, 2`, []any{map[string]any{"a": []any{1.0, 2.0}}}},
		{"garbage", `window.x = ; <>`, nil},
	}
	for _, tt := range tests {
		if got := parseLenientJSON([]byte(tt.in)); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: parseLenientJSON(%q) = %#v, want %#v", tt.name, tt.in, got, tt.want)
		}
	}
}

func TestPickImage(t *testing.T) {
	t.Parallel()
	base, _ := url.Parse("https://example.com/recipes/soup/")
	tests := []struct {
		name string
		in   any
		want string
	}{
		{"relative", "../img/a.jpg", "https://example.com/recipes/img/a.jpg"},
		{"protocol relative", "//cdn.example.com/a.jpg", "https://cdn.example.com/a.jpg"},
		{"entities in query", "https://x.com/a.jpg?w=1&amp;h=2", "https://x.com/a.jpg?w=1&h=2"},
		{"largest by size", []any{
			map[string]any{"url": "https://x.com/s.jpg", "width": 100.0, "height": 100.0},
			map[string]any{"url": "https://x.com/l.jpg", "width": "1200", "height": "800"},
		}, "https://x.com/l.jpg"},
		{"original before resized copies", []any{"https://x.com/p-150x150.jpg", "https://x.com/p-1200x800.jpg", "https://x.com/p.jpg"}, "https://x.com/p.jpg"},
		{"suffix sizes", []any{"https://x.com/p-150x150.jpg", "https://x.com/p-1200x800.jpg"}, "https://x.com/p-1200x800.jpg"},
		{"unknown sizes keep order", []any{"https://x.com/1.jpg", "https://x.com/2.jpg"}, "https://x.com/1.jpg"},
		{"widths only", []any{
			map[string]any{"url": "https://x.com/a.jpg", "width": 400.0},
			map[string]any{"url": "https://x.com/b.jpg", "width": 1400.0},
		}, "https://x.com/b.jpg"},
		{"data uri and javascript", []any{"data:image/png;base64,AA", "javascript:alert(1)"}, ""},
		{"empty", "", ""},
	}
	for _, tt := range tests {
		if got := pickImage(collectImages(tt.in, nil, 0), base); got != tt.want {
			t.Errorf("%s: pickImage = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestRegroup(t *testing.T) {
	t.Parallel()
	card := []Section{
		{Name: "Dough", Items: []string{"3 cups flour", "1 cup water"}},
		{Name: "Topping", Items: []string{"1 cup sauce", "2 cups mozzarella, shredded"}},
	}
	lines := []string{"3 cups flour", "1 cup water", "1 cup sauce", "2 cups mozzarella"}
	want := []Section{
		{Name: "Dough", Items: []string{"3 cups flour", "1 cup water"}},
		{Name: "Topping", Items: []string{"1 cup sauce", "2 cups mozzarella"}},
	}
	if got := regroup(lines, card); !reflect.DeepEqual(got, want) {
		t.Errorf("regroup same count = %#v", got)
	}
	// One more structured line than the card: matched by words.
	lines = append([]string{"3 cups flour", "pinch of salt"}, lines[1:]...)
	got := regroup(lines, card)
	if len(got) != 2 || len(got[0].Items) != 3 || got[1].Name != "Topping" {
		t.Errorf("regroup by words = %#v", got)
	}
	// A card for another recipe is not used.
	if got := regroup([]string{"2 eggs", "1 lemon", "sugar"}, card); got != nil {
		t.Errorf("regroup of unrelated card = %#v, want nil", got)
	}
}

// TestJSONReaderMatchesEncodingJSON checks the tolerant reader against the
// standard one on valid JSON.
func TestJSONReaderMatchesEncodingJSON(t *testing.T) {
	t.Parallel()
	for _, in := range []string{
		`{"a": [1, 2.5, -3e2, "s", {"b": null}, [], {}], "c": "\u00e9\n"}`,
		`[{"@type": ["Recipe"], "x": [[1], [2]]}]`,
		`{"dup": 1, "dup": 2}`,
	} {
		checkAgainstEncodingJSON(t, []byte(in))
	}
}

func checkAgainstEncodingJSON(t *testing.T, in []byte) {
	t.Helper()
	if !json.Valid(in) {
		return
	}
	var want any
	if err := json.Unmarshal(in, &want); err != nil {
		return
	}
	if _, ok := want.(map[string]any); !ok {
		if _, ok := want.([]any); !ok {
			return
		}
	}
	if jsonDepth(want, 0) > maxJSONDepth/2 {
		return
	}
	got := parseLenientJSON(in)
	if len(got) != 1 || !reflect.DeepEqual(dropNulls(got[0]), dropNulls(want)) {
		t.Errorf("parseLenientJSON(%q) = %#v, encoding/json gives %#v", in, got, want)
	}
}

func jsonDepth(v any, d int) int {
	m := d
	switch v := v.(type) {
	case map[string]any:
		for _, e := range v {
			m = max(m, jsonDepth(e, d+1))
		}
	case []any:
		for _, e := range v {
			m = max(m, jsonDepth(e, d+1))
		}
	}
	return m
}

// dropNulls removes null array elements, which the tolerant reader skips.
func dropNulls(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range v {
			out[k] = dropNulls(e)
		}
		return out
	case []any:
		out := []any{}
		for _, e := range v {
			if e != nil {
				out = append(out, dropNulls(e))
			}
		}
		return out
	}
	return v
}

// assertInvariants checks what every extraction must satisfy.
func assertInvariants(t *testing.T, r Recipe) {
	t.Helper()
	for _, p := range []*int{r.Servings, r.PrepMinutes, r.CookMinutes, r.TotalMinutes} {
		if p != nil && *p <= 0 {
			t.Errorf("non-positive number %d", *p)
		}
	}
	if r.Categories == nil || r.Tags == nil || r.Cuisines == nil || r.IngredientSections == nil || r.InstructionSections == nil {
		t.Errorf("nil slice in %+v", r)
	}
	texts := []string{r.Title, r.Description, r.Author}
	texts = append(texts, r.Categories...)
	texts = append(texts, r.Tags...)
	texts = append(texts, r.Cuisines...)
	for _, ss := range [][]Section{r.IngredientSections, r.InstructionSections} {
		for _, s := range ss {
			if len(s.Items) == 0 {
				t.Errorf("empty section %q", s.Name)
			}
			texts = append(texts, s.Name)
			texts = append(texts, s.Items...)
		}
	}
	for _, s := range texts {
		if tagLike.MatchString(s) {
			t.Errorf("tag left in %q", s)
		}
		if htmlUnescapeOnce(s) != s {
			t.Errorf("entity left in %q", s)
		}
		if s != strings.TrimSpace(s) || strings.Contains(s, "  ") || strings.ContainsAny(s, "\n\t") {
			t.Errorf("unnormalized space in %q", s)
		}
	}
	for _, u := range []string{r.ImageURL, r.SourceURL} {
		if u == "" {
			continue
		}
		p, err := url.Parse(u)
		if err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
			t.Errorf("URL %q is not absolute http(s)", u)
		}
	}
}

func TestStepLabel(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"Step 1", "step1", "Schritt 2", "3.", "4", "gazpacho_r step 1", "Étape 2:"} {
		if !stepLabel.MatchString(s) {
			t.Errorf("%q is a step label", s)
		}
	}
	for _, s := range []string{"Bake for 20", "Make the dough", "Cream", "Steps to 1 cake"} {
		if stepLabel.MatchString(s) {
			t.Errorf("%q is a step title, not a label", s)
		}
	}
}

func TestLargestInSrcset(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"a.jpg 300w, b.jpg 1024w, c.jpg 640w", "b.jpg"},
		{"a.jpg 1x, b.jpg 2x", "b.jpg"},
		{"https://cdn.x.com/w_300,h_200/a.jpg 300w, https://cdn.x.com/w_900,h_600/a.jpg 900w", "https://cdn.x.com/w_900,h_600/a.jpg"},
		{"only.jpg", "only.jpg"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := largestInSrcset(tt.in); got != tt.want {
			t.Errorf("largestInSrcset(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
