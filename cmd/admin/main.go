// Command admin is the operator's command line: database migration, admin
// accounts, test helpers, seeding, and the offline import and mapping tools.
//
//	admin migrate
//	admin create-admin [--email E --name N --password P]
//	admin verify-user EMAIL
//	admin seed --recipes N
//	admin parse --url URL FILE.html
//	admin map FILE.json
//	admin ingredients < LINES
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"syscall"
)

// command is one subcommand. Each lives in its own file and registers
// itself in init, so the commands stay independent of each other.
type command struct {
	usage string
	run   func(ctx context.Context, args []string, stdout io.Writer) error
}

var commands = map[string]command{}

func main() {
	if len(os.Args) < 2 {
		usage(os.Stderr)
		os.Exit(2)
	}
	name := os.Args[1]
	if name == "-h" || name == "--help" || name == "help" {
		usage(os.Stdout)
		return
	}
	cmd, ok := commands[name]
	if !ok {
		fmt.Fprintf(os.Stderr, "admin: unknown command %q\n\n", name)
		usage(os.Stderr)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	if err := cmd.run(ctx, os.Args[2:], os.Stdout); err != nil {
		fmt.Fprintf(os.Stderr, "admin %s: %v\n", name, err)
		os.Exit(1)
	}
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: admin COMMAND [arguments]\n\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-14s %s\n", n, commands[n].usage)
	}
}
