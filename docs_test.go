package larder_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"larder/handlers"
)

// The docs are true on their own: every link of the README and docs/
// points at a file of the repository, nothing cites the contract by a path
// outside it, and the README's layout table names every package.
func TestDocsStandOnTheirOwn(t *testing.T) {
	t.Parallel()
	docs, _ := filepath.Glob("docs/*.md")
	link := regexp.MustCompile(`\]\(([^)#\s]+)(#[^)]*)?\)`)
	for _, name := range append([]string{"README.md"}, docs...) {
		raw, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range link.FindAllStringSubmatch(string(raw), -1) {
			target := m[1]
			if strings.Contains(target, "://") {
				if !strings.Contains(target, "localhost") {
					t.Errorf("%s links outside the repository: %s", name, target)
				}
				continue
			}
			path := filepath.Join(filepath.Dir(name), target)
			if strings.HasPrefix(path, "..") {
				t.Errorf("%s links outside the repository: %s", name, target)
			} else if _, err := os.Stat(path); err != nil {
				t.Errorf("%s links to %s, which does not exist", name, target)
			}
		}
	}

	// Comments and docs cite the contract in the repository. (Applied
	// migrations are left as they shipped: the migrator checks them.)
	out, err := exec.Command("git", "grep", "-n", "-I", "-E", `(shared/|[^/a-z.])API\.md`, "--", ".", ":!node_modules", ":!migrations/*.sql").Output()
	if err != nil && len(out) > 0 {
		t.Fatalf("git grep: %v", err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if line != "" && !strings.HasPrefix(line, "docs_test.go:") {
			t.Errorf("cites API.md outside the repository: %s", line)
		}
	}

	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, layout, _ := strings.Cut(string(readme), "\n## Layout\n")
	layout, _, _ = strings.Cut(layout, "\n## ")
	list, err := exec.Command("go", "list", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, pkg := range strings.Fields(string(list)) {
		rel := strings.TrimPrefix(strings.TrimPrefix(pkg, "larder"), "/")
		if rel != "" && !strings.Contains(layout, "`"+rel+"`") {
			t.Errorf("the README's layout table does not name package %s", rel)
		}
	}
}

// Every API route the README and docs/api.md name (METHOD /api/...) is one
// the service documents, so a script written from them works.
func TestDocsNameRoutesThatExist(t *testing.T) {
	t.Parallel()
	raw, err := handlers.OpenAPI("test")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	// The document's paths as patterns: {id} matches any segment.
	type route struct {
		method string
		re     *regexp.Regexp
	}
	var routes []route
	for p, ops := range doc.Paths {
		re := regexp.MustCompile("^" + regexp.MustCompile(`\\\{[^}]+\\\}`).ReplaceAllString(regexp.QuoteMeta(p), `[^/]+`) + "$")
		for m := range ops {
			routes = append(routes, route{strings.ToUpper(m), re})
		}
	}
	named := regexp.MustCompile("(GET|POST|PUT|DELETE|curl(?: -X (POST|PUT|DELETE))?)`? +`?(?:localhost:8080)?(/api/[A-Za-z0-9_/:.{}<>-]*[A-Za-z0-9}>])")
	found := 0
	for _, name := range []string{"README.md", "docs/api.md"} {
		text, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range named.FindAllStringSubmatch(string(text), -1) {
			method := m[1]
			switch {
			case m[2] != "":
				method = m[2]
			case method == "curl":
				method = "GET"
			}
			path := regexp.MustCompile(`:[A-Za-z]+|<[^>]+>|\b[A-Z]+\b`).ReplaceAllString(m[3], "x")
			ok := false
			for _, r := range routes {
				if r.method == method && r.re.MatchString(path) {
					ok = true
				}
			}
			if !ok {
				t.Errorf("%s names %s %s, which the service does not document", name, method, m[3])
			}
			found++
		}
	}
	if found < 5 {
		t.Fatalf("found only %d routes in the docs; is the pattern right?", found)
	}
}
