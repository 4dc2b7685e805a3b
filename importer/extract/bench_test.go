package extract

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// corpusDir is the saved-page corpus, which lives outside the repository:
// IMPORT_CORPUS names it; without it the corpus benchmarks skip.
func corpusDir() string {
	return os.Getenv("IMPORT_CORPUS")
}

type corpusPage struct {
	url  string
	html []byte
}

func loadCorpus(tb testing.TB) []corpusPage {
	tb.Helper()
	dir := corpusDir()
	raw, err := os.ReadFile(filepath.Join(dir, "index.json"))
	if err != nil {
		tb.Skipf("no import corpus at %s (set IMPORT_CORPUS): %v", dir, err)
	}
	var index struct {
		Cases []struct {
			HTML         string `json:"html"`
			CanonicalURL string `json:"canonical_url"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(raw, &index); err != nil {
		tb.Fatalf("read corpus index: %v", err)
	}
	var pages []corpusPage
	for _, c := range index.Cases {
		b, err := os.ReadFile(filepath.Join(dir, c.HTML))
		if err != nil {
			tb.Fatalf("read corpus page: %v", err)
		}
		pages = append(pages, corpusPage{url: c.CanonicalURL, html: b})
	}
	return pages
}

// BenchmarkFromHTMLCorpus parses every corpus page and reports the median
// time per page (the target is under 5 ms) next to the mean.
func BenchmarkFromHTMLCorpus(b *testing.B) {
	pages := loadCorpus(b)
	per := make([][]time.Duration, len(pages))
	b.ResetTimer()
	for b.Loop() {
		for i, pg := range pages {
			start := time.Now()
			_, _ = FromHTML(pg.html, pg.url)
			per[i] = append(per[i], time.Since(start))
		}
	}
	b.StopTimer()
	medians := make([]time.Duration, len(pages))
	for i, d := range per {
		slices.Sort(d)
		medians[i] = d[len(d)/2]
	}
	slices.Sort(medians)
	b.ReportMetric(float64(medians[len(medians)/2].Microseconds())/1000, "median-ms/page")
	b.ReportMetric(float64(medians[len(medians)*9/10].Microseconds())/1000, "p90-ms/page")
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N*len(pages)), "mean-ms/page")
}

// BenchmarkFromHTMLHostile parses pages built to trip quadratic paths
// (a keyword repeated thousands of times, deep nesting, escaping chains,
// unbalanced JSON). Each should cost about as much as a large real page.
func BenchmarkFromHTMLHostile(b *testing.B) {
	ld := func(body string) string {
		return `<script type="application/ld+json">` + body + `</script>`
	}
	pages := map[string]string{
		"keyword-headings": strings.Repeat(`<p class="x">ingredients ingredients-</p>`, 10000),
		"plugin-classes":   strings.Repeat(`<div class="wprm-recipe-ingredients-container `, 10000),
		"nested-divs":      strings.Repeat("<div>", 20000) + "Ingredients" + strings.Repeat("</div>", 20000),
		"long-lists":       "<h2>Ingredients</h2><ul>" + strings.Repeat("<li>1 cup x</li>", 20000) + "</ul><h2>Method</h2>" + strings.Repeat("<p>Stir it well.</p>", 20000),
		"escape-chain":     ld(`{"@type":"Recipe","name":"` + strings.Repeat("&amp;", 50000) + `lt;b>"}`),
		"escape-tag-mix":   ld(`{"@type":"Recipe","name":"` + strings.Repeat("&am<b>p;", 20000) + `"}`),
		"stray-quotes":     ld(`{"a":"` + strings.Repeat(`"x`, 50000) + `"}`),
		"open-brackets":    ld(strings.Repeat("[", 50000)),
		"numbered-steps":   ld(`{"@type":"Recipe","recipeIngredient":["a"],"recipeInstructions":"` + strings.Repeat("1. a ", 20000) + `"}`),
		"yield-and-time":   ld(`{"@type":"Recipe","recipeYield":"` + strings.Repeat("1-", 50000) + `","totalTime":"` + strings.Repeat("1:1", 50000) + `"}`),
		"lt-signs":         strings.Repeat("<", 200000),
	}
	for name, page := range pages {
		b.Run(name, func(b *testing.B) {
			raw := []byte(page)
			for b.Loop() {
				_, _ = FromHTML(raw, "https://example.com/")
			}
		})
	}
}
