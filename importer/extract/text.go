package extract

import (
	"html"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// cleanText turns a value from structured data or the DOM into one line of
// plain text: entities decoded (also when a site escaped them twice), tags
// removed, invisible characters dropped and whitespace collapsed.
func cleanText(s string) string {
	return collapseSpace(fixMojibake(decodeAndStrip(s, false)))
}

// cleanLines is cleanText for text whose line structure matters (a block of
// instructions): block-level tags and newlines separate lines, and each
// non-empty line is returned cleaned.
func cleanLines(s string) []string {
	s = fixMojibake(decodeAndStrip(s, true))
	var out []string
	for line := range strings.SplitSeq(s, "\n") {
		if line = collapseSpace(line); line != "" {
			out = append(out, line)
		}
	}
	return out
}

// oneLine is cleanLines joined into one line (a step or an item the page
// breaks over several lines).
func oneLine(s string) string {
	return joinLines(cleanLines(s))
}

// joinLines joins lines with a space, except between two letters of a
// script written without spaces ("搅拌融化" + "奶油奶酪"): there a line
// break is only where the text wrapped, and a space would split a word.
func joinLines(lines []string) string {
	var b strings.Builder
	for i, l := range lines {
		if i > 0 {
			last, _ := utf8.DecodeLastRuneInString(lines[i-1])
			first, _ := utf8.DecodeRuneInString(l)
			if !unspacedScript(last) || !unspacedScript(first) {
				b.WriteByte(' ')
			}
		}
		b.WriteString(l)
	}
	return b.String()
}

// decodeAndStrip alternates entity decoding and tag removal until neither
// changes the string ("&amp;lt;b&amp;gt;" is a tag once decoded). A round
// that changes something shortens the string; after maxCleanRounds (only
// hostile input nests that deep) what is left of markup is neutralized, so
// the result never holds a tag or an entity.
func decodeAndStrip(s string, keepLines bool) string {
	s = sanitize(s)
	for range maxCleanRounds {
		before := s
		if strings.IndexByte(s, '&') >= 0 {
			s = decodeEntities(s)
		}
		if strings.IndexByte(s, '<') >= 0 {
			s = stripTags(s, keepLines)
		}
		if s == before {
			return s
		}
	}
	return strings.NewReplacer("&", "＆", "<", "‹").Replace(s)
}

const maxCleanRounds = 16

// sanitize drops invalid UTF-8 and invisible characters before anything
// else, so that removing them later cannot join the pieces of an entity.
func sanitize(s string) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "")
	}
	if strings.ContainsAny(s, "\u200b\u200c\u200d\u2060\ufeff\u00ad") {
		s = strings.Map(func(r rune) rune {
			if invisible(r) {
				return -1
			}
			return r
		}, s)
	}
	return s
}

// decodeEntities decodes character references in one pass. When one gives
// an "&" ("&amp;lt;", escaped twice), decoding resumes at that "&", so any
// depth of escaping costs one pass.
func decodeEntities(s string) string {
	b := []byte(s)
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); {
		if b[i] != '&' {
			out = append(out, b[i])
			i++
			continue
		}
		j := entityEnd(b, i)
		ref := string(b[i:j])
		dec := html.UnescapeString(ref)
		switch {
		case dec == ref:
			out = append(out, '&')
			i++
		case strings.IndexByte(dec, '&') >= 0 && len(dec) < j-i:
			// Put the decoded text back and read it again.
			copy(b[j-len(dec):j], dec)
			i = j - len(dec)
		default:
			out = append(out, dec...)
			i = j
		}
	}
	return string(out)
}

// entityEnd returns the end of the character reference that may start at
// b[i] == '&' ("&#233;", "&#xE9;", "&eacute;", "&amp" without ";").
func entityEnd(b []byte, i int) int {
	j := i + 1
	if j < len(b) && b[j] == '#' {
		j++
		hex := j < len(b) && (b[j] == 'x' || b[j] == 'X')
		if hex {
			j++
		}
		for j < len(b) && j-i < 12 && (b[j] >= '0' && b[j] <= '9' || hex && (b[j]|0x20 >= 'a' && b[j]|0x20 <= 'f')) {
			j++
		}
	} else {
		for j < len(b) && j-i < 34 && (b[j]|0x20 >= 'a' && b[j]|0x20 <= 'z' || b[j] >= '0' && b[j] <= '9') {
			j++
		}
	}
	if j < len(b) && b[j] == ';' {
		j++
	}
	return j
}

