package extract

import (
	"strings"

	"github.com/PuerkitoBio/goquery"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// hRecipe is the microformat that recipe blogs used before schema.org
// (class="hrecipe" with fn, ingredient, yield, instructions, duration,
// photo, summary, author, tag) and its microformats2 successor (class
// "h-recipe" with p-name, p-ingredient, p-yield, e-instructions,
// dt-duration, u-photo, p-summary, p-author, p-category). Both are read
// into the schema.org map shape, so fromSchema reads them like JSON-LD.

// hRecipeProps maps each class of the two vocabularies to the schema.org
// property it carries.
var hRecipeProps = map[string]string{
	"fn": "name", "p-name": "name",
	"ingredient": "recipeIngredient", "p-ingredient": "recipeIngredient",
	"yield": "recipeYield", "p-yield": "recipeYield",
	"instructions": "recipeInstructions", "e-instructions": "recipeInstructions",
	"duration": "totalTime", "dt-duration": "totalTime",
	"photo": "image", "u-photo": "image",
	"summary": "description", "p-summary": "description",
	"author": "author", "p-author": "author",
	"tag": "keywords", "p-category": "recipeCategory",
}

// hRecipes returns every hRecipe of the document as a schema.org node.
func hRecipes(doc *goquery.Document) []map[string]any {
	if doc == nil {
		return nil
	}
	var out []map[string]any
	for _, root := range doc.Nodes {
		walk(root, func(n *html.Node) bool {
			if classHasToken(n, "hrecipe") || classHasToken(n, "h-recipe") {
				out = append(out, hRecipeNode(n))
				return false
			}
			return true
		})
	}
	return out
}

func classHasToken(n *html.Node, tok string) bool {
	for f := range strings.FieldsSeq(attr(n, "class")) {
		if strings.EqualFold(f, tok) {
			return true
		}
	}
	return false
}

func hRecipeNode(root *html.Node) map[string]any {
	node := map[string]any{"@type": "Recipe"}
	var ingredients, keywords, categories []any
	walk(root, func(n *html.Node) bool {
		if n == root {
			return true
		}
		prop := ""
		for f := range strings.FieldsSeq(strings.ToLower(attr(n, "class"))) {
			if p, ok := hRecipeProps[f]; ok {
				prop = p
				break
			}
		}
		switch prop {
		case "":
			return true
		case "recipeIngredient":
			if t := hIngredientText(n); t != "" {
				ingredients = append(ingredients, t)
			}
		case "keywords":
			if t := lineText(n); t != "" {
				keywords = append(keywords, t)
			}
		case "recipeCategory":
			if t := lineText(n); t != "" {
				categories = append(categories, t)
			}
		case "recipeInstructions":
			if _, seen := node[prop]; !seen {
				node[prop] = hInstructions(n)
			}
		case "image":
			if _, seen := node[prop]; !seen {
				if src := hImage(n); src != "" {
					node[prop] = src
				}
			}
		case "totalTime":
			if _, seen := node[prop]; !seen {
				node[prop] = hDuration(n)
			}
		default:
			if _, seen := node[prop]; !seen {
				if t := lineText(n); t != "" {
					node[prop] = t
				}
			}
		}
		// A property's content is not searched for further properties
		// (an ingredient's "name" is not the recipe's), except that a
		// photo may sit inside the summary.
		return prop == "description"
	})
	if len(ingredients) > 0 {
		node["recipeIngredient"] = ingredients
	}
	if len(keywords) > 0 {
		node["keywords"] = keywords
	}
	if len(categories) > 0 {
		node["recipeCategory"] = categories
	}
	return node
}

// hIngredientText reads one ingredient. Old hRecipe pages mark the parts
// ("amount" and "name", or "value" and "type"), often in separate cells
// without a space between them: the parts are joined with one.
func hIngredientText(n *html.Node) string {
	var parts []string
	walk(n, func(e *html.Node) bool {
		if e == n {
			return true
		}
		for f := range strings.FieldsSeq(strings.ToLower(attr(e, "class"))) {
			switch f {
			case "amount", "value", "quantity", "unit", "name", "type":
				if t := lineText(e); t != "" {
					parts = append(parts, t)
				}
				return false
			}
		}
		return true
	})
	if len(parts) >= 2 {
		return strings.Join(parts, " ")
	}
	return oneLine(nodeText(n))
}

// hInstructions returns the steps as a list when the element holds list
// items or "instruction" elements, else its text with its line breaks.
func hInstructions(n *html.Node) any {
	items := find(n, func(e *html.Node) bool { return e.DataAtom == atom.Li || classHasToken(e, "instruction") })
	if len(items) > 1 {
		var steps []any
		for _, it := range items {
			if t := oneLine(nodeText(it)); t != "" {
				steps = append(steps, t)
			}
		}
		return steps
	}
	return strings.Join(cleanLines(nodeText(n)), "\n")
}

func hImage(n *html.Node) string {
	if n.DataAtom == atom.Img {
		return attr(n, "src")
	}
	if src := attr(n, "href"); src != "" {
		return src
	}
	if imgs := find(n, func(e *html.Node) bool { return e.DataAtom == atom.Img }); len(imgs) > 0 {
		return attr(imgs[0], "src")
	}
	return ""
}

// hDuration prefers the machine-readable value (value-title's title,
// <time datetime>, <abbr title>) over the text.
func hDuration(n *html.Node) string {
	if v := attr(n, "datetime"); v != "" {
		return v
	}
	if n.DataAtom == atom.Abbr && attr(n, "title") != "" {
		return attr(n, "title")
	}
	for _, vt := range find(n, func(e *html.Node) bool { return classHasToken(e, "value-title") || e.DataAtom == atom.Time }) {
		if v := attr(vt, "title"); v != "" {
			return v
		}
		if v := attr(vt, "datetime"); v != "" {
			return v
		}
	}
	return lineText(n)
}
