// Package password holds the local-account password rule and hashing, shared
// by the API (register, reset) and the admin command line (create-admin).
package password

import (
	"errors"
	"fmt"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/crypto/bcrypt"
)

// DefaultCost is the bcrypt cost of the specification: 12 salt rounds.
// Tests may hash with a lower cost to stay fast; production never does.
const DefaultCost = 12

// MinLength is the shortest accepted password, in characters.
const MinLength = 8

// MaxBytes is the most bcrypt can hash; longer passwords are refused rather
// than silently truncated (two passwords sharing their first 72 bytes would
// otherwise be the same password).
const MaxBytes = 72

// Rule is the one message for a password that breaks the rule, whichever
// part it breaks: it names every part, so that a person fixing one part
// does not discover the next one only on the next attempt, and every place
// that checks a password (register, reset, admin create-admin) says the
// same.
var Rule = fmt.Sprintf("must be at least %d characters long (at most %d bytes) and contain an uppercase letter, a lowercase letter and a number",
	MinLength, MaxBytes)

// Check returns Rule when pw breaks the rule (at least 8 characters with
// an uppercase letter, a lowercase letter and a number, and at most 72
// bytes), or "" when it meets it.
func Check(pw string) string {
	if len(pw) > MaxBytes || utf8.RuneCountInString(pw) < MinLength {
		return Rule
	}
	var upper, lower, digit bool
	for _, r := range pw {
		switch {
		case unicode.IsUpper(r):
			upper = true
		case unicode.IsLower(r):
			lower = true
		case unicode.IsDigit(r):
			digit = true
		}
	}
	if !upper || !lower || !digit {
		return Rule
	}
	return ""
}

// ErrRule is returned by Hash for a password that breaks the rule.
var ErrRule = errors.New("password does not meet the rule")

// Hash checks the rule and returns the bcrypt hash of pw. cost 0 means DefaultCost.
func Hash(pw string, cost int) (string, error) {
	if msg := Check(pw); msg != "" {
		return "", fmt.Errorf("%w: %s", ErrRule, msg)
	}
	if cost == 0 {
		cost = DefaultCost
	}
	h, err := bcrypt.GenerateFromPassword([]byte(pw), cost)
	if err != nil {
		return "", fmt.Errorf("hash password: %w", err)
	}
	return string(h), nil
}

// Matches reports whether pw is the password of hash. A nil hash (an account
// without a local password) or an unknown account is compared against a
// dummy hash of the same cost, so that every failed sign-in takes as long as
// a wrong password for a real account and the answer time says nothing about
// which accounts exist.
func Matches(hash *string, pw string, cost int) bool {
	if cost == 0 {
		cost = DefaultCost
	}
	if hash == nil {
		_ = bcrypt.CompareHashAndPassword(dummy(cost), []byte(pw))
		return false
	}
	return bcrypt.CompareHashAndPassword([]byte(*hash), []byte(pw)) == nil
}

var dummies sync.Map // cost → []byte

// dummy returns a hash of a random-looking password at the given cost,
// computed once per cost.
func dummy(cost int) []byte {
	if h, ok := dummies.Load(cost); ok {
		return h.([]byte)
	}
	h, err := bcrypt.GenerateFromPassword([]byte("no account has this password: dummy-9f2c4e"), cost)
	if err != nil {
		// Only an out-of-range cost fails; fall back to the default cost.
		h, _ = bcrypt.GenerateFromPassword([]byte("no account has this password: dummy-9f2c4e"), DefaultCost)
	}
	actual, _ := dummies.LoadOrStore(cost, h)
	return actual.([]byte)
}