// blockTags end a line when text is read with its line structure.
var blockTags = map[string]bool{
	"br": true, "p": true, "div": true, "li": true, "ol": true, "ul": true, "tr": true,
	"h1": true, "h2": true, "h3": true, "h4": true, "h5": true, "h6": true,
	"section": true, "article": true, "blockquote": true, "dd": true, "dt": true, "table": true,
}

// stripTags removes things that look like HTML tags or comments. A "<" that
// is not followed by a letter, "/", "!" or "?" is text ("cook < 5 min").
func stripTags(s string, keepLines bool) string {
	var b strings.Builder
	b.Grow(len(s))
	i := 0
	for i < len(s) {
		c := s[i]
		if c != '<' || i+1 >= len(s) || !isTagStart(s[i+1]) {
			b.WriteByte(c)
			i++
			continue
		}
		if strings.HasPrefix(s[i:], "<!--") {
			end := strings.Index(s[i+4:], "-->")
			if end < 0 {
				break // an unterminated comment hides the rest, as in a browser
			}
			i += 4 + end + 3
			continue
		}
		end := strings.IndexByte(s[i+1:], '>')
		if end < 0 {
			b.WriteByte(c) // no closing '>': not a tag
			i++
			continue
		}
		tag := s[i+1 : i+1+end]
		i += end + 2
		name := strings.ToLower(strings.TrimLeft(tag, "/"))
		if j := strings.IndexAny(name, " \t\r\n/"); j >= 0 {
			name = name[:j]
		}
		switch {
		case blockTags[name] && keepLines:
			b.WriteByte('\n')
		case blockTags[name]:
			b.WriteByte(' ')
		case name == "script" || name == "style":
			// drop the element's content as well
			if !strings.HasPrefix(tag, "/") {
				if k := indexFold(s[i:], "</"+name); k >= 0 {
					i += k
				}
			}
		}
	}
	return b.String()
}

func isTagStart(c byte) bool {
	return c == '/' || c == '!' || c == '?' || (c|0x20 >= 'a' && c|0x20 <= 'z')
}

// invisible are characters that render as nothing and only get in the way of
// comparisons (zero-width spaces, soft hyphens, byte order marks).
func invisible(r rune) bool {
	switch r {
	case '\u200b', '\u200c', '\u200d', '\u2060', '\ufeff', '\u00ad':
		return true
	}
	return false
}

