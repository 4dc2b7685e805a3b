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
	lines map[string]Described
	max   int
}

// NewMemo returns a Memo holding at most max lines.
func NewMemo(max int) *Memo {
	return &Memo{lines: make(map[string]Described), max: max}
}

// Describe is Describe(line), from memory when the line was seen before.
func (m *Memo) Describe(line string) Described {
	m.mu.RLock()
	l, ok := m.lines[line]
	m.mu.RUnlock()
	if ok {
		return l
	}
	l = Describe(line)
	m.mu.Lock()
	// Full: start again rather than track recency; the lines still in use
	// come back within a few reads.
	if len(m.lines) >= m.max {
		clear(m.lines)
	}
	m.lines[line] = l
	m.mu.Unlock()
	return l
}
