package archive

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/simplifiedchinese"
)

// A zip entry's name without the UTF-8 flag is in whatever code page the
// tool that wrote it used: the zip format says IBM 437, but Windows'
// Explorer and .NET before 4.6.1 write the system's OEM code page (850 in
// Western Europe, 852 in Central Europe, 866 in Russia, 932 Shift-JIS in
// Japan, 936 GBK in China), and nothing in the file says which. One tool
// on one system writes every name of a zip, so one code page is chosen for
// the whole zip: the first of nameCodePages under which every such name
// reads as text of its script (see plausible). When none does, IBM 437 is
// kept, as the format says.
//
// Known limit: the byte ranges overlap, and a name is only told apart by
// how text in each script looks. A zip whose Polish or Czech names use
// only letters that IBM 437 also has at those bytes ("łosoś" is "êosoÿ"),
// a Japanese name of kanji only that reads as one or two accented Latin
// letters between ASCII ones, or Korean (CP949, read as GBK's Chinese),
// may still be misread.
var nameCodePages = []struct {
	enc encoding.Encoding
	// script is what the name's non-ASCII characters must be written in.
	script func(r rune) bool
	// maxRun is how many of them may stand in a row (0: any number).
	maxRun int
	// beside is how they may stand next to ASCII letters.
	beside neighbours
}{
	{charmap.CodePage437, latinLetter, 2, inside},
	{charmap.CodePage850, latinLetter, 2, inside},
	{charmap.CodePage866, func(r rune) bool { return unicode.Is(unicode.Cyrillic, r) }, 0, apart},
	{charmap.CodePage852, latinLetter, 2, inside},
	{japanese.ShiftJIS, func(r rune) bool { return han(r) || kana(r) }, 0, aside},
	{simplifiedchinese.GBK, han, 0, aside},
}

// neighbours says where a script's characters stand among ASCII letters.
type neighbours int

const (
	// inside Latin words: accented letters ("brûlée").
	inside neighbours = iota
	// aside: next to a Latin word, never inside one: ideographs and kana
	// ("Aランチ", but not "G" + "ヴ" + "eau", which is "Gâteau" in IBM
	// 437 read as Shift-JIS).
	aside
	// apart: never next to a Latin letter: a Cyrillic word is written in
	// Cyrillic only ("Иosoш" is "łosoś" in IBM 852 read as 866).
	apart
)

func latinLetter(r rune) bool { return unicode.IsLetter(r) && unicode.Is(unicode.Latin, r) }

// han is an ideograph, or the punctuation and full-width letters written
// among them (U+3000–303F, U+FF01–FF5E).
func han(r rune) bool {
	return unicode.Is(unicode.Han, r) || (r >= 0x3000 && r <= 0x303F) || (r >= 0xFF01 && r <= 0xFF5E)
}

// kana are the full-width syllables with their marks (U+3040–30FF, "ー"
// included). The half-width katakana (U+FF61–FF9F) are left out: they are
// single bytes A1–DF in Shift-JIS, the very bytes most Chinese GBK
// characters are made of, and Japanese file names do not use them.
func kana(r rune) bool { return r >= 0x3040 && r <= 0x30FF }

// nameDecoder returns the code page to read the zip's non-UTF-8 names in,
// nil when every name is UTF-8.
func nameDecoder(names []string) encoding.Encoding {
	var foreign []string
	for _, n := range names {
		if !utf8.ValidString(n) {
			foreign = append(foreign, n)
		}
	}
	if len(foreign) == 0 {
		return nil
	}
	for _, cp := range nameCodePages {
		ok := true
		for _, n := range foreign {
			s, err := cp.enc.NewDecoder().String(n)
			if err != nil || !plausible(s, cp.script, cp.maxRun, cp.beside) {
				ok = false
				break
			}
		}
		if ok {
			return cp.enc
		}
	}
	return charmap.CodePage437
}

// plausible reports a name that reads as text of the script: every
// non-ASCII character is one of its own, and no control or replacement
// character stands in it. Accented Latin letters come one or two to a
// word's ASCII letters ("brûlée", "ação"): more in a row (maxRun) are
// bytes of another script read wrong. beside says where the characters
// may stand among ASCII letters.
func plausible(s string, script func(rune) bool, maxRun int, beside neighbours) bool {
	rs := []rune(s)
	run := 0
	for i, r := range rs {
		if r < utf8.RuneSelf {
			if unicode.IsControl(r) {
				return false
			}
			run = 0
			continue
		}
		if r == utf8.RuneError || !script(r) {
			return false
		}
		run++
		if maxRun > 0 && run > maxRun {
			return false
		}
		before := i > 0 && asciiLetter(rs[i-1])
		after := i+1 < len(rs) && asciiLetter(rs[i+1])
		if beside == aside && before && after || beside == apart && (before || after) {
			return false
		}
	}
	return true
}

func asciiLetter(r rune) bool { return r < utf8.RuneSelf && unicode.IsLetter(r) }

// decodeName reads a name in the zip's code page; a UTF-8 name is kept.
func decodeName(name string, enc encoding.Encoding) string {
	if enc == nil || utf8.ValidString(name) {
		return name
	}
	if s, err := enc.NewDecoder().String(name); err == nil && !strings.ContainsRune(s, utf8.RuneError) {
		return s
	}
	s, _ := charmap.CodePage437.NewDecoder().String(name)
	return s
}
