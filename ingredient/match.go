package ingredient

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// Key kinds, from the weakest to the strongest evidence that a step names an ingredient. When
// several ingredients have a key for the same words of a step, the longest key wins, then the
// strongest kind, then the key that covers more of the ingredient's name.
const (
	kindHypernym     = 1  // "the pasta" for spaghetti
	kindModifier     = 3  // "the cheddar" for cheddar cheese
	kindPartModifier = 5  // "the chicken" for chicken thighs
	kindHead         = 6  // "the oil" for olive oil
	kindSuffix       = 8  // "brown sugar" for light brown sugar
	kindFull         = 10 // the whole name, descriptors aside
	synonymPenalty   = 1  // a synonym is slightly weaker than the word itself
)

type candidate struct {
	ing   int
	kind  int
	cover float64 // share of the ingredient's name the key covers
	head  string  // the head noun of the ingredient's name
}

// matchIndex holds the keys of one recipe's ingredients.
type matchIndex struct {
	keys                 map[string][]candidate
	first                map[string]bool // first words of keys, to skip most step words at once
	maxLen               int
	salt                 []int // ingredients that are salt or plain pepper, for "season to taste"
	greasing             []int // ingredients listed "for greasing"
	saltOnly, pepperOnly []int // outside English: the salt lines and the pepper lines
	lang                 string
	// compound holds, outside English, the single-word keys by their last five letters or more, so
	// a step's "bouillon" finds the "kippenbouillon" line (see scan).
	compound map[string][]candidate
	// shortTails holds the last two or three letters of long words ("ol" of "olivenol").
	shortTails map[string][]candidate
	dusting    []int // ingredients listed "for dusting"
	// nominal holds the keys of participles used as nouns ("pelat" of "i pelati"): a step's word
	// names the line with them only after an article.
	nominal map[string]bool
	// noteWords holds, outside English, the stemmed words of each line's notes ("batid" of "1 huevo
	// batido"): a step's word after the food that only some same-name lines carry tells them apart.
	noteWords []map[string]bool
}

// Match links ingredient lines to the instruction steps that use them. It returns
// [ingredientIndex, stepIndex] pairs sorted by ingredient, then step; never nil.
//
// A link means a cook reading the step needs the line in hand at that moment (the rules are in
// testdata/mapping/README.md). A step names an ingredient by its name without descriptors, its head
// noun ("the oil" for olive oil), the food a part belongs to ("the chicken" for chicken thighs), a
// singular, plural or inflected form, a compound ("Hühnerstücke" for Hühnerbrust), a synonym
// (scallions/green onions, cilantro/coriander) or a kind ("the pasta" for spaghetti); the longest,
// most specific name wins and words match whole. Whether a mention is a link depends on its role
// (roles.go): the first mention of an ingredient is, unless it is a doneness cue ("until the broccoli
// is tender"), part of a mixture's name ("the tomato mixture"), discarded ("discard the bay leaves")
// or water as a bath; later mentions are links only when the step puts the ingredient, or a portion
// of it, in again ("return the beef", "the remaining flour", "stir in the reserved eggs"), or cooks
// what was only prepared so far. Collective references ("the dry ingredients", "all the spices",
// "the marinade ingredients") link their members where they are first used together
// (collective.go). "Season to taste" links salt and pepper, and "grease the pan" an ingredient
// listed "for greasing". A pronoun ("put them in a pot", "Coloque-os") stands for the foods named
// just before it (pronouns.go); a food put on a tin or a board ("a floured surface", "Oil the
// grate") is in hand there. Match has no sections; MatchRecipe takes them.
func Match(ingredients, steps []string) [][2]int {
	r := Recipe{Ingredients: make([]Line, len(ingredients)), Steps: make([]Line, len(steps))}
	for i, line := range ingredients {
		r.Ingredients[i] = Line{Text: line}
	}
	for i, s := range steps {
		r.Steps[i] = Line{Text: s}
	}
	return MatchRecipe(r)
}

// MatchParsed is Match for ingredients already parsed, so a caller that stores the parsed parts
// does not parse twice. Name is what is matched; Notes ("for greasing"), Quantity and Unit (to tell
// two lines of the same food apart) help.
func MatchParsed(ingredients []Parsed, steps []string) [][2]int {
	lines := make([]Line, len(steps))
	for i, s := range steps {
		lines[i] = Line{Text: s}
	}
	return matchLines(ingredients, make([]string, len(ingredients)), lines)
}

// matchLines links parsed ingredient lines, each with its section name, to steps.
func matchLines(ingredients []Parsed, sections []string, steps []Line) [][2]int {
	hits := make([][]hit, len(steps))
	texts := make([]normText, len(steps))
	for s, step := range steps {
		texts[s] = normalizeText(step.Text, true)
	}
	lineTexts := make([]normText, len(ingredients))
	for i, p := range ingredients {
		lineTexts[i] = normalizeText(p.Name+" "+p.Notes, false)
	}
	lang := detectLanguage(texts, lineTexts)
	if cut, ok := withoutNotes(steps, lexicons[lang]); ok {
		steps = cut
		for s, step := range steps {
			texts[s] = normalizeText(step.Text, true)
		}
	}
	if lang != "en" {
		// "l'aglio", "d'huile": the article or preposition is a word of its own.
		for s, step := range steps {
			texts[s] = normalizeTextIn(splitElisions(step.Text), true, lang)
		}
	}
	idx := buildIndexLang(ingredients, lang)
	// A bare head noun shared by several ingredients ("the oil" with vegetable oil and sesame oil)
	// most likely means one the recipe never calls by its full name: the first pass finds those.
	named := make([]bool, len(ingredients))
	for s := range steps {
		stemmed := texts[s]
		stemmed.words = stemWords(stemmed.words, lang)
		hits[s] = idx.scan(stemmed, texts[s].words)
		for _, h := range hits[s] {
			for _, c := range h.cands {
				if c.kind >= kindSuffix-synonymPenalty {
					named[c.ing] = true
				}
			}
		}
	}
	lx := lexicons[lang]
	views := make([]stepView, len(steps))
	headings := make([]bool, len(steps))
	punctuated := 0
	for s, step := range steps {
		views[s] = newStepView(step.Text, texts[s], lx)
		headings[s] = isHeading(step.Text, views[s])
		if endsSentence(step.Text) {
			punctuated++
		}
	}
	if 2*punctuated >= len(steps) {
		// Where steps are sentences, a short line without any punctuation is a step's title
		// ("Bate los huevos con el azúcar" above the paragraph that says how).
		for s, step := range steps {
			if !headings[s] && !strings.ContainsAny(step.Text, ".,;:!?()") && wordCount(views[s]) <= 8 {
				headings[s] = true
			}
		}
	}
	secs := newSectionIndex(sections, steps, texts, headings, lx)
	coll := newCollectives(ingredients, sections, secs, lx)
	links := make([][2]int, 0, len(ingredients)*2)
	found := make([]bool, len(ingredients))
	n := len(ingredients)
	st := &dishState{used: make([]bool, n), inDish: make([]bool, n), prepOnly: make([]bool, n), notes: make([]string, n),
		combined: make([]bool, n), cutOnly: make([]bool, n)}
	st.serving = make([]bool, n)
	st.portioned = make([]bool, n)
	st.lastStep = make([]int, n)
	for i := range st.lastStep {
		st.lastStep[i] = -1
	}
	for i, p := range ingredients {
		if p.Notes != "" {
			st.notes[i] = strings.Join(normalize(p.Notes), " ")
			st.serving[i] = coll.forServing(p.Notes)
		}
	}
	used := st.used
	var prevRuns []foodRun // the runs of foods of the last step read, for its pronouns' successors
	for s, step := range steps {
		view := views[s]
		if headings[s] {
			continue
		}
		clear(found)
		for i := range st.prepOnly {
			st.prepOnly[i] = true
			st.cutOnly[i] = true
		}
		hitEnd := hitEnds(hits[s], len(view.toks))
		var anchors []int
		type pending struct {
			hit  int
			ings []int
			r    mentionRole
		}
		var ambiguous []pending
		hitIngs := make([][]int, len(hits[s]))
		noUse := make([]bool, len(hits[s]))
		var mixName []bool
		if !nounFirst[lang] {
			// (Polish and Czech set nouns side by side in different cases: "do ziemniaków cebulę".)
			mixName = combinedNames(hits[s], st)
		}
		roles := readRoles(view, hits[s], hitEnd)
		for hi, h := range hits[s] {
			r := roles[hi]
			if mixName != nil && mixName[hi] {
				r = mentionRole{blocked: true}
			}
			// A food put on a tin ("grease the pan with butter and line it") is not what a pronoun
			// after it stands for: the tin is.
			noUse[hi] = r.blocked && !r.out || r.applied
			ings, kind := resolve(h, named, ingredients, sections, step.Text[:h.start])
			if h.mix && (len(ings) != 1 || !st.aloneLast(ings[0])) {
				// "die Zwiebelmasse" of onions cooked with the bacon is the mixture; "Kartoffelmasse"
				// of potatoes last worked on alone (grated, squeezed) is the potatoes (a mixture of
				// one line).
				r = mentionRole{blocked: true}
			}
			if len(ings) == 1 && !r.applied {
				// "Kneed bakmeel, boter …" with "roomboter" for the dough and "boter voor het
				// invetten": the line given to the tin is not what goes into the dish.
				cands := h.cands
				if h.end == h.pos+1 {
					// (A compound line, "koude roomboter", is no candidate of a plain word that
					// names another line in full.)
					cands = append(slices.Clone(cands), idx.compound[stemWord(view.toks[h.pos], lang)]...)
				}
				ings = besidesTheTin(ings, cands, st.notes, lx)
				if r.cook && !r.serve && st.serving[ings[0]] && !spare(st.notes[ings[0]]) {
					// "Calentar el aceite" with "aceite de oliva" and "un chorrito de aceite para
					// servir": a step that cooks means the line not kept for the table.
					// (Only a line of the same part: "citroensap" of the topping with a lemon for
					// garnish there is not the cake's.)
					kept := ings[0]
					ings = besides(ings, cands, func(ing int) bool { return st.serving[ing] || sections[ing] != sections[kept] })
				}
			}
			if len(ings) == 1 && h.end-h.pos == 1 && lx != nil && lx.has(kindSalt, view.toks, h.pos) {
				// "the salt" with kosher salt for a marinade and salt for a sauce: the kind of a salt
				// (kosher, sea, fine) does not make it another food, so the step's part decides, as
				// between two lines of one name. (Within one part the plain salt is the one named.)
				if all := withSameHead(slices.Clone(ings), h); secs.spansSections(all) {
					ings = all
				}
			}
			if h.plural || view.allBefore(h.pos) {
				// "the beans" is every bean line, "the chiles" the guajillo and the arbol chiles;
				// "tutti i funghi" the champignons and the porcini, whatever the plural looks like.
				ings = withSameHead(ings, h)
			}
			if kind == kindHypernym && h.plural && !r.portion && len(ings) > 1 {
				// "the spices", "the herbs": a collective, linked where its members are first used.
				// (A kind of one line, "het vlees" for the runderlappen, is that line.)
				r.reuse = false
				if spelledOut(view, h.end, hits[s]) {
					// "add the spices – cumin and coriander": the foods listed are the members.
					ings = nil
				}
			}
			hitIngs[hi] = ings
			switch {
			case len(ings) == 1:
				if r.linked(ings[0], st) {
					anchors = append(anchors, ings[0])
				}
			case kind != kindHypernym && (!h.plural && !view.allBefore(h.pos) || kind >= kindFull-synonymPenalty):
				// "the sugar" with a crust sugar and a filling sugar: decide once the step's other
				// ingredients are known. (A plural of different foods, "the onions" with red and
				// yellow onions, keeps them all; a plural of one food listed twice does not.)
				ambiguous = append(ambiguous, pending{hi, ings, r})
				continue
			}
			for _, ing := range ings {
				if r.linked(ing, st) && !(r.water && isWaterLine(ingredients[ing])) {
					found[ing] = true
					st.mark(ing, r)
					if kind == kindHypernym {
						// "all the spices" of the marinade tell which part the step's oil is of.
						anchors = append(anchors, ing)
					}
				}
			}
		}
		for _, p := range ambiguous {
			var ings []int
			if extra := listedForExtra(p.ings, st.notes, lx); p.r.applied && len(extra) < len(p.ings) {
				// "Dust with icing sugar", "butter the tins": the line listed for dusting or with some
				// to spare for the tin, whatever part of the recipe the step's other foods are of.
				ings = extra
			} else {
				ings = secs.pick(forTheDish(p.ings, st.notes, lx), s, view, hits[s], anchors)
			}
			if p.r.move && !p.r.reuse {
				// "Remove the cinnamon" with a cinnamon stick in the pot and ground cinnamon for
				// serving: a move verb handles what is already in the dish.
				ings = preferUsed(ings, used)
			} else {
				ings = preferUnused(ings, used, p.r.portion)
			}
			ings = nearest(ings, anchors)
			if p.r.applied {
				ings = listedForExtra(ings, st.notes, lx)
			}
			hitIngs[p.hit] = ings
			for _, ing := range ings {
				if p.r.linked(ing, st) && !(p.r.water && isWaterLine(ingredients[ing])) {
					found[ing] = true
					st.mark(ing, p.r)
				}
			}
		}
		runs := foodRuns(view, hits[s], hitIngs, noUse)
		for _, p := range pronounsOf(view, hitEnd) {
			r := pronounRole(view, p, hitEnd)
			ings, sameStep := referents(p, runs, prevRuns)
			for _, ing := range ings {
				if pronounLinks(view, p, r, ing, sameStep, st) && !(r.water && isWaterLine(ingredients[ing])) {
					found[ing] = true
					st.mark(ing, r)
				}
			}
		}
		prevRuns = runs
		coll.link(view, hits[s], st, found, secs.stepSection(s))
		// Salt named by a verb ("Salez", "salate") is, of several salt lines, the one of the step's
		// part of the recipe, as a salt named by its name.
		ofPart := func(ings []int) []int {
			if len(ings) < 2 {
				return ings
			}
			if out := secs.inSection(ings, secs.stepSection(s)); len(out) > 0 {
				return out // the part a heading or the step's own section names
			}
			out := secs.pick(ings, s, view, hits[s], anchors)
			if len(out) == len(ings) && secs.spansSections(ings) {
				// Nothing tells which part's salt salts this water: none (rule 15).
				return nil
			}
			return out
		}
		idx.implicit(texts[s].words, view.stop, hits[s], lx, ofPart, found)
		for ing, ok := range found {
			if ok {
				links = append(links, [2]int{ing, s})
			}
		}
		for ing, ok := range found {
			if ok {
				used[ing] = true
				st.lastStep[ing] = s
				st.inDish[ing] = st.inDish[ing] || !st.prepOnly[ing]
				st.combined[ing] = st.combined[ing] || !st.cutOnly[ing]
			}
		}
	}
	slices.SortFunc(links, func(a, b [2]int) int {
		if a[0] != b[0] {
			return a[0] - b[0]
		}
		return a[1] - b[1]
	})
	return links
}

