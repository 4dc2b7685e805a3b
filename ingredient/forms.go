package ingredient

import (
	"bufio"
	"embed"
	"fmt"
	"strings"
	"sync"
)

// The food words of data/forms.txt (format and sources there): irregular forms, names of one food in
// a language, and the words steps use for a kind of food, by language.
//
//go:embed data/forms.txt
var formsFile embed.FS

// foodForms is what data/forms.txt says about one language.
type foodForms struct {
	base  map[string]string // folded variant → folded base form ("hub" → "houby")
	raw   [][]string        // the groups of names of one food, folded
	kinds []foodKind
	parts []foodKind // the food (word) and the words for its parts (members)
	// Built on first use, since stemming needs the endings of stems.txt, which another file's init
	// loads: same maps a folded, stemmed word to its group in names (the groups' stemmed words);
	// kindStems are the members of kinds, partWordStems the food of each part entry, stemmed.
	once                     sync.Once
	same                     map[string]int
	names                    [][]string
	kindStems, partWordStems [][][]string
}

// stem builds the stemmed forms of a language's entries, once.
func (ff *foodForms) stem(lang string) {
	ff.once.Do(func() {
		ff.same = map[string]int{}
		for g, group := range ff.raw {
			var names []string
			for _, name := range group {
				s := stemWords(strings.Fields(name), lang)
				names = append(names, strings.Join(s, " "))
				if len(s) == 1 {
					ff.same[s[0]] = g
				}
			}
			ff.names = append(ff.names, names)
		}
		stemFoods := func(parts []foodKind) [][][]string {
			out := make([][][]string, len(parts))
			for i, p := range parts {
				out[i] = [][]string{stemWords(p.word, lang)}
			}
			return out
		}
		stemAll := func(kinds []foodKind) [][][]string {
			out := make([][][]string, len(kinds))
			for i, k := range kinds {
				for _, m := range k.members {
					out[i] = append(out[i], stemWords(m, lang))
				}
			}
			return out
		}
		ff.kindStems, ff.partWordStems = stemAll(ff.kinds), stemFoods(ff.parts)
	})
}

// foodKind is a word a step uses for a kind of food and the foods it names (folded, not stemmed).
type foodKind struct {
	word    []string
	members [][]string
}

var forms = map[string]*foodForms{}

func init() {
	b, err := formsFile.ReadFile("data/forms.txt")
	if err != nil {
		panic(err)
	}
	if err := loadFormsInto(forms, string(b)); err != nil {
		panic(err)
	}
}

