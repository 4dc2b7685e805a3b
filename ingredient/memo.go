package ingredient

import "sync"

// Memo remembers the parses of the lines it has seen, up to a bound. Every
// read of a recipe answers with its ingredients parsed, and the same lines
// ("1 tsp salt", "2 eggs") come back across recipes and reads: a parse
// costs microseconds of allocation-heavy work, a lookup a hash of the line.
// Safe for concurrent use; the Parsed values it hands out are shared and
// must not be changed through their pointers.
type Memo struct {
	mu     sync.RWMutex
	parsed map[string]Parsed
	max    int
}

// NewMemo returns a Memo holding at most max lines.
func NewMemo(max int) *Memo {
	return &Memo{parsed: make(map[string]Parsed), max: max}
}

// Parse is Parse(line), from memory when the line was seen before.
func (m *Memo) Parse(line string) Parsed {
	m.mu.RLock()
	p, ok := m.parsed[line]
	m.mu.RUnlock()
	if ok {
		return p
	}
	p = Parse(line)
	m.mu.Lock()
	// Full: start again rather than track recency; the lines still in use
	// come back within a few reads.
	if len(m.parsed) >= m.max {
		clear(m.parsed)
	}
	m.parsed[line] = p
	m.mu.Unlock()
	return p
}
