package ingredient

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// scalingVectors is testdata/scaling/vectors.json, shared with the web client's Vitest test.
type scalingVectors struct {
	Factors []string `json:"factors"`
	Vectors []struct {
		Line   string `json:"line"`
		Source string `json:"source"`
		// Recipe, when given, holds other lines of the recipe the line was printed in: a line
		// whose words do not tell its language is read in its recipe's (DescribeRecipe).
		Recipe  []string          `json:"recipe"`
		Marked  string            `json:"marked"`
		Numbers []labeledNumber   `json:"numbers"`
		Scaled  map[string]string `json:"scaled"`
	} `json:"vectors"`
}

type labeledNumber struct {
	Start int     `json:"start"`
	End   int     `json:"end"`
	Value float64 `json:"value"`
}

// minVectorPassRate is the share of vectors whose numbers the reader must classify as labeled (the
// issue's goal on held-out lines); the failures are listed either way.
const minVectorPassRate = 0.98

// TestScalingVectors runs the vector lines through WriteLines, the code path of `admin ingredients`,
// keeps its output as testdata/scaling/reader.golden.jsonl (DescribeRecipe's reading for a line given
// with its recipe) (the input of the client's Vitest test,
// rewritten with -update), and checks that the numbers the reader scales are exactly the numbers
// marked by hand, with their values.
func TestScalingVectors(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile(filepath.Join("testdata", "scaling", "vectors.json"))
	if err != nil {
		t.Fatal(err)
	}
	var vs scalingVectors
	if err := json.Unmarshal(raw, &vs); err != nil {
		t.Fatal(err)
	}
	if len(vs.Vectors) < 200 {
		t.Fatalf("%d vectors, want at least 200", len(vs.Vectors))
	}
	lines := make([]string, len(vs.Vectors))
	recipes := make([][]string, len(vs.Vectors))
	for i, v := range vs.Vectors {
		lines[i], recipes[i] = v.Line, v.Recipe
	}
	out := readingsGolden(t, lines, recipes, "reader.golden.jsonl")

	rows := bytes.Split(bytes.TrimSuffix(out.Bytes(), []byte("\n")), []byte("\n"))
	if len(rows) != len(vs.Vectors) {
		t.Fatalf("%d output lines for %d input lines", len(rows), len(vs.Vectors))
	}
	failed := 0
	for i, v := range vs.Vectors {
		var l Described
		if err := json.Unmarshal(rows[i], &l); err != nil {
			t.Fatal(err)
		}
		if l.Text != v.Line {
			t.Fatalf("line %d: text %q, want %q", i, l.Text, v.Line)
		}
		got := flatNumbers(l.Amounts)
		if !sameNumbers(got, v.Numbers) {
			failed++
			t.Logf("FAIL %s\n  line   %q\n  marked %q\n  read   %s", v.Source, v.Line, v.Marked, markNumbers(v.Line, got))
		}
	}
	rate := 1 - float64(failed)/float64(len(vs.Vectors))
	t.Logf("scaling vectors: %d of %d lines read as labeled (pass rate %.3f)", len(vs.Vectors)-failed, len(vs.Vectors), rate)
	if rate < minVectorPassRate {
		t.Errorf("pass rate %.3f < %.2f", rate, minVectorPassRate)
	}
}

// readingsGolden runs lines through WriteLines, the code path of `admin ingredients`, reading a line
// given with its recipe (recipes[i] not empty) among the recipe's lines with DescribeRecipe instead,
// and checks the output against testdata/scaling/<golden> (rewritten with -update): the readings
// the client's Vitest tests scale.
func readingsGolden(t *testing.T, lines []string, recipes [][]string, golden string) *bytes.Buffer {
	t.Helper()
	var in strings.Builder
	for _, l := range lines {
		in.WriteString(l + "\n")
	}
	var written bytes.Buffer
	if err := WriteLines(strings.NewReader(in.String()), &written); err != nil {
		t.Fatal(err)
	}
	rows := bytes.SplitAfter(written.Bytes(), []byte("\n"))
	var out bytes.Buffer
	for i, row := range rows {
		if i >= len(lines) || len(recipes[i]) == 0 {
			out.Write(row)
			continue
		}
		all := append(append([]string(nil), recipes[i]...), lines[i])
		enc := json.NewEncoder(&out)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(DescribeRecipe(all)[len(recipes[i])]); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join("testdata", "scaling", golden)
	if *update {
		if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	} else if want, err := os.ReadFile(path); err != nil || !bytes.Equal(want, out.Bytes()) {
		t.Errorf("%s is not the reader's output (run go test ./ingredient -run 'TestScalingVectors|TestCookVectors' -update): %v", path, err)
	}
	return &out
}

// flatNumbers lists every number of the amounts, both ends of a range apart, as the labels do.
func flatNumbers(as []Amount) []labeledNumber {
	var out []labeledNumber
	for _, a := range as {
		if a.Max != nil {
			out = append(out, labeledNumber{a.Start, a.ValueEnd, a.Value}, labeledNumber{a.MaxStart, a.End, *a.Max})
			continue
		}
		out = append(out, labeledNumber{a.Start, a.End, a.Value})
	}
	return out
}

func sameNumbers(a, b []labeledNumber) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Start != b[i].Start || a[i].End != b[i].End || math.Abs(a[i].Value-b[i].Value) > 1e-9 {
			return false
		}
	}
	return true
}

// markNumbers writes the line with the numbers in brackets, as the labels are written.
func markNumbers(line string, ns []labeledNumber) string {
	u := []rune(line)
	_ = u
	var b strings.Builder
	units := utf16Offsets(line)
	pos := 0
	for _, n := range ns {
		s, e := byteAt(units, n.Start), byteAt(units, n.End)
		if s < pos || e > len(line) || s > e {
			return fmt.Sprintf("%q (bad spans %v)", line, ns)
		}
		b.WriteString(line[pos:s] + "[" + line[s:e] + "]")
		pos = e
	}
	b.WriteString(line[pos:])
	return fmt.Sprintf("%q", b.String())
}

// byteAt returns the byte offset of a UTF-16 offset, given utf16Offsets of the line.
func byteAt(units []int, u int) int {
	for i, v := range units {
		if v == u {
			return i
		}
	}
	return len(units)
}
