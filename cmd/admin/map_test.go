package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"larder/ingredient"
)

func TestRunMap(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		name    string
		args    []string
		want    string // exact stdout when no error is expected
		wantErr string // part of the error message
	}{
		{
			name: "links",
			args: []string{write("r.json", `{"ingredients": ["2 cups flour", "1 tsp salt", "1/2 cup unsalted butter"],
				"steps": ["Whisk the flour and salt.", "Rub in the butter.", "Bring to a boil."]}`)},
			want: `{"links":[[0,0],[1,0],[2,1]]}` + "\n",
		},
		{
			name: "empty recipe prints an empty list, not null",
			args: []string{write("empty.json", `{"ingredients": [], "steps": []}`)},
			want: `{"links":[]}` + "\n",
		},
		{
			name: "nothing linked prints an empty list",
			args: []string{write("none.json", `{"ingredients": ["1 cup flour"], "steps": ["Preheat the oven."]}`)},
			want: `{"links":[]}` + "\n",
		},
		{
			name: "other fields are ignored",
			args: []string{write("labeled.json", `{"ingredients": ["1 egg"], "steps": ["Beat the egg."], "links": [[0, 0]], "title": "x"}`)},
			want: `{"links":[[0,0]]}` + "\n",
		},
		{name: "no file", args: nil, wantErr: "usage: admin map FILE.json"},
		{name: "two files", args: []string{"a.json", "b.json"}, wantErr: "usage"},
		{name: "a flag", args: []string{"-h"}, wantErr: "usage"},
		{name: "missing file", args: []string{filepath.Join(dir, "nope.json")}, wantErr: "read recipe"},
		{name: "not JSON", args: []string{write("bad.json", `{"ingredients": [`)}, wantErr: "not a recipe file"},
		{name: "an array", args: []string{write("arr.json", `[1, 2]`)}, wantErr: "not a recipe file"},
		{name: "wrong types", args: []string{write("types.json", `{"ingredients": [1], "steps": []}`)}, wantErr: "not a recipe file"},
		{name: "no keys", args: []string{write("obj.json", `{"title": "soup"}`)}, wantErr: "not a recipe file"},
		{name: "no steps", args: []string{write("nosteps.json", `{"ingredients": ["1 egg"]}`)}, wantErr: `"steps" is missing`},
		{name: "no ingredients", args: []string{write("noings.json", `{"steps": ["Boil."]}`)}, wantErr: `"ingredients" is missing`},
		{name: "trailing data", args: []string{write("two.json", `{"ingredients": [], "steps": []} {}`)}, wantErr: "data after"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var out bytes.Buffer
			err := runMap(context.Background(), tt.args, &out)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("runMap(%v) error = %v, want one containing %q", tt.args, err, tt.wantErr)
				}
				if out.Len() != 0 {
					t.Errorf("runMap printed %q on error", out.String())
				}
				return
			}
			if err != nil {
				t.Fatalf("runMap(%v): %v", tt.args, err)
			}
			if out.String() != tt.want {
				t.Errorf("runMap(%v) printed %q, want %q", tt.args, out.String(), tt.want)
			}
		})
	}
}

func TestRunMapCanceled(t *testing.T) {
	t.Parallel()
	p := filepath.Join(t.TempDir(), "r.json")
	if err := os.WriteFile(p, []byte(`{"ingredients": [], "steps": []}`), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out bytes.Buffer
	if err := runMap(ctx, []string{p}, &out); err == nil || out.Len() != 0 {
		t.Errorf("runMap with a canceled context = %v, printed %q", err, out.String())
	}
}

// TestRunMapLabeledSet runs the command on the matcher's labeled recipes (sectioned ingredient
// lists), as an evaluator would, and checks it prints exactly what ingredient.MatchRecipe returns.
func TestRunMapLabeledSet(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join("..", "..", "ingredient", "testdata", "mapping", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no labeled recipes found (%v)", err)
	}
	for _, f := range files {
		var out bytes.Buffer
		if err := runMap(context.Background(), []string{f}, &out); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		var got mapOutput
		if err := json.Unmarshal(out.Bytes(), &got); err != nil {
			t.Fatalf("%s: output %q: %v", f, out.String(), err)
		}
		in, err := readMapInput(f)
		if err != nil {
			t.Fatal(err)
		}
		if want := ingredient.MatchRecipe(in.recipe()); !slices.Equal(got.Links, want) {
			t.Errorf("%s: printed %v, MatchRecipe gives %v", f, got.Links, want)
		}
	}
}

// TestRunMapSections shows the sections of the file reach the matcher: the same two steps link the
// soy sauce of their own section.
func TestRunMapSections(t *testing.T) {
	t.Parallel()
	p := filepath.Join(t.TempDir(), "s.json")
	body := `{"ingredientSections": [{"name": "Marinade", "ingredients": ["2 tbsp soy sauce", "1 lb chicken"]},
		{"name": "Dipping sauce", "ingredients": ["1 tbsp soy sauce", "1 tsp sesame oil"]}],
		"steps": ["Make the dipping sauce: whisk the soy sauce with the sesame oil.", "Marinate the chicken in the soy sauce."],
		"stepSections": [{"name": "Dipping sauce", "start": 0}, {"name": "Marinade", "start": 1}]}`
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := runMap(context.Background(), []string{p}, &out); err != nil {
		t.Fatal(err)
	}
	if got, want := out.String(), `{"links":[[0,1],[1,1],[2,0],[3,0]]}`+"\n"; got != want {
		t.Errorf("printed %q, want %q", got, want)
	}
}
