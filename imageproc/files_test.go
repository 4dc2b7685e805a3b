package imageproc

import (
	"slices"
	"testing"
)

func TestStoredFiles(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		key      string
		recorded map[string]string
		want     []string
	}{
		{"nothing recorded yet", "recipes/ab/abcd.jpg", nil,
			[]string{"recipes/ab/abcd.jpg", "recipes/ab/abcd_medium.jpg", "recipes/ab/abcd_thumb.jpg"}},
		{"recorded renditions are listed once", "cookbooks/ab/abcd.png",
			map[string]string{"thumb": "cookbooks/ab/abcd_thumb.png", "medium": "cookbooks/ab/abcd_medium.png"},
			[]string{"cookbooks/ab/abcd.png", "cookbooks/ab/abcd_medium.png", "cookbooks/ab/abcd_thumb.png"}},
		// A size the job no longer makes still has its file deleted.
		{"a recorded rendition of a retired size", "recipes/ab/abcd.jpg",
			map[string]string{"small": "recipes/ab/abcd_small.jpg"},
			[]string{"recipes/ab/abcd.jpg", "recipes/ab/abcd_medium.jpg", "recipes/ab/abcd_small.jpg", "recipes/ab/abcd_thumb.jpg"}},
		// A key no rendition can be derived from is still deleted itself.
		{"a key without renditions", "../x", nil, []string{"../x"}},
	}
	for _, tt := range tests {
		got := StoredFiles(tt.key, tt.recorded)
		if got[0] != tt.key {
			t.Errorf("%s: the image itself is not first: %v", tt.name, got)
		}
		slices.Sort(got)
		want := slices.Clone(tt.want)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s: %v, want %v", tt.name, got, want)
		}
	}
}
