package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRunParse(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	recipe := write("r.html", `<html><head><script type="application/ld+json">
{"@type":"Recipe","name":"Toast &amp; Jam","image":"/t.jpg","recipeYield":"2 slices",
 "recipeIngredient":["2 slices bread","1 tbsp jam"],
 "recipeInstructions":[{"@type":"HowToSection","name":"Toast","itemListElement":[{"@type":"HowToStep","text":"Toast the bread."}]}]}
</script></head></html>`)
	bare := write("bare.html", `<html><head><script type="application/ld+json">
{"@type":"Recipe","name":"Water","recipeIngredient":["1 glass water"]}</script></head></html>`)
	none := write("none.html", `<html><body><p>Nothing to cook here.</p></body></html>`)

	t.Run("recipe shape", func(t *testing.T) {
		t.Parallel()
		var out bytes.Buffer
		if err := runParse(context.Background(), []string{"--url", "https://example.com/toast", recipe}, &out); err != nil {
			t.Fatal(err)
		}
		var got map[string]any
		if err := json.Unmarshal(out.Bytes(), &got); err != nil {
			t.Fatalf("output is not one JSON object: %v\n%s", err, out.String())
		}
		if got["title"] != "Toast & Jam" || got["servings"] != 2.0 || got["imageUrl"] != "https://example.com/t.jpg" || got["sourceUrl"] != "https://example.com/toast" {
			t.Errorf("fields: %v", got)
		}
		ing := got["ingredientSections"].([]any)[0].(map[string]any)
		if ing["name"] != "" || ing["ingredients"].([]any)[1].(map[string]any)["text"] != "1 tbsp jam" {
			t.Errorf("ingredientSections: %v", got["ingredientSections"])
		}
		ins := got["instructionSections"].([]any)[0].(map[string]any)
		if ins["name"] != "Toast" || ins["steps"].([]any)[0].(map[string]any)["text"] != "Toast the bread." {
			t.Errorf("instructionSections: %v", got["instructionSections"])
		}
	})
	t.Run("empty lists are arrays and missing values null", func(t *testing.T) {
		t.Parallel()
		var out bytes.Buffer
		if err := runParse(context.Background(), []string{bare, "--url=https://example.com/water"}, &out); err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{`"categories":[]`, `"tags":[]`, `"instructionSections":[]`, `"imageUrl":null`, `"servings":null`} {
			if !strings.Contains(out.String(), want) {
				t.Errorf("output lacks %s: %s", want, out.String())
			}
		}
	})
	t.Run("generic skips the site extractor", func(t *testing.T) {
		t.Parallel()
		// xiachufang.com's extractor takes the title from the h1, not the
		// JSON-LD name; with --generic the JSON-LD name stays.
		page := write("xcf.html", `<html><head><script type="application/ld+json">
{"@type":"Recipe","name":"Category","recipeIngredient":["1 egg"],"recipeInstructions":"Boil the egg."}
</script></head><body><h1>Boiled egg</h1></body></html>`)
		for _, tt := range []struct {
			args  []string
			title string
		}{
			{[]string{"--url", "https://www.xiachufang.com/recipe/1/", page}, "Boiled egg"},
			{[]string{page, "--generic", "--url", "https://www.xiachufang.com/recipe/1/"}, "Category"},
		} {
			var out bytes.Buffer
			if err := runParse(context.Background(), tt.args, &out); err != nil {
				t.Fatal(err)
			}
			var got struct{ Title string }
			if err := json.Unmarshal(out.Bytes(), &got); err != nil {
				t.Fatal(err)
			}
			if got.Title != tt.title {
				t.Errorf("%v: title %q, want %q", tt.args, got.Title, tt.title)
			}
		}
	})
	for _, tt := range []struct {
		name    string
		args    []string
		wantErr string
	}{
		{"no recipe", []string{"--url", "https://example.com/", none}, "no recipe we can read"},
		{"no file", []string{"--url", "https://example.com/"}, "usage"},
		{"two files", []string{recipe, none}, "usage"},
		{"missing url value", []string{recipe, "--url"}, "--url needs a value"},
		{"unknown flag", []string{"--verbose", recipe}, "unknown flag"},
		{"unreadable file", []string{filepath.Join(dir, "missing.html")}, "read page"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var out bytes.Buffer
			err := runParse(context.Background(), tt.args, &out)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("error %v, want one containing %q", err, tt.wantErr)
			}
			if out.Len() != 0 {
				t.Errorf("printed %q on error", out.String())
			}
		})
	}
}
