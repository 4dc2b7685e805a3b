package ingredient

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The role of a mention in a step decides whether it is a link: a name under a use verb is an
// ingredient in hand, the same name in "until the broccoli is tender", in "the tomato mixture" or after
// "discard" is not. These functions read the role from the words around the mention, with the word
// lists of data/roles.txt in the recipe's language.

// languageCues are frequent words only one of the languages uses much, to tell a recipe's language
// from its steps.
var languageCues = map[string]map[string]bool{
	"en": setOf("the", "and", "with", "until", "add", "into", "minute", "of"),
	"es": setOf("el", "los", "las", "y", "con", "hasta", "se", "del", "minuto", "una"),
	"de": setOf("der", "die", "das", "und", "mit", "bis", "den", "im", "minuten", "ein", "eine"),
	"it": setOf("il", "gli", "di", "con", "e", "per", "della", "nel", "minuti", "fino"),
	"fr": setOf("le", "les", "et", "avec", "du", "des", "dans", "jusqu", "minute", "au"),
	"nl": setOf("het", "een", "en", "met", "van", "tot", "minuten", "voeg", "ze", "je"),
	"pt": setOf("o", "os", "as", "com", "em", "ate", "minuto", "uma", "do", "da", "no", "na"),
	"sv": setOf("och", "med", "till", "i", "pa", "minuter", "en", "ett", "av", "lat"),
	// Danish and Norwegian share most small words; these tell them apart ("ud"/"ut", "efter"/"etter").
	"da": setOf("og", "med", "til", "i", "pa", "minutter", "en", "et", "af", "lad", "ud", "efter", "steg", "gryde", "hvid"),
	"no": setOf("og", "med", "til", "i", "pa", "minutter", "en", "et", "av", "la", "ut", "etter", "stek", "gryte", "hvit", "hvitt"),
	"pl": setOf("i", "z", "na", "do", "w", "minut", "oraz", "sie", "po", "aby"),
	"cs": setOf("a", "v", "se", "ze", "je", "minut", "pak", "dokud", "asi", "nebo"),
}

// languageOrder lists the languages detectLanguage knows; ties go to the earlier one.
var languageOrder = []string{"en", "es", "de", "it", "fr", "nl", "pt", "sv", "da", "no", "pl", "cs"}

// cueLanguages maps each cue word to the languages (bits in languageOrder order) using it.
var cueLanguages = func() map[string]uint16 {
	m := map[string]uint16{}
	for i, lang := range languageOrder {
		for w := range languageCues[lang] {
			m[w] |= 1 << i
		}
	}
	return m
}()

// detectLanguage returns the language whose cue words the steps use most ("en" when none). When the
// steps are too short to tell (fewer than two cue words, or a tie: "Cuocere la pasta.", "Misture
// tudo e sirva."), the verbs the steps use and the measures the ingredient lines use count too,
// among the languages within one cue word of the best.
func detectLanguage(steps, lines []normText) string {
	var counts [16]int
	for _, s := range steps {
		for _, w := range s.words {
			bits := cueLanguages[w]
			for i := 0; bits != 0; i, bits = i+1, bits>>1 {
				if bits&1 != 0 {
					counts[i]++
				}
			}
		}
	}
	best, bestN, tied := 0, 0, false
	for i := range languageOrder {
		switch {
		case counts[i] > bestN:
			best, bestN, tied = i, counts[i], false
		case counts[i] == bestN:
			tied = true
		}
	}
	if !tied && bestN >= 2 {
		return languageOrder[best]
	}
	bestScore := -1
	for i, lang := range languageOrder {
		if counts[i] < bestN-1 {
			continue
		}
		if score := counts[i] + languageEvidence(lexicons[lang], steps, lines); score > bestScore {
			best, bestScore = i, score
		}
	}
	return languageOrder[best]
}

// languageEvidence counts the words of a recipe that a language's lexicon knows as a verb (in the
// steps) or a measure (in the ingredient lines).
func languageEvidence(lx *lexicon, steps, lines []normText) int {
	if lx == nil {
		return 0
	}
	n := 0
	for _, s := range steps {
		for k := range s.words {
			for _, c := range []wordClass{classUse, classPrep, classCook, classMixVerb, classMove} {
				if lx.has(c, s.words, k) {
					n++
					break
				}
			}
		}
	}
	for _, l := range lines {
		for k := range l.words {
			if lx.has(classMeasure, l.words, k) {
				n++
			}
		}
	}
	return n
}

// stepView is a step's folded words with what the matcher needs to read roles: where sentences end.
type stepView struct {
	toks   []string
	plural []bool
	hyphen []bool // toks[k] is joined to the word before it by a hyphen ("Coloque-os")
	// applied marks words that say a food is put on something: "floured", "fariné", "oprószonym"
	// (data/roles.txt, class applied, as written).
	applied []bool
	stop    []bool // toks[k] is sep and ends a sentence (. ! ? ; :), not a comma
	// lists marks the seps written as a dash, a colon or an opening bracket: what follows spells out
	// what came before ("all the spice powders – turmeric, chilli and coriander").
	lists []bool
	lx    *lexicon
	// title is the number of words of a title the step opens with, ended by a colon within its
	// first six words ("Lag smør- og tomatcurry:", "Make the glaze:"), or 0.
	title int
}

