package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"larder/ingredient"
)

func init() {
	commands["map"] = command{usage: "FILE.json: print the ingredient→step links of {ingredients or ingredientSections, steps} as JSON", run: runMap}
}

// mapInput is the file `admin map` reads: the ingredient lines either flat ("ingredients") or in
// named sections ("ingredientSections", as in ingredient/testdata/mapping), the steps, and
// optionally where step sections start. Other fields are ignored, so a labeled recipe (which also
// holds its expected "links") can be passed as it is.
type mapInput struct {
	Ingredients        *[]string `json:"ingredients"`
	IngredientSections *[]struct {
		Name        string   `json:"name"`
		Ingredients []string `json:"ingredients"`
	} `json:"ingredientSections"`
	Steps        *[]string `json:"steps"`
	StepSections []struct {
		Name  string `json:"name"`
		Start int    `json:"start"`
	} `json:"stepSections"`
}

// recipe is the matcher's view of the file: lines in order (sections in order), each with its
// section's name.
func (in mapInput) recipe() ingredient.Recipe {
	var r ingredient.Recipe
	if in.IngredientSections != nil {
		for _, s := range *in.IngredientSections {
			for _, l := range s.Ingredients {
				r.Ingredients = append(r.Ingredients, ingredient.Line{Text: l, Section: s.Name})
			}
		}
	} else {
		for _, l := range *in.Ingredients {
			r.Ingredients = append(r.Ingredients, ingredient.Line{Text: l})
		}
	}
	for i, s := range *in.Steps {
		sec := ""
		for _, ss := range in.StepSections {
			if ss.Start <= i {
				sec = ss.Name
			}
		}
		r.Steps = append(r.Steps, ingredient.Line{Text: s, Section: sec})
	}
	return r
}

// mapOutput is what `admin map` prints. Links is never null.
type mapOutput struct {
	Links [][2]int `json:"links"`
}

// maxMapFile bounds the file read: a recipe is a few kilobytes, so anything near this is a mistake.
const maxMapFile = 16 << 20

// runMap implements `admin map FILE.json`: it reads {"ingredients": [lines], "steps": [texts]} and
// prints {"links": [[ingredientIndex, stepIndex], ...]}, computed by the same matcher the worker
// uses, without a database.
func runMap(ctx context.Context, args []string, stdout io.Writer) error {
	if len(args) != 1 || args[0] == "" || args[0][0] == '-' {
		return errors.New("usage: admin map FILE.json")
	}
	in, err := readMapInput(args[0])
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	enc := json.NewEncoder(stdout)
	enc.SetEscapeHTML(false)
	return enc.Encode(mapOutput{Links: ingredient.MatchRecipe(in.recipe())})
}

func readMapInput(path string) (mapInput, error) {
	f, err := os.Open(path)
	if err != nil {
		return mapInput{}, fmt.Errorf("read recipe: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxMapFile+1))
	if err != nil {
		return mapInput{}, fmt.Errorf("read recipe: %w", err)
	}
	if len(data) > maxMapFile {
		return mapInput{}, fmt.Errorf("%s: larger than %d MB", path, maxMapFile>>20)
	}
	var in mapInput
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&in); err != nil {
		return mapInput{}, fmt.Errorf("%s: not a recipe file: %w", path, err)
	}
	if dec.More() {
		return mapInput{}, fmt.Errorf("%s: not a recipe file: data after the JSON object", path)
	}
	switch {
	case in.Ingredients == nil && in.IngredientSections == nil && in.Steps == nil:
		return mapInput{}, fmt.Errorf(`%s: not a recipe file: want {"ingredients": [...], "steps": [...]}`, path)
	case in.Ingredients != nil && in.IngredientSections != nil:
		return mapInput{}, fmt.Errorf(`%s: give "ingredients" or "ingredientSections", not both`, path)
	case in.Ingredients == nil && in.IngredientSections == nil:
		return mapInput{}, fmt.Errorf(`%s: "ingredients" is missing`, path)
	case in.Steps == nil:
		return mapInput{}, fmt.Errorf(`%s: "steps" is missing`, path)
	}
	return in, nil
}
