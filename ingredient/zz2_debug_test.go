package ingredient

import "testing"

func TestZZ2(t *testing.T) {
	ings := []string{"1 kg di melanzane violette", "Olio extravergine di oliva q.b.", "Sale q.b."}
	steps := []string{"Lavare e mondare le melanzane e tagliarle a cubetti. Cuocerle in padella con un filo d’olio a fuoco lento e quando saranno morbide aggiustare di sale e pepe."}
	t.Log(Match(ings, steps))
	n := normalizeText(splitElisions(steps[0]), true)
	lang := detectLanguage([]normText{n})
	parsed := make([]Parsed, len(ings))
	for i, l := range ings {
		parsed[i] = Parse(l)
	}
	idx := buildIndexLang(parsed, lang)
	st := n
	st.words = stemWords(n.words, lang)
	t.Log(st.words)
	for _, h := range idx.scan(st) {
		t.Log(lang, st.words[h.pos:h.end], h.cands)
	}
}
