package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"larder/ingredient"
)

// TestRunIngredients: one JSON object per input line, in order, each the
// API's ingredient shape (what ingredient.Describe gives, which the recipe
// handler serves with an id).
func TestRunIngredients(t *testing.T) {
	t.Parallel()
	lines := []string{"1 cup (240 ml) milk", "", "1 (28 ounce) can tomatoes", "salt to taste", "Basilico ½"}
	var out bytes.Buffer
	// Windows line ends and a missing final newline read the same.
	in := strings.Join(lines[:2], "\r\n") + "\r\n" + strings.Join(lines[2:], "\n")
	if err := runIngredients(context.Background(), nil, strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(rows) != len(lines) {
		t.Fatalf("%d output lines for %d input lines:\n%s", len(rows), len(lines), out.String())
	}
	for i, l := range lines {
		want, err := json.Marshal(ingredient.Describe(l))
		if err != nil {
			t.Fatal(err)
		}
		if rows[i] != string(want) {
			t.Errorf("line %d %q:\n got %s\nwant %s", i, l, rows[i], want)
		}
	}
	if !strings.HasPrefix(rows[0], `{"text":"1 cup (240 ml) milk","parsed":{"quantity":1,"unit":"cup","name":"milk","notes":"240 ml"},"amounts":[{"start":0,"end":1,`) {
		t.Errorf("first line %s", rows[0])
	}
	if rows[3] != `{"text":"salt to taste","parsed":{"name":"salt","notes":"to taste"},"amounts":[]}` {
		t.Errorf("a line without amounts: %s", rows[3])
	}
}

func TestRunIngredientsRejectsArguments(t *testing.T) {
	t.Parallel()
	err := runIngredients(context.Background(), []string{"lines.txt"}, strings.NewReader(""), &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "usage") {
		t.Fatalf("err %v, want a usage error", err)
	}
}
