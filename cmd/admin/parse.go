package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"larder/importer/extract"
)

func init() {
	commands["parse"] = command{usage: "[--generic] --url URL FILE.html: print the recipe read from a saved page as JSON (--generic: without site extractors)", run: runParse}
}

// parsedRecipe is the Recipe shape of docs/api.md without what only a stored
// recipe has (ids, owner, visibility, timestamps).
type parsedRecipe struct {
	Title               string               `json:"title"`
	Description         string               `json:"description"`
	Servings            *int                 `json:"servings"`
	PrepMinutes         *int                 `json:"prepMinutes"`
	CookMinutes         *int                 `json:"cookMinutes"`
	TotalMinutes        *int                 `json:"totalMinutes"`
	SourceURL           string               `json:"sourceUrl"`
	ImageURL            *string              `json:"imageUrl"`
	Categories          []string             `json:"categories"`
	Tags                []string             `json:"tags"`
	IngredientSections  []parsedIngredients  `json:"ingredientSections"`
	InstructionSections []parsedInstructions `json:"instructionSections"`
}

type parsedText struct {
	Text string `json:"text"`
}

type parsedIngredients struct {
	Name        string       `json:"name"`
	Ingredients []parsedText `json:"ingredients"`
}

type parsedInstructions struct {
	Name  string       `json:"name"`
	Steps []parsedText `json:"steps"`
}

// runParse implements `admin parse [--generic] --url URL FILE.html`: it
// reads a saved page, extracts its recipe offline (no database, no network)
// and prints one JSON object. --generic turns the site extractors off, so
// a page of a known site is read as one of a site never seen before; that
// is how the general rules are measured.
func runParse(_ context.Context, args []string, stdout io.Writer) error {
	a, err := parseArgs(args)
	if err != nil {
		return err
	}
	page, err := os.ReadFile(a.file)
	if err != nil {
		return fmt.Errorf("read page: %w", err)
	}
	read := extract.FromHTML
	if a.generic {
		read = extract.FromHTMLGeneric
	}
	r, err := read(page, a.pageURL)
	if err != nil {
		return fmt.Errorf("%s: %w", a.file, err)
	}
	enc := json.NewEncoder(stdout)
	enc.SetEscapeHTML(false)
	return enc.Encode(toParsed(r))
}

const parseUsage = "usage: admin parse [--generic] --url URL FILE.html"

type parseOptions struct {
	pageURL, file string
	generic       bool
}

// parseArgs reads --url URL (or --url=URL), --generic (before or after the
// file) and the one file name.
func parseArgs(args []string) (parseOptions, error) {
	var o parseOptions
	var files []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--url" || a == "-url":
			if i+1 >= len(args) {
				return o, errors.New("--url needs a value (" + parseUsage + ")")
			}
			i++
			o.pageURL = args[i]
		case strings.HasPrefix(a, "--url=") || strings.HasPrefix(a, "-url="):
			o.pageURL = a[strings.IndexByte(a, '=')+1:]
		case a == "--generic" || a == "-generic":
			o.generic = true
		case strings.HasPrefix(a, "-") && a != "-":
			return o, fmt.Errorf("unknown flag %s (%s)", a, parseUsage)
		default:
			files = append(files, a)
		}
	}
	if len(files) != 1 {
		return o, errors.New(parseUsage)
	}
	o.file = files[0]
	return o, nil
}

func toParsed(r extract.Recipe) parsedRecipe {
	out := parsedRecipe{
		Title:               r.Title,
		Description:         r.Description,
		Servings:            r.Servings,
		PrepMinutes:         r.PrepMinutes,
		CookMinutes:         r.CookMinutes,
		TotalMinutes:        r.TotalMinutes,
		SourceURL:           r.SourceURL,
		Categories:          nonNil(r.Categories),
		Tags:                nonNil(r.Tags),
		IngredientSections:  []parsedIngredients{},
		InstructionSections: []parsedInstructions{},
	}
	if r.ImageURL != "" {
		out.ImageURL = &r.ImageURL
	}
	for _, s := range r.IngredientSections {
		sec := parsedIngredients{Name: s.Name, Ingredients: []parsedText{}}
		for _, it := range s.Items {
			sec.Ingredients = append(sec.Ingredients, parsedText{Text: it})
		}
		out.IngredientSections = append(out.IngredientSections, sec)
	}
	for _, s := range r.InstructionSections {
		sec := parsedInstructions{Name: s.Name, Steps: []parsedText{}}
		for _, it := range s.Items {
			sec.Steps = append(sec.Steps, parsedText{Text: it})
		}
		out.InstructionSections = append(out.InstructionSections, sec)
	}
	return out
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
