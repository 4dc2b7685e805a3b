package extract

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestSiteExtractors runs each site extractor on a small page written in
// that site's markup.
func TestSiteExtractors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, url, page string
		title           string
		ingredients     []Section
		instructions    []Section
	}{
		{
			name: "picnic",
			url:  "https://picnic.app/de/rezepte/suppe",
			page: `<html><head><title>Picnic</title></head><body><div id="app"></div>
<script>self.__next_f.push([1,"5:[\"$\",\"div\",null,{\"recipe\":{\"name\":\"Erbsensuppe\",\"preparationTimeInMinutes\":25,` +
				`\"ingredients\":[{\"name\":\"Erbsen\",\"displayIngredientQuantity\":400,\"displayUnitOfMeasurement\":\"g\"},{\"name\":\"Salz\"}],` +
				`\"preparationInstructions\":[{\"header\":\"Schritt 1\",\"body\":\"**400 g Erbsen** kochen.\"},{\"header\":\"Schritt 2\",\"body\":\"Salzen.\"}]}}]"])</script></body></html>`,
			title:        "Erbsensuppe",
			ingredients:  []Section{{Items: []string{"400 g Erbsen", "Salz"}}},
			instructions: []Section{{Items: []string{"400 g Erbsen kochen.", "Salzen."}}},
		},
		{
			name: "xiachufang",
			url:  "https://www.xiachufang.com/recipe/1/",
			page: `<html><head><script type="application/ld+json">{"@type":"Recipe","name":"焗饭","recipeIngredient":["150克鸡胸肉","半根胡萝卜"],"recipeInstructions":"1.切丁 2.烤"}</script></head>
<body><h1> 番茄鸡肉焗饭 </h1><div class="ings"><table>
<tr><td class="name"><a href="/c/1">鸡胸肉</a></td><td class="unit">150克</td></tr>
<tr><td class="name">胡萝卜</td><td class="unit">半根</td></tr></table></div></body></html>`,
			title:        "番茄鸡肉焗饭",
			ingredients:  []Section{{Items: []string{"150克 鸡胸肉", "半根 胡萝卜"}}},
			instructions: []Section{{Items: []string{"切丁", "烤"}}},
		},
		{
			name: "dagelijksekost",
			url:  "https://dagelijksekost.vrt.be/gerechten/soep",
			page: `<html><head><script type="application/ld+json">{"@type":"Recipe","name":"Soep","recipeIngredient":["1 ui","1 l water"],
"recipeInstructions":[{"@type":"HowToStep","text":"Snij de ui."}]}</script></head><body>
<h2>Instructies</h2><h3>De soep</h3>
<div data-testid="recipe-instruction"><span class="MuiTypography-titleLarge">1</span><span class="MuiTypography-bodyLarge">Snij de ui.</span><span class="MuiTypography-bodySmall">1 ui</span></div>
<div data-testid="recipe-instruction"><span class="MuiTypography-titleLarge">2</span><span class="MuiTypography-bodyLarge">Kook de ui in het water.</span></div>
<h3>Afwerking</h3>
<div data-testid="recipe-instruction"><span class="MuiTypography-bodyLarge">Mix glad.</span></div>
<h2>Instructies</h2><div data-testid="recipe-instruction"><span class="MuiTypography-bodyLarge">Snij de ui.</span></div>
</body></html>`,
			title:        "Soep",
			ingredients:  []Section{{Items: []string{"1 ui", "1 l water"}}},
			instructions: []Section{{Name: "De soep", Items: []string{"Snij de ui.", "Kook de ui in het water."}}, {Name: "Afwerking", Items: []string{"Mix glad."}}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r, err := FromHTML([]byte(tt.page), tt.url)
			if err != nil {
				t.Fatal(err)
			}
			if r.Title != tt.title {
				t.Errorf("title %q, want %q", r.Title, tt.title)
			}
			if !reflect.DeepEqual(r.IngredientSections, tt.ingredients) {
				t.Errorf("ingredients %q, want %q", r.IngredientSections, tt.ingredients)
			}
			if !reflect.DeepEqual(r.InstructionSections, tt.instructions) {
				t.Errorf("instructions %q, want %q", r.InstructionSections, tt.instructions)
			}
			assertInvariants(t, r)
			// The same page from another host gets no site extractor.
			other, _ := FromHTML([]byte(tt.page), "https://example.com/x")
			other.SourceURL = r.SourceURL
			if reflect.DeepEqual(other, r) {
				t.Errorf("the %s extractor changed nothing", tt.name)
			}
		})
	}
}

// TestSiteGolden reads testdata/sites/<host>.html as a page of that host and
// compares the recipe with <host>.golden.json (go test -update rewrites it).
// Every registered site extractor must have such a page, and no site's
// method may list a step twice: a page that repeats part of its method (a
// collapsed preview, a print copy) must not leak into the steps.
func TestSiteGolden(t *testing.T) {
	t.Parallel()
	for _, s := range siteExtractors {
		host := s.hosts[0]
		t.Run(host, func(t *testing.T) {
			t.Parallel()
			page := filepath.Join("testdata", "sites", host+".html")
			raw, err := os.ReadFile(page)
			if err != nil {
				t.Fatalf("site extractor %s has no golden page: %v", host, err)
			}
			r, err := FromHTML(raw, "https://"+host+"/recipes/test")
			if err != nil {
				t.Fatal(err)
			}
			assertInvariants(t, r)
			seen := map[string]bool{}
			for _, step := range flatten(r.InstructionSections) {
				if k := normKey(step); seen[k] {
					t.Errorf("step %q is listed twice", step)
				} else {
					seen[k] = true
				}
			}
			got, err := json.MarshalIndent(r, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			golden := strings.TrimSuffix(page, ".html") + ".golden.json"
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from %s:\n--- got\n%s\n--- want\n%s", page, golden, got, want)
			}
		})
	}
}