func newStepView(text string, n normText, lx *lexicon) stepView {
	v := stepView{toks: n.words, plural: n.plural, stop: make([]bool, len(n.words)), hyphen: make([]bool, len(n.words)),
		applied: make([]bool, len(n.words)), lists: make([]bool, len(n.words)), lx: lx}
	for k, w := range n.words {
		if lx != nil && lx.appliedFolded[w] {
			v.applied[k] = lx.applied[rawWord(text, n.starts[k])]
		}
		if at := n.starts[k]; at > 0 && text[at-1] == '-' {
			v.hyphen[k] = true
		}
		if w != sep {
			continue
		}
		at := n.starts[k]
		if at < len(text) {
			lead := strings.TrimLeft(text[at:], " ")
			v.lists[k] = strings.HasPrefix(lead, "–") || strings.HasPrefix(lead, "—") || strings.HasPrefix(lead, "- ") ||
				strings.HasPrefix(lead, ":") || strings.HasPrefix(lead, "(")
			switch text[at] {
			case '.':
				// "1.5 cups" is a number, not the end of a sentence.
				v.stop[k] = !(at+1 < len(text) && text[at+1] >= '0' && text[at+1] <= '9')
			case '!', '?', ';', ':':
				v.stop[k] = true
				if text[at] == ':' && v.title == 0 && k <= 6 && k+1 < len(n.words) && !slices.Contains(n.words[:k], sep) {
					v.title = -k // a title unless a verb of the lists stands in it (below)
				}
			default:
				// "cooked through (165°F). Remove to a plate": a sentence may end after a closing
				// bracket or quote.
				v.stop[k] = sentenceEndIn(text[at:])
			}
		}
	}
	if v.title < 0 {
		// "Stir through the basil and taste: add more fish sauce" is an instruction, not a title.
		k := -v.title
		v.title = k
		for j := 0; j < k; j++ {
			if _, ok := v.verbAt(j, k); ok {
				v.title = 0
				break
			}
		}
	}
	return v
}

// sentenceEndIn reports whether the run of punctuation text opens with holds a full stop, an
// exclamation or question mark or a semicolon (")." after a bracket), not a decimal point.
func sentenceEndIn(text string) bool {
	for i, r := range text {
		switch {
		case r == '.':
			if !(i+1 < len(text) && text[i+1] >= '0' && text[i+1] <= '9') {
				return true
			}
		case r == '!' || r == '?' || r == ';':
			return true
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			return false
		}
	}
	return false
}

// rawWord returns the word of text starting at byte at, in lower case, accents kept.
func rawWord(text string, at int) string {
	end := at
	for end < len(text) {
		r, size := utf8.DecodeRuneInString(text[end:])
		if !unicode.IsLetter(r) {
			break
		}
		end += size
	}
	return strings.ToLower(text[at:end])
}

// appliedAt reports whether a mention names a food put on a surface, a tin or into water rather
// than into the dish: a participle ("a lightly floured surface", "un moule beurré", "na oprószonym
// mąką blacie"), or in English the food's name used as the verb ("Oil the grate", "Butter a tin",
// "lightly oil all the ingredients").
func (v stepView) appliedAt(h hit) bool {
	if v.applied[h.pos] || h.pos > 0 && v.applied[h.pos-1] {
		return true
	}
	if v.greasedWith(h.pos) {
		return true
	}
	if v.lx != lexicons["en"] {
		return false
	}
	if h.end != h.pos+1 || h.end >= len(v.toks) {
		return false
	}
	k := h.pos
	opens := k == 0 || v.toks[k-1] == sep || clauseOpeners[v.toks[k-1]] || strings.HasSuffix(v.toks[k-1], "ly")
	return opens && determiners[v.toks[k+1]] && !v.isPlural(k)
}

// greasedWith reports whether the name at pos is what a tin is greased or dusted with ("grease the
// pan with butter", "dust the tin with a little flour"): put on the tin, not in the dish.
//
// Outside English the verb may close the clause ("ein Backblech mit Butter einfetten", "de vorm met
// boter invetten"), so it is looked for on both sides of the food, within the sentence.
func (v stepView) greasedWith(pos int) bool {
	k := pos - 1
	for k >= 0 && (v.lx.has(classArticle, v.toks, k) || v.toks[k] == "little" || v.toks[k] == "some" || v.lx.has(classPortion, v.toks, k)) {
		k--
	}
	if k < 1 || !v.lx.has(classWith, v.toks, k) {
		return false
	}
	for j := k - 1; j >= v.sentenceStart(k) && j >= k-8; j-- {
		if v.lx.has(classGrease, v.toks, j) {
			return true
		}
		if v.toks[j] == sep {
			return false
		}
	}
	if v.lx == lexicons["en"] {
		return false
	}
	for j := pos + 1; j < len(v.toks) && j <= pos+4; j++ {
		if v.toks[j] == sep {
			return false
		}
		if v.lx.has(classGrease, v.toks, j) {
			return true
		}
	}
	return false
}

// coatedIn reports whether the words after a mention ending at end coat it in another food: "in"
// and a food ("in the flour", "in a little flour"); hitEnd maps where a food's name starts to its end,
// so a second name of the same food between ("the fish fillets in flour") is passed over.
func (v stepView) coatedIn(end int, hitEnd []int) bool {
	if v.lx != lexicons["en"] {
		return false
	}
	if end < len(v.toks) && hitEnd[end] > end {
		end = hitEnd[end]
	}
	if end >= len(v.toks) || v.toks[end] != "in" {
		return false
	}
	for k := end + 1; k < len(v.toks) && k <= end+4; k++ {
		switch {
		case hitEnd[k] > k:
			return true
		case v.lx.has(classArticle, v.toks, k) || v.toks[k] == "little" || v.toks[k] == "some":
		default:
			return false
		}
	}
	return false
}

var determiners = setOf("the", "a", "an", "all", "your", "each", "both", "two", "some")

// sentenceStart returns the index of the first word of the sentence holding toks[k].
func (v stepView) sentenceStart(k int) int {
	for k > 0 && !v.stop[k-1] {
		k--
	}
	return k
}

func (v stepView) sentenceEnd(k int) int {
	for k < len(v.toks) && !v.stop[k] {
		k++
	}
	return k
}

// isVerbAt reports whether the word at k, of a verb class, is used as a verb: not after an article
// ("the rest", "a mix") nor before "of" ("the rest of").
func (v stepView) isVerbAt(class wordClass, k int) int {
	n := v.lx.at(class, v.toks, k)
	if n == 0 {
		return 0
	}
	if k > 0 && v.lx.has(classArticle, v.toks, k-1) {
		return 0
	}
	if k+n < len(v.toks) && v.toks[k+n] == "of" {
		return 0
	}
	if v.lx == lexicons["en"] && k > 0 && !opensClause(v.toks[k-1]) && !v.afterOpeningPhrase(k) {
		// English imperatives open their clause: "sourdough discard" and "the cream cheese mix" are
		// nouns.
		return 0
	}
	return n
}

