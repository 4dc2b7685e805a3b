package ingredient

import (
	"bufio"
	"embed"
	"fmt"
	"slices"
	"strings"
)

// The word lists of data/ (format and sources in data/README.md), read once at start.
//
//go:embed data/roles.txt data/kinds.txt data/stems.txt
var dataFiles embed.FS

// wordClass is what a word or phrase of data/roles.txt or data/kinds.txt says about a step or a food.
type wordClass uint8

const (
	classUse wordClass = iota
	classMove
	classDiscard
	classCond
	classMix
	classPortion
	classOut
	classBath
	classInto
	classHeading
	classArticle
	classGather
	classIngredients
	classAll
	kindSpice
	kindVegetable
	kindDry
	kindWet
	classDryRef
	classWetRef
	classSpiceRef
	classVegRef
	classFiller
	classMixVerb
	classOverVerb
	classExcess
	classMeasure
	classGroup
	classPrep
	classCook
	classPurpose
	classBack
	classServe
	classExcept
	classServeGroup
	classCut
	kindSalt
	kindPepper
	classSeasonVerb
	classSaltVerb
	classPepperVerb
	classFrom
	classDescriptor
	classParticle
	classNote
	classEnding
	classUndouble
	classWith
	classConj
	classIt
	classThem
	classItEnd
	classThemEnd
	classReturn
	classApplied
	kindMeat
	classMeatRef
	kindStock
	classPlace
	classGrease
	classTin
	classProduct
	classPan
	numClasses
)

var classNames = map[string]wordClass{
	"use": classUse, "move": classMove, "discard": classDiscard, "cond": classCond, "mix": classMix,
	"portion": classPortion, "out": classOut, "bath": classBath, "into": classInto, "heading": classHeading,
	"article": classArticle, "gather": classGather, "ingredients": classIngredients, "all": classAll,
	"spice": kindSpice, "vegetable": kindVegetable, "dry": kindDry, "wet": kindWet,
	"dryref": classDryRef, "wetref": classWetRef, "spiceref": classSpiceRef, "vegref": classVegRef,
	"filler": classFiller, "mixverb": classMixVerb, "oververb": classOverVerb,
	"excess": classExcess, "measure": classMeasure, "group": classGroup, "prep": classPrep, "cook": classCook, "purpose": classPurpose, "back": classBack, "serve": classServe, "except": classExcept, "servegroup": classServeGroup, "cut": classCut, "salt": kindSalt, "pepper": kindPepper,
	"seasonverb": classSeasonVerb, "saltverb": classSaltVerb, "pepperverb": classPepperVerb, "from": classFrom, "descriptor": classDescriptor, "particle": classParticle, "note": classNote,
	"ending": classEnding, "undouble": classUndouble, "with": classWith, "conj": classConj,
	"it": classIt, "them": classThem, "itend": classItEnd, "themend": classThemEnd, "return": classReturn, "applied": classApplied, "meat": kindMeat, "meatref": classMeatRef, "stock": kindStock, "place": classPlace, "grease": classGrease, "tin": classTin, "product": classProduct, "pan": classPan,
}

// lexPhrase is one entry: its folded words; prefix when the last word matches any word it starts.
type lexPhrase struct {
	words  []string
	prefix bool
}

// lexicon holds the entries of one language, by class and first word. Entries whose first word is a
// prefix are kept apart, by class, and tried after the exact ones.
type lexicon struct {
	exact    [numClasses]map[string][]lexPhrase
	prefixes [numClasses]map[byte][]lexPhrase // by first letter
	singles  [numClasses][]string             // one-word exact entries, for containsPrefix
	// endings are the word endings stems.txt lists for the language, longest first; undouble the
	// consonants whose doubling an ending leaves behind ("smørret" → "smør").
	endings  []string
	undouble [256]bool
	applied  map[string]bool // words of class applied, lower case as written (accents tell "beurré" from "beurre")
	// appliedFolded holds the same words folded as step words are, so only those words are read
	// as written.
	appliedFolded map[string]bool
	// mixStems are the stems of the one-word mixture nouns that differ from them ("mass" of
	// "masse"), as a stemmed step word ends (set once the stems are known, in match.go).
	mixStems []string
}

