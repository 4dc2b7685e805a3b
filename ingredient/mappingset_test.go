package ingredient

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// mappingSection is one ingredient group of a labeled recipe, in page order.
type mappingSection struct {
	Name        string   `json:"name"`
	Ingredients []string `json:"ingredients"`
}

// mappingStepSection names a group of instructions starting at step Start.
type mappingStepSection struct {
	Name  string `json:"name"`
	Start int    `json:"start"`
}

// mappingRecipe is one file of testdata/mapping (format in testdata/mapping/README.md).
type mappingRecipe struct {
	Source             string               `json:"source"`
	Title              string               `json:"title"`
	Language           string               `json:"language"`
	IngredientSections []mappingSection     `json:"ingredientSections"`
	Steps              []string             `json:"steps"`
	StepSections       []mappingStepSection `json:"stepSections,omitempty"`
	Links              [][2]int             `json:"links"`
}

// Ingredients is the flat ingredient list, sections in order: the index space of Links.
func (r mappingRecipe) Ingredients() []string {
	var out []string
	for _, s := range r.IngredientSections {
		out = append(out, s.Ingredients...)
	}
	return out
}

// loadMappingSet reads every recipe of testdata/mapping, keyed by file name, failing on any file that
// breaks the format so scoring never runs on a malformed label.
func loadMappingSet(t testing.TB) map[string]mappingRecipe {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "mapping", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]mappingRecipe{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		var r mappingRecipe
		if err := dec.Decode(&r); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if err := checkMappingRecipe(r); err != "" {
			t.Fatalf("%s: %s", f, err)
		}
		out[filepath.Base(f)] = r
	}
	return out
}

// checkMappingRecipe returns what is wrong with a labeled recipe, or "".
func checkMappingRecipe(r mappingRecipe) string {
	if r.Source == "" || r.Language == "" {
		return "source and language are required"
	}
	if len(r.IngredientSections) == 0 || len(r.Steps) == 0 {
		return "no ingredients or no steps"
	}
	for _, s := range r.IngredientSections {
		if len(s.Ingredients) == 0 {
			return "empty ingredient section " + s.Name
		}
		for _, l := range s.Ingredients {
			if strings.TrimSpace(l) == "" {
				return "blank ingredient line"
			}
		}
	}
	for _, s := range r.Steps {
		if strings.TrimSpace(s) == "" {
			return "blank step"
		}
	}
	prev := -1
	for _, s := range r.StepSections {
		if s.Start <= prev || s.Start >= len(r.Steps) {
			return "step section starts must increase and stay in range"
		}
		prev = s.Start
	}
	n := len(r.Ingredients())
	seen := map[[2]int]bool{}
	for _, l := range r.Links {
		if l[0] < 0 || l[0] >= n || l[1] < 0 || l[1] >= len(r.Steps) {
			return "link out of range"
		}
		if seen[l] {
			return "duplicate link"
		}
		seen[l] = true
	}
	return ""
}

func TestMappingSetWellFormed(t *testing.T) {
	t.Parallel()
	set := loadMappingSet(t)
	if len(set) == 0 {
		t.Fatal("testdata/mapping holds no recipes")
	}
	// The development corpus lives outside the repository; IMPORT_CORPUS
	// names it (as for the extract benchmark), and sources are checked
	// only where it is given.
	corpus := os.Getenv("IMPORT_CORPUS")
	_, statErr := os.Stat(corpus)
	for name, r := range set {
		if r.Source == "written" {
			continue
		}
		if statErr != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join(corpus, r.Source+".json"))
		if err != nil {
			t.Errorf("%s: source %q is not a corpus file", name, r.Source)
			continue
		}
		// The labels index the page's lines and steps, so they must be the page's, verbatim and in order.
		var page struct {
			Ingredients  []string `json:"ingredients"`
			Instructions []string `json:"instructions_list"`
		}
		if err := json.Unmarshal(b, &page); err != nil {
			t.Fatalf("%s: %v", r.Source, err)
		}
		if !slices.Equal(r.Ingredients(), page.Ingredients) {
			t.Errorf("%s: ingredient lines differ from %s", name, r.Source)
		}
		if !slices.Equal(r.Steps, page.Instructions) {
			t.Errorf("%s: steps differ from %s", name, r.Source)
		}
	}
}

// TestCheckMappingRecipe shows the checker rejects each kind of broken label.
func TestCheckMappingRecipe(t *testing.T) {
	t.Parallel()
	good := mappingRecipe{
		Source: "written", Language: "en",
		IngredientSections: []mappingSection{{Ingredients: []string{"1 egg"}}, {Name: "Glaze", Ingredients: []string{"1 cup sugar"}}},
		Steps:              []string{"Beat the egg.", "Whisk the sugar."},
		Links:              [][2]int{{0, 0}, {1, 1}},
	}
	if err := checkMappingRecipe(good); err != "" {
		t.Fatalf("good recipe rejected: %s", err)
	}
	bad := map[string]func(r *mappingRecipe){
		"ingredient out of range": func(r *mappingRecipe) { r.Links = [][2]int{{2, 0}} },
		"step out of range":       func(r *mappingRecipe) { r.Links = [][2]int{{0, 2}} },
		"negative":                func(r *mappingRecipe) { r.Links = [][2]int{{-1, 0}} },
		"duplicate":               func(r *mappingRecipe) { r.Links = [][2]int{{0, 0}, {0, 0}} },
		"no source":               func(r *mappingRecipe) { r.Source = "" },
		"empty section":           func(r *mappingRecipe) { r.IngredientSections[1].Ingredients = nil },
		"blank step":              func(r *mappingRecipe) { r.Steps = []string{"Beat.", " "} },
		"step section order":      func(r *mappingRecipe) { r.StepSections = []mappingStepSection{{"B", 1}, {"A", 0}} },
	}
	for name, breakIt := range bad {
		r := good
		r.IngredientSections = []mappingSection{good.IngredientSections[0], {Name: "Glaze", Ingredients: []string{"1 cup sugar"}}}
		breakIt(&r)
		if checkMappingRecipe(r) == "" {
			t.Errorf("%s: accepted", name)
		}
	}
}