// afterOpeningPhrase reports whether the word at k follows a sentence's opening prepositional
// phrase without a comma ("In a pan add the oil"): the first word after it that can be a verb is one.
func (v stepView) afterOpeningPhrase(k int) bool {
	start := v.sentenceStart(k)
	if start >= k || !(v.lx.has(classInto, v.toks, start) || openingPrepositions[v.toks[start]]) {
		return false
	}
	for j := start + 1; j < k; j++ {
		if v.toks[j] == sep {
			return false
		}
		for _, c := range []wordClass{classUse, classPrep, classMixVerb, classCook, classMove, classDiscard} {
			if v.lx.has(c, v.toks, j) {
				return false
			}
		}
	}
	return true
}

// opensClause reports whether an English imperative may follow the word: a punctuation mark, a
// conjunction, or an adverb ("then", "gently", "you can").
func opensClause(prev string) bool {
	return prev == sep || connectors[prev] || clauseOpeners[prev] || strings.HasSuffix(prev, "ly")
}

var clauseOpeners = setOf("then", "to", "also", "now", "finally", "first", "next", "just", "you", "we", "can",
	"will", "should", "please", "and", "or", "again", "well", "together", "meanwhile", "lastly", "afterwards",
	"later", "still", "carefully", "gently", "quickly", "slowly", "immediately", "evenly", "generously",
	"i", "simply", "always", "once", "until", "when", "while", "before", "after", "need", "may", "let", "help")

// verbBefore returns the class of the verb governing the words at pos: the nearest use, move or
// discard verb before it in its sentence, or failing that (German and Dutch put the verb last) the
// nearest after it. ok is false when the sentence has no verb of the lists.
func (v stepView) verbBefore(pos int) (wordClass, int, bool) {
	if v.lx == lexicons["de"] || v.lx == lexicons["nl"] {
		// German and Dutch recipes put the verb at the end of its clause: in "den Teig ausziehen
		// und mit der Butter bestreichen" the butter's verb is "bestreichen". A clause runs between
		// commas and conjunctions; one without a verb of its own reads as below.
		a, b := pos, pos
		for a > 0 && !v.stop[a-1] && v.toks[a-1] != sep && !v.lx.has(classConj, v.toks, a-1) {
			a--
		}
		for b < len(v.toks) && !v.stop[b] && v.toks[b] != sep && !v.lx.has(classConj, v.toks, b) {
			b++
		}
		for k := pos - 1; k >= a; k-- {
			if c, ok := v.verbAt(k, pos); ok {
				return c, k, true
			}
		}
		for k := pos + 1; k < b; k++ {
			if c, ok := v.verbAt(k, b); ok {
				return c, k, true
			}
		}
	}
	start := v.sentenceStart(pos)
	for k := pos - 1; k >= start; k-- {
		if c, ok := v.verbAt(k, pos); ok {
			return c, k, true
		}
	}
	end := v.sentenceEnd(pos)
	for k := pos + 1; k < end; k++ {
		if v.carriesObject(k) || v.inCondition(k) {
			// "Sube el aceite y vuelve a freírlas hasta que estén doradas": the verb's object is
			// its pronoun, and a doneness cue's verb has no object.
			continue
		}
		if c, ok := v.verbAt(k, end); ok {
			return c, k, true
		}
	}
	return 0, 0, false
}

// carriesObject reports whether the word at k is a verb with its object pronoun written on it
// ("freírlas", "escúrrelo").
func (v stepView) carriesObject(k int) bool {
	t := v.toks[k]
	if v.plural[k] {
		t += "s" // the plural pronoun's s was read as a plural's ("freirla")
	}
	for _, c := range []wordClass{classThemEnd, classItEnd} {
		if endsWithAnyOf(t, v.lx.singles[c]) && v.isVerbAnyAt(k) {
			return true
		}
	}
	return false
}

// joinedLater reports whether a verb that adds, mixes or cooks follows the words ending at end in their
// sentence: "chop the onion and zucchini and toss them with oil" puts the cut foods together, "chop
// the onion and zucchini" leaves them apart on the board.
func (v stepView) joinedLater(end int) bool {
	stop := v.sentenceEnd(end)
	for k := end; k < stop; k++ {
		if c, ok := v.verbAt(k, stop); ok && (c == classUse || c == classMixVerb || c == classCook) {
			return true
		}
	}
	return false
}

// verbAt reads a verb at k whose phrase ends before limit. A discard phrase ("shake off") wins over
// its first word as a move, a use phrase ("stir in") over a move word ("stir").
func (v stepView) verbAt(k, limit int) (wordClass, bool) {
	if k > 0 && v.lx.has(classExcept, v.toks, k-1) {
		return 0, false // "ohne Rühren braten": what is left out is not the clause's verb
	}
	if k > 0 && nounAfter[v.toks[k-1]] && (v.lx == lexicons["es"] || v.lx == lexicons["it"] || v.lx == lexicons["pt"]) {
		return 0, false // "corta en tiras" (strips), not "tira" (throw away): no verb follows "en"
	}
	for _, c := range []wordClass{classDiscard, classUse, classPrep, classMixVerb, classCook, classMove} {
		if n := v.isVerbAt(c, k); n > 0 && k+n <= limit {
			return c, true
		}
	}
	return 0, false
}