// collapseSpace trims s and turns every run of white space (including
// no-break spaces) into one ASCII space, dropping invisible characters and
// invalid UTF-8.
func collapseSpace(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		switch {
		case r == utf8.RuneError && n == 1:
			continue
		case invisible(r):
			continue
		case unicode.IsSpace(r) || unicode.IsControl(r):
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

// indexFold is strings.Index ignoring ASCII case.
func indexFold(s, sub string) int {
	n := len(sub)
	if n == 0 {
		return 0
	}
	for i := 0; i+n <= len(s); i++ {
		if strings.EqualFold(s[i:i+n], sub) {
			return i
		}
	}
	return -1
}

// asciiLower lowers ASCII letters only, so byte offsets stay valid for the
// original slice (bytes.ToLower can change the length of some runes).
func asciiLower(b []byte) []byte {
	out := make([]byte, len(b))
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		out[i] = c
	}
	return out
}

// normKey is a comparison key for two lines that should be "the same line":
// lowercase letters and digits only.
func normKey(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// htmlUnescapeRepeated decodes entities at any depth ("&amp;amp;").
func htmlUnescapeRepeated(s string) string {
	if strings.IndexByte(s, '&') < 0 {
		return s
	}
	return decodeEntities(s)
}

// splitSteps divides a block of instructions into steps: at line breaks and
// block tags, and, when it is one paragraph, at step numbers ("1. Mix...
// 2. Bake...", "Step 1: ...") if there are at least two in sequence.
func splitSteps(s string) []string {
	lines := cleanLines(s)
	if len(lines) == 0 {
		return nil
	}
	// Numbered steps run together, or broken across lines at other places
	// than the numbers: the numbers decide.
	joined := joinLines(lines)
	if parts := splitLabelled(joined); len(parts) > len(lines) {
		return parts
	}
	if parts := splitNumbered(joined); len(parts) > len(lines) {
		return parts
	}
	if len(lines) == 1 {
		if parts := splitGluedSentences(lines[0]); len(parts) > 1 {
			return parts
		}
	}
	return stripStepNumbers(lines)
}

// methodPart is one named part of a method written as one text.
type methodPart struct{ name, text string }

// partLabel is a part's name written into a method's text: one to three
// words, the first capitalized, and a colon, at the start or after a
// sentence end ("Voorbereiden: Zet ... Bereiden: Maak ...").
var partLabel = regexp.MustCompile(`(?:^|[.!?]\s*)(\p{Lu}[\p{L}'’-]*(?: [\p{L}'’-]+){0,2}):\s`)

// methodParts divides a method written as one paragraph into the parts
// its labels name, when the paragraph opens with one: the label names the
// part (a section), it is not the first words of a step. A method that
// does not open with a label is one part, as is one in several lines
// (splitSteps reads those); labels that tell a tip or a note name no part.
func methodParts(raw string) []methodPart {
	whole := []methodPart{{text: raw}}
	lines := cleanLines(raw)
	if len(lines) != 1 {
		return whole
	}
	s := lines[0]
	ms := partLabel.FindAllStringSubmatchIndex(s, -1)
	if len(ms) == 0 || ms[0][2] != 0 {
		return whole
	}
	var out []methodPart
	for k, m := range ms {
		name := s[m[2]:m[3]]
		if noteLabel(name) {
			return whole
		}
		end := len(s)
		if k+1 < len(ms) {
			end = ms[k+1][2]
		}
		out = append(out, methodPart{name: name, text: strings.TrimSpace(s[m[1]:end])})
	}
	return out
}

// noteLabel reports a label that introduces a tip or a note, not a part
// of the method.
func noteLabel(name string) bool {
	first, _, _ := strings.Cut(name, " ")
	first = strings.ToLower(first)
	return slices.Contains(tipWords, first) || slices.Contains(noteWords, first)
}

// noteWords start a note in the corpus's languages.
var noteWords = []string{"note", "notes", "nota", "notiz", "hinweis", "remarque", "opmerking", "uwaga", "poznámka"}

// splitGluedSentences splits a block where steps were joined without a
// space, as happens when a site strips the <li> tags out of its list
// ("...greaseproof paper.Snap the chocolate...", "...schneiden.Öl
// erhitzen"): a lowercase letter or closing bracket, a sentence end, and at
// once a capitalized word, in any cased script (Latin with its accents,
// Greek, Cyrillic...).
func splitGluedSentences(s string) []string {
	var out []string
	start := 0
	rs := []rune(s)
	offsets := make([]int, len(rs)+1)
	for i, o := 0, 0; i < len(rs); i++ {
		offsets[i] = o
		o += utf8.RuneLen(rs[i])
	}
	offsets[len(rs)] = len(s)
	for i := 1; i+2 < len(rs); i++ {
		if rs[i] != '.' && rs[i] != '!' && rs[i] != '?' {
			continue
		}
		prev, next := rs[i-1], rs[i+1]
		if !(unicode.IsLower(prev) || prev == ')') || !unicode.IsUpper(next) {
			continue
		}
		if !unicode.IsLower(rs[i+2]) {
			continue // "U.S.A." and the like
		}
		out = append(out, strings.TrimSpace(s[start:offsets[i+1]]))
		start = offsets[i+1]
	}
	if len(out) == 0 {
		return nil
	}
	return append(out, strings.TrimSpace(s[start:]))
}

// servesLine is a closing "Serves 4." (or "Servings: 4") at the end
// of the last step: the yield, which has its own field, not a step. "Makes
// 12" stays: it often says what the step produces.
var servesLine = regexp.MustCompile(`(?i)(?:^|[.!?]\s*)(?:serves|servings?:)\s*:?\s*\d+(?:\s*(?:-|–|to)\s*\d+)?(?:\s*(?:servings?|portions?|people|persons))?\s*\.?\s*$`)

// dropTrailingServes removes a "Serves N" closing the last step, and the
// step itself when that is all it says.
func dropTrailingServes(ss []Section) []Section {
	if len(ss) == 0 {
		return ss
	}
	last := &ss[len(ss)-1]
	if len(last.Items) == 0 {
		return ss
	}
	step := last.Items[len(last.Items)-1]
	loc := servesLine.FindStringIndex(step)
	if loc == nil {
		return ss
	}
	kept := strings.TrimSpace(step[:loc[0]])
	if loc[0] < len(step) && strings.ContainsRune(".!?", rune(step[loc[0]])) {
		kept = strings.TrimSpace(step[:loc[0]+1])
	}
	if kept == "" {
		last.Items = last.Items[:len(last.Items)-1]
		if len(last.Items) == 0 {
			return ss[:len(ss)-1]
		}
		return ss
	}
	last.Items[len(last.Items)-1] = kept
	return ss
}

// stripStepNumbers removes "1." / "Step 1:" prefixes when every line has
// one in order: the numbering is presentation, not text.
func stripStepNumbers(lines []string) []string {
	if len(lines) < 2 {
		return lines
	}
	out := make([]string, len(lines))
	next, unnumbered := 1, 0
	for i, line := range lines {
		rest, ok := cutStepNumber(line, next)
		switch {
		case ok && rest != "":
			out[i] = rest
			next++
		case line[0] < '0' || line[0] > '9':
			out[i] = line // a heading or closing line among numbered steps
			unnumbered++
		default:
			return lines // numbers out of order: they are not step numbers
		}
	}
	if next <= 2 || unnumbered*3 > len(lines) {
		return lines
	}
	return out
}

// stepPrefix is a step's number written before its text: "Step 1:",
// "Schritt 1.", "1.", "1)", "1:" or "1 -". "Step 1" without punctuation
// stays: it reads as the step's title, which sites keep in their data.
var stepPrefix = regexp.MustCompile(`(?i)^(?:(?:` + stepWords + `)\s*(\d+)\s*[:.)\-–—]|(\d+)(?:[.):]|\s+[-–—]\s))\s*`)

// cutStepNumber removes a leading step number n (see stepPrefix) from line.
func cutStepNumber(line string, n int) (string, bool) {
	m := stepPrefix.FindStringSubmatch(line)
	if m == nil || m[1]+m[2] != strconv.Itoa(n) {
		return line, false
	}
	rest := line[len(m[0]):]
	if rest != "" && rest[0] >= '0' && rest[0] <= '9' {
		return line, false // "1.5 cups" is a quantity, not step 1
	}
	return rest, true
}

// stepMarker is "Step n" (in the corpus's languages) inside a text, at its
// start or after a space or a sentence end.
var stepMarker = regexp.MustCompile(`(?i)(?:^|[\s.!?])((?:` + stepWords + `)\s*(\d+))`)

// splitLabelled splits "Step 1: Mix. Step 2: Bake." before the labels when
// they count 1, 2, 3... in order; what comes before the first stays a step.
// Each step keeps its label, which stripStepNumbers judges like any other.
func splitLabelled(s string) []string {
	var cuts []int
	next := 1
	for _, m := range stepMarker.FindAllStringSubmatchIndex(s, -1) {
		if s[m[4]:m[5]] != strconv.Itoa(next) {
			continue
		}
		cuts = append(cuts, m[2])
		next++
	}
	if len(cuts) < 2 {
		return nil
	}
	return stripStepNumbers(piecesAt(s, cuts, func(piece string) string { return piece }))
}

// piecesAt cuts s at the offsets cuts (in order) and returns the text before
// the first cut, when there is any, then each piece from one cut to the
// next as keep leaves it, trimmed; pieces keep makes empty are left out.
func piecesAt(s string, cuts []int, keep func(piece string) string) []string {
	var out []string
	if head := strings.TrimSpace(s[:cuts[0]]); head != "" {
		out = append(out, head)
	}
	for k, c := range cuts {
		end := len(s)
		if k+1 < len(cuts) {
			end = cuts[k+1]
		}
		if piece := strings.TrimSpace(keep(s[c:end])); piece != "" {
			out = append(out, piece)
		}
	}
	return out
}

// splitNumbered splits "1. Mix the flour. 2. Bake it." at the numbers 1, 2,
// 3... when they come in order.
func splitNumbered(s string) []string {
	var cuts []int // start offsets of "N." markers, in order
	next := 1
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' || (i > 0 && s[i-1] >= '0' && s[i-1] <= '9') {
			continue
		}
		j := i
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if j >= len(s) || (s[j] != '.' && s[j] != ')') || (j+1 < len(s) && (s[j+1] >= '0' && s[j+1] <= '9' || s[j+1] == '.' || s[j+1] == ',')) {
			continue // "1.5 cups" is a quantity, not step 1
		}
		n, _ := strconv.Atoi(s[i:j])
		if n != next {
			continue
		}
		// A number glued to the end of the previous sentence
		// ("pepper.2. Bring") starts a step as well as one after a space.
		if i > 0 && s[i-1] != ' ' && s[i-1] < 0x80 && !gluedAfterSentence(s, i) {
			continue
		}
		cuts = append(cuts, i)
		next++
	}
	if len(cuts) < 2 || cuts[0] > 0 && strings.TrimSpace(s[:cuts[0]]) != "" && len(cuts) < 3 {
		return nil
	}
	// Each piece without its "N." or "N)" marker.
	out := piecesAt(s, cuts, func(piece string) string { return piece[strings.IndexAny(piece, ".)")+1:] })
	return out
}

