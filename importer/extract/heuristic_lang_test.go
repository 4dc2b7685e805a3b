package extract

import (
	"fmt"
	"reflect"
	"testing"
)

// TestHeuristicLanguages: a page without structured data, with an
// ingredients heading and list and a method heading and numbered list,
// imports in every language of the import corpus (and the usual variants
// of its headings).
func TestHeuristicLanguages(t *testing.T) {
	t.Parallel()
	tests := []struct{ lang, ingredients, method string }{
		{"en", "Ingredients", "Method"},
		{"en", "What you need", "Directions"},
		{"de", "Zutaten", "Zubereitung"},
		{"de", "Zutaten für 4 Personen", "So wird's gemacht"},
		{"fr", "Ingrédients", "Préparation"},
		{"fr", "Ingrédients", "Étapes"},
		{"nl", "Ingrediënten", "Bereiding"},
		{"nl", "Ingrediënten", "Werkwijze"},
		{"nl", "Ingrediënten", "Instructies"},
		{"es", "Ingredientes", "Preparación"},
		{"es", "Ingredientes", "Elaboración paso a paso"},
		{"es", "Ingredientes", "Instrucciones"},
		{"sv", "Ingredienser", "Gör så här"},
		{"sv", "Du behöver", "Instruktioner"},
		{"pt", "Ingredientes", "Modo de preparo"},
		{"pt", "Ingredientes", "Preparação"},
		{"da", "Ingredienser", "Fremgangsmåde"},
		{"da", "Du skal bruge", "Sådan gør du"},
		{"no", "Ingredienser", "Fremgangsmåte"},
		{"no", "Du trenger", "Slik gjør du"},
		{"it", "Ingredienti", "Preparazione"},
		{"it", "Ingredienti", "Procedimento"},
		{"it", "Ingredienti", "Istruzioni"},
		{"ja", "材料", "作り方"},
		{"pl", "Składniki", "Przygotowanie"},
		{"pl", "Składniki", "Sposób przygotowania"},
		{"hr", "Sastojci", "Priprema"},
		{"sk", "Suroviny", "Postup"},
		{"sk", "Ingrediencie", "Postup prípravy"},
		{"zh", "用料", "做法"},
		{"cs", "Suroviny", "Postup přípravy"},
		{"hu", "Hozzávalók", "Elkészítés"},
		{"tr", "Malzemeler", "Hazırlanışı"},
		{"tr", "Malzemeler", "Yapılışı"},
		{"fi", "Ainekset", "Valmistus"},
	}
	for _, tt := range tests {
		t.Run(tt.lang+" "+tt.method, func(t *testing.T) {
			t.Parallel()
			page := fmt.Sprintf(`<!doctype html><html lang=%q><head><title>Dish</title></head><body>
<nav><ul><li>Home</li><li>Recipes</li><li>About</li></ul></nav>
<main><h1>Dish</h1><p>A family favourite.</p>
<h2>%s</h2><ul><li>200 g mąka flour</li><li>2 eggs</li><li>1 l milk</li></ul>
<h2>%s</h2><ol><li>Mix the flour and the eggs well.</li><li>Add the milk little by little.</li><li>Bake in a hot pan until golden.</li></ol>
</main><footer><ul><li>Contact</li><li>Privacy</li></ul></footer></body></html>`, tt.lang, tt.ingredients, tt.method)
			r, err := FromHTML([]byte(page), "https://example.com/dish")
			if err != nil {
				t.Fatal(err)
			}
			if n := countItems(r.IngredientSections); n != 3 {
				t.Errorf("%d ingredients: %q", n, r.IngredientSections)
			}
			if n := countItems(r.InstructionSections); n != 3 {
				t.Errorf("%d steps: %q", n, r.InstructionSections)
			}
		})
	}
}

// TestHeuristicParagraphMethod: the same without lists for the method,
// which is written as paragraphs under its heading, as many small sites
// do; the headings are the plain words of each language.
func TestHeuristicParagraphMethod(t *testing.T) {
	t.Parallel()
	tests := []struct{ lang, ingredients, method string }{
		{"de", "Zutaten", "Zubereitung"},
		{"fr", "Ingrédients", "Préparation"},
		{"es", "Ingredientes", "Preparación"},
		{"nl", "Ingrediënten", "Bereiding"},
		{"pl", "Składniki", "Przygotowanie"},
		{"sv", "Ingredienser", "Tillagning"},
		{"cs", "Suroviny", "Postup"},
	}
	for _, tt := range tests {
		t.Run(tt.lang, func(t *testing.T) {
			t.Parallel()
			page := fmt.Sprintf(`<!doctype html><html lang=%q><head><title>Dish – Blog</title></head><body>
<header><nav><ul><li><a href="/">Home</a></li><li><a href="/a">About</a></li><li><a href="/c">Contact</a></li></ul></nav></header>
<main><h1>Dish</h1><p>A family favourite.</p>
<h2>%s</h2><ul><li>500 g potatoes</li><li>1 onion</li><li>1 l stock</li></ul>
<h2>%s</h2><p>Peel and dice the potatoes, chop the onion.</p><p>Simmer everything in the stock for 20 minutes and blend.</p>
</main><footer><ul><li>Imprint</li><li>Privacy</li></ul></footer></body></html>`, tt.lang, tt.ingredients, tt.method)
			r, err := FromHTML([]byte(page), "https://example.com/dish")
			if err != nil {
				t.Fatal(err)
			}
			want := []Section{{Items: []string{"Peel and dice the potatoes, chop the onion.", "Simmer everything in the stock for 20 minutes and blend."}}}
			if n := countItems(r.IngredientSections); n != 3 {
				t.Errorf("%d ingredients: %q", n, r.IngredientSections)
			}
			if !reflect.DeepEqual(r.InstructionSections, want) {
				t.Errorf("steps %q, want %q", r.InstructionSections, want)
			}
		})
	}
}
