package ingredient

import "sync"

// Memo remembers the readings of the lines it has seen, up to a bound. Every
// read of a recipe answers with its ingredients read, and the same lines
// ("1 tsp salt", "2 eggs") come back across recipes and reads: a reading
// costs microseconds of allocation-heavy work, a lookup a hash of the line.
// Safe for concurrent use; the Described values it hands out are shared and
// must not be changed through their pointers or slices.
type Memo struct {
	mu    sync.RWMutex
	lines map[string]memoEntry
	// other holds the readings, in a recipe of another language than English, of the lines
	// whose words do not tell their language (see DescribeRecipe); every other line reads the
	// same in any recipe.
	other map[string]Described
	max   int
}

type memoEntry struct {
	d Described
	v verdict
}

// NewMemo returns a Memo holding at most max lines.
func NewMemo(max int) *Memo {
	return &Memo{lines: make(map[string]memoEntry), other: make(map[string]Described), max: max}
}

// Describe is Describe(line), from memory when the line was seen before.
func (m *Memo) Describe(line string) Described {
	return m.entry(line).d
}

// DescribeRecipe is DescribeRecipe(lines), from memory for the lines seen before.
func (m *Memo) DescribeRecipe(lines []string) []Described {
	out := make([]Described, len(lines))
	verdicts := make([]verdict, len(lines))
	for i, l := range lines {
		e := m.entry(l)
		out[i], verdicts[i] = e.d, e.v
	}
	if recipeLanguage(verdicts) != LanguageOther {
		return out
	}
	for i, l := range lines {
		if verdicts[i].told {
			continue
		}
		m.mu.RLock()
		d, ok := m.other[l]
		m.mu.RUnlock()
		if !ok {
			d = describeIn(l, lex(l), LanguageOther)
			m.mu.Lock()
			m.store(func() { m.other[l] = d })
			m.mu.Unlock()
		}
		out[i] = d
	}
	return out
}

func (m *Memo) entry(line string) memoEntry {
	m.mu.RLock()
	e, ok := m.lines[line]
	m.mu.RUnlock()
	if ok {
		return e
	}
	toks := lex(line)
	e = memoEntry{d: describeIn(line, toks, LanguageUnknown), v: verdictOf(toks)}
	m.mu.Lock()
	m.store(func() { m.lines[line] = e })
	m.mu.Unlock()
	return e
}

// store adds a reading, under m.mu. Full: start again rather than track
// recency; the lines still in use come back within a few reads.
func (m *Memo) store(add func()) {
	if len(m.lines)+len(m.other) >= m.max {
		clear(m.lines)
		clear(m.other)
	}
	add()
}
