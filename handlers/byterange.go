package handlers

import (
	"errors"
	"strconv"
	"strings"
)

// errUnsatisfiable is a Range header that is well formed but names no byte
// of the file (it starts past the end, or asks for the last 0 bytes):
// 416 Range Not Satisfiable.
var errUnsatisfiable = errors.New("range not satisfiable")

// singleByteRange reads a Range header (RFC 9110 §14.1.2) for a file of
// size bytes, returning the first and last byte it asks for and ok. A
// header that is absent, malformed, in units other than bytes, or asks for
// several ranges is ignored (ok false: serve the whole file, as the RFC
// allows); one that names no byte of the file is errUnsatisfiable.
func singleByteRange(header string, size int64) (first, last int64, ok bool, err error) {
	spec, found := strings.CutPrefix(strings.TrimSpace(header), "bytes=")
	if !found || strings.Contains(spec, ",") {
		return 0, 0, false, nil
	}
	from, to, found := strings.Cut(strings.TrimSpace(spec), "-")
	if !found {
		return 0, 0, false, nil
	}
	if from == "" { // "-n": the last n bytes
		n, perr := parseBytePos(to)
		switch {
		case perr != nil:
			return 0, 0, false, nil
		case n == 0 || size == 0:
			return 0, 0, false, errUnsatisfiable
		}
		return max(size-n, 0), size - 1, true, nil
	}
	first, perr := parseBytePos(from)
	if perr != nil {
		return 0, 0, false, nil
	}
	last = size - 1
	if to != "" {
		if last, perr = parseBytePos(to); perr != nil || last < first {
			return 0, 0, false, nil
		}
		last = min(last, size-1)
	}
	if first >= size {
		return 0, 0, false, errUnsatisfiable
	}
	return first, last, true, nil
}

// parseBytePos reads a byte position: decimal digits only.
func parseBytePos(s string) (int64, error) {
	if s == "" || strings.TrimLeft(s, "0123456789") != "" {
		return 0, errors.New("not a byte position")
	}
	return strconv.ParseInt(s, 10, 64)
}