// lexicons by language code ("en", "es", ...).
var lexicons = map[string]*lexicon{}

func init() {
	for _, f := range []string{"data/roles.txt", "data/kinds.txt", "data/stems.txt"} {
		if err := loadLexicon(f); err != nil {
			panic(err)
		}
	}
	addUnitMeasures()
	measureLangs = buildMeasureLangs()
}

func loadLexicon(path string) error {
	b, err := dataFiles.ReadFile(path)
	if err != nil {
		return err
	}
	sc := bufio.NewScanner(strings.NewReader(string(b)))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		if strings.TrimSpace(line) == "" {
			continue
		}
		head, words, ok := strings.Cut(line, ":")
		f := strings.Fields(head)
		if !ok || len(f) != 2 {
			return fmt.Errorf("%s:%d: want \"LANG CLASS: words\"", path, n)
		}
		class, ok := classNames[f[1]]
		if !ok {
			return fmt.Errorf("%s:%d: unknown class %q", path, n, f[1])
		}
		lx := lexicons[f[0]]
		if lx == nil {
			lx = &lexicon{}
			lexicons[f[0]] = lx
		}
		for _, w := range strings.Fields(words) {
			lx.add(class, w, f[0])
		}
	}
	return sc.Err()
}

func (lx *lexicon) add(class wordClass, entry, lang string) {
	switch class {
	case classEnding:
		e := foldEnding(entry)
		i := 0
		for i < len(lx.endings) && len(lx.endings[i]) >= len(e) {
			i++
		}
		lx.endings = slices.Insert(lx.endings, i, e)
		return
	case classUndouble:
		for _, c := range []byte(entry) {
			lx.undouble[c] = true
		}
		return
	case classApplied:
		if lx.applied == nil {
			lx.applied, lx.appliedFolded = map[string]bool{}, map[string]bool{}
		}
		lx.applied[strings.ToLower(entry)] = true
		lx.appliedFolded[foldWordIn(entry, lang)] = true
		return
	}
	prefix := strings.HasSuffix(entry, "*")
	if lang != "en" && (class == classDescriptor || class == classCut) && !strings.Contains(entry, "+") {
		foreignLineWords[class].add(foldEnding(strings.TrimSuffix(entry, "*")), prefix)
	}
	var words []string
	for _, part := range strings.Split(strings.TrimSuffix(entry, "*"), "+") {
		if prefix {
			// A stem is folded but not made singular: "mas*" must stay "mas".
			words = append(words, foldWordIn(part, lang))
		} else {
			words = append(words, normalizeIn(part, lang)...)
		}
	}
	if len(words) == 0 {
		return
	}
	ph := lexPhrase{words: words, prefix: prefix}
	if prefix && len(words) == 1 {
		if words[0] == "" {
			return
		}
		if lx.prefixes[class] == nil {
			lx.prefixes[class] = map[byte][]lexPhrase{}
		}
		lx.prefixes[class][words[0][0]] = append(lx.prefixes[class][words[0][0]], ph)
		return
	}
	if lx.exact[class] == nil {
		lx.exact[class] = map[string][]lexPhrase{}
	}
	if len(words) == 1 && (len(words[0]) >= 3 || class == classParticle) {
		lx.singles[class] = append(lx.singles[class], words[0])
	}
	lx.exact[class][words[0]] = append(lx.exact[class][words[0]], ph)
}

// wordSet is a set of folded words and word beginnings ("picad*").
type wordSet struct {
	exact    map[string]bool
	prefixes []string
}

func (ws *wordSet) add(w string, prefix bool) {
	if w == "" {
		return
	}
	if prefix {
		ws.prefixes = append(ws.prefixes, w)
		return
	}
	if ws.exact == nil {
		ws.exact = map[string]bool{}
	}
	ws.exact[w] = true
}

// has reports whether a folded word is in the set; long asks for beginnings of five letters or more.
func (ws *wordSet) has(folded string, long bool) bool {
	if ws.exact[folded] {
		return true
	}
	for _, p := range ws.prefixes {
		if (!long || len(p) >= 5) && strings.HasPrefix(folded, p) {
			return true
		}
	}
	return false
}

