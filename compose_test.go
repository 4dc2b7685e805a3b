package larder

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// No container engine runs where the tests run, so the compose file is
// checked as data, against what README.md tells operators: the services it
// names, a health check for each (the binaries' --healthcheck, as the image
// has no curl), named images, two API replicas, no volume shared between
// the API and the workers (the bucket and the database are the shared
// state), and only variables the README documents.
func TestComposeFile(t *testing.T) {
	raw, err := os.ReadFile("docker-compose.yml")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	var compose struct {
		Services map[string]struct {
			Image       string            `yaml:"image"`
			Command     []string          `yaml:"command"`
			Environment map[string]string `yaml:"environment"`
			Volumes     []string          `yaml:"volumes"`
			Healthcheck struct {
				Test []string `yaml:"test"`
			} `yaml:"healthcheck"`
			Deploy struct {
				Replicas int `yaml:"replicas"`
			} `yaml:"deploy"`
			Restart string `yaml:"restart"`
		} `yaml:"services"`
	}
	if err := yaml.Unmarshal(raw, &compose); err != nil {
		t.Fatalf("docker-compose.yml: %v", err)
	}

	want := []string{"postgres", "s3", "redis", "storage-init", "api", "worker"}
	for _, name := range want {
		svc, ok := compose.Services[name]
		if !ok {
			t.Errorf("service %s is missing", name)
			continue
		}
		if !strings.Contains(string(readme), "`"+name+"`") {
			t.Errorf("README.md does not name the service `%s`", name)
		}
		if svc.Image == "" {
			t.Errorf("service %s has no named image", name)
		}
		if name != "storage-init" && len(svc.Healthcheck.Test) == 0 {
			t.Errorf("service %s has no health check", name)
		}
	}
	for name := range compose.Services {
		if !slices.Contains(want, name) {
			t.Errorf("service %s is not one README.md describes", name)
		}
	}
	larder := compose.Services["api"].Image
	for _, name := range []string{"api", "worker", "storage-init"} {
		svc := compose.Services[name]
		if svc.Image != larder || !strings.HasPrefix(larder, "larder:") {
			t.Errorf("service %s runs image %q, want the one larder image", name, svc.Image)
		}
		if len(svc.Volumes) > 0 {
			t.Errorf("service %s mounts %v: API and workers share only the database, the bucket and Redis", name, svc.Volumes)
		}
		env := svc.Environment
		if env["STORAGE"] != "s3" || env["S3_PATH_STYLE"] != "true" || env["REDIS_URL"] == "" {
			t.Errorf("service %s: STORAGE=%q S3_PATH_STYLE=%q REDIS_URL=%q", name, env["STORAGE"], env["S3_PATH_STYLE"], env["REDIS_URL"])
		}
		for v := range env {
			if !strings.Contains(string(readme), "`"+v+"`") {
				t.Errorf("service %s sets %s, which README.md does not document", name, v)
			}
		}
	}
	for _, b := range []string{"api", "worker"} {
		if hc := strings.Join(compose.Services[b].Healthcheck.Test, " "); hc != "CMD "+b+" --healthcheck" {
			t.Errorf("%s health check %q, want the binary's --healthcheck", b, hc)
		}
	}
	if n := compose.Services["api"].Deploy.Replicas; n != 2 {
		t.Errorf("api replicas %d, want 2", n)
	}
	// Every variable the operator sets in .env is documented.
	for _, m := range regexp.MustCompile(`\$\{([A-Z0-9_]+)`).FindAllStringSubmatch(string(raw), -1) {
		if !strings.Contains(string(readme), "`"+m[1]+"`") {
			t.Errorf("docker-compose.yml reads ${%s}, which README.md does not document", m[1])
		}
	}
}

// .dockerignore keeps the local data (dev secrets, uploads, backups), the
// binaries and the client's dependencies out of the image's build context.
func TestDockerignore(t *testing.T) {
	raw, err := os.ReadFile(".dockerignore")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(raw), "\n")
	for _, want := range []string{"data", "bin", "web/node_modules", ".env", ".git"} {
		if !slices.Contains(lines, want) {
			t.Errorf(".dockerignore does not exclude %s", want)
		}
	}
}