// mentionRole is what the words around a mention say about it.
type mentionRole struct {
	blocked bool   // a condition, a mixture, a discard: never a link
	reuse   bool   // a portion or a use verb: a link even when the ingredient is already in the dish
	portion bool   // "the remaining flour", "half of the cheese"
	mixWord string // the mixture noun right after the mention ("puree" in "the tomato puree")
	serve   bool   // under a serving or garnishing verb
	prep    bool   // under a prep or cooking verb: the ingredient is worked on apart, not yet in the dish
	cut     bool   // under a prep verb (chop, peel, rinse): worked on apart, not combined with anything
	move    bool   // the object of a move verb (let it soak, cover, rest): handled, not put in the dish
	cook    bool   // the object of a cooking verb: linked again while the ingredient is only prepared
	water   bool   // water named as a bath or boiling medium
	applied bool   // the food is put on a surface or into water: "a floured surface", "oil the grate"
	out     bool   // blocked because taken out of the pot ("remove the chicken"): a pronoun may stand for it
	base    bool   // the target something is put on or over ("over the spaghetti")
}

// linked decides whether a mention with this role links ingredient ing: never when blocked; the
// first time the ingredient appears; again only when the step puts it (or a portion of it) in.
func (r mentionRole) linked(ing int, st *dishState) bool {
	if r.blocked {
		// "the tomato puree" for "2 tomatoes, pureed", "the reserved chickpea liquid" for "chickpeas,
		// liquid reserved": a mixture of one line only is that line.
		return r.mixWord != "" && st.notes[ing] != "" && notesName(st.notes[ing], r.mixWord)
	}
	return !st.used[ing] || r.reuse || r.cook && !st.inDish[ing] || r.serve && st.serving[ing] ||
		r.base && !st.inDish[ing] && st.combined[ing]
}

// dishState is what the steps read so far did with each line: used (linked to an earlier step),
// and inDish (used other than by a prep or cooking verb: combined with the rest).
type dishState struct {
	notes        []string // the lines' notes, folded ("pureed; liquid reserved")
	serving      []bool   // lines with some for serving ("plus extra for serving"): linked where served
	used, inDish []bool
	prepOnly     []bool // this step: every mention that linked the line was under a prep or cooking verb
	// combined: linked other than by a prep verb alone (chop, peel, rinse). Foods cut in one step
	// still lie apart on the board, so a later "add the vegetables" is where they are first used
	// together; foods cooked, mixed or added together are a group from then on.
	combined []bool
	cutOnly  []bool // this step: every mention that linked the line was under a prep verb
	lastStep []int  // the last step that linked the line, or -1
	// portioned: linked for a portion ("half of the onions"), so "the rest of the vegetables" later
	// takes the lines up again.
	portioned []bool
}

// aloneLast reports whether the last step that linked ing linked no other line: what it made is
// that line alone.
func (st *dishState) aloneLast(ing int) bool {
	last := st.lastStep[ing]
	if last < 0 {
		return true
	}
	for j, s := range st.lastStep {
		if j != ing && s == last {
			return false
		}
	}
	return true
}

// mark records how a mention that links ing worked on it.
func (st *dishState) mark(ing int, r mentionRole) {
	// Greasing the tin or flouring the board puts none of the line in the dish.
	st.prepOnly[ing] = st.prepOnly[ing] && (r.prep || r.applied || r.move)
	st.cutOnly[ing] = st.cutOnly[ing] && r.cut
	st.portioned[ing] = st.portioned[ing] || r.portion
}

// combinedNames marks the mentions that together name a mixture made earlier: two foods side by
// side ("the garlic butter", "the cinnamon sugar") last used in the same step are that step's
// mixture, not the lines (like "cinnamon sugar" in the rule: constituents named through a mixture).
func combinedNames(hits []hit, st *dishState) []bool {
	out := make([]bool, len(hits))
	for i := 0; i+1 < len(hits); i++ {
		a, b := hits[i], hits[i+1]
		if b.pos != a.end {
			continue
		}
		for _, ca := range a.cands {
			for _, cb := range b.cands {
				if ca.ing != cb.ing && st.used[ca.ing] && st.used[cb.ing] && st.lastStep[ca.ing] == st.lastStep[cb.ing] {
					out[i], out[i+1] = true, true
				}
			}
		}
	}
	return out
}

func readRole(v stepView, h hit, hitEnd []int) mentionRole {
	var r mentionRole
	if v.inCondition(h.pos) || h.pos < v.title {
		// A doneness cue, or the title a step opens with ("Lag smør- og tomatcurry: ...").
		r.blocked = true
		return r
	}
	// "the remaining ladyfingers and cream mixture": a portion is taken of the line itself.
	mixWord, mixture := v.mixtureWord(h.end, func(k int) int { return hitEnd[k] }, !v.portionBefore(h.pos))
	if !mixture && v.mixtureOf(h.pos) {
		mixture, mixWord = true, v.toks[h.pos-2]
		if v.lx.has(classArticle, v.toks, h.pos-1) {
			mixWord = v.toks[h.pos-3]
		}
	}
	if mixture {
		r.blocked = true
		r.mixWord = mixWord
		return r
	}
	verb, at, hasVerb := v.verbBefore(h.pos)
	if hasVerb && verb == classDiscard && !v.afterFrom(h.pos) {
		r.blocked = true
		return r
	}
	if hasVerb && verb == classMove && removeVerbs[v.toks[at]] && !v.afterFrom(h.pos) {
		// Taken out, yet still what a later "shred it", "return it" stands for.
		r.blocked, r.out = true, true
		return r
	}
	if v.excessBefore(h.pos) || v.excepted(h.pos) || v.sameBefore(h.pos) || v.panOf(h.pos) {
		r.blocked = true
		return r
	}
	r.portion = v.portionBefore(h.pos) || v.portionAfter(h.end)
	// "Rub the butter over the chicken", "season the fish": a prep verb works on its target too
	// (rule 31), where "pour the cream over the potatoes" only adds to it.
	object := hasVerb && (at >= 0) && (!v.targetBefore(h.pos) || verb == classPrep) && !v.movedOut(h.end-1)
	// "Spoon the sauce over the spaghetti": the base a plate is assembled on (linked when it was
	// cooked apart and joins the dish here, see linked).
	r.base = hasVerb && (verb == classUse || verb == classMove) && v.targetBefore(h.pos) && v.onTop(h.pos)
	r.applied = v.appliedAt(h)
	if object && verb == classMove && v.lx.has(classPlace, v.toks, at) && v.placedIn(h.end) {
		// "Spoon the chicken into the tortillas", "Set the roast on top of the vegetables": moving
		// into the dish is a use (moving out, "to a plate", is not: movedOut).
		verb = classUse
	}
	// "Place the potatoes in a pot of cold salted water": put in water to cook apart, not in the dish.
	intoWater := object && (verb == classUse || verb == classMove) && v.placedInWater(h.end)
	r.reuse = r.portion || (object && (verb == classUse || verb == classPrep || verb == classMixVerb)) ||
		v.broughtBack(h.pos, h.end) || r.applied
	// "Toss the beef in the flour", "dust the fish in a little flour": coated, the food is prepared
	// apart, not yet in the dish (browning or frying it next puts it in).
	r.prep = hasVerb && (verb == classPrep || verb == classCook) || intoWater ||
		object && (verb == classUse || verb == classMixVerb) && v.coatedIn(h.end, hitEnd)
	r.cut = hasVerb && verb == classPrep && !v.joinedLater(h.end)
	r.move = object && verb == classMove
	r.serve = hasVerb && (v.lx.has(classServe, v.toks, at) || v.lx.has(classServeGroup, v.toks, at) || v.toks[at] == "garnish" || v.toks[at] == "top")
	r.cook = object && verb == classCook || hasVerb && v.lx.has(classServe, v.toks, at)
	if r.serve && v.lx == lexicons["en"] && h.pos > 0 && v.toks[h.pos-1] == "with" && v.lx.has(classServe, v.toks, at) {
		// "Serve warm with butter and maple syrup": what the dish is served with is put on the table,
		// more of it, even when some went into the dish.
		r.reuse = true
	}
	// "Remoja el pan en un poco de agua": water a food is soaked or dipped in is a bath.
	r.water = v.isBath(h.pos, h.end) || hasVerb && verb == classPrep && v.targetBefore(h.pos)
	return r
}

