package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/mail"
	"os"
	"strings"

	"golang.org/x/term"

	"larder/password"
	"larder/repo"
)

func init() {
	commands["create-admin"] = command{
		usage: "[--email E --name N --password P]: create a verified ADMIN, or promote an existing account; asks for what is not given",
		run:   runCreateAdmin,
	}
}

func runCreateAdmin(ctx context.Context, args []string, stdout io.Writer) error {
	pool, err := openDatabase(ctx)
	if err != nil {
		return err
	}
	defer pool.Close()
	return createAdmin(ctx, pool, args, os.Stdin, stdout, password.DefaultCost)
}

// createAdmin is create-admin on an open database: flags first, then
// questions on in for whatever the flags left out. The password is read
// without echo when in is a terminal.
func createAdmin(ctx context.Context, db repo.DBTX, args []string, in io.Reader, out io.Writer, cost int) error {
	fs := flag.NewFlagSet("create-admin", flag.ContinueOnError)
	fs.SetOutput(out)
	email := fs.String("email", "", "the administrator's email address")
	name := fs.String("name", "", "the administrator's name (optional)")
	pw := fs.String("password", "", "the password; omit it to be asked without echo (a flag is visible in the process list)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	p := newPrompter(in, out)
	interactive := *email == ""

	if *email != "" {
		if msg := checkEmail(*email); msg != "" {
			return fmt.Errorf("--email: %s", msg)
		}
	} else {
		v, err := p.ask("Email: ", func(s string) string { return checkEmail(s) })
		if err != nil {
			return err
		}
		*email = v
	}
	if interactive && *name == "" {
		v, err := p.ask("Name (optional): ", func(s string) string {
			if len([]rune(s)) > 100 {
				return "at most 100 characters"
			}
			return ""
		})
		if err != nil {
			return err
		}
		*name = v
	}
	if *pw != "" {
		if msg := password.Check(*pw); msg != "" {
			return fmt.Errorf("--password: the password %s", msg)
		}
	} else {
		v, err := p.newPassword()
		if err != nil {
			return err
		}
		*pw = v
	}

	hash, err := password.Hash(*pw, cost)
	if err != nil {
		return err
	}
	u, created, err := repo.UpsertAdmin(ctx, db, strings.TrimSpace(*email), strings.TrimSpace(*name), hash)
	if err != nil {
		return err
	}
	if created {
		fmt.Fprintf(out, "Created the administrator %s (%s). It is verified and can sign in now.\n", u.Email, u.ID)
	} else {
		fmt.Fprintf(out, "%s (%s) is now a verified administrator with the new password; its other sessions were signed out.\n", u.Email, u.ID)
	}
	return nil
}

func checkEmail(s string) string {
	a, err := mail.ParseAddress(s)
	if err != nil || a.Address != s {
		return "is not a valid email address"
	}
	return ""
}

// prompter asks questions on a terminal or on piped input.
type prompter struct {
	r   *bufio.Reader
	out io.Writer
	fd  int // the terminal's descriptor, or -1 when in is not a terminal
}

func newPrompter(in io.Reader, out io.Writer) *prompter {
	p := &prompter{r: bufio.NewReader(in), out: out, fd: -1}
	if f, ok := in.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		p.fd = int(f.Fd())
	}
	return p
}

// maxTries is how often a question is asked before giving up.
const maxTries = 3

var errNoInput = errors.New("no answer: the input ended (pass --email, --name and --password to run without questions)")

func (p *prompter) line(prompt string) (string, error) {
	fmt.Fprint(p.out, prompt)
	s, err := p.r.ReadString('\n')
	if err != nil && (err != io.EOF || s == "") {
		if err == io.EOF {
			return "", errNoInput
		}
		return "", err
	}
	return strings.TrimSpace(s), nil
}

// secret reads a line without echo on a terminal.
func (p *prompter) secret(prompt string) (string, error) {
	if p.fd < 0 {
		s, err := p.line(prompt)
		return s, err
	}
	fmt.Fprint(p.out, prompt)
	b, err := term.ReadPassword(p.fd)
	fmt.Fprintln(p.out)
	if err != nil {
		return "", err
	}
	return strings.TrimRight(string(b), "\r\n"), nil
}

// ask asks until check accepts the answer ("" means accepted).
func (p *prompter) ask(prompt string, check func(string) string) (string, error) {
	for range maxTries {
		v, err := p.line(prompt)
		if err != nil {
			return "", err
		}
		if msg := check(v); msg != "" {
			fmt.Fprintf(p.out, "  That %s.\n", msg)
			continue
		}
		return v, nil
	}
	return "", fmt.Errorf("no acceptable answer after %d tries", maxTries)
}

// newPassword asks for a password and its confirmation, hidden, until they
// match and meet the password rule.
func (p *prompter) newPassword() (string, error) {
	fmt.Fprintln(p.out, "The password needs at least 8 characters, with an uppercase letter, a lowercase letter and a number.")
	for range maxTries {
		pw, err := p.secret("Password: ")
		if err != nil {
			return "", err
		}
		if msg := password.Check(pw); msg != "" {
			fmt.Fprintf(p.out, "  The password %s.\n", msg)
			continue
		}
		again, err := p.secret("Confirm password: ")
		if err != nil {
			return "", err
		}
		if again != pw {
			fmt.Fprintln(p.out, "  The passwords do not match.")
			continue
		}
		return pw, nil
	}
	return "", fmt.Errorf("no acceptable password after %d tries", maxTries)
}
