package password

import (
	"errors"
	"strings"
	"testing"

	"golang.org/x/crypto/bcrypt"
)

func TestDefaultCostIsTheSpecifications(t *testing.T) {
	t.Parallel()
	if DefaultCost != 12 {
		t.Fatalf("DefaultCost = %d, the specification says 12 salt rounds", DefaultCost)
	}
	h, err := Hash("Abcdefg1", 0)
	if err != nil {
		t.Fatal(err)
	}
	if c, _ := bcrypt.Cost([]byte(h)); c != 12 {
		t.Fatalf("Hash with cost 0 used cost %d", c)
	}
}

func TestCheck(t *testing.T) {
	t.Parallel()
	tests := []struct {
		pw   string
		want string // substring of the message; "" means accepted
	}{
		{"Abcdefg1", ""},
		{"Ünïcödé9x", ""},
		{"Abcdef1", "at least 8 characters"},
		{"abcdefg1", "an uppercase letter"},
		{"ABCDEFG1", "a lowercase letter"},
		{"Abcdefgh", "a number"},
		{"abcdefgh", "an uppercase letter and a number"},
		{"ab", "at least 8 characters long and contain an uppercase letter and a number"},
		{"", "at least 8 characters"},
		{"Aa1" + strings.Repeat("x", 69), ""},                 // exactly 72 bytes
		{"Aa1" + strings.Repeat("x", 70), "at most 72 bytes"}, // 73 bytes
		{"Aa1" + strings.Repeat("é", 35), "at most 72 bytes"}, // 36 characters, 73 bytes
	}
	for _, tt := range tests {
		got := Check(tt.pw)
		if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
			t.Errorf("Check(%q) = %q, want %q", tt.pw, got, tt.want)
		}
	}
}

func TestHashAndMatches(t *testing.T) {
	t.Parallel()
	if _, err := Hash("short", bcrypt.MinCost); !errors.Is(err, ErrRule) {
		t.Fatalf("Hash of a bad password: %v", err)
	}
	h, err := Hash("Correct1horse", bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	if !Matches(&h, "Correct1horse", bcrypt.MinCost) {
		t.Error("the right password does not match")
	}
	if Matches(&h, "Correct1horsf", bcrypt.MinCost) {
		t.Error("a wrong password matches")
	}
	if Matches(nil, "Correct1horse", bcrypt.MinCost) {
		t.Error("an account without a password matched")
	}
	// The dummy hash is made at the requested cost, so an unknown account
	// costs as much as a real one.
	if c, _ := bcrypt.Cost(dummy(bcrypt.MinCost + 1)); c != bcrypt.MinCost+1 {
		t.Errorf("dummy cost %d", c)
	}
}
