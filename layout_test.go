package larder

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
)

// TestDependencyDirection keeps the layout of README.md: repo imports none of
// our packages, jobs never imports handlers, and only cmd packages import boot.
func TestDependencyDirection(t *testing.T) {
	t.Parallel()
	out, err := exec.Command("go", "list", "-json=ImportPath,Imports", "./...").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
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