// removeVerbs are the move verbs that take something out of the pot ("remove the whole spices"):
// what they govern is discarded or set aside, never put in.
var removeVerbs = setOf("remove", "lift")

// readRoles reads the role of each of a step's mentions. A portion word before a list takes a
// portion of each food of it: "metade da cebola, dos pimentões e dos tomates", "half of the onion,
// peppers and tomatoes".
func readRoles(v stepView, hits []hit, hitEnd []int) []mentionRole {
	roles := make([]mentionRole, len(hits))
	for i, h := range hits {
		roles[i] = readRole(v, h, hitEnd)
		if i == 0 || roles[i].portion || roles[i].blocked || !roles[i-1].portion || !v.listedWith(hits[i-1].end, h.pos) {
			continue
		}
		roles[i].portion, roles[i].reuse = true, true
	}
	return roles
}

// hitEnds maps the first word of each hit to the word after it (k itself where no hit starts).
func hitEnds(hits []hit, n int) []int {
	out := make([]int, n+1)
	for k := range out {
		out[k] = k
	}
	for _, h := range hits {
		out[h.pos] = h.end
	}
	return out
}

// listedForExtra keeps, of several lines of the food a step puts on a tin or a board, those listed
// with some to spare ("butter, plus extra for the tin", "flour, plus more for dusting"), if any.
func listedForExtra(ings []int, notes []string, lx *lexicon) []int {
	var out []int
	for _, ing := range ings {
		if spare(notes[ing]) || forTheTin(notes[ing], lx) {
			out = append(out, ing)
		}
	}
	if len(out) == 0 {
		return ings
	}
	return out
}

// spare reports whether a line's folded notes keep some to spare ("plus extra", "more for dusting").
func spare(notes string) bool {
	for _, w := range strings.Fields(notes) {
		if w == "extra" || w == "more" {
			return true
		}
	}
	return false
}

// forTheTin reports whether a line's folded notes give it to the tin: greasing or dusting it, or the
// tin itself ("oil, for greasing", "Butter für das Blech", "beurre pour le moule").
func forTheTin(notes string, lx *lexicon) bool {
	w := strings.Fields(notes)
	for k := range w {
		if lx.has(classTin, w, k) {
			return true
		}
	}
	return false
}

// besidesTheTin returns, when the one line a mention names is given to the tin, the best other line
// of that food the mention could mean, if there is one; else ings.
func besidesTheTin(ings []int, cands []candidate, notes []string, lx *lexicon) []int {
	if !forTheTin(notes[ings[0]], lx) || spare(notes[ings[0]]) {
		return ings
	}
	return besides(ings, cands, func(ing int) bool { return forTheTin(notes[ing], lx) })
}

// besides returns the best candidate line of a mention that is not set aside, in place of the one
// line ings names, if there is one; else ings.
func besides(ings []int, cands []candidate, aside func(int) bool) []int {
	best, bestKind := -1, -1
	for _, c := range cands {
		if c.ing != ings[0] && c.kind > bestKind && !aside(c.ing) {
			best, bestKind = c.ing, c.kind
		}
	}
	if best < 0 {
		return ings
	}
	return []int{best}
}

// forTheDish keeps, of several lines of one food, those not listed only for the tin ("icing sugar,
// for dusting", "oil, for greasing"), if any: a step that puts the food in the dish means them.
func forTheDish(ings []int, notes []string, lx *lexicon) []int {
	var out []int
	for _, ing := range ings {
		n := notes[ing]
		tinOnly := (strings.Contains(n, "dust") || strings.Contains(n, "greas") || forTheTin(n, lx)) &&
			!strings.Contains(n, "plus") && !spare(n)
		if !tinOnly {
			out = append(out, ing)
		}
	}
	if len(out) == 0 {
		return ings
	}
	return out
}

// preferUnused keeps, of several same-name lines a mention could mean, those not used yet: a recipe
// that lists sugar twice uses the first line first. A portion ("the remaining sugar") keeps them all.
func preferUnused(ings []int, used []bool, portion bool) []int {
	if portion {
		return ings
	}
	var out []int
	for _, ing := range ings {
		if !used[ing] {
			out = append(out, ing)
		}
	}
	if len(out) == 0 {
		return ings
	}
	return out
}

// preferUsed keeps, of several lines a mention could mean, those already used, when there are any.
func preferUsed(ings []int, used []bool) []int {
	var out []int
	for _, ing := range ings {
		if used[ing] {
			out = append(out, ing)
		}
	}
	if len(out) == 0 {
		return ings
	}
	return out
}

func isWaterLine(p Parsed) bool {
	w := dropIgnored(normalize(p.Name))
	if len(w) == 0 {
		return false
	}
	// "cold water"; "agua fría", "1 l vody": the word for water first in the languages that put
	// the food first, but not "eau de fleur d'oranger", a flavouring named after it.
	return waterWords[w[len(w)-1]] || waterWords[w[0]] && (len(w) == 1 || !romancePrepositions[w[1]])
}

// cutSuffixes are, folded, the last parts of a compound that name a cut of the food before them
// (filet, filé, Brust, borst, bryst, bröst), in the languages that compound foods.
var cutSuffixes = []string{"fileter", "filets", "fileer", "filet", "filer", "file", "bruste", "brust", "borsten", "borst", "bryst", "brost"}

// cutCompoundFood returns the food a compound of a food and a cut names ("lax" of "laxfile"), or "".
func cutCompoundFood(w string) string {
	for _, s := range cutSuffixes {
		if strings.HasSuffix(w, s) && len(w)-len(s) >= 3 {
			return w[:len(w)-len(s)]
		}
	}
	return ""
}

// waterWords are the words for water, folded, in the languages of the set, with the case forms a
// line writes in Polish and Czech ("1 l vody", "szklanka wody").
var waterWords = setOf("water", "agua", "acqua", "eau", "wasser", "woda", "wody", "voda", "vody",
	"vatten", "vand", "vann")

// hit is one span of a step and the candidates for it.
type hit struct {
	cands  []candidate
	last   string // the span's last word
	pos    int    // first word of the span in the step's normalized words
	end    int    // the word after the span
	plural bool   // "the cheeses", "the onions": may mean several ingredients
	start  int    // byte offset of the span in the step
	// mix: a compound of the food and a mixture noun ("Zwiebelmasse"): the mixture, unless the food
	// has not been combined with anything yet (a mixture of one line is that line).
	mix bool
}