// loadFormsInto reads the lines of data/forms.txt into a map by language, in two passes: the
// irregular forms first, then the other lines.
func loadFormsInto(forms map[string]*foodForms, text string) error {
	type entry struct {
		lang, class, words string
		n                  int
	}
	var entries []entry
	sc := bufio.NewScanner(strings.NewReader(text))
	for n := 1; sc.Scan(); n++ {
		line, _, _ := strings.Cut(sc.Text(), "#")
		if strings.TrimSpace(line) == "" {
			continue
		}
		head, words, ok := strings.Cut(line, ":")
		f := strings.Fields(head)
		if !ok || len(f) != 2 || len(strings.Fields(words)) < 2 {
			return fmt.Errorf("data/forms.txt:%d: want \"LANG CLASS: word word ...\"", n)
		}
		entries = append(entries, entry{f[0], f[1], words, n})
		if forms[f[0]] == nil {
			forms[f[0]] = &foodForms{base: map[string]string{}}
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	for _, e := range entries {
		if e.class != "form" {
			continue
		}
		w := strings.Fields(e.words)
		base := foldWordIn(w[0], e.lang)
		for _, v := range w[1:] {
			forms[e.lang].base[foldWordIn(v, e.lang)] = base
		}
	}
	for _, e := range entries {
		ff := forms[e.lang]
		switch e.class {
		case "form":
		case "same":
			var group []string
			for _, w := range strings.Fields(e.words) {
				group = append(group, strings.Join(normalizeIn(strings.ReplaceAll(w, "+", " "), e.lang), " "))
			}
			ff.raw = append(ff.raw, group)
		case "kind", "part":
			word, members, ok := strings.Cut(e.words, "=")
			if !ok || strings.TrimSpace(word) == "" || strings.TrimSpace(members) == "" {
				return fmt.Errorf("data/forms.txt:%d: want \"LANG %s: word = word ...\"", e.n, e.class)
			}
			k := foodKind{word: normalizeIn(word, e.lang)}
			for _, m := range strings.Fields(members) {
				k.members = append(k.members, normalizeIn(strings.ReplaceAll(m, "+", " "), e.lang))
			}
			if e.class == "kind" {
				ff.kinds = append(ff.kinds, k)
			} else {
				ff.parts = append(ff.parts, k)
			}
		default:
			return fmt.Errorf("data/forms.txt:%d: unknown class %q", e.n, e.class)
		}
	}
	return nil
}

// baseForm returns the base form of an irregular form of a word in a language ("hub" → "houby"), or
// the word itself.
func baseForm(w, lang string) string {
	if ff := forms[lang]; ff != nil {
		if b, ok := ff.base[w]; ok {
			return b
		}
	}
	return w
}

// sameFood returns the other names of the food a stemmed word names in a language ("karott" →
// "mohr", "mohrrub"), each as stemmed words. A word that ends with a name of four letters or more is
// a compound of it and gets the other names in its place ("winterpeen" → "winterwortel").
func sameFood(w, lang string) [][]string {
	ff := forms[lang]
	if ff == nil || len(ff.raw) == 0 {
		return nil
	}
	ff.stem(lang)
	prefix, g, ok := "", 0, false
	if g, ok = ff.same[w]; !ok {
		for k := 1; k+4 <= len(w); k++ {
			if g, ok = ff.same[w[k:]]; ok {
				prefix = w[:k]
				break
			}
		}
	}
	if !ok {
		return nil
	}
	var out [][]string
	for _, name := range ff.names[g] {
		words := strings.Fields(name)
		if prefix != "" {
			if len(words) != 1 {
				continue
			}
			words = []string{prefix + words[0]}
		}
		if len(words) == 1 && words[0] == w {
			continue
		}
		out = append(out, words)
	}
	return out
}

// kindWords returns the words a step in a language uses for the kind of food a name is ("fisk" for
// "torskefilet"): a word of the name is a member, or starts or ends with one of four letters or more.
func kindWords(plain []string, lang string) [][]string {
	ff := forms[lang]
	if ff == nil || len(ff.kinds) == 0 {
		return nil
	}
	ff.stem(lang)
	return matchingWords(stemWords(plain, lang), ff.kinds, ff.kindStems, false)
}

// matchingWords returns the word of each entry one of whose stemmed members the stemmed name holds;
// all returns the members instead (the parts of a food).
func matchingWords(name []string, entries []foodKind, stems [][][]string, all bool) [][]string {
	var out [][]string
	for i, e := range entries {
		for _, m := range stems[i] {
			if memberOf(name, m) {
				if all {
					out = append(out, e.members...)
				} else {
					out = append(out, e.word)
				}
				break
			}
		}
	}
	return out
}

// memberOf reports whether a name holds a member's words (both stemmed: "uova" is "uovo").
func memberOf(name, member []string) bool {
	if len(member) > 1 {
		for i := 0; i+len(member) <= len(name); i++ {
			if equalWords(name[i:i+len(member)], member) {
				return true
			}
		}
		return false
	}
	m := member[0]
	for _, w := range name {
		if w == m || len(m) >= 4 && (strings.HasPrefix(w, m) || strings.HasSuffix(w, m)) {
			return true
		}
	}
	return false
}

// partWords returns the words a step in a language uses for the parts of the food a name is ("tuorli"
// and "albumi" for "uova"): the name holds the food's word.
func partWords(plain []string, lang string) [][]string {
	ff := forms[lang]
	if ff == nil || len(ff.parts) == 0 {
		return nil
	}
	ff.stem(lang)
	return matchingWords(stemWords(plain, lang), ff.parts, ff.partWordStems, true)
}