// inCondition reports whether the words at pos sit in a condition or doneness clause ("until the
// broccoli is tender", "when the oil shimmers"): a condition word before them in the same clause, with
// no comma, "then" or new verb in between.
func (v stepView) inCondition(pos int) bool {
	start := v.sentenceStart(pos)
	for k := pos - 1; k >= start; k-- {
		t := v.toks[k]
		if t == sep || t == "then" {
			return false
		}
		if v.lx.has(classCond, v.toks, k) {
			return true
		}
		if conditionGoesOn[t] && k > start && v.lx.has(classConj, v.toks, k-1) {
			// "jusqu'à ce que le dessus soit doré et que les pommes de terre soient fondantes": the
			// second "que" goes on with the condition of the first, whatever verb the first holds.
			for j := k - 2; j >= start && v.toks[j] != sep; j-- {
				if v.lx.has(classCond, v.toks, j) {
					return true
				}
			}
			return false
		}
		if v.isVerbAt(classUse, k) > 0 && k > start && connectors[v.toks[k-1]] {
			return false // "cook until soft and add the garlic"
		}
		if v.lx != lexicons["en"] && v.isVerbAnyAt(k) {
			return false // "quando saranno morbide aggiustare di sale": the infinitive starts the next clause
		}
	}
	return false
}

// conditionGoesOn are the words that, after "and", carry on a condition clause ("et que", "y que", "e che").
var conditionGoesOn = setOf("que", "qu", "che")

// portionBefore reports whether the name at pos takes a portion of its line: "the remaining flour",
// "half of the cheese", "1/4 teaspoon of the salt", "more water".
func (v stepView) portionBefore(pos int) bool {
	for k, n := pos-1, 0; k >= 0 && n < 4; k, n = k-1, n+1 {
		t := v.toks[k]
		if t == sep {
			return false
		}
		if v.lx.has(classPortion, v.toks, k) || isNumberWord(t) {
			return true
		}
		// "half of the", "la mitad de la", "metade da": the word of a part outside English too.
		partOf := t == "of" || v.lx != lexicons["en"] && v.lx.has(classFrom, v.toks, k)
		if !(partOf || v.lx.has(classArticle, v.toks, k) || lookupUnit(t, true) != "") {
			return false
		}
	}
	return false
}

// mixtureOf reports, in the languages that name a mixture before its food, whether the words at pos
// follow a mixture's noun and "of": "la crema di mascarpone", "le mélange de tomates", "la salsa de
// tomate" name the mixture, not the line (the English "the tomato mixture").
func (v stepView) mixtureOf(pos int) bool {
	if pos >= 2 && v.lx.has(classMix, v.toks, pos-1) && (v.lx.has(classArticle, v.toks, pos-2) || v.lx.has(classInto, v.toks, pos-2)) && romanceLexicon(v.lx) {
		// "le mélange chocolaté", "au mélange chocolaté": the food's adjective right after the mixture's noun.
		return true
	}
	k := pos - 1
	if k >= 0 && v.lx.has(classArticle, v.toks, k) {
		k--
	}
	if k < 1 || !romancePrepositions[v.toks[k]] {
		return false
	}
	for l := range romance {
		if lexicons[l] == v.lx {
			return v.lx.has(classMix, v.toks, k-1)
		}
	}
	return false
}

// romanceLexicon reports whether lx is the lexicon of a Romance language.
func romanceLexicon(lx *lexicon) bool {
	for l := range romance {
		if lexicons[l] == lx {
			return true
		}
	}
	return false
}

// allBefore reports whether an "all" word governs the words at pos ("all the beans", "tutti i funghi").
func (v stepView) allBefore(pos int) bool {
	k := pos - 1
	if k >= 0 && v.lx.has(classArticle, v.toks, k) {
		k--
	}
	return k >= 0 && k < pos && v.toks[k] != sep && v.lx.has(classAll, v.toks, k) && !v.lx.has(classPortion, v.toks, k)
}

// portionAfter reports, in the languages that put adjectives after the noun, whether a portion word
// follows the words ending at end: "il burro rimasto", "el azúcar restante", "le beurre restant".
func (v stepView) portionAfter(end int) bool {
	if end >= len(v.toks) || !v.lx.has(classPortion, v.toks, end) {
		return false
	}
	for l := range romance {
		if lexicons[l] == v.lx {
			return true
		}
	}
	return false
}

func isNumberWord(t string) bool {
	return t != "" && t[0] >= '0' && t[0] <= '9'
}

// targetBefore reports whether the name at pos is the target of a preposition ("pour over the
// potatoes", "add to the onions"): the dish being added to, not the ingredient added.
func (v stepView) targetBefore(pos int) bool {
	k := pos - 1
	for k >= 0 && v.lx.has(classArticle, v.toks, k) {
		k--
	}
	if k < 0 || !v.lx.has(classInto, v.toks, k) {
		return false
	}
	// "stir in the cream", "sprinkle over the seeds": the preposition is the verb's particle.
	if k > 0 && (v.toks[k] == "in" && v.isVerbAnyAt(k-1) || v.toks[k] == "over" && v.lx.has(classOverVerb, v.toks, k-1)) {
		return false
	}
	return true
}

// onTop reports whether the name at pos follows, in English, a preposition that lays something on
// or over it ("over the spaghetti", "among the tortillas"), not one that puts it in a pot.
func (v stepView) onTop(pos int) bool {
	if v.lx != lexicons["en"] {
		return false
	}
	k := pos - 1
	for k >= 0 && v.lx.has(classArticle, v.toks, k) {
		k--
	}
	return k >= 0 && onTopWords[v.toks[k]]
}

var onTopWords = setOf("over", "onto", "on", "atop", "among", "between")

// isVerbAnyAt reports whether a verb of the lists is at k.
func (v stepView) isVerbAnyAt(k int) bool {
	_, ok := v.verbAt(k, k+1)
	return ok
}

// listedWith reports whether the words from end to pos only join two mentions of a list: commas,
// conjunctions, articles and the word for "of" ("la cebolla, los pimientos y los tomates").
func (v stepView) listedWith(end, pos int) bool {
	if pos-end > 3 {
		return false
	}
	for k := end; k < pos; k++ {
		t := v.toks[k]
		if !(t == sep && !v.stop[k] || t == "of" || v.lx.has(classConj, v.toks, k) || v.lx.has(classArticle, v.toks, k) || v.lx.has(classFrom, v.toks, k)) {
			return false
		}
	}
	return true
}

