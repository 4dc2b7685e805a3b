package archive

import (
	"slices"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/simplifiedchinese"
)

// TestNameDecoder: the names of one zip, written by a Windows tool in its
// system's code page, read back as they were typed.
func TestNameDecoder(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		enc   encoding.Encoding
		names []string
	}{
		{"french in the zip format's code page", charmap.CodePage437, []string{"Crème brûlée", "Gâteau basque"}},
		{"portuguese: two accented letters in a row", charmap.CodePage850, []string{"Feijoada à moda", "Caldo de açaí"}},
		{"danish ø is not in IBM 437", charmap.CodePage850, []string{"Smørrebrød"}},
		{"russian", charmap.CodePage866, []string{"Щи", "Борщ"}},
		{"polish", charmap.CodePage852, []string{"Żurek", "Gołąbki", "łosoś"}},
		{"japanese with a Latin letter before", japanese.ShiftJIS, []string{"Aランチ", "味噌汁"}},
		{"chinese", simplifiedchinese.GBK, []string{"番茄炒蛋", "红烧肉"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var raw []string
			for _, n := range tt.names {
				b, err := tt.enc.NewEncoder().String(n)
				if err != nil {
					t.Fatal(err)
				}
				raw = append(raw, b)
			}
			enc := nameDecoder(raw)
			var got []string
			for _, r := range raw {
				got = append(got, decodeName(r, enc))
			}
			if !slices.Equal(got, tt.names) {
				t.Errorf("read %q, want %q", got, tt.names)
			}
		})
	}
	if enc := nameDecoder([]string{"Crème brûlée/recipe.json"}); enc != nil {
		t.Errorf("UTF-8 names read in %v", enc)
	}
}

// FuzzNameDecoder: whatever bytes a zip's names are, each is read as valid
// UTF-8, and a UTF-8 name is kept as it is.
func FuzzNameDecoder(f *testing.F) {
	for _, s := range []string{"Cr\x8ame", "\x93\xf7\x82\xb6\x82\xe1\x82\xaa", "\xb7\xac\xc7\xd1", "\x81\xae\xe0\xe9", "plain", "G\x83teau"} {
		f.Add(s, "other")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		enc := nameDecoder([]string{a, b})
		for _, n := range []string{a, b} {
			got := decodeName(n, enc)
			if !utf8.ValidString(got) {
				t.Fatalf("%q read as %q, not UTF-8", n, got)
			}
			if utf8.ValidString(n) && got != n {
				t.Fatalf("UTF-8 name %q read as %q", n, got)
			}
		}
	})
}
