package extract

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// TestMethodNoise: beside each step a page may show the step's number, a
// tip and the list of what the step uses; none of them is a step.
func TestMethodNoise(t *testing.T) {
	t.Parallel()
	ingredients := wordSet("300 g minced beef\n1 tbsp breadcrumbs\npepper\nsalt\n1 lemon\n1 chicken")
	for _, tt := range []struct {
		line  string
		noise bool
	}{
		{"3", true},
		{"12.", true},
		{"TIP Crush the peppercorns in a mortar.", true},
		{"Tip: crush the peppercorns in a mortar.", true},
		{"Tipp: Pfefferkörner im Mörser zerstoßen.", true},
		{"300 g minced beef, 1 tbsp breadcrumbs, pepper, salt", true},
		{"0,5 lemons, pepper", true},
		{"1 chicken", true},
		{"Tip the batter into the tin.", false},
		{"Tips and tricks for a crisp crust are below.", false},
		{"Season with salt, pepper and lemon.", false},
		{"Salt, pepper", true},
		{"Bake for 20 minutes", false},
		{"2025", false},
	} {
		if got := methodNoise(tt.line, ingredients); got != tt.noise {
			t.Errorf("methodNoise(%q) = %v, want %v", tt.line, got, tt.noise)
		}
	}
}

// TestCompleteMethod: a structured method that is only the first steps of
// the one the page shows gives way to the page's; one the page follows
// with notes and labels, not steps, stays.
func TestCompleteMethod(t *testing.T) {
	t.Parallel()
	const ld = `<script type="application/ld+json">{"@type":"Recipe","name":"Soup",
"recipeIngredient":["1 onion","1 l stock"],"recipeInstructions":["Chop the onion finely."]}</script>`
	for _, tt := range []struct {
		name, body string
		want       int
	}{
		{"cut short", `<h2>Method</h2><p>Chop the onion finely.</p><p>Soften it in a little butter for ten minutes.</p>
<p>Pour in the stock and simmer for twenty minutes.</p><p>Blend until smooth and season to taste.</p>`, 4},
		{"notes after the method", `<h2>Method</h2><p>Chop the onion finely.</p><p>Variations</p><p>Print Recipe</p>
<p>Cuisine</p><p>French</p><p>Any stock works here, and a spoon of cream at the end makes it richer.</p>`, 1},
		{"another first step", `<h2>Method</h2><p>Heat the oven to 200 °C first of all.</p><p>Chop the onion finely.</p>
<p>Pour in the stock and simmer for twenty minutes.</p><p>Blend until smooth and season to taste.</p>`, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r, err := FromHTML([]byte("<html><head>"+ld+"</head><body><h1>Soup</h1>"+tt.body+"</body></html>"), "https://example.com/soup")
			if err != nil {
				t.Fatal(err)
			}
			if n := countItems(r.InstructionSections); n != tt.want {
				t.Errorf("%d steps, want %d: %q", n, tt.want, r.InstructionSections)
			}
		})
	}
}

// TestLongMethodWithNumbers: a method whose step numbers stand apart from
// the steps is read to its end; the numbers count for nothing.
func TestLongMethodWithNumbers(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString(`<html><body><h1>Feast</h1><h2>Ingredients</h2><ul><li>1 kg flour</li><li>1 l water</li><li>salt</li></ul><h2>Method</h2>`)
	for i := 1; i <= 70; i++ {
		fmt.Fprintf(&b, "<div><div>%d</div><p>Do step number %d of the feast with care.</p></div>", i, i)
	}
	b.WriteString(`</body></html>`)
	r, err := FromHTML([]byte(b.String()), "https://example.com/feast")
	if err != nil {
		t.Fatal(err)
	}
	if n := countItems(r.InstructionSections); n != 70 {
		t.Errorf("%d steps, want 70", n)
	}
}

// TestAppData: a method sent only as data for the page's scripts, here as
// JSON inside a string of a Next.js payload, with ingredients as objects
// of amount, unit and name, is read when the HTML has none.
func TestAppData(t *testing.T) {
	t.Parallel()
	page := `<html><body><h1>Pea soup</h1><div id="app"></div><script>self.__next_f.push([1,"7:[\"$\",\"div\",null,{\"data\":{\"name\":\"Pea soup\",` +
		`\"ingredients\":[{\"name\":\"peas\",\"displayQuantity\":400,\"unitOfMeasure\":\"g\"},{\"name\":\"salt\"}],` +
		`\"preparationInstructions\":[{\"header\":\"Step 1\",\"body\":\"Boil the **peas** for 5 minutes.\"},{\"header\":\"Step 2\",\"body\":\"Blend and salt.\"}]}}]"])</script></body></html>`
	r, err := FromHTML([]byte(page), "https://example.com/pea-soup")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := flatten(r.IngredientSections), []string{"400 g peas", "salt"}; strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("ingredients %q, want %q", got, want)
	}
	if got, want := flatten(r.InstructionSections), []string{"Boil the peas for 5 minutes.", "Blend and salt."}; strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("steps %q, want %q", got, want)
	}
}

// TestAppDataLeavesStructuredMethod: a short structured method ("Toast
// the bread.") is the method; the schema.org data in the page's scripts
// is not read again as a script's data.
func TestAppDataLeavesStructuredMethod(t *testing.T) {
	t.Parallel()
	page := `<html><head><script type="application/ld+json">{"@type":"Recipe","name":"Toast","recipeIngredient":["2 slices bread"],
"recipeInstructions":[{"@type":"HowToSection","name":"Toast","itemListElement":[{"@type":"HowToStep","text":"Toast the bread."}]}]}</script></head></html>`
	r, err := FromHTML([]byte(page), "https://example.com/toast")
	if err != nil {
		t.Fatal(err)
	}
	if want := []Section{{Name: "Toast", Items: []string{"Toast the bread."}}}; !reflect.DeepEqual(r.InstructionSections, want) {
		t.Errorf("steps %q, want %q", r.InstructionSections, want)
	}
}