// inVerb reports whether toks[k] is a verb or a word of a verb's phrase ("in" of "stir in").
func (v stepView) inVerb(k int) bool {
	for j := max(0, k-2); j <= k; j++ {
		if v.verbLen(j) > k-j {
			return true
		}
	}
	return false
}

// verbLen is the number of words of the longest verb phrase at toks[k], 0 when none starts there.
func (v stepView) verbLen(k int) int {
	n := 0
	for _, c := range []wordClass{classDiscard, classUse, classPrep, classMixVerb, classCook, classMove} {
		n = max(n, v.isVerbAt(c, k))
	}
	return n
}

// directObject reports whether the name at pos is the object of the verb at verb: no preposition
// between them ("return the beef to the pan" has the beef as object; "transfer to the dish on top of
// the sausage" has the sausage as a place).
func (v stepView) directObject(verb, pos int) bool {
	for k := verb + 1; k < pos; k++ {
		if v.lx.has(classInto, v.toks, k) || v.toks[k] == "of" || v.toks[k] == "with" || v.toks[k] == "from" {
			if v.toks[k] == "in" && k == verb+1 {
				continue // "stir in the cream"
			}
			if v.toks[k] == "over" && v.lx.has(classOverVerb, v.toks, verb) {
				continue
			}
			return false
		}
	}
	return true
}

// excessBefore reports whether "excess" precedes the name at pos: a leftover to get rid of.
func (v stepView) excessBefore(pos int) bool {
	for k, n := pos-1, 0; k >= 0 && n < 3; k, n = k-1, n+1 {
		if v.lx.has(classExcess, v.toks, k) {
			return true
		}
		if v.toks[k] == sep {
			return false
		}
	}
	return false
}

// sameBefore reports whether the name at pos follows a word for "the same" in its clause ("en el
// mismo aceite", "dans la même huile", "in the same oil"): what is already in the pan, not a new use.
func (v stepView) sameBefore(pos int) bool {
	for k, n := pos-1, 0; k >= 0 && n < 2; k, n = k-1, n+1 {
		if v.toks[k] == sep {
			return false
		}
		if sameWords[v.toks[k]] {
			return true
		}
	}
	return false
}

// sameWords say "the same" in the languages of the set (folded).
var sameWords = setOf("same", "mismo", "misma", "mismos", "mismas", "meme", "memes", "stesso", "stessa", "stessi",
	"stesse", "mesmo", "mesma", "selben", "selbe", "gleichen", "zelfde", "dezelfde", "hetzelfde", "samma", "samme")

// panOf reports whether the food at pos names the pan it was cooked in ("dans la sauteuse du canard",
// "nella padella della pancetta"): the pan, and the fat left in it, not the food, is in hand.
func (v stepView) panOf(pos int) bool {
	k := pos - 1
	if k >= 0 && v.lx.has(classArticle, v.toks, k) && !v.lx.has(classFrom, v.toks, k) {
		k--
	}
	if k < 1 || !v.lx.has(classFrom, v.toks, k) {
		return false
	}
	return v.lx.has(classPan, v.toks, k-1)
}

// afterFrom reports whether the name at pos follows "from" or "of" ("remove the skin from the
// chicken"): the food a discard verb works on, not what it discards.
func (v stepView) afterFrom(pos int) bool {
	k := pos - 1
	for k >= 0 && v.lx.has(classArticle, v.toks, k) {
		k--
	}
	return k >= 0 && v.lx.has(classFrom, v.toks, k)
}

// placedIn reports whether the clause after a mention puts it somewhere: a preposition of a target
// ("into the dish", "on top of the vegetables").
func (v stepView) placedIn(end int) bool {
	for k := end; k < len(v.toks) && k < end+3 && v.toks[k] != sep; k++ {
		if v.lx.has(classInto, v.toks, k) {
			return true
		}
	}
	return false
}

// placedInWater reports whether the clause after a mention ending at end puts it into water to cook
// ("in a large pot of cold salted water", "into boiling water").
func (v stepView) placedInWater(end int) bool {
	for k := end; k < len(v.toks) && k < end+3 && v.toks[k] != sep; k++ {
		if !v.lx.has(classInto, v.toks, k) && v.toks[k] != "in" {
			continue
		}
		for j := k + 1; j < len(v.toks) && j <= k+7 && v.toks[j] != sep; j++ {
			if v.toks[j] == "water" {
				return true
			}
		}
		return false
	}
	return false
}

// movedOut reports whether the sentence of pos moves something out of the dish after it ("transfer
// the chicken to a plate", "remove to a board").
func (v stepView) movedOut(pos int) bool {
	end := v.sentenceEnd(pos)
	for k := pos + 1; k < end; k++ {
		if !v.lx.has(classOut, v.toks, k) {
			continue
		}
		j := k - 1
		for j > pos && (v.lx.has(classArticle, v.toks, j) || v.toks[j] == "paper" || v.toks[j] == "serving" || v.toks[j] == "cutting") {
			j--
		}
		// "to a plate", "onto a board" move out; "on a plate" serves ("place each breast on a
		// plate and pile the salad on top").
		if j > pos && v.lx.has(classInto, v.toks, j) && (v.lx != lexicons["en"] || v.toks[j] == "to" || v.toks[j] == "onto") {
			return true
		}
	}
	return false
}

// mixtureAfter reports whether the words from end on name a mixture the mention is part of: "the
// tomato mixture", "the egg and sugar mixture", "the onion-garlic paste". hitStarts marks where other
// mentions begin, so a run of foods before the mixture noun is read as one name.
func (v stepView) mixtureAfter(end int, hitAt func(int) int) bool {
	_, ok := v.mixtureWord(end, hitAt, true)
	return ok
}

