package repo_test

import (
	"context"
	"errors"
	"testing"

	"github.com/google/uuid"

	"larder/repo"
	"larder/repo/repotest"
)

func TestUserEmailIsUniqueIgnoringCase(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tx := repotest.Tx(t)
	if _, err := repo.CreateUser(ctx, tx, repo.CreateUserParams{Email: "Cook@Example.test"}); err != nil {
		t.Fatal(err)
	}
	_, err := repo.CreateUser(ctx, tx, repo.CreateUserParams{Email: "cook@example.TEST"})
	if !errors.Is(err, repo.ErrConflict) {
		t.Fatalf("second user with the same email: got %v, want ErrConflict", err)
	}
}

func TestGetUserNotFound(t *testing.T) {
	t.Parallel()
	_, err := repo.GetUser(context.Background(), repotest.Tx(t), uuid.New())
	if !errors.Is(err, repo.ErrNotFound) {
		t.Fatalf("got %v, want ErrNotFound", err)
	}
}

func TestSessionVersionRevokesSessions(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tx := repotest.Tx(t)
	u := repotest.CreateUser(t, tx, repo.RoleUser)
	if _, err := repo.GetSessionUser(ctx, tx, u.ID, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, "UPDATE app_user SET session_version = session_version + 1 WHERE id = $1", u.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := repo.GetSessionUser(ctx, tx, u.ID, 0); !errors.Is(err, repo.ErrNotFound) {
		t.Fatalf("old session still valid: %v", err)
	}
}

// The ON DELETE rules are part of the data model: a user's data goes with
// the user, and deleting a cookbook leaves its recipes and child cookbooks.
func TestDeleteRules(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tx := repotest.Tx(t)
	u := repotest.CreateUser(t, tx, repo.RoleUser)
	var recipeID, parentID, childID uuid.UUID
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(tx.QueryRow(ctx, `INSERT INTO recipe (owner_id, title) VALUES ($1, 'Soup') RETURNING id`, u.ID).Scan(&recipeID))
	must(tx.QueryRow(ctx, `INSERT INTO cookbook (owner_id, name) VALUES ($1, 'Parent') RETURNING id`, u.ID).Scan(&parentID))
	must(tx.QueryRow(ctx, `INSERT INTO cookbook (owner_id, name) VALUES ($1, 'Child') RETURNING id`, u.ID).Scan(&childID))
	_, err := tx.Exec(ctx, `INSERT INTO cookbook_recipe (cookbook_id, recipe_id) VALUES ($1, $2)`, parentID, recipeID)
	must(err)
	_, err = tx.Exec(ctx, `INSERT INTO cookbook_inclusion (parent_id, child_id) VALUES ($1, $2)`, parentID, childID)
	must(err)
	sp, err := tx.Begin(ctx) // a savepoint, so the refused insert does not abort the test's transaction
	must(err)
	if _, err := sp.Exec(ctx, `INSERT INTO cookbook_inclusion (parent_id, child_id) VALUES ($1, $1)`, parentID); err == nil {
		t.Fatal("a cookbook included itself")
	}
	must(sp.Rollback(ctx))
	_, err = tx.Exec(ctx, `DELETE FROM cookbook WHERE id = $1`, parentID)
	must(err)
	var recipes, cookbooks, links int
	must(tx.QueryRow(ctx, `SELECT (SELECT count(*) FROM recipe), (SELECT count(*) FROM cookbook),
		(SELECT count(*) FROM cookbook_recipe) + (SELECT count(*) FROM cookbook_inclusion)`).Scan(&recipes, &cookbooks, &links))
	if recipes != 1 || cookbooks != 1 || links != 0 {
		t.Fatalf("after deleting the parent: %d recipes, %d cookbooks, %d links", recipes, cookbooks, links)
	}
	_, err = tx.Exec(ctx, `DELETE FROM app_user WHERE id = $1`, u.ID)
	must(err)
	must(tx.QueryRow(ctx, `SELECT (SELECT count(*) FROM recipe) + (SELECT count(*) FROM cookbook)`).Scan(&recipes))
	if recipes != 0 {
		t.Fatal("a deleted user's recipes and cookbooks remained")
	}
}
