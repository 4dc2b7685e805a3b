package ingredient

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// maxLineBytes bounds one input line of WriteLines; an ingredient line is a few dozen bytes.
const maxLineBytes = 1 << 20

// WriteLines reads ingredient lines from r, one per line, and writes one JSON object per input line
// to w, in input order: exactly the Described the API gives for that text (`admin ingredients`). A
// trailing "\r" is dropped, so files with Windows line ends read the same.
func WriteLines(r io.Reader, w io.Writer) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxLineBytes)
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	n := 0
	for sc.Scan() {
		n++
		if err := enc.Encode(Describe(strings.TrimSuffix(sc.Text(), "\r"))); err != nil {
			return fmt.Errorf("line %d: %w", n, err)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("read line %d: %w", n+1, err)
	}
	return bw.Flush()
}
