package larder

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestDependencyDirection keeps the layout of README.md: repo imports none of
// our packages, jobs never imports handlers, and only cmd packages import boot.
func TestDependencyDirection(t *testing.T) {
	t.Parallel()
	out, err := exec.Command("go", "list", "-json=ImportPath,Imports", "./...").Output()
	if err != nil {
		// A layout that cannot be read is not a layout that passes.
		t.Fatalf("go list: %v", err)
	}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for dec.More() {
		var p struct {
			ImportPath string
			Imports    []string
		}
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		for _, imp := range p.Imports {
			ours := imp == "larder" || strings.HasPrefix(imp, "larder/")
			switch {
			case p.ImportPath == "larder/repo" && ours:
				t.Errorf("repo imports %s; repo must import none of our packages", imp)
			case strings.HasPrefix(p.ImportPath, "larder/jobs") && strings.HasPrefix(imp, "larder/handlers"):
				t.Errorf("%s imports %s; jobs never import handlers", p.ImportPath, imp)
			case imp == "larder/boot" && !strings.HasPrefix(p.ImportPath, "larder/cmd/") && !strings.HasPrefix(p.ImportPath, "larder/bench"):
				t.Errorf("%s imports boot; only binaries start the service", p.ImportPath)
			case strings.HasPrefix(imp, "larder/handlers") && strings.HasPrefix(p.ImportPath, "larder/repo"):
				t.Errorf("%s imports %s", p.ImportPath, imp)
			}
		}
	}
}

// sqlStatement matches a string literal that is an SQL statement.
var sqlStatement = regexp.MustCompile(`^\s*(SELECT|INSERT\s+INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM|CREATE\s+(TABLE|INDEX|DATABASE)|ALTER\s+(TABLE|DATABASE)|DROP\s+(TABLE|DATABASE|INDEX)|VACUUM|ANALYZE\s|COPY\s|WITH\s+\w+\s+AS)\b`)

// TestSQLOnlyInRepo keeps every SQL statement of the service in repo (and
// the schema in migrations): no handler, job or command writes its own.
// Tests may query the database they check, and the benchmarks under bench/
// build their fixtures and measure queries directly.
func TestSQLOnlyInRepo(t *testing.T) {
	t.Parallel()
	allowed := func(dir string) bool {
		return dir == "repo" || strings.HasPrefix(dir, "repo/") || dir == "migrations" || dir == "bench" || strings.HasPrefix(dir, "bench/")
	}
	checked := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); name == "node_modules" || name == "testdata" || (strings.HasPrefix(name, ".") && path != ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || allowed(filepath.ToSlash(filepath.Dir(path))) {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		if err != nil {
			return err
		}
		checked++
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			if v, err := strconv.Unquote(lit.Value); err == nil && sqlStatement.MatchString(v) {
				t.Errorf("%s: SQL outside repo: %.60q", path, v)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 20 {
		t.Fatalf("checked only %d files; is the walk right?", checked)
	}
}
