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

// Whatever part of the rule a password breaks, the answer is the one
// message that names every part.
func TestCheck(t *testing.T) {
	t.Parallel()
	for _, part := range []string{"at least 8 characters", "at most 72 bytes", "an uppercase letter", "a lowercase letter", "a number"} {
		if !strings.Contains(Rule, part) {
			t.Errorf("the rule's message %q does not name %q", Rule, part)
		}
	}
	tests := []struct {
		pw string
		ok bool
	}{
		{"Abcdefg1", true},
		{"Ünïcödé9x", true},
		{"Abcdef1", false},
		{"abcdefg1", false},
		{"ABCDEFG1", false},
		{"Abcdefgh", false},
		{"abcdefgh", false},
		{"ab", false},
		{"", false},
		{"Aa1" + strings.Repeat("x", 69), true},  // exactly 72 bytes
		{"Aa1" + strings.Repeat("x", 70), false}, // 73 bytes
		{"Aa1" + strings.Repeat("é", 35), false}, // 36 characters, 73 bytes
	}
	for _, tt := range tests {
		got := Check(tt.pw)
		if want := map[bool]string{true: "", false: Rule}[tt.ok]; got != want {
			t.Errorf("Check(%q) = %q, want %q", tt.pw, got, want)
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

// A sign-in for an unknown account does the work of a wrong password for a
// real one: one bcrypt comparison at the same cost. Counted in allocations
// (bcrypt's key schedule allocates the same for any hash of one cost), not
// in time, so a loaded machine cannot make the test pass or fail.
// (Not parallel: testing.AllocsPerRun refuses parallel tests.)
func TestUnknownAccountCostsAWrongPassword(t *testing.T) {
	const cost = bcrypt.MinCost + 1
	h, err := Hash("Correct1horse", cost)
	if err != nil {
		t.Fatal(err)
	}
	_ = dummy(cost) // made once per cost; not the comparison's work
	wrong := testing.AllocsPerRun(5, func() { Matches(&h, "Wrong1horse", cost) })
	unknown := testing.AllocsPerRun(5, func() { Matches(nil, "Wrong1horse", cost) })
	if wrong == 0 || unknown != wrong {
		t.Fatalf("allocations: wrong password %v, unknown account %v; want the same bcrypt work", wrong, unknown)
	}
}
