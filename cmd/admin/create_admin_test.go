package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/crypto/bcrypt"

	"larder/repo"
	"larder/repo/repotest"
)

func TestCreateAdmin(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tests := []struct {
		name     string
		args     []string
		input    string
		wantErr  string
		email    string
		wantName string
		password string
		output   []string // substrings of what the user sees
	}{
		{
			name: "flags", args: []string{"--email", "root@example.test", "--name", "Root", "--password", "Kitchen2025"},
			email: "root@example.test", wantName: "Root", password: "Kitchen2025", output: []string{"Created the administrator"},
		},
		{
			name: "interactive", input: "chef@example.test\nJulia Child\nKitchen2025\nKitchen2025\n",
			email: "chef@example.test", wantName: "Julia Child", password: "Kitchen2025",
			output: []string{"Email: ", "Name (optional): ", "Password: ", "Confirm password: ", "uppercase letter"},
		},
		{
			name: "interactive retries", input: "not an email\nchef2@example.test\n\nweak\nKitchen2025\nKitchen2026\nKitchen2025\nKitchen2025\n",
			email: "chef2@example.test", password: "Kitchen2025",
			output: []string{"is not a valid email address", "The password must be at least 8 characters", "do not match"},
		},
		{
			name: "password asked when only the email is given", args: []string{"--email", "ops@example.test"}, input: "Kitchen2025\nKitchen2025\n",
			email: "ops@example.test", password: "Kitchen2025",
		},
		{name: "weak flag password", args: []string{"--email", "x@example.test", "--password", "kitchen"}, wantErr: "--password: the password"},
		{name: "bad flag email", args: []string{"--email", "nope", "--password", "Kitchen2025"}, wantErr: "--email"},
		{name: "input ends", input: "a@example.test\n", wantErr: "input ended"},
		{name: "three mismatches", args: []string{"--email", "y@example.test"}, input: "Kitchen2025\nA\nKitchen2025\nB\nKitchen2025\nC\n", wantErr: "no acceptable password"},
		{name: "stray argument", args: []string{"extra"}, wantErr: "unexpected argument"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			db := repotest.DB(t)
			var out strings.Builder
			err := createAdmin(ctx, db, tt.args, strings.NewReader(tt.input), &out, bcrypt.MinCost)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				var n int
				_ = db.QueryRow(ctx, `SELECT count(*) FROM app_user`).Scan(&n)
				if n != 0 {
					t.Fatalf("a failed run created %d accounts", n)
				}
				return
			}
			if err != nil {
				t.Fatalf("%v\n%s", err, out.String())
			}
			u, err := repo.GetUserByEmail(ctx, db, tt.email)
			if err != nil {
				t.Fatal(err)
			}
			if u.Role != repo.RoleAdmin || !u.EmailVerified || u.Name != tt.wantName || u.PasswordHash == nil ||
				bcrypt.CompareHashAndPassword([]byte(*u.PasswordHash), []byte(tt.password)) != nil {
				t.Fatalf("account %+v", u)
			}
			for _, want := range tt.output {
				if !strings.Contains(out.String(), want) {
					t.Errorf("output lacks %q:\n%s", want, out.String())
				}
			}
			if strings.Contains(out.String(), tt.password) {
				t.Error("the password was echoed")
			}
		})
	}
}

// An existing account is promoted, verified, given the new password, and
// signed out everywhere.
func TestCreateAdminPromotes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := repotest.DB(t)
	before, err := repo.CreateUser(ctx, db, repo.CreateUserParams{Email: "Cook@Example.test", Name: "Cook"})
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := createAdmin(ctx, db, []string{"--email", "cook@example.test", "--password", "Kitchen2025"}, strings.NewReader(""), &out, bcrypt.MinCost); err != nil {
		t.Fatal(err)
	}
	u, err := repo.GetUser(ctx, db, before.ID)
	if err != nil {
		t.Fatal(err)
	}
	if u.Role != repo.RoleAdmin || !u.EmailVerified || u.Name != "Cook" || u.SessionVersion != before.SessionVersion+1 ||
		bcrypt.CompareHashAndPassword([]byte(*u.PasswordHash), []byte("Kitchen2025")) != nil {
		t.Fatalf("promoted %+v", u)
	}
	if !strings.Contains(out.String(), "now a verified administrator") {
		t.Errorf("output: %s", out.String())
	}
}

// The production command hashes with the specification's cost.
func TestRunCreateAdminUsesCost12(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := repotest.DB(t)
	if err := createAdmin(ctx, db, []string{"--email", "c12@example.test", "--password", "Kitchen2025"}, strings.NewReader(""), &strings.Builder{}, 12); err != nil {
		t.Fatal(err)
	}
	u, _ := repo.GetUserByEmail(ctx, db, "c12@example.test")
	if c, _ := bcrypt.Cost([]byte(*u.PasswordHash)); c != 12 {
		t.Fatalf("cost %d", c)
	}
}

func TestVerifyUser(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := repotest.DB(t)
	u, err := repo.CreateUser(ctx, db, repo.CreateUserParams{Email: "New@Example.test"})
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := verifyUser(ctx, db, "new@example.test", &out); err != nil {
		t.Fatal(err)
	}
	if got, _ := repo.GetUser(ctx, db, u.ID); !got.EmailVerified {
		t.Fatal("not verified")
	}
	if err := verifyUser(ctx, db, "new@example.test", &out); err != nil || !strings.Contains(out.String(), "already verified") {
		t.Fatalf("second run: %v %s", err, out.String())
	}
	if err := verifyUser(ctx, db, "ghost@example.test", &out); err == nil || !strings.Contains(err.Error(), "no account") {
		t.Fatalf("unknown email: %v", err)
	}
}

// The binary itself, through the environment only main reads: verify-user
// and create-admin against a real database, and the usage errors.
func TestAdminBinary(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "admin")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	name := repotest.NewDatabase(t)
	env := append(os.Environ(), "DATABASE_URL="+repotest.URLFor(name), "DATA_DIR="+t.TempDir())
	run := func(stdin string, args ...string) (string, error) {
		cmd := exec.Command(bin, args...)
		cmd.Env = env
		cmd.Stdin = strings.NewReader(stdin)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	if out, err := run("", "create-admin", "--email", "bin@example.test", "--name", "Bin", "--password", "Kitchen2025"); err != nil {
		t.Fatalf("create-admin: %v\n%s", err, out)
	}
	if out, err := run("", "verify-user", "bin@example.test"); err != nil || !strings.Contains(out, "already verified") {
		t.Fatalf("verify-user: %v\n%s", err, out)
	}
	if out, err := run("", "verify-user"); err == nil || !strings.Contains(out, "usage") {
		t.Fatalf("verify-user without email: %v\n%s", err, out)
	}
	if out, err := run("", "create-admin"); err == nil || !strings.Contains(out, "input ended") {
		t.Fatalf("create-admin with no input: %v\n%s", err, out)
	}
}
