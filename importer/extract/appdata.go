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

func (p *page) appData() (ing, steps []Section) {
	parsed := 0
	for _, script := range scriptBodies(p.raw, p.lower) {
		low := bytes.ToLower(script)
		if !bytes.Contains(low, []byte("ingredient")) || !containsAnyKey(low) {
			continue
		}
		if parsed++; parsed > maxAppScripts {
			return nil, nil
		}
		start := bytes.IndexAny(script, "[{")
		if start < 0 {
			continue
		}
		for _, obj := range appRecipes(parseLenientJSON(script[start:]), 0) {
			i, s := appSections(obj)
			if countItems(i) > 0 && countItems(s) > 0 {
				return i, s
			}
		}
	}
	return nil, nil
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
// a steps key; a string that holds JSON ("5:[...]", an escaped payload) is
// read as well.
func appRecipes(roots []any, depth int) []map[string]any {
	var out []map[string]any
	var walkV func(v any, d int)
	walkV = func(v any, d int) {
		if d > maxJSONDepth || len(out) > 0 {
			return
		}
		switch v := v.(type) {
		case map[string]any:
			if _, ok := v["@type"]; ok {
				return // schema.org data, read as such (jsonld.go)
			}
			if firstKey(v, appIngredientKeys) != nil && firstKey(v, appStepKeys) != nil {
				out = append(out, v)
				return
			}
			for _, k := range sortedKeys(v) {
				walkV(v[k], d+1)
			}
		case []any:
			for _, e := range v {
				walkV(e, d+1)
			}
		case string:
			if depth == 0 && len(v) > 50 && strings.Contains(v, "ngredient") {
				if i := strings.IndexAny(v, "[{"); i >= 0 {
					out = append(out, appRecipes(parseLenientJSON([]byte(v[i:])), depth+1)...)
				}
			}
		}
	}
	for _, r := range roots {
		walkV(r, 0)
	}
	return out
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
