package importer

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
)

// Import reports each stage it enters to the listener on its context, and
// works the same without one.
func TestImportStages(t *testing.T) {
	t.Parallel()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/refused" {
			http.Error(w, "no robots", http.StatusForbidden)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(`<html><head><title>Cake</title><script type="application/ld+json">
			{"@context":"https://schema.org","@type":"Recipe","name":"Cake","recipeIngredient":["2 eggs","100 g flour"],
			 "recipeInstructions":["Mix.","Bake for 20 minutes."]}</script></head><body><h1>Cake</h1></body></html>`))
	}))
	defer ts.Close()
	im := &Importer{Fetch: testFetch()} // no browser: a refused page ends after the fetch
	for _, tc := range []struct {
		path string
		want []string
	}{
		{"/cake", []string{StageFetching, StageReading}},
		{"/refused", []string{StageFetching}},
	} {
		var got []string
		ctx := WithStage(context.Background(), func(s string) { got = append(got, s) })
		_, _ = im.Import(ctx, ts.URL+tc.path)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: stages %v, want %v", tc.path, got, tc.want)
		}
	}
	if _, err := im.Import(context.Background(), ts.URL+"/cake"); err != nil {
		t.Fatalf("without a listener: %v", err)
	}
}
