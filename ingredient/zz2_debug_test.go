package ingredient

import "testing"

func TestZZ2(t *testing.T) {
	ings := []string{"80 gramos de queso parmesano rallado", "100 gramos de pistachos pelados", "1 scotch bonnet (optional)", "2 cloves garlic"}
	steps := []string{"Sirve en platos hondos. Esparce por encima de cada ración un poco de queso rallado y unos pistachos enteros.", "Puree the garlic and scotch bonnet pepper with water."}
	n := normalizeText(steps[0], true)
	lang := detectLanguage([]normText{n})
	parsed := make([]Parsed, len(ings))
	for i, l := range ings {
		parsed[i] = Parse(l)
	}
	idx := buildIndexLang(parsed, lang)
	st := n
	st.words = stemWords(n.words, lang)
	for _, h := range idx.scan(st) {
		t.Log(lang, st.words[h.pos:h.end], h.cands)
	}
}