// gluedAfterSentence reports a sentence end right before offset i that
// closes words, not a number ("pepper.2." but not "1.2.").
func gluedAfterSentence(s string, i int) bool {
	if i < 2 || !strings.ContainsRune(".!?", rune(s[i-1])) {
		return false
	}
	r, _ := utf8.DecodeLastRuneInString(s[:i-1])
	return unicode.IsLetter(r) || r == ')'
}

// cp1252 maps the Windows-1252 characters of 0x80-0x9F back to their bytes.
var cp1252 = map[rune]byte{
	'€': 0x80, '‚': 0x82, 'ƒ': 0x83, '„': 0x84, '…': 0x85, '†': 0x86, '‡': 0x87, 'ˆ': 0x88, '‰': 0x89,
	'Š': 0x8A, '‹': 0x8B, 'Œ': 0x8C, 'Ž': 0x8E, '‘': 0x91, '’': 0x92, '“': 0x93, '”': 0x94, '•': 0x95,
	'–': 0x96, '—': 0x97, '˜': 0x98, '™': 0x99, 'š': 0x9A, '›': 0x9B, 'œ': 0x9C, 'ž': 0x9E, 'Ÿ': 0x9F,
}

// fixMojibake repairs text that was UTF-8 read as Windows-1252 once
// ("Â½" for "½", "â€™" for "’"), which some sites store in their JSON-LD.
// The text is re-encoded only when every character fits in one byte and the
// bytes then form valid UTF-8, so correct text is never changed.
func fixMojibake(s string) string {
	if !strings.Contains(s, "Â") && !strings.Contains(s, "Ã") && !strings.Contains(s, "â€") {
		return s
	}
	b := make([]byte, 0, len(s))
	for _, r := range s {
		switch {
		case r < 0x100:
			b = append(b, byte(r))
		case cp1252[r] != 0:
			b = append(b, cp1252[r])
		default:
			return s
		}
	}
	if !utf8.Valid(b) {
		return s
	}
	return string(b)
}

