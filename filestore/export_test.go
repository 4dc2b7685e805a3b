package filestore

import "testing"

// listFiles is files(), for the external conformance suite.
func ListFiles(t *testing.T, dir string) []string { return files(t, dir) }
