package extract

import (
	"bytes"
	"strconv"
	"strings"
)

// A page built by a script framework (Next.js, Nuxt and the like) may carry
// its recipe only as data for its scripts: the HTML shows the ingredients,
// or nothing, and the method appears once the scripts run. When the page's
// HTML gives no method, appData looks in the page's inline scripts for one
// object that holds both a list of ingredients and a list of steps under
// the names such data uses ("ingredients", "steps", "instructions",
// "preparationInstructions", ...). Payloads sent as JSON inside strings
// (Next.js's self.__next_f.push([1, "...json..."])) are read too.

var appIngredientKeys = []string{"ingredients", "recipeIngredient", "recipeIngredients", "ingredientList"}

var appStepKeys = []string{"instructions", "recipeInstructions", "steps", "preparationInstructions", "preparationSteps",
	"method", "directions", "preparation", "cookingSteps"}

// appTextKeys name the text of a step or ingredient object.
var appTextKeys = []string{"text", "body", "description", "instruction", "content", "display", "original", "name", "title"}

// maxAppScripts bounds the scripts parsed on one page.
const maxAppScripts = 40

// appData reads the ingredients and steps of the page's script data.
func (p *page) appData() (ing, steps []Section) {
	if m := p.appRecipe(); m != nil {
		return appSections(m)
	}
	return nil, nil
}

// appRecipe is the first object of the page's inline scripts that holds a
// list of ingredients and a list of steps, found once per page.
func (p *page) appRecipe() map[string]any {
	if !p.appDone {
		p.appDone = true
		p.app = p.findAppRecipe()
	}
	return p.app
}

func (p *page) findAppRecipe() map[string]any {
	parsed := 0
	for _, sc := range inlineScripts(p.raw, p.lower) {
		script := sc.body
		low := bytes.ToLower(script)
		if !bytes.Contains(low, []byte("ingredient")) || !containsAnyKey(low) {
			continue
		}
		if parsed++; parsed > maxAppScripts {
			return nil
		}
		start := bytes.IndexAny(script, "[{")
		if start < 0 {
			continue
		}
		for _, obj := range appRecipes(parseLenientJSON(script[start:]), false) {
			if i, s := appSections(obj); countItems(i) > 0 && countItems(s) > 0 {
				return obj
			}
		}
	}
	return nil
}

func containsAnyKey(low []byte) bool {
	for _, k := range appStepKeys {
		if bytes.Contains(low, []byte(strings.ToLower(k))) {
			return true
		}
	}
	return false
}

// appRecipes returns the objects, at any depth, with an ingredients key and
// a steps key; a string that holds JSON ("5:[...]", an escaped payload, as
// Next.js's self.__next_f.push([1, "..."]) sends) is read as well, one
// level deep.
func appRecipes(roots []any, nested bool) []map[string]any {
	var out []map[string]any
	walkJSON(roots, func(v any) bool {
		if len(out) > 0 {
			return false
		}
		switch v := v.(type) {
		case map[string]any:
			if _, ok := v["@type"]; ok {
				return false // schema.org data, read as such (jsonld.go)
			}
			if firstKey(v, appIngredientKeys) != nil && firstKey(v, appStepKeys) != nil {
				out = append(out, v)
				return false
			}
		case string:
			if !nested && len(v) > 50 && strings.Contains(v, "ngredient") {
				if i := strings.IndexAny(v, "[{"); i >= 0 {
					out = append(out, appRecipes(parseLenientJSON([]byte(v[i:])), true)...)
				}
			}
		}
		return true
	})
	return out
}

// appListWins reports whether the script data's ingredient list should
// replace the one read from the HTML: it is the list the page renders from,
// so when it holds (nearly) every line the HTML shows and more, the HTML
// showed only part of it (optional extras and "from your pantry" lines
// drawn later by the scripts).
func appListWins(app, html []Section) bool {
	a, h := flatten(app), flatten(html)
	if len(h) == 0 {
		return len(a) > 0
	}
	if len(a) <= len(h) {
		return false
	}
	have := map[string]bool{}
	for _, l := range a {
		have[normKey(l)] = true
	}
	found := 0
	for _, l := range h {
		if have[normKey(l)] {
			found++
		}
	}
	return found*4 >= len(h)*3
}

// firstKey returns the first non-empty list under one of keys.
func firstKey(m map[string]any, keys []string) []any {
	for _, k := range keys {
		if l, ok := m[k].([]any); ok && len(l) > 0 {
			return l
		}
	}
	return nil
}

// appSections reads the lists: strings as they are; objects by their text,
// an ingredient also by its amount and unit ("quantity", "amount", "unit"
// keys) before its name.
func appSections(m map[string]any) (ing, steps []Section) {
	var ib, sb sectionBuilder
	for _, e := range firstKey(m, appIngredientKeys) {
		switch e := e.(type) {
		case string:
			ib.item(e)
		case map[string]any:
			ib.item(appIngredient(e))
		}
	}
	for _, e := range firstKey(m, appStepKeys) {
		switch e := e.(type) {
		case string:
			sb.item(withoutMarkdownBold(e))
		case map[string]any:
			sb.item(withoutMarkdownBold(appText(e)))
		}
	}
	return ib.sections(), sb.sections()
}

func appText(m map[string]any) string {
	for _, k := range appTextKeys {
		if s, ok := m[k].(string); ok && strings.TrimSpace(s) != "" {
			return s
		}
	}
	return ""
}

func appIngredient(m map[string]any) string {
	name := appText(m)
	var amount, unit string
	for _, k := range sortedKeys(m) {
		lk := strings.ToLower(k)
		switch v := m[k].(type) {
		case float64:
			if amount == "" && (strings.Contains(lk, "quantity") || strings.Contains(lk, "amount")) && v > 0 {
				amount = strconv.FormatFloat(v, 'f', -1, 64)
			}
		case string:
			if amount == "" && (strings.Contains(lk, "quantity") || strings.Contains(lk, "amount")) {
				amount = v
			}
			if unit == "" && strings.Contains(lk, "unit") {
				unit = v
			}
		}
	}
	if amount == "" {
		return name
	}
	return strings.TrimSpace(strings.Join(strings.Fields(amount+" "+unit+" "+name), " "))
}

// withoutMarkdownBold drops the "**" of markdown bold, which such data
// keeps for the app to render.
func withoutMarkdownBold(s string) string {
	return strings.ReplaceAll(s, "**", "")
}