// mixtureWord returns the mixture noun mixtureAfter finds, and whether it follows the mention
// directly ("the tomato puree", which may be the puréed tomatoes line itself). runs allows a run of
// foods joined by "and" in between.
func (v stepView) mixtureWord(end int, hitAt func(int) int, runs bool) (direct string, ok bool) {
	if end < len(v.toks) && (v.lx.has(classMix, v.toks, end) || mixCompound(v.toks[end], v.lx)) {
		return v.toks[end], true
	}
	if !runs {
		return "", false
	}
	afterConnector := false
	for k, n := end, 0; k < len(v.toks) && n < 6; n++ {
		if !afterConnector && v.lx.has(classMix, v.toks, k) {
			return "", true
		}
		t := v.toks[k]
		switch {
		case connectors[t] && !afterConnector:
			k++
			afterConnector = true // "the egg and sugar mixture": another food must follow
		case hitAt(k) > k:
			k = hitAt(k)
			afterConnector = false
		default:
			return "", false
		}
	}
	return "", false
}

// isBath reports whether water at [pos, end) is a bath or a boiling medium: "a pot of water", "a
// water bath", "blanch in boiling water", "an ice bath".
func (v stepView) isBath(pos, end int) bool {
	if end < len(v.toks) && v.toks[end] == "bath" {
		return true
	}
	for k := max(0, pos-3); k < pos; k++ {
		if v.lx.has(classBath, v.toks, k) {
			return true
		}
	}
	// "letsaltet vand", "acqua salata", "osolonej wodzie": salted water is what a food is cooked
	// in, in every language, not the water of the dish.
	if v.lx != lexicons["en"] && (pos > 0 && v.lx.has(classSaltVerb, v.toks, pos-1) || end < len(v.toks) && v.lx.has(classSaltVerb, v.toks, end)) {
		return true
	}
	// "in (a pan of) boiling/salted/ice water"
	k := pos - 1
	for k >= 0 && (v.toks[k] == "boiling" || v.toks[k] == "salt" || v.toks[k] == "ice" || v.toks[k] == "cold" ||
		v.toks[k] == "hot" || v.toks[k] == "simmering" || v.lx.has(classArticle, v.toks, k)) {
		k--
	}
	if k >= pos-1 || k < 0 || !(v.toks[k] == "in" || v.toks[k] == "into" || v.toks[k] == "under") {
		return false
	}
	// "pour in the hot water": the preposition is the verb's particle, the water is added.
	_, isVerb := v.verbAt(max(0, k-1), k)
	return k == 0 || !isVerb
}

// isHeading reports whether a step is a heading pasted as a step ("For the sauce:", "Make the
// dough"): short, and ending with a colon or opening with a heading word and no verb of the lists.
func isHeading(text string, v stepView) bool {
	trimmed := strings.TrimSpace(text)
	if isNote(trimmed, v) {
		return true
	}
	words := 0
	for _, t := range v.toks {
		if t != sep {
			words++
		}
	}
	if words == 0 || words > 6 {
		return false
	}
	if trimmed != "" && trimmed[len(trimmed)-1] == ':' {
		return true
	}
	// A title pasted as a step: a few words, no sentence punctuation ("Marinate The Meat",
	// "cooking-eggplant", "Make the Chili Paste").
	if words <= 6 && trimmed != "" && !strings.ContainsAny(trimmed, ".!?,;()0123456789") && (words <= 2 || titleCase(trimmed)) {
		return true
	}
	if v.lx.has(classHeading, v.toks, 0) {
		for k := 1; k < len(v.toks); k++ {
			if _, ok := v.verbAt(k, len(v.toks)); ok {
				return false
			}
		}
		return true
	}
	return false
}

// isPlural reports whether the word at k was written in the plural ("spices", "vegetables").
func (v stepView) isPlural(k int) bool { return k < len(v.plural) && v.plural[k] }

// stemWords returns words reduced to stems in languages other than English, whose nouns inflect by
// their endings (cipolla/cipolle, Zwiebel/Zwiebeln, limón/limones, tomate/tomates): a word of five
// letters or more loses one ending, so both forms meet. English words are already singular.
func stemWords(words []string, lang string) []string {
	if lang == "en" {
		return words
	}
	out := make([]string, len(words))
	for k, w := range words {
		out[k] = stemWord(w, lang)
	}
	return out
}

var stemEndings = []string{"en", "es", "n", "e", "s", "i", "a", "o"}

// stemWord reduces a word to its stem: by the endings stems.txt lists for the language (the
// languages whose nouns decline, "mąki", "mąkę", "mąką"), else by one of a few endings common to the
// other languages.
func stemWord(w, lang string) string {
	if w == sep {
		return w
	}
	w = baseForm(w, lang) // "hub" is "houby", "sockret" "socker" (data/forms.txt)
	if lx := lexicons[lang]; lx != nil && len(lx.endings) > 0 {
		s := lx.stem(w)
		if nounFirst[lang] {
			s = unsoften(dropMobileE(s))
		}
		return s
	}
	if lang == "nl" {
		return dutchStem(w)
	}
	if len(w) < 5 {
		return w
	}
	for _, e := range stemEndings {
		if e == "n" && lang == "es" {
			// The n of "calabacín", "limón", "jamón" is the word's own: their plurals add -es
			// ("calabacines", read "calabacine" once the s is off), whose e is the ending.
			continue
		}
		if strings.HasSuffix(w, e) && len(w)-len(e) >= 4 {
			return w[:len(w)-len(e)]
		}
	}
	return w
}

// unsoften gives back, in Polish and Czech, the k that the locative and dative of a noun in -ka
// soften to c ("v mouce", "ve strouhance", "w mące" for mouka, strouhanka, mąka). Both the step's
// word and the line's go through it, so a stem that ends in c in every form ("vejce", "vejci")
// still meets itself.
func unsoften(s string) string {
	if len(s) >= 4 && s[len(s)-1] == 'c' && s[len(s)-2] != 'c' {
		return s[:len(s)-1] + "k"
	}
	return s
}

// dropMobileE drops, in Polish and Czech, the e that some forms of a noun put before its last
// consonant and others leave out ("śliwek"/"śliwki", "boczek"/"boczku", "mrkev"/"mrkve", "cukier"/
// "cukru", "ocet"/"octu"). Both the step's word and the line's go through it, so a word that keeps
// its e in every form ("česnek"/"česneku") still meets itself.
func dropMobileE(s string) string {
	n := len(s)
	if n < 4 || isVowel(s[n-1]) || s[n-2] != 'e' {
		return s
	}
	switch {
	case s[n-3] == 'i' && n >= 5 && !isVowel(s[n-4]):
		return s[:n-3] + s[n-1:] // cukier → cukr
	case !isVowel(s[n-3]):
		return s[:n-2] + s[n-1:]
	}
	return s
}

