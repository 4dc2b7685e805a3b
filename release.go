// Package larder holds what belongs to the whole repository: the release
// version, read from the RELEASE file at build time.
package larder

import (
	_ "embed"
	"strings"
)

//go:embed RELEASE
var release string

// Version is the release version, calendar versioned as YYYY.M.N.
func Version() string { return strings.TrimSpace(release) }
