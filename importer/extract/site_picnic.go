package extract

import (
	"bytes"
	"strconv"
	"strings"
)

// picnic.app (the Picnic grocery app's recipe pages) has no structured
// data: the page is a Next.js app whose recipe arrives as a JSON payload in
// self.__next_f.push(...) scripts, with "ingredients" (name, quantity,
// unit) and "preparationInstructions" (header, body; the body uses
// **markdown bold**). The HTML shows names and amounts in separate cells
// and the steps only after scripts run.
var _ = registerSite(&siteExtractor{
	hosts: []string{"picnic.app"},
	why:   "no structured data; the recipe is in the Next.js payload, not in the HTML",
	fix: func(p *page, r *Recipe) {
		rec := picnicRecipe(p)
		if rec == nil {
			return
		}
		try(func() {
			if t := firstText(get(rec, "name"), nil); t != "" {
				r.Title = t
			}
		})
		try(func() {
			if d := firstText(get(rec, "description"), nil); d != "" {
				r.Description = d
			}
		})
		try(func() {
			var b sectionBuilder
			list, _ := get(rec, "ingredients").([]any)
			for _, e := range list {
				m, ok := e.(map[string]any)
				if !ok {
					continue
				}
				name := firstText(get(m, "name"), nil)
				qty, _ := get(m, "displayIngredientQuantity").(float64)
				unit := firstText(get(m, "displayUnitOfMeasurement"), nil)
				if qty > 0 {
					name = strings.TrimSpace(strconv.FormatFloat(qty, 'f', -1, 64) + " " + unit + " " + name)
				}
				b.item(name)
			}
			if s := b.sections(); countItems(s) > 0 {
				r.IngredientSections = s
			}
		})
		try(func() {
			var b sectionBuilder
			steps, _ := get(rec, "preparationInstructions").([]any)
			for _, e := range steps {
				if m, ok := e.(map[string]any); ok {
					b.item(strings.ReplaceAll(firstText(get(m, "body"), nil), "**", ""))
				}
			}
			if s := b.sections(); countItems(s) > 0 {
				r.InstructionSections = s
			}
		})
		try(func() {
			if t := parseMinutes(get(rec, "preparationTimeInMinutes")); t != nil {
				r.TotalMinutes = t
			}
		})
	},
})

// picnicRecipe finds the recipe object in the page's Next.js payload. Each
// push carries [1, "<id>:<json>"]; the JSON is read with the tolerant
// reader.
func picnicRecipe(p *page) map[string]any {
	for _, script := range scriptBodies(p.raw, p.lower) {
		if !bytes.Contains(script, []byte("preparationInstructions")) {
			continue
		}
		start := bytes.IndexByte(script, '[')
		if start < 0 {
			continue
		}
		for _, v := range parseLenientJSON(script[start:]) {
			arr, ok := v.([]any)
			if !ok || len(arr) < 2 {
				continue
			}
			payload, ok := arr[1].(string)
			if !ok {
				continue
			}
			if i := strings.IndexAny(payload, "[{"); i >= 0 {
				payload = payload[i:]
			}
			for _, n := range findKey(parseLenientJSON([]byte(payload)), "preparationInstructions") {
				return n
			}
		}
	}
	return nil
}

// findKey returns the objects, at any depth, that have the key.
func findKey(roots []any, key string) []map[string]any {
	var out []map[string]any
	var walkV func(v any, depth int)
	walkV = func(v any, depth int) {
		if depth > maxJSONDepth {
			return
		}
		switch v := v.(type) {
		case map[string]any:
			if _, ok := v[key]; ok {
				out = append(out, v)
				return
			}
			for _, k := range sortedKeys(v) {
				walkV(v[k], depth+1)
			}
		case []any:
			for _, e := range v {
				walkV(e, depth+1)
			}
		}
	}
	for _, r := range roots {
		walkV(r, 0)
	}
	return out
}

// scriptBodies returns the contents of every inline <script> element.
func scriptBodies(page, lower []byte) [][]byte {
	var out [][]byte
	for i := 0; ; {
		k := bytes.Index(lower[i:], []byte("<script"))
		if k < 0 {
			return out
		}
		i += k + len("<script")
		end := bytes.IndexByte(lower[i:], '>')
		if end < 0 {
			return out
		}
		i += end + 1
		close := bytes.Index(lower[i:], []byte("</script"))
		if close < 0 {
			close = len(lower) - i
		}
		out = append(out, page[i:i+close])
		i += close
	}
}
