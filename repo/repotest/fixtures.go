package repotest

import (
	"context"
	"testing"

	"github.com/google/uuid"

	"larder/repo"
)

// CreateUser inserts a verified local user with the given role and returns
// it. The password hash is a placeholder: tests that log in through the API
// register users the normal way instead.
func CreateUser(t testing.TB, db repo.DBTX, role string) repo.User {
	t.Helper()
	hash := "$2a$04$placeholderplaceholderplaceholderplaceholderplacehol"
	u, err := repo.CreateUser(context.Background(), db, repo.CreateUserParams{
		Email:         "user-" + uuid.NewString()[:8] + "@example.test",
		Name:          "Test " + role,
		Role:          role,
		PasswordHash:  &hash,
		EmailVerified: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	return u
}