// byAmount keeps, of several lines a mention could mean, those whose amount the step gives just
// before the name ("add 1/2 cup sugar" with "1/2 cup sugar" and "2 1/2 cups sugar" listed). Without
// an amount, or when it fits none of them, it keeps them all.
func byAmount(cands []candidate, parsed []Parsed, before string) []candidate {
	if len(cands) < 2 || len(parsed) == 0 {
		return cands
	}
	q, unit, ok := trailingAmount(before)
	if !ok {
		return cands
	}
	var out []candidate
	if partitive(before) {
		// "1 teaspoon of the oil" with "oil, divided" and "1 teaspoon sesame oil": a measure taken
		// "of the" line is a portion, and the line marked divided is the one given out in portions.
		for _, c := range cands {
			if strings.Contains(parsed[c.ing].Notes, "divided") {
				out = append(out, c)
			}
		}
		if len(out) > 0 {
			return out
		}
	}
	for _, c := range cands {
		p := parsed[c.ing]
		if p.Quantity != nil && *p.Quantity == q && p.Unit == unit {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		return cands
	}
	return out
}

// partitive reports whether text ends with "of the" or "of": the name after it is what a portion
// is taken from.
func partitive(text string) bool {
	f := strings.Fields(strings.ToLower(text))
	n := len(f)
	return n > 0 && f[n-1] == "of" || n > 1 && f[n-1] == "the" && f[n-2] == "of"
}

// trailingAmount reads an amount and unit at the end of text ("... whisk in 1 1/2 cups of the").
func trailingAmount(text string) (float64, string, bool) {
	if len(text) > 48 {
		cut := len(text) - 48
		for cut < len(text) && !utf8.RuneStart(text[cut]) {
			cut++
		}
		text = text[cut:]
	}
	toks := lex(text)
	end := len(toks)
	for end > 0 && toks[end-1].kind == tWord && (toks[end-1].low == "of" || toks[end-1].low == "the") {
		end--
	}
	toks = toks[:end]
	// Find where the amount starts: the earliest of the numbers right before the end.
	k := len(toks)
	for k > 0 && k > len(toks)-6 {
		t := toks[k-1]
		amountPart := t.kind == tNum || (t.kind == tPunct && t.text == "-") ||
			(t.kind == tWord && (lookupUnit(t.text, true) != "" || t.low == "to" || t.low == "and"))
		if !amountPart {
			break
		}
		k--
	}
	for k < len(toks) && toks[k].kind != tNum {
		k++
	}
	p := parser{line: text, toks: toks}
	q, _, next, ok := p.amount(k)
	if !ok {
		return 0, "", false
	}
	if next == len(toks) {
		return q, "", true
	}
	u, uend := p.unit(next, true, false)
	if u == "" || uend < len(toks) && !(uend == len(toks)-1 && toks[uend].kind == tPunct) {
		return 0, "", false
	}
	return q, u, true
}

// resolve picks the ingredients a hit links, and their kind: the strongest kind; then the lines
// whose amount the step gives; then the largest cover; among ingredients still tied, those never
// named in full elsewhere if there are such.
//
// A weaker name of the same food in another section of the recipe stays in the running ("the
// cocoa" with unsweetened cocoa powder for the cake and cocoa powder for the frosting, "the butter"
// with unsalted butter for the sponge and butter for the filling): how much of a line's name a step
// writes does not tell the parts apart, the step's part does (the caller decides among them).
func resolve(h hit, named []bool, parsed []Parsed, sections []string, before string) ([]int, int) {
	ings, kind := resolveName(h, named, parsed, before)
	if len(ings) != 1 || kind == kindHypernym || h.plural || byAmountChose(h, parsed, before) {
		return ings, kind
	}
	best := ings[0]
	head := ""
	for _, c := range h.cands {
		if c.ing == best {
			head = c.head
		}
	}
	for _, c := range h.cands {
		// (A line the recipe names in full elsewhere, "the chili oil", is not what a bare "oil" means.)
		if c.ing != best && c.kind >= kindModifier && c.head == head && sections[c.ing] != sections[best] &&
			!slices.Contains(ings, c.ing) && (!named[c.ing] || named[best]) {
			ings = append(ings, c.ing)
		}
	}
	return ings, kind
}

// byAmountChose reports whether the step gives an amount before the name that one of its lines has
// ("beat 200g softened butter"): that line is the one meant, whatever its section.
func byAmountChose(h hit, parsed []Parsed, before string) bool {
	return len(byAmount(h.cands, parsed, before)) < len(h.cands)
}

// resolveName picks the ingredients a hit names by its words alone (see resolve).
func resolveName(h hit, named []bool, parsed []Parsed, before string) ([]int, int) {
	cands := h.cands
	bestKind := -1
	for _, c := range cands {
		bestKind = max(bestKind, c.kind)
	}
	strongest := make([]candidate, 0, len(cands))
	for _, c := range cands {
		if c.kind == bestKind {
			strongest = append(strongest, c)
		}
	}
	strongest = byAmount(strongest, parsed, before)
	if h.plural && bestKind < kindFull-synonymPenalty {
		// "add your cheeses": every food the plural can mean.
		out := make([]int, len(strongest))
		for i, c := range strongest {
			out[i] = c.ing
		}
		return out, bestKind
	}
	bestCover := -1.0
	for _, c := range strongest {
		bestCover = max(bestCover, c.cover)
	}
	var tied, unnamed []int
	for _, c := range strongest {
		if c.cover == bestCover {
			tied = append(tied, c.ing)
			if !named[c.ing] {
				unnamed = append(unnamed, c.ing)
			}
		}
	}
	if len(tied) > 1 && len(unnamed) > 0 && bestKind < kindSuffix-synonymPenalty {
		return unnamed, bestKind
	}
	return tied, bestKind
}

// nearest keeps, of several ingredients a singular mention could mean, those listed clearly closest
// to the other ingredients of the same step: recipes list ingredients in the order of use, and group
// those of a crust or a frosting together. When no candidate is clearly closer ("the cabbage" with
// red and green cabbage listed side by side), or there is nothing to compare to, it keeps them all.
func nearest(ings, anchors []int) []int {
	if len(anchors) == 0 {
		return ings
	}
	mean := 0.0
	for _, a := range anchors {
		mean += float64(a)
	}
	mean /= float64(len(anchors))
	dist := make([]float64, len(ings))
	best := -1.0
	for i, ing := range ings {
		dist[i] = float64(ing) - mean
		if dist[i] < 0 {
			dist[i] = -dist[i]
		}
		if best < 0 || dist[i] < best {
			best = dist[i]
		}
	}
	var out []int
	for i, ing := range ings {
		if dist[i] <= 1.5*best+0.5 {
			out = append(out, ing)
		}
	}
	return out
}

// scan finds, left to right, the longest key at each position of a step (its stemmed words; raw
// holds them before stemming).
func (idx *matchIndex) scan(text normText, raw []string) []hit {
	toks := text.words
	var hits []hit
	for i := 0; i < len(toks); {
		t := toks[i]
		if t == sep {
			i++
			continue
		}
		if verbNouns[t] && i+1 < len(toks) && verbFollowers[toks[i+1]] {
			i++
			continue
		}
		if idx.lang != "en" && isExactVerb(lexicons[idx.lang], raw[i]) && (i == 0 || !lexicons[idx.lang].has(classArticle, raw, i-1)) {
			i++ // "Grädda" (bake) is not the grädde, though their stems meet
			continue
		}
		if (idx.lang == "it" || idx.lang == "es" || idx.lang == "pt") && lexicons[idx.lang].has(classSaltVerb, raw, i) &&
			(i == 0 || !lexicons[idx.lang].has(classArticle, raw, i-1)) {
			i++ // "salate", "acqua salata": salting, not the "ricotta salata"
			continue
		}
		if idx.lang != "en" && i > 0 && isNumber(raw[i-1]) && lexicons[idx.lang].has(classMeasure, raw, i) {
			i++ // "175 grader" is a temperature, not the grädde
			continue
		}
		var best []candidate
		bestLen := 0
		mix := false
		if idx.first[t] {
			limit := min(idx.maxLen, len(toks)-i)
			for L := 1; L < limit; L++ {
				if toks[i+L] == sep {
					limit = L
					break
				}
			}
			for L := limit; L >= 1; L-- {
				if c, ok := idx.keys[joinWords(toks[i:i+L])]; ok {
					best, bestLen = c, L
					break
				}
			}
		}
		// "bread crumbs" in a step for "breadcrumbs" in the list, or the other way round (keys of two
		// words are also stored joined).
		if bestLen < 2 && i+1 < len(toks) && toks[i+1] != sep {
			if c, ok := idx.keys[t+toks[i+1]]; ok {
				best, bestLen = c, 2
			}
		}
		// "the green and red cabbage": the first adjective shares the noun after the second.
		if bestLen == 0 && distributive[t] && i+3 < len(toks) && connectors[toks[i+1]] && distributive[toks[i+2]] {
			for L := min(idx.maxLen-1, len(toks)-i-3); L >= 1; L-- {
				if c, ok := idx.keys[t+" "+joinWords(toks[i+3:i+3+L])]; ok {
					best, bestLen = c, 1
					break
				}
			}
		}
		if bestLen == 0 && idx.lang != "en" && lexicons[idx.lang].appliedFolded[raw[i]] {
			// "bemehlten", "bebloemde", "mjölat": a participle of applying a food holds its name.
			best, bestLen = idx.keyInside(t)
		}
		if bestLen == 0 && idx.lang != "en" && !isKindWord(idx.lang, raw, i) {
			best, bestLen, mix = idx.compoundAt(t)
			if bestLen > 0 && isExactVerb(lexicons[idx.lang], raw[i]) {
				// A verb is not a compound of a food: "blanda" (mix) is not "blandfärs", "piske"
				// (whip) not "piskefløde".
				best, bestLen = nil, 0
			}
		}
		if bestLen == 1 && verbFinal[idx.lang] && (i+1 == len(toks) || toks[i+1] == sep) && infinitive(raw[i]) && clauseVerb(lexicons[idx.lang], raw, i) && onlyPartial(best) {
			// German and Dutch end a clause with its verb: "die Sardellen fein hacken" cuts them,
			// it does not name the Hackfleisch.
			best, bestLen = nil, 0
		}
		if bestLen > 0 && idx.lang != "en" && onlyPartial(best) && lexicons[idx.lang].has(classCond, raw, i) {
			// "fino a ottenere" (until) opens a condition; it is not the "sale fino".
			best, bestLen = nil, 0
		}
		if bestLen > 0 && romance[idx.lang] && idx.partOfOther(best, toks, i+bestLen) {
			// "le blanc de poireau" is the leek's white, not the egg's.
			best, bestLen = nil, 0
		}
		if bestLen > 0 && i+bestLen < len(toks) {
			best = dropOtherForms(best, toks[i+bestLen])
			best = idx.byNoteWord(best, toks[i+bestLen])
		}
		if bestLen > 0 && text.plural[i+bestLen-1] {
			best = dropMassProducts(best)
		}
		if bestLen == 1 && idx.nominal[t] && (i == 0 || !lexicons[idx.lang].has(classArticle, raw, i-1)) {
			best = nil // "i pomodori, pelati e schiacciati" describes; "i pelati" names
		}
		if len(best) == 0 || isEquipment(toks, i+bestLen) {
			i++
			continue
		}
		if n := len(hits); n > 0 && hits[n-1].end == i && bestLen == 1 && partNouns[t] && onlyHeads(best) && !sharesIngredient(hits[n-1].cands, best) {
			// "the basil leaves" with bay leaves listed, "garlic cloves" with ground cloves: a part noun
			// right after another food's name is that food's part, not the other line.
			i++
			continue
		}
		hits = append(hits, hit{cands: best, plural: text.plural[i+bestLen-1], start: text.starts[i], pos: i, end: i + bestLen,
			last: toks[i+bestLen-1], mix: mix})
		i += bestLen
	}
	return hits
}

// onlyHeads reports whether every candidate matches by the head noun alone or less ("the leaves" of
// bay leaves), none by a name of its own.
func onlyHeads(cands []candidate) bool {
	for _, c := range cands {
		if c.kind > kindHead {
			return false
		}
	}
	return true
}

// sharesIngredient reports whether two candidate lists have an ingredient in common.
func sharesIngredient(a, b []candidate) bool {
	for _, x := range a {
		for _, y := range b {
			if x.ing == y.ing {
				return true
			}
		}
	}
	return false
}

// partOfOther reports whether candidates that are all a food's part words ("blanc", "jaune" of the
// eggs) are followed by "de" and another listed food: the part of that food.
func (idx *matchIndex) partOfOther(cands []candidate, toks []string, next int) bool {
	for _, c := range cands {
		if c.kind != kindPartModifier {
			return false
		}
	}
	if next+1 >= len(toks) || !romancePrepositions[toks[next]] {
		return false
	}
	for _, o := range idx.keys[toks[next+1]] {
		if !slices.ContainsFunc(cands, func(c candidate) bool { return c.ing == o.ing }) {
			return true
		}
	}
	return false
}

// verbFinal are the languages that put the verb at the end of its clause.
var verbFinal = setOf("de", "nl")

// clauseVerb reports whether words[k] is a verb of the language's lists (the scan asks it of an
// infinitive, "hacken", at the end of a clause).
func clauseVerb(lx *lexicon, words []string, k int) bool {
	for _, c := range []wordClass{classUse, classPrep, classCook, classMixVerb, classMove, classDiscard} {
		if lx.has(c, words, k) {
			return true
		}
	}
	return false
}

// onlyPartial reports whether no candidate is a line's whole name ("hack" of Hackfleisch, not
// "Salz" for the salt line).
func onlyPartial(cands []candidate) bool {
	for _, c := range cands {
		if c.kind >= kindSuffix-synonymPenalty {
			return false
		}
	}
	return true
}

// isMeat reports whether a name outside English is a meat (data/kinds.txt): a meat word, or a
// compound starting with one, that is not a stock made from it ("Rinderfond", "kalvfond").
func isMeat(w []string, lx *lexicon) bool {
	if !lx.contains(kindMeat, w) && !lx.containsPrefix(kindMeat, w) && !endsWithMeatWord(w, lx) {
		return false
	}
	return !isStock(w, lx)
}

// endsWithMeatWord reports whether a compound of the name ends with the language's word for meat:
// "fårekjøtt", "Rindfleisch", "kalvekød" are meats whatever animal leads them.
func endsWithMeatWord(w []string, lx *lexicon) bool {
	for _, x := range w {
		for _, ref := range lx.singles[classMeatRef] {
			if len(ref) >= 4 && len(x) > len(ref)+2 && strings.HasSuffix(x, ref) {
				return true
			}
		}
	}
	return false
}

// isStock reports whether a name outside English is a stock: a word ends with a stock word
// ("Rinderfond", "Gemüsebrühe", "caldo de pollo").
func isStock(w []string, lx *lexicon) bool {
	for _, x := range w {
		for _, s := range lx.singles[kindStock] {
			if strings.HasSuffix(x, s) {
				return true
			}
		}
	}
	return false
}

// isKindWord reports whether words[k] names a kind of food ("das Gemüse", "het vlees", "fisken"):
// the kind, not a compound that starts with it ("Gemüsebrühe", "fiskekraft").
func isKindWord(lang string, words []string, k int) bool {
	lx := lexicons[lang]
	for _, c := range []wordClass{classVegRef, classSpiceRef, classMeatRef} {
		if lx.has(c, words, k) {
			return true
		}
	}
	if ff := forms[lang]; ff != nil {
		for _, kind := range ff.kinds {
			if len(kind.word) == 1 && stemWord(words[k], lang) == stemWord(kind.word[0], lang) {
				return true
			}
		}
	}
	return false
}

// isExactVerb reports whether a word is written out in the language's lists as a verb that mixes,
// cooks, moves or discards (not as a verb's stem: "brat*" also starts "Bratwurst"). Use and prep
// verbs are left out: some apply the food they are named after ("poivrez", "salzen", "raspen").
func isExactVerb(lx *lexicon, w string) bool {
	for _, c := range []wordClass{classMixVerb, classCook, classMove, classDiscard} {
		for _, ph := range lx.exact[c][w] {
			if len(ph.words) == 1 {
				return true
			}
		}
	}
	return false
}

// dropOtherForms removes the weak candidates of a span followed by a form of food other than their
// own: "curry sauce" is not the curry powder, "chilli oil" not the chilli powder, "vanilla pod" not
// the vanilla extract, "herb oil" not the parsley. A full name is kept ("the lemon juice" uses the
// lemon).
func dropOtherForms(cands []candidate, next string) []candidate {
	if !formWords[next] {
		return cands
	}
	out := cands[:0:0]
	for _, c := range cands {
		if c.kind > kindPartModifier || c.head == next {
			out = append(out, c)
		}
	}
	return out
}

// dropMassProducts removes, for a plural word, the products named after it: "the pistachios" are
// not the pistachio extract, "the tomatoes" not the tomato paste.
func dropMassProducts(cands []candidate) []candidate {
	out := cands[:0:0]
	for _, c := range cands {
		isModifier := c.kind == kindModifier || c.kind == kindModifier-synonymPenalty
		if !isModifier || !massHeads[c.head] {
			out = append(out, c)
		}
	}
	return out
}

// isEquipment reports whether the word at i makes the words before it a tool: "stock pot", "garlic
// press", "rice cooker", "cheese grater".
func isEquipment(toks []string, i int) bool {
	if i >= len(toks) || !equipment[toks[i]] {
		return false
	}
	return !(toks[i] == "pot" && i+1 < len(toks) && toks[i+1] == "pie")
}

// implicit adds the links a step makes without naming the ingredient: seasoning to taste, greasing
// and dusting with an ingredient listed for it.
//
// A seasoning verb whose clause names the seasoning after "with" ("Krydda med socker och peppar",
// "assaisonnez la salade d'un filet d'huile") uses what it names, not the salt; hits are the step's
// mentions.
func (idx *matchIndex) implicit(toks []string, stop []bool, hits []hit, lx *lexicon, ofPart func([]int) []int, found []bool) {
	season, grease, dust := false, false, false
	inName := make([]bool, len(toks))
	// qualifier: a word after the first of a food's name, as "salata" of "ricotta salata" (salted),
	// which qualifies the food and salts nothing.
	qualifier := make([]bool, len(toks))
	for _, h := range hits {
		for k := h.pos; k < h.end && k < len(toks); k++ {
			inName[k] = true
			qualifier[k] = k > h.pos
		}
	}
	for i, t := range toks {
		if lx != lexicons["en"] {
			switch {
			case qualifier[i]:
			case lx.has(classPepperVerb, toks, i) && lx.has(classSaltVerb, toks, i):
				season = true
			case lx.has(classSeasonVerb, toks, i) && !inName[i]:
				// "kruidnagels" (cloves) opens like "kruiden" (to season): a food's name is no verb.
				season = season || !idx.namesSeasoning(toks, hits, lx, i+1)
			case lx.has(classSaltVerb, toks, i):
				linkAll(ofPart(idx.saltOnly), found)
			case lx.has(classPepperVerb, toks, i):
				linkAll(ofPart(idx.pepperOnly), found)
			case lx.has(classGrease, toks, i) && (!inName[i] || i+1 < len(toks) && lx.has(classArticle, toks, i+1)) && tinInSentence(toks, stop, lx, i) && !foodWith(toks, stop, hits, lx, i):
				// "Eine Springform fetten", "Smør en ildfast form": greasing the tin without
				// naming the fat takes the line given to the tin, as "grease the pan" does. (The
				// Scandinavian verb is the word for butter; an article after it makes it the verb.)
				grease = true
			}
		}
		switch t {
		case "season":
			season = season || !idx.namesSeasoning(toks, hits, lx, i+1)
		case "seasoning":
			// "adjust the seasoning", "toss in flour with plenty of seasoning": salt and pepper, where
			// no food word qualifies it ("the taco seasoning", "the Cajun seasoning" is a blend).
			season = season || i > 0 && !inName[i] && plainSeasoning[toks[i-1]]
		case "grease":
			grease = true
		case "dust":
			dust = true
		}
	}
	if season {
		named := false
		for _, ing := range idx.salt {
			named = named || found[ing]
		}
		if !named {
			linkAll(ofPart(idx.salt), found)
		}
	}
	if grease {
		for _, ing := range idx.greasing {
			found[ing] = true
		}
	}
	if dust {
		for _, ing := range idx.dusting {
			found[ing] = true
		}
	}
}

// tinInSentence reports whether the sentence around toks[i] names a tin ("eine Springform fetten",
// "untar el molde"), so that a verb that may also brush or spread a food greases a tin here.
// stop marks the separators that end a sentence: "Eine Springform (26 cm) fetten" is one.
func tinInSentence(toks []string, stop []bool, lx *lexicon, i int) bool {
	for k := i - 1; k >= 0 && !stop[k]; k-- {
		if isTinNoun(toks, lx, k) {
			return true
		}
	}
	for k := i + 1; k < len(toks) && !stop[k]; k++ {
		if isTinNoun(toks, lx, k) {
			return true
		}
	}
	return false
}

// foodWith reports whether the sentence around toks[i] names a food after a "with" word ("bestrijk
// met het ei", "mit Butter einfetten"): the verb then uses that food, not the line given to the tin.
func foodWith(toks []string, stop []bool, hits []hit, lx *lexicon, i int) bool {
	start := i
	for start > 0 && !stop[start-1] {
		start--
	}
	for k := start; k < len(toks) && !stop[k]; k++ {
		if !lx.has(classWith, toks, k) {
			continue
		}
		for _, h := range hits {
			if h.pos > k && h.pos <= k+4 {
				return true
			}
		}
	}
	return false
}

// isTinNoun reports whether toks[k] names a tin itself ("Form", "molde", "formen"), not the act of
// greasing or dusting it ("bestäuben" dusts a cake with sugar as well as a tin with flour).
func isTinNoun(toks []string, lx *lexicon, k int) bool {
	return lx.has(classTin, toks, k) && !lx.has(classGrease, toks, k)
}

// givenToTin reports whether a line's folded notes give it to a tin by naming the tin ("Butter für
// die Form", "smør til formen"), as "for greasing" does in English; "zum Bestäuben" dusts a cake.
func givenToTin(notes string, lx *lexicon) bool {
	w := strings.Fields(notes)
	for k := range w {
		if isTinNoun(w, lx, k) {
			return true
		}
	}
	return false
}

// plainSeasoning are the words before "seasoning" that leave it salt and pepper.
var plainSeasoning = setOf("the", "for", "of", "with", "some", "more", "little", "plenty", "generous", "good", "extra", "and", "your")

// namesSeasoning reports whether the clause from k on names what it seasons with: a "with" word
// followed, within a few words, by a mention of something other than salt and pepper. The clause
// ends at a conjunction ("abschmecken und mit Schnittlauch bestreuen").
func (idx *matchIndex) namesSeasoning(toks []string, hits []hit, lx *lexicon, k int) bool {
	for ; k < len(toks) && toks[k] != sep && !lx.has(classConj, toks, k); k++ {
		if !lx.has(classWith, toks, k) {
			continue
		}
		for _, h := range hits {
			if h.pos > k && h.pos <= k+4 {
				return !slices.ContainsFunc(h.cands, func(c candidate) bool { return slices.Contains(idx.salt, c.ing) })
			}
		}
	}
	return false
}

func joinWords(w []string) string {
	if len(w) == 1 {
		return w[0]
	}
	return strings.Join(w, " ")
}

// synonymIndex maps the first word of every synonym phrase to the phrases starting with it, so
// finding the synonyms in a name costs one map lookup per word.
type synonymPhrase struct {
	words []string
	group int
}

var (
	normalizedSynonyms [][][]string
	synonymIndex       = map[string][]synonymPhrase{}
)

func init() {
	normalizedSynonyms = make([][][]string, len(synonyms))
	for g, group := range synonyms {
		for _, phrase := range group {
			words := normalize(phrase)
			normalizedSynonyms[g] = append(normalizedSynonyms[g], words)
			synonymIndex[words[0]] = append(synonymIndex[words[0]], synonymPhrase{words, g})
		}
	}
}

// partUnits are units that name a part of the food, which steps use as a noun ("the cloves", "the
// stalks").
var partUnits = map[string]bool{unitClove: true, unitStalk: true, unitSprig: true, unitEar: true}

var saltWords = setOf("sea", "kosher", "table", "fine", "flaky", "coarse", "flake", "rock", "maldon")
var pepperWords = setOf("black", "white", "ground", "cracked", "peppercorn")

// buildIndexLang builds the index of a recipe in a language: outside English, words are reduced to
// their stems (stemWord) and compound words are matched by their parts (see scan).
func buildIndexLang(ings []Parsed, lang string) *matchIndex {
	idx := &matchIndex{keys: map[string][]candidate{}, first: map[string]bool{}, lang: lang}
	if lang != "en" {
		idx.noteWords = make([]map[string]bool, len(ings))
		for i, p := range ings {
			idx.noteWords[i] = map[string]bool{}
			for _, w := range stemWords(normalizeIn(p.Notes, lang), lang) {
				if w != sep && len(w) >= 4 {
					idx.noteWords[i][w] = true
				}
			}
		}
	}
	// stock marks, in the languages that name the food first, the lines of a stock made of a food
	// ("caldo de pollo"); see dropStockOf.
	var stock []bool
	for i, p := range ings {
		if p.Name == "" {
			continue
		}
		seasoning := false
		var names [][]string
		if lang == "en" {
			names = [][]string{normalize(p.Name)}
		} else {
			plain := cleanName(normalizeIn(splitElisions(dropQualityLabels(p.Name)), lang), lang)
			if romance[lang] && len(plain) > 1 && lexicons[lang].has(kindStock, plain, 0) {
				if stock == nil {
					stock = make([]bool, len(ings))
				}
				stock[i] = true
			}
			if onlyFunctionWords(plain, lang) && p.Notes != "" {
				// "1 i 1/2 łyżeczki kurkumy" reads as the name "i", "1 xícara (chá) de óleo" as the
				// name "xícara": the food is in the notes.
				plain = cleanName(normalizeIn(splitElisions(Parse(p.Notes).Name), lang), lang)
				if onlyFunctionWords(plain, lang) {
					plain = cleanName(slices.DeleteFunc(normalizeIn(splitElisions(p.Notes), lang), func(w string) bool {
						return isNumber(w) || len(w) == 1 // "Prise(n) Zucker": the plural's letter
					}), lang)
				}
			}
			names = [][]string{plain}
			if hf := headFirst(plain, lang); !equalWords(hf, plain) {
				if packedIn(plain) {
					// "atún en aceite", "tonno in olio": the food packed in oil is the tuna; its
					// name read as written would end with the oil.
					names = names[:0]
				}
				names = append(names, hf)
			}
			if raw := normalizeIn(p.Name, lang); len(raw) > 1 && lexicons[lang].has(classFrom, raw, len(raw)-1) && p.Notes != "" {
				// "Saft von 1 Zitrone", "zumo de 1 limón": the fruit is in the notes, and the
				// step's "Zitronensaft" names it.
				if fruit := cleanName(slices.DeleteFunc(normalizeIn(p.Notes, lang), isNumber), lang); len(fruit) > 0 && !onlyFunctionWords(fruit, lang) {
					names = append(names, fruit)
				}
			}
		}
		if isTool(names[0]) {
			continue
		}
		if lang == "en" {
			names = append(names, englishVariants(names[0])...)
			names = append(names, listedInNotes(p.Notes)...)
		}
		var alts, plainAlts [][]string
		for _, name := range names {
			for _, alt := range alternatives(name, lexicons[lang]) {
				plainAlts = append(plainAlts, alt)
				alts = append(alts, stemWords(alt, lang))
			}
		}
		for a, alt := range alts {
			w := dropIgnored(alt)
			seasoning = seasoning || isSaltOrPepper(w)
			idx.addKeys(i, w, 0)
			if lang != "en" {
				if pw := dropIgnored(plainAlts[a]); len(pw) > 0 && len(w) > 0 {
					idx.addCompoundParts(candidate{ing: i, kind: kindHead, cover: 1 / float64(len(pw)), head: w[len(w)-1]}, pw[len(pw)-1])
				}
			}
			if lang == "en" && len(w) > 0 && !partNouns[w[len(w)-1]] {
				// "juice of 1 lime" is "the lime juice" as much as "2 tbsp lime juice" is.
				for _, part := range normalize(p.Notes) {
					if part == "juice" || part == "zest" {
						idx.addKeys(i, append(slices.Clip(w), part), 0)
					}
				}
			}
			if lang == "en" && a == 0 {
				// "potatoes, cut into thick chips": a step calls the pieces by the cut's noun ("fry the
				// chips").
				if cut := cutNoun(p.Notes); cut != "" {
					k := stemWords([]string{cut}, lang)
					idx.add(candidate{ing: i, kind: kindHead, cover: 1, head: k[0]}, k)
				}
			}
			if partUnits[p.Unit] && len(w) > 0 {
				// "3 garlic cloves" parses as unit clove, name garlic; a step may still say "the cloves".
				idx.addKeys(i, append(slices.Clip(w), p.Unit), 0)
			}
			for _, v := range synonymVariants(alt) {
				dv := dropIgnored(v)
				if len(dv) < len(v) && len(dv) < len(w) {
					// "raw sugar" for demerara sugar loses "raw" as a descriptor: a bare "sugar"
					// would be the whole name of the demerara line.
					continue
				}
				idx.addKeys(i, dv, synonymPenalty)
			}
			if romance[lang] {
				idx.addLeadingFood(i, w)
			}
			if lang != "en" {
				idx.addSameFood(i, alt)
			}
			if pw := plainAlts[a]; compoundLanguages[lang] && len(pw) > 0 {
				// "laxfilé", "Lachsfilet", "Hähnchenbrust": a step calls the cut by its food ("lägg
				// laxen i formen").
				if food := cutCompoundFood(pw[len(pw)-1]); food != "" {
					k := stemWords([]string{food}, lang)
					idx.add(candidate{ing: i, kind: kindHead, cover: 1, head: k[0]}, k)
				}
			}
		}
		if lx := lexicons[lang]; lang != "en" && len(alts) > 0 && isMeat(plainAlts[0], lx) {
			// "das Fleisch" for the Rindergulasch, "la viande" for the bœuf: the kind, as "the meat"
			// in English (hypernyms).
			for _, ref := range lx.singles[classMeatRef] {
				idx.add(candidate{ing: i, kind: kindHypernym, cover: 1, head: stemWord(ref, lang)}, []string{stemWord(ref, lang)})
			}
		}
		if lang != "en" && len(plainAlts) > 0 {
			// "der Fisch" for the Lachs, "i pesci" for the merluzzo, "la pasta" for the ditalini
			// (data/forms.txt), as the hypernyms of English.
			for _, plain := range plainAlts {
				for _, kw := range kindWords(plain, lang) {
					kw = stemWords(kw, lang)
					idx.add(candidate{ing: i, kind: kindHypernym, cover: 1, head: kw[len(kw)-1]}, kw)
				}
				// "i tuorli", "das Eigelb" for the eggs line, as "the chicken" for chicken thighs.
				for _, pw := range partWords(plain, lang) {
					pw = stemWords(pw, lang)
					idx.add(candidate{ing: i, kind: kindPartModifier, cover: 1, head: pw[len(pw)-1]}, pw)
				}
			}
		}
		if lang != "en" && len(alts) > 0 {
			// Outside English the parser's salt-and-pepper test does not know the words. "Sel,
			// poivre" and "sal y pimienta" are a salt line and a pepper line at once.
			lx := lexicons[lang]
			salt, pepper := false, false
			// The alternatives of the last form of the name, whose head is last ("acciughe sotto
			// sale" is anchovies).
			last := alternatives(stemWords(names[len(names)-1], lang), lx)
			for _, w := range last {
				salt = salt || len(w) > 0 && lx.has(kindSalt, w, len(w)-1)
				pepper = pepper || len(w) > 0 && lx.has(kindPepper, w, len(w)-1)
			}
			if salt {
				idx.saltOnly = append(idx.saltOnly, i)
			}
			if pepper {
				idx.pepperOnly = append(idx.pepperOnly, i)
			}
			seasoning = seasoning || salt || pepper
		}
		if seasoning {
			idx.salt = append(idx.salt, i)
		}
		notes := strings.ToLower(p.Notes)
		// "oil, for greasing"; in the other languages the notes that give a line to the tin
		// ("Butter für die Form", "smør til formen") mean the same.
		if strings.Contains(notes, "greas") || lang != "en" && givenToTin(strings.Join(normalize(p.Notes), " "), lexicons[lang]) {
			idx.greasing = append(idx.greasing, i)
		}
		if strings.Contains(notes, "dusting") {
			idx.dusting = append(idx.dusting, i)
		}
	}
	idx.addNominalParticiples(ings)
	if stock != nil {
		idx.dropStockOf(stock)
	}
	return idx
}

// dropStockOf takes, in the languages that name the food first, a stock made of a food ("caldo de
// pollo", "brodo di carne", "fond de volaille") off the keys it shares with a line that is that food
// ("muslos de pollo"): "dorar el pollo" is the thighs; the stock is called "el caldo".
func (idx *matchIndex) dropStockOf(stock []bool) {
	for key, cands := range idx.keys {
		food := slices.ContainsFunc(cands, func(c candidate) bool { return !stock[c.ing] })
		if !food || len(cands) < 2 {
			continue
		}
		idx.keys[key] = slices.DeleteFunc(slices.Clone(cands), func(c candidate) bool { return stock[c.ing] })
	}
}

// addNominalParticiples keys, in Italian, Spanish and Portuguese, the participle that tells one line
// apart from the others, used as a noun after an article: "i pelati" for the "pomodori pelati", "el
// triturado" for the "tomate triturado". The participle is a descriptor the name drops otherwise;
// scan takes it only after an article (idx.nominal).
func (idx *matchIndex) addNominalParticiples(ings []Parsed) {
	if !nominalParticiples[idx.lang] {
		return
	}
	lx := lexicons[idx.lang]
	lines := map[string][]int{}
	for i, p := range ings {
		// Parse leaves the participle after the food in the notes ("pomodori" and "pelati"), so the
		// first note is read with the name.
		first, _, _ := strings.Cut(p.Notes, ";")
		raw := normalizeIn(splitElisions(p.Name+" "+first), idx.lang)
		for k, w := range raw {
			if k > 0 && lx.has(classDescriptor, raw, k) && participle(w) && !slices.Contains(lines[w], i) {
				lines[w] = append(lines[w], i)
			}
		}
	}
	for w, l := range lines {
		key := stemWord(w, idx.lang)
		if _, taken := idx.keys[key]; len(l) != 1 || taken {
			continue
		}
		if idx.nominal == nil {
			idx.nominal = map[string]bool{}
		}
		idx.nominal[key] = true
		idx.add(candidate{ing: l[0], kind: kindModifier, cover: 0.5, head: key}, []string{key})
	}
}

// nominalParticiples are the languages whose recipes name a food by its participle alone ("i pelati").
var nominalParticiples = setOf("it", "es", "pt")

// participle reports whether a folded Italian, Spanish or Portuguese word ends as a past participle
// ("pelati", "triturado", "picada").
func participle(w string) bool {
	n := len(w)
	if n < 6 {
		return false
	}
	end := w[n-3:]
	if w[n-1] == 's' {
		end = w[n-4 : n-1]
	}
	return (end[0] == 'a' || end[0] == 'i') && (end[1] == 't' || end[1] == 'd') && strings.ContainsRune("aeio", rune(end[2]))
}

// addLeadingFood adds, in a language that names the food first, the key of the food and its
// qualifiers before the first preposition: "olio extravergine" of "olio extravergine d'oliva", as a
// step says it, beside the "olio di semi" line.
func (idx *matchIndex) addLeadingFood(ing int, w []string) {
	for k := 2; k < len(w)-1; k++ {
		if w[k] == sep || connectors[w[k]] {
			return
		}
		if romancePrepositions[w[k]] {
			idx.add(candidate{ing: ing, kind: kindSuffix, cover: float64(k) / float64(len(w)), head: w[0]}, w[:k])
			return
		}
	}
}

// addSameFood adds the keys of a name outside English with a word replaced by another name of the
// same food in the language ("Möhren" for the "Karotten" line, "wortel" for "winterpeen"; data/forms.txt).
func (idx *matchIndex) addSameFood(ing int, alt []string) {
	for pos, w := range alt {
		for _, other := range sameFood(w, idx.lang) {
			v := make([]string, 0, len(alt)-1+len(other))
			v = append(v, alt[:pos]...)
			v = append(v, other...)
			v = append(v, alt[pos+1:]...)
			v = dropIgnored(v)
			idx.addKeys(ing, v, synonymPenalty)
			if len(other) == 1 && len(v) > 0 {
				idx.addCompoundParts(candidate{ing: ing, kind: kindHead, cover: 1 / float64(len(v)), head: v[len(v)-1]}, other[0])
			}
		}
	}
}

func isSaltOrPepper(w []string) bool {
	if len(w) == 0 {
		return false
	}
	var extra map[string]bool
	switch w[len(w)-1] {
	case "salt":
		extra = saltWords
	case "pepper":
		extra = pepperWords
	default:
		return false
	}
	for _, x := range w[:len(w)-1] {
		if !extra[x] {
			return false
		}
	}
	return true
}

// alternatives splits a name on "and", "or" and punctuation ("salt and pepper", "butter or
// margarine"). A lone adjective shares the noun of the last alternative ("chicken or vegetable
// stock" → "chicken stock", "vegetable stock").
func alternatives(toks []string, lx *lexicon) [][]string {
	switch strings.Join(toks, " ") {
	case "half and half", "sweet and sour sauce", "salt and vinegar", "mac and cheese":
		return [][]string{toks}
	}
	var alts [][]string
	var cur []string
	for _, t := range toks {
		// Outside English, the language's "and" and "or" ("Salz und Pfeffer", "rasp eller makroner").
		if t == sep || connectors[t] || t == "plus" || lx != lexicons["en"] && lx.has(classConj, []string{t}, 0) {
			if len(cur) > 0 {
				alts = append(alts, cur)
			}
			cur = nil
			continue
		}
		cur = append(cur, t)
	}
	if len(cur) > 0 {
		alts = append(alts, cur)
	}
	if len(alts) > 1 {
		last := dropIgnored(alts[len(alts)-1])
		for k := 0; k < len(alts)-1; k++ {
			w := dropIgnored(alts[k])
			if len(w) == 1 && distributive[w[0]] && len(last) >= 2 {
				alts[k] = append([]string{w[0]}, last[1:]...)
			}
		}
	}
	return alts
}

// synonymVariants returns alt with each synonym phrase it contains replaced by the other members of
// its group.
func synonymVariants(alt []string) [][]string {
	var out [][]string
	for pos, w := range alt {
		for _, ph := range synonymIndex[w] {
			member := ph.words
			if pos+len(member) > len(alt) || !equalWords(alt[pos:pos+len(member)], member) {
				continue
			}
			for _, other := range normalizedSynonyms[ph.group] {
				if equalWords(other, member) {
					continue
				}
				v := make([]string, 0, len(alt)-len(member)+len(other))
				v = append(v, alt[:pos]...)
				v = append(v, other...)
				v = append(v, alt[pos+len(member):]...)
				out = append(out, v)
			}
		}
	}
	return out
}

// dropIgnored removes descriptors, numbers and leading or trailing "of".
func dropIgnored(words []string) []string {
	out := make([]string, 0, len(words))
	for _, w := range words {
		if w == sep || ignoredInNames[w] || isNumber(w) {
			continue
		}
		out = append(out, w)
	}
	for len(out) > 0 && out[0] == "of" {
		out = out[1:]
	}
	for len(out) > 0 && out[len(out)-1] == "of" {
		out = out[:len(out)-1]
	}
	return out
}

func isNumber(w string) bool {
	for i := 0; i < len(w); i++ {
		if !isDigit(w[i]) {
			return false
		}
	}
	return w != ""
}

// maxKeyWords bounds the words of a name that make keys. Food names are short; the bound keeps a
// pasted paragraph from making a quadratic number of keys.
const maxKeyWords = 8

var isSpice = endsWithAny(spices)

// addKeys adds the keys of one form of an ingredient's name (w, head last).
func (idx *matchIndex) addKeys(ing int, w []string, penalty int) {
	if len(w) > maxKeyWords {
		w = w[len(w)-maxKeyWords:] // the head is last
	}
	n := len(w)
	if n == 0 {
		return
	}
	head := w[n-1]
	key := func(kind int, cover float64) candidate {
		return candidate{ing: ing, kind: kind, cover: cover, head: head}
	}
	idx.add(key(kindFull-penalty, 1), w)
	if n > 1 && w[0] == "ground" && w[n-1] != "coriander" && isSpice(w) {
		// "ground cinnamon" and "cinnamon" are the same spice: neither is the more specific name.
		// Not coriander, whose bare name more often means the leaves (cilantro).
		idx.add(key(kindFull-penalty, 1), w[1:])
	}
	for s := 1; s < n-1; s++ {
		idx.add(key(kindSuffix-penalty, float64(n-s)/float64(n)), w[s:])
	}
	if n > 1 && !bannedHeads[head] {
		idx.add(key(kindHead-penalty, 1/float64(n)), w[n-1:])
	}
	if n == 2 && cheeses[w[0]] && cheeses[w[1]] && w[1] != "cheese" {
		// "pecorino romano", "parmigiano reggiano": either name is the cheese.
		idx.add(key(kindHead-penalty, 0.5), w[:1])
	}
	if n > 1 {
		kind := 0
		switch {
		case partNouns[head]:
			kind = kindPartModifier
		case modifierHeads[head]:
			kind = kindModifier
		}
		if kind > 0 {
			// Every run of the modifier: "chicken breast fillet" is "the chicken" and "the chicken
			// breast", "makrut lime leaves" are "the lime leaves".
			mod := w[:n-1]
			for a := range mod {
				for b := a + 1; b <= len(mod); b++ {
					m := mod[a:b]
					if len(m) == 1 && (adjectives[m[0]] || bannedHeads[m[0]]) {
						continue
					}
					idx.add(key(kind-penalty, float64(len(m))/float64(n)), m)
				}
			}
		}
	}
	for _, h := range hypernyms {
		if h.test(w) {
			// Every member of a kind is that kind equally: "the cheeses" is the sharp cheddar as
			// much as the Gruyère, so the cover tie-break does not apply.
			idx.add(key(kindHypernym, 1), h.word)
		}
	}
}

func (idx *matchIndex) add(c candidate, words []string) {
	idx.put(c, joinWords(words))
	idx.first[words[0]] = true
	idx.maxLen = max(idx.maxLen, len(words))
	if len(words) == 2 {
		idx.put(c, words[0]+words[1])
		idx.first[words[0]+words[1]] = true
	}
}

// byNoteWord keeps, of the lines a name may mean, those whose notes hold the step's next word when
// only some do: "el huevo batido" with "1 huevo batido" and "2 huevos cocidos".
func (idx *matchIndex) byNoteWord(cands []candidate, next string) []candidate {
	if idx.noteWords == nil || len(cands) < 2 || len(next) < 4 {
		return cands
	}
	out := cands[:0:0]
	for _, c := range cands {
		if idx.noteWords[c.ing][next] {
			out = append(out, c)
		}
	}
	if len(out) == 0 || len(out) == len(cands) {
		return cands
	}
	return out
}

// packedIn reports whether a name of a Romance language joins its food to what it is packed or
// kept in ("atún en aceite", "tonno in olio", "sardinhas em azeite"): one preposition "en", "in" or
// "em", no alternatives.
func packedIn(words []string) bool {
	n := 0
	for k, w := range words {
		switch {
		case w == sep || connectors[w]:
			return false
		case k > 0 && nounAfter[w]:
			n++
		case k > 0 && romancePrepositions[w]:
			return false
		}
	}
	return n == 1
}

// compoundAt matches, outside English, a word of a step that is a compound of a listed food: a
// word that starts with a single-word key ("citroensap" for the lemon, "Tomatenstücke" for the
// tomatoes) or ends with the last part of one ("bouillon" for the "Kippenbouillon" line). Parts are
// at least four letters, so short words never match inside long ones.
func (idx *matchIndex) compoundAt(t string) ([]candidate, int, bool) {
	c, n := idx.compoundParts(t)
	// "Zwiebelmischung" is a mixture, not the onion (the caller reads it so).
	mix := n > 0 && mixCompound(t, lexicons[idx.lang])
	// A kind's word names the kind on its own only: "Fleischbällchen" are not the meat line.
	c = slices.DeleteFunc(slices.Clone(c), func(x candidate) bool { return x.kind == kindHypernym })
	if len(c) == 0 {
		return nil, 0, false
	}
	return c, n, mix
}

func (idx *matchIndex) compoundParts(t string) ([]candidate, int) {
	if t == sep || len(t) < 2 || isFunctionWord(t, idx.lang) {
		return nil, 0 // "over" is no part of "bukkehornkløver"
	}
	for L := len(t) - 1; L >= 4; L-- {
		first := t[:L]
		if _, ok := idx.keys[first]; !ok && compoundLanguages[idx.lang] {
			// "kaas" of "kaasblokjes" is read as the line's "kaas" is.
			first = stemWord(foldWordIn(first, idx.lang), idx.lang)
		}
		if c, ok := idx.keys[first]; ok && !idx.nominal[first] {
			if idx.namesOtherFood(t[L:]) {
				return nil, 0 // "Salzkartoffeln" are potatoes, not the salt
			}
			return c, 1
		}
	}
	if c, ok := idx.compound[t]; ok {
		return c, 1
	}
	if compoundLanguages[idx.lang] {
		// "Röstzwiebeln" for the "Zwiebeln" line, "flødeskum" is not: a step's compound that ends
		// with a listed food of five letters or more is that food.
		for k := 3; k+5 <= len(t); k++ {
			if c, ok := idx.keys[t[k:]]; ok {
				return c, 1
			}
		}
	}
	// "Öl" for "Sonnenblumenöl", "Spiegelei" for the egg: a last part of two or three letters
	// joins a first part of four or more.
	if len(t) <= 3 {
		if c, ok := idx.shortTails[t]; ok && !isFunctionWord(t, idx.lang) {
			return c, 1
		}
		return nil, 0
	}
	for L := 2; L <= 3 && L+4 <= len(t); L++ {
		if c, ok := idx.keys[t[len(t)-L:]]; ok && !isFunctionWord(t[len(t)-L:], idx.lang) {
			return c, 1
		}
	}
	// "Hühnerstücke" for the "Hühnerbrust" line: both compounds of the same first part.
	for L := len(t) - 3; L >= 5; L-- {
		if c, ok := idx.compound[t[:L]]; ok {
			return c, 1
		}
	}
	return nil, 0
}

// vegetableStems holds, by language, the stems of the one-word vegetables of kinds.txt.
var vegetableStems = map[string]map[string]bool{}

func init() {
	for lang, lx := range lexicons {
		m := map[string]bool{}
		for _, w := range lx.singles[kindVegetable] {
			m[stemWord(w, lang)] = true
		}
		vegetableStems[lang] = m
		for _, w := range lx.singles[classMix] {
			// (Not the products a line may end with: "Sojasauce" is no mixture.)
			if st := stemWord(w, lang); st != w && !productParts[foldWordIn(w, lang)] {
				lx.mixStems = append(lx.mixStems, st)
			}
		}
	}
}

// vegetableStem reports whether stem is the stem of a vegetable's one-word name in the language.
func vegetableStem(stem, lang string) bool { return vegetableStems[lang][stem] }

// infinitive reports whether a German or Dutch word has an infinitive's ending: -en, or -ln and -rn
// after an unstressed e ("würfeln", "zuckern").
func infinitive(w string) bool {
	return strings.HasSuffix(w, "en") || strings.HasSuffix(w, "eln") || strings.HasSuffix(w, "ern")
}

// keyInside returns the candidates of the longest single-word key of four letters or more inside t.
func (idx *matchIndex) keyInside(t string) ([]candidate, int) {
	for L := len(t); L >= 4; L-- {
		for k := 0; k+L <= len(t); k++ {
			if c, ok := idx.keys[t[k:k+L]]; ok {
				return c, 1
			}
		}
	}
	return nil, 0
}

// productParts end the compounds that name a product made from their first part (folded): pastes,
// powders, sauces, stocks, oils and vinegars.
var productParts = setOf("pasta", "paste", "pasteij", "mark", "puree", "pure", "saus", "sauce", "sosse", "pulver",
	"poeder", "bouillon", "fond", "bruhe", "olie", "ol", "olja", "azijn", "essig", "pesto", "siroop",
	"sirup", "ketchup", "krem", "creme", "kraft", "buljong")

// compoundLanguages write a food's compounds as one word, the food last ("Röstzwiebeln",
// "appelmoes", "vaniljsocker").
var compoundLanguages = setOf("de", "nl", "sv", "da", "no")

// namesOtherFood reports whether the last part of a compound is a food of its own, a vegetable or a
// meat ("kartoffeln" of "Salzkartoffeln"): the compound names that food, not its first part.
func (idx *matchIndex) namesOtherFood(rest string) bool {
	if len(rest) < 4 {
		return false
	}
	lx := lexicons[idx.lang]
	w := []string{rest}
	return lx.contains(kindVegetable, w) || lx.containsPrefix(kindVegetable, w) || lx.contains(kindMeat, w) || lx.containsPrefix(kindMeat, w)
}

// addCompoundParts records the last parts of a long single-word key, for compoundAt.
func (idx *matchIndex) addCompoundParts(c candidate, w string) {
	if len(w) < 6 {
		// Six letters hold a first part of four and a short tail ("Rapsöl"); the longer parts
		// below need seven.
		return
	}
	if idx.compound == nil {
		idx.compound = map[string][]candidate{}
	}
	c.kind = kindHead
	add := func(part string) {
		if len(part) < 4 && !(len(part) == 3 && vegetableStem(part, idx.lang)) {
			// A stem cut short by an ending ("lager" → "lag") would match short words; a
			// vegetable's stem is the food ("bon" of "sperziebonen" for "de boontjes").
			return
		}
		for _, o := range idx.compound[part] {
			if o.ing == c.ing {
				return
			}
		}
		idx.compound[part] = append(idx.compound[part], c)
	}
	// w is the unstemmed word; its parts are stemmed as the step's words are ("Wein" in
	// "Weißwein": the stem of the whole word lost its n, the part keeps it).
	for k := 3; k+4 <= len(w); k++ {
		add(stemWord(w[k:], idx.lang))
	}
	for k := len(w) - 3; k <= len(w)-2; k++ {
		if k >= 4 && shortTailLanguages[idx.lang] && (idx.lang == "de" || k == len(w)-3) {
			// Outside German only three-letter parts ("mel", "kød"): two letters ("ar" of "peppar")
			// are word endings there.
			if idx.shortTails == nil {
				idx.shortTails = map[string][]candidate{}
			}
			if !slices.ContainsFunc(idx.shortTails[w[k:]], func(o candidate) bool { return o.ing == c.ing }) {
				idx.shortTails[w[k:]] = append(idx.shortTails[w[k:]], c)
			}
		}
	}
	// "madeira" for the "madeirawijn" line, "zalm" for "zalmloin": a first part of four letters or more.
	// Not when the rest is a product made from it: "currypasta" is not "de curry", "Tomatenmark"
	// not the tomatoes.
	for k := 4; k <= len(w)-3 && compoundLanguages[idx.lang]; k++ {
		// (Only where foods are compounded into one word: "picante" is no "pica".)
		// Also across a linking letter: "kerriepoeder" is "kerrie" + "poeder", and its stem
		// "kerri" is no more the curry than "kerrie" is.
		if !productParts[w[k:]] && !(linkingLetters[w[k]] && productParts[w[k+1:]]) {
			add(stemWord(w[:k], idx.lang))
		}
	}
}

// linkingLetters join the parts of a compound ("kerrie-poeder", "Zwiebel-n-suppe", "kalv-s-fond").
var linkingLetters = map[byte]bool{'e': true, 'n': true, 's': true}

func (idx *matchIndex) put(c candidate, key string) {
	cands := idx.keys[key]
	for j := range cands {
		if cands[j].ing == c.ing {
			if c.kind > cands[j].kind || (c.kind == cands[j].kind && c.cover > cands[j].cover) {
				cands[j] = c
			}
			return
		}
	}
	idx.keys[key] = append(cands, c)
}

// listedInNotes returns the foods a line lists after its first one, which the parser leaves in the
// notes ("Shredded cheddar, sour cream and sliced green onions, for topping"): a part of the notes that
// opens with a food, not a descriptor, a measure or a note word ("cut into cubes", "for topping").
func listedInNotes(notes string) [][]string {
	if notes == "" {
		return nil
	}
	var out [][]string
	for _, part := range strings.Split(notes, ";") {
		w := normalize(part)
		if len(w) < 2 || tailWords[w[0]] || connectors[w[0]] || ignoredInNames[w[0]] || isNumber(w[0]) || !connectorIn(w) {
			continue
		}
		end := len(w)
		for k, x := range w {
			if x == sep || tailWords[x] {
				end = k
				break
			}
		}
		if end >= 2 {
			out = append(out, w[:end])
		}
	}
	return out
}

// connectorIn reports whether words hold "and" or "or": a list of foods, not a note.
func connectorIn(w []string) bool {
	for _, x := range w {
		if connectors[x] {
			return true
		}
	}
	return false
}

// englishVariants are other names an English line's food goes by: the food before a borrowed
// preposition ("chiles de arbol" are the chiles, "herbes de Provence" the herbes), and the name
// without a trailing descriptor the line put after it ("cumin ground" is the cumin).
func englishVariants(name []string) [][]string {
	var out [][]string
	// "pasta of choice", "your choice of flatbreads or rice": the choice is the cook's, the food is named.
	for k := 0; k+1 < len(name); k++ {
		if name[k] == "of" && name[k+1] == "choice" && k > 0 {
			out = append(out, name[:k])
		}
		if name[k] == "choice" && name[k+1] == "of" && k+2 < len(name) {
			out = append(out, name[k+2:])
		}
	}
	for k := 1; k < len(name)-1; k++ {
		if name[k] == sep || connectors[name[k]] {
			break
		}
		if borrowedPrepositions[name[k]] {
			out = append(out, name[:k])
			break
		}
	}
	if n := len(name); n > 1 && trailingDescriptors[name[n-1]] {
		out = append(out, name[:n-1])
	}
	// "2 celery sticks", "1 cinnamon stick", "4 cardamom pods": the piece the food comes in; a step
	// says "the celery", "the cinnamon".
	if n := len(name); n > 1 && pieceNouns[name[n-1]] && name[n-2] != sep && !connectors[name[n-2]] {
		out = append(out, name[:n-1])
	}
	return out
}

// cutNoun returns the noun a line's notes cut the food into ("cut into thick chips" gives "chips"),
// or "" when there is none or it names no piece a cook would call the food by ("bite-size pieces").
func cutNoun(notes string) string {
	words := normalize(notes)
	for k := 0; k+1 < len(words); k++ {
		if words[k] != "into" || k == 0 || words[k-1] != "cut" && !descriptors[words[k-1]] {
			continue
		}
		j := k + 1
		for j < len(words) && words[j] != sep && !connectors[words[j]] {
			j++
		}
		if noun := words[j-1]; j-1 > k && !genericPieces[noun] && !isNumber(noun) {
			return noun
		}
	}
	return ""
}

// genericPieces name a size of piece, not what a cook calls the food cut into them.
var genericPieces = setOf("piece", "pieces", "bit", "bits", "size", "inch", "inches", "cm", "half", "halves", "quarter",
	"quarters", "third", "thirds", "portion", "portions", "serving", "servings", "chunk", "chunks")

var pieceNouns = setOf("stick", "stalk", "rib", "sprig", "pod")

var borrowedPrepositions = setOf("de", "di", "del", "della", "al", "alla", "du", "des")

var trailingDescriptors = setOf("ground", "dried", "fresh", "frozen", "whole", "boneless", "skinless", "raw", "cooked")

// shortTailLanguages join a short last part to a food's name ("Sonnenblumenöl", "hvedemel",
// "svinekød"), so a step's "Öl", "mel" or "kød" is that line.
var shortTailLanguages = setOf("de", "sv", "da", "no")

// endsSentence reports whether a step ends like a sentence.
func endsSentence(text string) bool {
	t := strings.TrimSpace(text)
	return t != "" && strings.ContainsRune(".!?)", rune(t[len(t)-1]))
}

func wordCount(v stepView) int {
	n := 0
	for _, t := range v.toks {
		if t != sep {
			n++
		}
	}
	return n
}

// withSameHead adds to ings the lines a plural mention's word is the head of.
func withSameHead(ings []int, h hit) []int {
	named := false // a line named by the word itself ("3 blancs d'œufs" for "les blancs")
	for _, c := range h.cands {
		named = named || c.kind > kindPartModifier && slices.Contains(ings, c.ing)
	}
	for _, c := range h.cands {
		if named && c.kind == kindPartModifier {
			continue // the egg lines the whites are a part of are not "les blancs" then
		}
		if c.head == h.last && !partNouns[c.head] && c.kind >= kindHead-synonymPenalty && !slices.Contains(ings, c.ing) {
			ings = append(ings, c.ing)
		}
	}
	slices.Sort(ings)
	return ings
}

func linkAll(ings []int, found []bool) {
	for _, ing := range ings {
		found[ing] = true
	}
}

// dropQualityLabels removes trailing quality labels written in capitals ("Sbrinz AOP",
// "Mozzarella DOP", "Paccheri IGP"): they certify the food, they do not name it.
func dropQualityLabels(name string) string {
	f := strings.Fields(name)
	for len(f) > 1 {
		w := strings.Trim(f[len(f)-1], ".,;()")
		if len(w) < 2 || len(w) > 4 || strings.ToUpper(w) != w || strings.ToLower(w) == w {
			break
		}
		f = f[:len(f)-1]
	}
	return strings.Join(f, " ")
}

// onlyFunctionWords reports whether a name holds no word but articles, prepositions, conjunctions
// and measures of the language.
func onlyFunctionWords(words []string, lang string) bool {
	for k, w := range words {
		if w != sep && len(w) > 1 && !isFunctionWord(w, lang) && !lexicons[lang].has(classMeasure, words, k) {
			return false
		}
	}
	return true
}

// isFunctionWord reports whether a short word is an article, a preposition or a conjunction of the
// language ("ein", "im", "und"), never the end of a compound food.
func isFunctionWord(w, lang string) bool {
	return lexicons[lang].isFunctionWord(w)
}

// isFunctionWord is isFunctionWord in the lexicon's language.
func (lx *lexicon) isFunctionWord(w string) bool {
	one := []string{w}
	for _, c := range []wordClass{classArticle, classFiller, classInto, classCut, classFrom, classPurpose, classCond} {
		if lx.has(c, one, 0) {
			return true
		}
	}
	return connectors[w] || functionWords[w]
}

var functionWords = setOf("in", "im", "am", "an", "zu", "um", "es", "er", "ab", "so", "da", "wo", "ja", "je", "ca",
	"en", "op", "te", "of", "om", "al", "la", "le", "il", "el", "un", "de", "di", "du", "et", "ou", "y", "e", "o")

// notesName reports whether a line's notes describe it as the mixture a step names: a notes word
// sharing the mixture noun's first four letters ("pureed" for "puree", "liquid" for "liquid").
func notesName(notes, mix string) bool {
	stem := mix[:min(4, len(mix))]
	for _, w := range strings.Fields(notes) {
		if strings.HasPrefix(w, stem) {
			return true
		}
	}
	return false
}
