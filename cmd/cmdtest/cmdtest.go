// Package cmdtest runs the service's own binaries in their tests, as
// separate processes that share only PostgreSQL (and a data directory)
// with the test, the way they run in production.
package cmdtest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// Main builds the command in the working directory (the package under
// test) as name, runs the package's tests with the binary's path in *binary,
// removes the build and exits with the tests' code. A package's TestMain is
// one call: func TestMain(m *testing.M) { cmdtest.Main(m, "api", &apiBinary) }.
func Main(m *testing.M, name string, binary *string) {
	dir, err := os.MkdirTemp("", "larder-"+name+"-test")
	if err != nil {
		panic(err)
	}
	*binary = filepath.Join(dir, name)
	build := exec.Command("go", "build", "-o", *binary, ".")
	build.Stdout, build.Stderr = os.Stdout, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintf(os.Stderr, "build %s: %v\n", name, err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// WaitFor checks cond until it holds, and fails the test when it still does
// not after limit. It waits on another process's work (a job's state, a
// file appearing), never for time itself to pass: no clock is involved in
// what cond reads.
func WaitFor(t testing.TB, what string, limit time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