// foreignLineWords are the one-word descriptor and cut entries of every language but English,
// folded as foldEnding folds: Parse reads a line that is not English with them ("cebolla picada",
// "Öl zum Braten"), whichever of those languages it is in.
var foreignLineWords [numClasses]wordSet

// foldEnding folds an ending's letters as step text is folded, without making it singular.
func foldEnding(e string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(e) {
		if f, ok := foldAccents[r]; ok {
			b.WriteString(f)
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// stem cuts the longest ending of the language that leaves a stem of three letters or more, then a
// doubled consonant the ending left behind.
func (lx *lexicon) stem(w string) string {
	if len(w) < 4 {
		return w
	}
	for _, e := range lx.endings {
		if len(w)-len(e) >= 3 && strings.HasSuffix(w, e) {
			s := w[:len(w)-len(e)]
			if n := len(s); n >= 5 && s[n-1] == s[n-2] && lx.undouble[s[n-1]] {
				s = s[:n-1]
			}
			return s
		}
	}
	return w
}

// foldWord lowercases a word and folds its accents, as step text is folded.
func foldWord(w string) string { return foldWordIn(w, "en") }

// foldWordIn is foldWord for a word of a language.
func foldWordIn(w, lang string) string {
	n := normalizeTextIn(w, false, lang).words
	if len(n) == 0 {
		return ""
	}
	return n[0]
}

// at returns the number of words of the longest class entry starting at toks[k], or 0.
func (lx *lexicon) at(class wordClass, toks []string, k int) int {
	if lx == nil || k >= len(toks) {
		return 0
	}
	best := 0
	for _, ph := range lx.exact[class][toks[k]] {
		if len(ph.words) > best && phraseAt(ph, toks, k) {
			best = len(ph.words)
		}
	}
	if best > 0 {
		return best
	}
	if t := toks[k]; t != "" {
		if lx.prefixAt(class, t) {
			return 1
		}
		// "andünsten", "dazugeben": a verb behind a separable particle.
		if verbClass[class] {
			for _, p := range lx.singles[classParticle] {
				if len(t) > len(p)+3 && strings.HasPrefix(t, p) && lx.prefixAt(class, t[len(p):]) {
					return 1
				}
			}
		}
	}
	return 0
}

func (lx *lexicon) prefixAt(class wordClass, t string) bool {
	for _, ph := range lx.prefixes[class][t[0]] {
		if strings.HasPrefix(t, ph.words[0]) {
			return true
		}
	}
	return false
}

func phraseAt(ph lexPhrase, toks []string, k int) bool {
	if k+len(ph.words) > len(toks) {
		return false
	}
	for j, w := range ph.words {
		t := toks[k+j]
		if ph.prefix && j == len(ph.words)-1 {
			if !strings.HasPrefix(t, w) {
				return false
			}
		} else if t != w {
			return false
		}
	}
	return true
}

// has reports whether a class entry starts at toks[k].
func (lx *lexicon) has(class wordClass, toks []string, k int) bool { return lx.at(class, toks, k) > 0 }

// contains reports whether a class entry occurs anywhere in words (a food's name, for kinds).
func (lx *lexicon) contains(class wordClass, words []string) bool {
	for k := range words {
		if lx.at(class, words, k) > 0 {
			return true
		}
	}
	return false
}

// containsPrefix reports whether a word of words starts with a one-word class entry of three letters
// or more: the compounds of languages that join words ("Preistengels" is a leek).
func (lx *lexicon) containsPrefix(class wordClass, words []string) bool {
	if lx == nil {
		return false
	}
	for _, w := range words {
		for _, first := range lx.singles[class] {
			if len(w) > len(first) && strings.HasPrefix(w, first) {
				return true
			}
		}
	}
	return false
}

// verbClass marks the classes of verbs, which German and Dutch write behind separable particles.
var verbClass = func() (m [numClasses]bool) {
	for _, c := range []wordClass{classUse, classMove, classDiscard, classMixVerb, classPrep, classCook, classServe,
		classSeasonVerb, classGather} {
		m[c] = true
	}
	return m
}()
