package ingredient

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// cookCases is a cook set of testdata/scaling (cook.json, cook2.json): lines with the text a cook
// expects after scaling, written by hand from the issues' rules (what the client's formatting and the
// reader's word forms must give together). The client's Vitest test (scaling.cook.test.ts) compares
// its output with them.
type cookCases struct {
	Cases []struct {
		Rule   string            `json:"rule"`
		Line   string            `json:"line"`
		Recipe []string          `json:"recipe"`
		Scaled map[string]string `json:"scaled"`
	} `json:"cases"`
}

// factorKey is how a factor is written in the test files: "2", "1/2", "4/3".
var factorKey = regexp.MustCompile(`^[1-9][0-9]*(/[1-9][0-9]*)?$`)

// cookSets are the blind cook sets, each kept with the reader's output for its lines (<name>.golden.jsonl).
// Sets are kept apart so each one's pass rate is reported on its own: each was written before the
// code ran on it.
var cookSets = []string{"cook", "cook2"}

// TestCookVectors keeps testdata/scaling/<set>.golden.jsonl, the reader's output for the lines of each
// cook set (the input of the client's test), and checks that each case is well formed.
func TestCookVectors(t *testing.T) {
	t.Parallel()
	for _, set := range cookSets {
		t.Run(set, func(t *testing.T) { cookSet(t, set) })
	}
}

func cookSet(t *testing.T, set string) {
	raw, err := os.ReadFile(filepath.Join("testdata", "scaling", set+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var cs cookCases
	if err := json.Unmarshal(raw, &cs); err != nil {
		t.Fatal(err)
	}
	lines := make([]string, len(cs.Cases))
	recipes := make([][]string, len(cs.Cases))
	for i, c := range cs.Cases {
		if c.Line == "" || c.Rule == "" || len(c.Scaled) == 0 {
			t.Errorf("case %d: want a rule, a line and scaled texts: %+v", i, c)
		}
		for f := range c.Scaled {
			if !factorKey.MatchString(f) || f == "1" {
				t.Errorf("case %d (%q): factor %q, want n or n/m other than 1", i, c.Line, f)
			}
		}
		lines[i], recipes[i] = c.Line, c.Recipe
	}
	readingsGolden(t, lines, recipes, set+".golden.jsonl")
}
