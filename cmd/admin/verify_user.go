package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"larder/repo"
)

func init() {
	commands["verify-user"] = command{usage: "EMAIL: mark the account's email address verified (for testing without mail)", run: runVerifyUser}
}

func runVerifyUser(ctx context.Context, args []string, stdout io.Writer) error {
	if len(args) != 1 || args[0] == "" || args[0][0] == '-' {
		return errors.New("usage: admin verify-user EMAIL")
	}
	pool, err := openDatabase(ctx)
	if err != nil {
		return err
	}
	defer pool.Close()
	return verifyUser(ctx, pool, args[0], stdout)
}

// verifyUser marks the account with the email (any case) verified.
func verifyUser(ctx context.Context, db repo.DBTX, email string, out io.Writer) error {
	u, err := repo.GetUserByEmail(ctx, db, email)
	if errors.Is(err, repo.ErrNotFound) {
		return fmt.Errorf("no account has the email address %s", email)
	}
	if err != nil {
		return err
	}
	if u.EmailVerified {
		fmt.Fprintf(out, "%s is already verified.\n", u.Email)
		return nil
	}
	if _, err := repo.MarkEmailVerified(ctx, db, u.ID); err != nil {
		return err
	}
	fmt.Fprintf(out, "%s is now verified and can sign in.\n", u.Email)
	return nil
}