func isVowel(c byte) bool { return strings.IndexByte("aeiouy", c) >= 0 }

// dutchStem reduces a Dutch word to its stem: the diminutive goes ("uitjes", "worteltjes",
// "kippetje", "bloempje"), then a plural or other ending, and a doubled vowel before the last
// consonant is written single, as the plural spells it ("tomaat"/"tomaten", "boon"/"bonen").
func dutchStem(w string) string {
	for _, d := range []string{"etjes", "etje"} {
		if n := len(w) - len(d); n >= 3 && strings.HasSuffix(w, d) && w[n-1] == w[n-2] && !isVowel(w[n-1]) {
			w = w[:n-1] // kippetje → kip
			break
		}
	}
	for _, d := range []string{"tjes", "tje", "pjes", "pje", "jes", "je"} {
		n := len(w) - len(d)
		if !strings.HasSuffix(w, d) || n < 2 {
			continue
		}
		if d[0] == 't' && n >= 2 && w[n-1] == w[n-2] && isVowel(w[n-1]) {
			// "tomaatje" is tomaat + je, "uitje" ui + tje: a doubled vowel is not where a word ends.
			continue
		}
		w = w[:n]
		break
	}
	for _, e := range []string{"eren", "en", "es", "s", "e"} {
		// "bonen" → "bon", but "olie" keeps its e: a stem of three letters only before -en.
		if strings.HasSuffix(w, e) && len(w)-len(e) >= 3 && (len(w)-len(e) >= 4 || e == "en" || e == "eren") {
			w = w[:len(w)-len(e)]
			break
		}
	}
	if n := len(w); n >= 3 && !isVowel(w[n-1]) && w[n-2] == w[n-3] && strings.IndexByte("aeou", w[n-2]) >= 0 {
		w = w[:n-2] + w[n-1:]
	}
	return w
}

// splitElisions turns the apostrophe of an elided article or preposition ("l'aglio", "d’huile",
// "dell'olio") into spaces of the same byte length, so offsets into the text stay valid.
func splitElisions(text string) string {
	b := []byte(text)
	for i := 0; i < len(b); i++ {
		n := 0
		switch {
		case b[i] == '\'':
			n = 1
		case i+2 < len(b) && b[i] == 0xe2 && b[i+1] == 0x80 && b[i+2] == 0x99: // ’
			n = 3
		default:
			continue
		}
		// The word before is short (l, d, un, dell, qu) and a letter follows.
		k := i
		for k > 0 && (b[k-1]|0x20) >= 'a' && (b[k-1]|0x20) <= 'z' {
			k--
		}
		if i-k >= 1 && i-k <= 4 && i+n < len(b) && b[i+n] != ' ' {
			for j := i; j < i+n; j++ {
				b[j] = ' '
			}
		}
		i += n - 1
	}
	return string(b)
}

// cleanName drops, outside English, what a parsed name may still carry around the food: leading
// articles, prepositions and measures ("de tagliatelles", "EL Sojasauce"), a note after a preposition
// ("Butter zum Dünsten", "Pfeffer aus der Mühle") and trailing letters and measures ("q.b.").
func cleanName(words []string, lang string) []string {
	lx := lexicons[lang]
	for len(words) > 1 && (words[0] == sep || lx.has(classArticle, words, 0) || lx.has(classFiller, words, 0) || lx.has(classMeasure, words, 0) ||
		len(words[0]) == 1 || isFunctionWord(words[0], lang)) {
		words = words[1:] // also "(chá)" after "xícara", "à s." of a "c. à s." the parser left
	}
	for k := 1; k < len(words); k++ {
		if lx.has(classCut, words, k) {
			words = words[:k]
			break
		}
	}
	for len(words) > 1 && (words[len(words)-1] == sep || len(words[len(words)-1]) == 1 || lx.has(classMeasure, words, len(words)-1) ||
		isFunctionWord(words[len(words)-1], lang)) {
		words = words[:len(words)-1] // also the "en" of "découpé en 8 morceaux", whose rest is in the notes
	}
	kept := make([]string, 0, len(words))
	for k, w := range words {
		if !lx.has(classDescriptor, words, k) {
			kept = append(kept, w)
		}
	}
	if len(kept) > 0 && len(kept) < len(words) {
		return kept
	}
	return words
}

// headFirst reorders a cleaned name of a language that puts the food first ("olio extravergine di
// oliva", "semoule de couscous", "aceto di vino") so the food's word is the head (last), as the
// matcher's keys expect: the words after the first preposition lead, then the qualifiers.
func headFirst(words []string, lang string) []string {
	if nounFirst[lang] && len(words) >= 2 {
		// "sól morska", "natka pietruszki", "mąka pszenna": the noun leads, its qualifiers follow.
		for _, w := range words {
			if w == sep || connectors[w] {
				return words
			}
		}
		return append(slices.Clone(words[1:]), words[0])
	}
	if !romance[lang] || len(words) < 2 {
		return words
	}
	lx := lexicons[lang]
	end := len(words)
	for k := 1; k < len(words); k++ {
		if words[k] == sep || connectors[words[k]] {
			return words // alternatives: each keeps its order
		}
		if romancePrepositions[words[k]] && end == len(words) {
			end = k
		}
	}
	out := make([]string, 0, len(words))
	for _, w := range words[min(end+1, len(words)):] {
		if !romancePrepositions[w] && !lx.has(classArticle, []string{w}, 0) {
			out = append(out, w)
		}
	}
	out = append(out, words[1:end]...)
	return append(out, words[0])
}

// romance are the languages that put the food first and its qualifiers after it.
var romance = setOf("es", "it", "fr", "pt")

