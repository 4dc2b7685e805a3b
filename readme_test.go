package larder

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"larder/repo/repotest"
)

// readmeCommand is one command line of the README: its environment
// assignments, the binary and its arguments.
type readmeCommand struct {
	line string
	env  []string // NAME=value, as written
	bin  string
	args []string
}

// productionCommands returns the command lines of the README's code blocks
// under "## Running in production".
func productionCommands(t *testing.T) []readmeCommand {
	t.Helper()
	raw, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(raw), "\n## Running in production\n")
	if !ok {
		t.Fatal(`README.md has no "## Running in production" section`)
	}
	if i := strings.Index(section, "\n## "); i >= 0 {
		section = section[:i]
	}
	var cmds []readmeCommand
	inBlock := false
	for _, line := range strings.Split(section, "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(trimmed, "```"):
			inBlock = !inBlock
		case inBlock && trimmed != "" && !strings.HasPrefix(trimmed, "#"):
			c := readmeCommand{line: trimmed}
			fields := strings.Fields(trimmed)
			for len(fields) > 0 && regexp.MustCompile(`^[A-Z][A-Z0-9_]*=`).MatchString(fields[0]) {
				c.env, fields = append(c.env, fields[0]), fields[1:]
			}
			if len(fields) == 0 {
				t.Fatalf("README command %q names no binary", trimmed)
			}
			c.bin, c.args = fields[0], fields[1:]
			cmds = append(cmds, c)
		}
	}
	if len(cmds) == 0 {
		t.Fatal("the README's production section shows no command")
	}
	return cmds
}

// TestReadmeProductionCommands runs every command line the README's
// production section shows, as a real process with the environment the
// line sets, and checks that it starts and stops cleanly on SIGTERM. The
// README's placeholders ("...") are filled: secrets with random values,
// the database with a fresh test database. The process also gets a data
// directory and a free listen address of its own, which the line leaves
// at their defaults, so that test runs do not collide.
func TestReadmeProductionCommands(t *testing.T) {
	t.Parallel()
	cmds := productionCommands(t)
	bins := t.TempDir()
	built := map[string]bool{}
	for _, c := range cmds {
		if built[c.bin] {
			continue
		}
		if _, err := os.Stat(filepath.Join("cmd", c.bin)); err != nil {
			t.Fatalf("README runs %q, which is not one of cmd/*: %q", c.bin, c.line)
		}
		out, err := exec.Command("go", "build", "-o", filepath.Join(bins, c.bin), "./cmd/"+c.bin).CombinedOutput()
		if err != nil {
			t.Fatalf("build %s: %v\n%s", c.bin, err, out)
		}
		built[c.bin] = true
	}
	for _, c := range cmds {
		t.Run(c.line, func(t *testing.T) {
			t.Parallel()
			runReadmeCommand(t, filepath.Join(bins, c.bin), c)
		})
	}
}

func runReadmeCommand(t *testing.T, bin string, c readmeCommand) {
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(),
		"DATA_DIR=" + t.TempDir(), "LISTEN_ADDR=127.0.0.1:0"}
	for _, kv := range c.env {
		name, value, _ := strings.Cut(kv, "=")
		if strings.Contains(value, "...") {
			value = fillPlaceholder(t, name, value)
		}
		env = append(env, name+"="+value)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, c.args...)
	cmd.Env = env
	cmd.Stdout = io.Discard
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// The binaries log "listening" (api) or "working" (worker) once ready.
	ready := make(chan string, 1)
	var log strings.Builder
	logged := make(chan struct{})
	go func() {
		defer close(logged)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			line := sc.Text()
			log.WriteString(line + "\n")
			if strings.Contains(line, "msg=listening") || strings.Contains(line, "msg=working") {
				select {
				case ready <- line:
				default:
				}
			}
		}
	}()
	exited := make(chan error, 1)
	go func() { <-logged; exited <- cmd.Wait() }()
	select {
	case line := <-ready:
		if addr := regexp.MustCompile(`addr=(\S+)`).FindStringSubmatch(line); addr != nil && strings.Contains(line, "msg=listening") {
			resp, err := http.Get("http://" + addr[1] + "/api/health")
			if err != nil {
				t.Fatalf("health of %q: %v", c.line, err)
			}
			resp.Body.Close()
			if resp.StatusCode != 200 {
				t.Fatalf("health of %q: %d", c.line, resp.StatusCode)
			}
		}
	case err := <-exited:
		t.Fatalf("%q stopped at start: %v\n%s", c.line, err, log.String())
	case <-ctx.Done():
		t.Fatalf("%q did not get ready\n%s", c.line, log.String())
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := <-exited; err != nil {
		t.Fatalf("%q after SIGTERM: %v\n%s", c.line, err, log.String())
	}
}

// fillPlaceholder gives a README placeholder a working value.
func fillPlaceholder(t *testing.T, name, value string) string {
	t.Helper()
	switch {
	case strings.HasSuffix(name, "_SECRET") && value == "...":
		b := make([]byte, 32)
		_, _ = rand.Read(b)
		return hex.EncodeToString(b)
	case name == "DATABASE_URL" && strings.HasPrefix(value, "postgres://"):
		return repotest.URLFor(repotest.NewDatabase(t))
	}
	t.Fatalf("the test does not know how to fill the README's %s=%s", name, value)
	return ""
}
