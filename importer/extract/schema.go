package extract

import (
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

// fromSchema maps one schema.org Recipe node to a Recipe. The node comes
// from JSON-LD, microdata or RDFa, all read into the same map shape. g
// resolves @id references (nil for microdata and RDFa).
func fromSchema(n map[string]any, g *graph, base *url.URL) Recipe {
	return readFields(n, g, base, schemaFields)
}

// schemaField reads one field of a Recipe from a node.
type schemaField struct {
	name string
	read func(n map[string]any, g *graph, base *url.URL, r *Recipe)
}

// schemaFields are read one by one, each under its own recover: a value
// that breaks one reader loses that field and keeps the others.
var schemaFields = []schemaField{
	{"title", func(n map[string]any, g *graph, _ *url.URL, r *Recipe) {
		r.Title = firstText(get(n, "name", "headline", "title"), g)
	}},
	{"description", func(n map[string]any, g *graph, _ *url.URL, r *Recipe) {
		r.Description = firstText(get(n, "description"), g)
	}},
	{"servings", func(n map[string]any, _ *graph, _ *url.URL, r *Recipe) {
		yield := get(n, "recipeYield", "yield", "recipeServings", "servings")
		r.Servings, r.ServingsUnit = parseServings(yield), parseYieldUnit(yield)
	}},
	{"prepMinutes", func(n map[string]any, _ *graph, _ *url.URL, r *Recipe) {
		r.PrepMinutes = parseMinutes(get(n, "prepTime"))
	}},
	{"cookMinutes", func(n map[string]any, _ *graph, _ *url.URL, r *Recipe) {
		// A Recipe is a HowTo: HowTo's performTime is its cookTime.
		r.CookMinutes = parseMinutes(get(n, "cookTime", "performTime"))
	}},
	{"totalMinutes", func(n map[string]any, _ *graph, _ *url.URL, r *Recipe) {
		r.TotalMinutes = parseMinutes(get(n, "totalTime"))
	}},
	{"sourceURL", func(n map[string]any, g *graph, base *url.URL, r *Recipe) {
		// The recipe's own address: schema.org "url" (microdata
		// itemprop="url", which a Paprika HTML export writes for the
		// recipe's source). Only an http(s) address; whether it or the
		// caller's address wins is decided in page.extract.
		r.SourceURL = absURL(firstText(get(n, "url"), g), base)
	}},
	{"image", func(n map[string]any, g *graph, base *url.URL, r *Recipe) {
		r.ImageURL = pickImage(collectImages(get(n, "image", "thumbnailUrl", "photo"), g, 0), base)
	}},
	{"categories", func(n map[string]any, g *graph, _ *url.URL, r *Recipe) {
		// "category" is a common misspelling of recipeCategory in
		// hand-written JSON-LD; categories written as a breadcrumb
		// ("Desserts > Cakes") are several.
		r.Categories = splitCrumbs(textList(get(n, "recipeCategory", "category"), g))
	}},
	{"tags", func(n map[string]any, g *graph, _ *url.URL, r *Recipe) {
		r.Tags = textList(get(n, "keywords"), g)
	}},
	{"cuisines", func(n map[string]any, g *graph, _ *url.URL, r *Recipe) {
		r.Cuisines = textList(get(n, "recipeCuisine"), g)
	}},
	{"author", func(n map[string]any, g *graph, _ *url.URL, r *Recipe) {
		r.Author = authorName(get(n, "author", "creator"), g, 0)
	}},
	{"ingredients", func(n map[string]any, g *graph, _ *url.URL, r *Recipe) {
		r.IngredientSections = ingredientSections(get(n, ingredientKeys...), g)
	}},
	{"instructions", func(n map[string]any, g *graph, _ *url.URL, r *Recipe) {
		r.InstructionSections = instructionSections(get(n, instructionKeys...), g)
	}},
}

// ingredientKeys name a Recipe's ingredients: "ingredients" is the older
// schema.org name, "ingredient" that of data-vocabulary.org's Recipe,
// still in the microdata of old pages.
var ingredientKeys = []string{"recipeIngredient", "ingredients", "ingredient"}

// instructionKeys name a Recipe's method; a Recipe is a HowTo, so HowTo's
// "step" is valid on it too.
var instructionKeys = []string{"recipeInstructions", "instructions", "step"}

// readFields runs each field reader under its own recover. A reader that
// panics may have left its field half-set; that field is reset.
func readFields(n map[string]any, g *graph, base *url.URL, fields []schemaField) Recipe {
	var r Recipe
	for _, f := range fields {
		func() {
			var tmp Recipe
			defer func() {
				if recover() != nil {
					return // this field stays empty
				}
				mergeField(&r, tmp)
			}()
			f.read(n, g, base, &tmp)
		}()
	}
	return r
}

// mergeField copies into r what a single field reader set in one.
func mergeField(r *Recipe, one Recipe) {
	*r = mergeRecipes([]Recipe{*r, one})
}

// firstText is the text of a value that should be one string: the string
// itself, the first non-empty element of an array, or an object's name/text.
func firstText(v any, g *graph) string {
	return firstTextDepth(v, g, 0)
}

// firstTextDepth bounds the recursion: references can form cycles.
func firstTextDepth(v any, g *graph, depth int) string {
	if depth > 8 {
		return ""
	}
	v = g.deref(v)
	switch v := v.(type) {
	case string:
		return cleanText(v)
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case []any:
		for _, e := range v {
			if s := firstTextDepth(e, g, depth+1); s != "" {
				return s
			}
		}
	case map[string]any:
		return firstTextDepth(get(v, "name", "text", "@value", "value"), g, depth+1)
	}
	return ""
}

// textList reads a list-valued property (categories, keywords, cuisines): a
// comma-separated string, an array of strings or of named objects.
func textList(v any, g *graph) []string {
	var out []string
	var add func(v any, depth int)
	add = func(v any, depth int) {
		if depth > 4 {
			return
		}
		v = g.deref(v)
		switch v := v.(type) {
		case string:
			for part := range strings.SplitSeq(cleanText(v), ",") {
				if part = strings.TrimSpace(part); part != "" {
					out = append(out, part)
				}
			}
		case []any:
			for _, e := range v {
				add(e, depth+1)
			}
		case map[string]any:
			add(get(v, "name", "@value", "value"), depth+1)
		}
	}
	add(v, 0)
	return out
}

// crumbSeparators divide a breadcrumb-style category ("Main > Pasta",
// "Desserts - Cakes", "Home » Soups").
var crumbSeparators = regexp.MustCompile(`\s*(?:>|›|»|→)\s*|\s+[-–—]\s+`)

// splitCrumbs splits each category written as a breadcrumb into its
// parts, dropping a leading "Home"/"Recipes" crumb that names no category.
func splitCrumbs(cats []string) []string {
	var out []string
	for _, c := range cats {
		parts := crumbSeparators.Split(c, -1)
		for i, part := range parts {
			part = strings.TrimSpace(part)
			if part == "" || len(parts) > 1 && i == 0 && crumbRoot(part) {
				continue
			}
			out = append(out, part)
		}
	}
	return out
}

func crumbRoot(s string) bool {
	switch strings.ToLower(s) {
	case "home", "start", "accueil", "inicio", "startseite", "hjem", "hem", "recipes", "recipe", "rezepte", "recettes", "recetas", "recepten", "recept", "opskrifter", "oppskrifter", "ricette", "receitas", "przepisy", "recepty":
		return true
	}
	return false
}

func authorName(v any, g *graph, depth int) string {
	if depth > 4 {
		return ""
	}
	v = g.deref(v)
	switch v := v.(type) {
	case string:
		return cleanText(v)
	case []any:
		var names []string
		for _, e := range v {
			if s := authorName(e, g, depth+1); s != "" {
				names = append(names, s)
			}
		}
		return strings.Join(names, ", ")
	case map[string]any:
		return firstText(get(v, "name"), g)
	}
	return ""
}

// sectionBuilder collects items into sections; items before any named
// section go into an unnamed one.
type sectionBuilder struct {
	out []Section
	cur int // index of the section receiving items, or -1 for none yet
	has bool
}

func (b *sectionBuilder) item(s string) {
	if s == "" {
		return
	}
	if !b.has {
		b.out = append(b.out, Section{})
		b.cur, b.has = len(b.out)-1, true
	}
	b.out[b.cur].Items = append(b.out[b.cur].Items, s)
}

// stepText adds text to the step being written, or starts it.
func (b *sectionBuilder) stepText(s string, started *bool) {
	if !*started || !b.has || len(b.out[b.cur].Items) == 0 {
		b.item(s)
		*started = true
		return
	}
	items := b.out[b.cur].Items
	items[len(items)-1] += " " + s
}

func (b *sectionBuilder) section(name string) {
	b.out = append(b.out, Section{Name: name})
	b.cur, b.has = len(b.out)-1, true
}

// ingredientLine adds a line of an ingredient list, where a line that
// only names a group ("For the crust:", without an amount, ending in a
// colon) starts a section: the lines after it are that group's.
func (b *sectionBuilder) ingredientLine(s string) {
	if name, ok := groupHeading(s); ok {
		b.section(name)
		return
	}
	b.item(s)
}

// groupHeading reads a line that names a group of ingredients: short,
// ending in a colon, with no amount.
func groupHeading(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if !strings.HasSuffix(s, ":") || len(s) > 60 || hasDigitOrFraction(s) {
		return "", false
	}
	name := strings.TrimSpace(strings.TrimRight(s, ":"))
	return name, strings.IndexFunc(name, unicode.IsLetter) >= 0
}

// endSection makes later loose items go to an unnamed section again.
func (b *sectionBuilder) endSection() {
	b.has = false
}

func (b *sectionBuilder) sections() []Section {
	var out []Section
	for _, s := range b.out {
		if len(s.Items) > 0 {
			out = append(out, s)
		}
	}
	return out
}

// ingredientSections reads recipeIngredient: strings, a newline-separated
// string, nested arrays, PropertyValue objects, or named groups (an object
// with a name and a list, which some plugins publish as an extension).
func ingredientSections(v any, g *graph) []Section {
	var b sectionBuilder
	if a, ok := v.([]any); ok && len(a) == 1 {
		if s, ok := a[0].(string); ok {
			v = s
		}
	}
	if s, ok := v.(string); ok {
		lines := cleanLines(s)
		// One line holding the whole list: "125ml milk, 1 tsp vinegar, 60ml oil".
		if len(lines) == 1 {
			if parts := splitQuantityList(lines[0]); len(parts) > 2 {
				lines = parts
			}
		}
		for _, line := range lines {
			b.ingredientLine(line)
		}
		return b.sections()
	}
	var add func(v any, depth int)
	add = func(v any, depth int) {
		if depth > 8 {
			return
		}
		v = g.deref(v)
		switch v := v.(type) {
		case string:
			// A line break inside one ingredient is two ingredients.
			for _, line := range cleanLines(v) {
				b.ingredientLine(line)
			}
		case float64:
			b.item(strconv.FormatFloat(v, 'f', -1, 64))
		case []any:
			for _, e := range v {
				add(e, depth+1)
			}
		case map[string]any:
			if list := get(v, "itemListElement", "recipeIngredient", "ingredients", "items"); list != nil {
				if name := firstText(get(v, "name", "title"), g); name != "" {
					b.section(name)
				}
				add(list, depth+1)
				b.endSection()
				return
			}
			if typeMatches(v, "PropertyValue") {
				unit := firstText(get(v, "unitText"), g)
				if unit == "" {
					unit = unitFromCode(firstText(get(v, "unitCode"), g))
				}
				b.item(joinWords(firstText(get(v, "value"), g), unit, firstText(get(v, "name"), g)))
				return
			}
			if amount := firstText(get(v, "amount", "quantity"), g); amount != "" && get(v, "text") == nil {
				// An ingredient item with its amount apart
				// (data-vocabulary.org's RecipeIngredient: amount, name).
				name := firstText(get(v, "name"), g)
				if strings.HasPrefix(name, amount) {
					b.item(name) // the name already says it
				} else {
					b.item(joinWords(amount, firstText(get(v, "unit", "unitText"), g), name))
				}
				return
			}
			b.item(firstText(get(v, "text", "name", "@value", "value"), g))
		}
	}
	add(v, 0)
	return b.sections()
}

// instructionSections reads recipeInstructions in its shapes: one text
// (split into steps), an array of strings, HowToStep objects, HowToSection
// objects (which become named sections) and ItemLists.
func instructionSections(v any, g *graph) []Section {
	var b sectionBuilder
	v = g.deref(v)
	// One text, or an array holding only one text: split it into steps.
	if a, ok := v.([]any); ok && len(a) == 1 {
		if s, ok := a[0].(string); ok {
			v = s
		}
	}
	if s, ok := v.(string); ok {
		for _, part := range methodParts(s) {
			if part.name != "" {
				b.section(part.name)
			}
			for _, step := range splitSteps(part.text) {
				b.item(step)
			}
		}
		return b.sections()
	}
	var add func(v any, depth int)
	add = func(v any, depth int) {
		if depth > 8 {
			return
		}
		v = g.deref(v)
		switch v := v.(type) {
		case string:
			b.item(oneLine(v))
		case []any:
			for _, e := range v {
				add(e, depth+1)
			}
		case map[string]any:
			if item := get(v, "item"); item != nil && typeMatches(v, "ListItem") {
				add(item, depth+1) // an ItemList entry wrapping its step
				return
			}
			list := get(v, "itemListElement", "steps", "recipeInstructions")
			if typeMatches(v, "HowToSection") || (list != nil && get(v, "text") == nil && !typeMatches(v, "HowToStep")) {
				name := firstText(get(v, "name", "title", "headline"), g)
				if name != "" {
					b.section(name)
				}
				add(list, depth+1)
				if name != "" {
					b.endSection()
				}
				return
			}
			text := firstText(get(v, "text", "description"), g)
			name := firstText(get(v, "name", "headline"), g)
			if text == "" && list != nil {
				// A HowToStep whose text sits in HowToDirection items.
				add(list, depth+1)
				return
			}
			if text == "" {
				text = name
				name = ""
			}
			if name != "" && !sameStart(text, name) && !stepLabel.MatchString(name) {
				// A step with its own short title ("Make the dough"):
				// shown before its text, as on the page.
				b.item(name)
			}
			b.item(text)
		}
	}
	add(v, 0)
	return b.sections()
}

// stepLabel matches step names that only number the step ("Step 1",
// "Schritt 2", "3.", "step3", "gazpacho_r step 1"); they are not titles.
var stepLabel = regexp.MustCompile(`(?i)^(?:(?:.*[\s_-])?(?:` + stepWords + `)\s*)?\d+\s*[.:)]?$`)

// stepWords are the word "step" in the languages of the corpus.
const stepWords = `step|schritt|étape|etape|paso|passo|stap|trin|steg|krok|korak|lépés`

// sameStart reports whether a step's name is only its text again (or a
// truncated copy of it), as many plugins publish.
func sameStart(text, name string) bool {
	a, n := normKey(text), normKey(strings.TrimRight(strings.TrimSpace(name), ".…"))
	if n == "" {
		return true
	}
	return strings.HasPrefix(a, n) || strings.HasPrefix(n, a)
}

// splitQuantityList splits a one-line ingredient list at the commas that are
// followed by a quantity, so "1 onion, chopped, 2 carrots" keeps
// "1 onion, chopped" together.
func splitQuantityList(s string) []string {
	var out []string
	start := 0
	for i := 0; i+2 < len(s); i++ {
		if s[i] == ',' && s[i+1] == ' ' && s[i+2] >= '0' && s[i+2] <= '9' {
			out = append(out, strings.TrimSpace(s[start:i]))
			start = i + 2
		}
	}
	out = append(out, strings.TrimSpace(s[start:]))
	return out
}

// joinWords joins the non-empty parts with spaces.
func joinWords(parts ...string) string {
	var kept []string
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, " ")
}

// unitCodes names the UN/CEFACT common codes that schema.org's unitCode
// takes for kitchen units; a cook reads "ml", not "MLT".
var unitCodes = map[string]string{
	"GRM": "g", "KGM": "kg", "MGM": "mg", "MLT": "ml", "CLT": "cl", "DLT": "dl", "LTR": "l",
	"G21": "cup", "G24": "tbsp", "G25": "tsp", "ONZ": "oz", "OZA": "fl oz", "LBR": "lb", "H87": "", "C62": "",
}

// unitFromCode reads a unitCode: a known code as its unit, a word as it
// is, and an unknown code as nothing (a code is not a unit a cook reads).
func unitFromCode(code string) string {
	if u, ok := unitCodes[strings.ToUpper(code)]; ok {
		return u
	}
	if len(code) <= 3 && strings.ToUpper(code) == code {
		return ""
	}
	return code
}