// tidyLine removes what is decoration rather than text from an ingredient
// or step line: a leading bullet or checkbox. A space the text itself
// writes before a comma ("tomatoes , onions") stays: the line is kept as
// the page writes it (the source's layout before a comma is dropped where
// the DOM is read, in nodeText).
func tidyLine(s string) string {
	for {
		r, n := utf8.DecodeRuneInString(s)
		if n == 0 || !strings.ContainsRune("-•*·▪◦▢☐□✓✔–", r) {
			break
		}
		rest := s[n:]
		if rest == "" || rest[0] != ' ' && r != '•' && r != '▢' && r != '☐' && r != '□' {
			break // "-5 °C" or "*optional" are text
		}
		s = strings.TrimLeft(rest, " ")
	}
	if strings.Contains(s, ".0") || strings.Contains(s, ",0") {
		// "500.0 g" is how a program prints a whole number; people write
		// "500 g".
		// Twice: a match takes the character after it, which can be the
		// one before the next number ("1.0 2.0").
		s = wholeDecimal.ReplaceAllString(wholeDecimal.ReplaceAllString(s, "$1$2$3"), "$1$2$3")
	}
	if strings.Contains(s, "((") {
		// WP Recipe Maker wraps notes that already have parentheses in
		// another pair in its JSON-LD; the page shows one.
		s = doubleParens.ReplaceAllString(s, "($1)")
	}
	return s
}

var doubleParens = regexp.MustCompile(`\(\(([^()]*)\)\)`)

// wholeDecimal is a whole number written with a zero decimal part ("500.0",
// "2,00"), not preceded by another digit group ("1.000.0") and followed by
// a space, a letter or the end, never by more digits; three zeros are a
// thousands separator ("1,000 g"), not a decimal part.
var wholeDecimal = regexp.MustCompile(`(^|[^\d.,])(\d+)[.,]0{1,2}($|[^\d])`)