// nounFirst are the languages that often put the food's noun first and its qualifiers after it
// ("sól morska", sea salt), though an adjective may also lead ("kwaśna śmietana"): both orders make
// keys.
var nounFirst = setOf("pl", "cs")

// "en", "em" and "in" lead a form ("sucre en poudre", "beurre en dés", "pomodori in scatola"): the
// food comes first, as before "de".
var romancePrepositions = setOf("de", "d", "di", "du", "del", "della", "dello", "dei", "degli", "delle", "dell", "des", "da", "do", "en", "em", "in")

// titleCase reports whether most words of a short text start with a capital ("Make the Chili
// Paste"), as titles do and sentences do not.
func titleCase(text string) bool {
	caps, n := 0, 0
	for _, w := range strings.Fields(text) {
		if len(w) <= 3 {
			continue // the, of, al, de
		}
		n++
		if r := w[0]; r >= 'A' && r <= 'Z' {
			caps++
		}
	}
	return n > 0 && 2*caps > n
}

// openingPrepositions open a sentence's place or tool phrase ("In a pan", "Using a spoon").
var openingPrepositions = setOf("in", "using", "with", "to", "into", "on", "onto", "from")

// broughtBack reports whether the name at [pos, end) comes back from being cooked or prepared apart:
// a participle just before it ("the fried prawns", "the reserved eggs") or "back" in its clause after
// it ("slide the steak back into the pan").
func (v stepView) broughtBack(pos, end int) bool {
	for k, n := pos-1, 0; k >= 0 && n < 2; k, n = k-1, n+1 {
		if v.toks[k] == sep {
			break
		}
		if v.lx.has(classBack, v.toks, k) && v.toks[k] != "back" && v.toks[k] != "terug" && v.toks[k] != "zurueck" {
			return true
		}
	}
	for k := end; k < len(v.toks) && k < end+4 && v.toks[k] != sep; k++ {
		if v.toks[k] == "back" || v.toks[k] == "terug" || v.toks[k] == "zurueck" {
			return true
		}
	}
	return false
}

// excepted reports whether the name at pos follows "except" in its clause ("all the vegetables except
// the olives").
func (v stepView) excepted(pos int) bool {
	start := v.sentenceStart(pos)
	for k := pos - 1; k >= start && k >= pos-6; k-- {
		if v.lx.has(classExcept, v.toks, k) {
			return true
		}
	}
	return false
}

// isNote reports whether a step is a note rather than an instruction: wholly in parentheses
// ("(Leftover meat keeps 4 days.)"), or opening with a note word and a colon ("Storage: …", "Tip: …").
func isNote(trimmed string, v stepView) bool {
	if strings.HasPrefix(trimmed, "(") && strings.HasSuffix(trimmed, ")") && strings.Count(trimmed, "(") == 1 {
		return true
	}
	i := strings.IndexByte(trimmed, ':')
	if i <= 0 || len(strings.Fields(trimmed[:i])) > 3 {
		return false
	}
	head := normalize(trimmed[:i])
	return len(head) > 0 && v.lx.has(classNote, head, 0)
}

// withoutNotes returns the steps with the notes written inside them cut off: a sentence opening with
// a note word and a colon ("… until golden. Tip: you can use thighs instead.", "(Tip: if you don't
// have one, mince them.)") is a note to its end, or to its closing bracket, and links nothing, as a
// step that is a note does. A step that opens with its note is left whole (isNote reads it). ok is
// false, and steps unchanged, when no step holds such a note.
func withoutNotes(steps []Line, lx *lexicon) ([]Line, bool) {
	if lx == nil {
		return steps, false
	}
	var out []Line
	for s, step := range steps {
		text, ok := cutNote(step.Text, lx)
		if !ok {
			continue
		}
		if out == nil {
			out = slices.Clone(steps)
		}
		out[s].Text = text
	}
	return out, out != nil
}

// cutNote cuts the first note inside a step's text (see withoutNotes).
func cutNote(text string, lx *lexicon) (string, bool) {
	for i := 1; i < len(text); i++ {
		if text[i] != ':' {
			continue
		}
		// The words before the colon, back to the start of their sentence or bracket.
		j := i
		for j > 0 && !strings.ContainsRune(".!?(", rune(text[j-1])) {
			j--
		}
		if j == 0 {
			continue // the step opens with it: a note step, or a title ("Step 1:", "For the sauce:")
		}
		head := strings.TrimSpace(text[j:i])
		if head == "" || len(strings.Fields(head)) > 3 {
			continue
		}
		if words := normalize(head); len(words) == 0 || !lx.has(classNote, words, 0) {
			continue
		}
		start, end := j, len(text)
		if text[j-1] == '(' {
			start = j - 1
			if k := strings.IndexByte(text[i:], ')'); k >= 0 {
				end = i + k + 1
			}
		}
		return strings.TrimSpace(text[:start]) + text[end:], true
	}
	return text, false
}

// mixCompound reports whether a word of a compounding language ends with a mixture noun
// ("Petersilienmischung", "vleesmengsel", "ströbrödsblandning"): a mixture named after its foods.
func mixCompound(t string, lx *lexicon) bool {
	if lx == nil || lx == lexicons["en"] {
		return false
	}
	for _, m := range lx.singles[classMix] {
		// "dillsås": a noun of three letters ends a compound whose food part has four or more.
		if (len(m) >= 4 && len(t) > len(m)+2 || len(m) == 3 && len(t) >= len(m)+4) && strings.HasSuffix(t, m) {
			return true
		}
	}
	// A step's word may come stemmed ("Hackfleischmasse" read "hackfleischmass"): its mixture
	// noun then ends as the noun's stem does.
	for _, m := range lx.mixStems {
		if len(m) >= 4 && len(t) > len(m)+2 && strings.HasSuffix(t, m) {
			return true
		}
	}
	return false
}

// nounAfter are the prepositions of Spanish, Italian and Portuguese that a noun follows and a verb
// never does ("en tiras", "in pezzi", "em tiras"); French "en" opens a gerund ("en remuant").
var nounAfter = setOf("en", "in", "em")
