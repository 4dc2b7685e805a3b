// Package s3test runs a real S3-compatible server for tests: versitygw
// (github.com/versity/versitygw, Apache-2.0) serving a temporary directory
// on a loopback port. Tests get a fresh bucket each, so they run in
// parallel against one server per test process. There is no fake: if the
// binary is missing, the test fails and says how to install it.
package s3test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"

	"larder/filestore"
)

// Version is the versitygw release the tests are written against.
const Version = "v1.8.0"

// InstallCommand installs it (.ci/run runs it when the binary is missing).
const InstallCommand = "go install github.com/versity/versitygw/cmd/versitygw@" + Version

// Credentials of the test server.
const (
	AccessKey = "larder-test-access"
	SecretKey = "larder-test-secret-key-0123456789"
	Region    = "us-east-1"
)

// Server is a running versitygw.
type Server struct {
	Endpoint string // http://127.0.0.1:PORT
	Dir      string
	cmd      *exec.Cmd
}

var (
	shared     *Server
	sharedErr  error
	sharedOnce sync.Once
)

// Binary finds versitygw: $VERSITYGW, then PATH, then $GOBIN and
// $GOPATH/bin (where go install puts it).
func Binary() (string, error) {
	if p := os.Getenv("VERSITYGW"); p != "" {
		return p, nil
	}
	if p, err := exec.LookPath("versitygw"); err == nil {
		return p, nil
	}
	var dirs []string
	if gobin := os.Getenv("GOBIN"); gobin != "" {
		dirs = append(dirs, gobin)
	}
	if out, err := exec.Command("go", "env", "GOBIN", "GOPATH").Output(); err == nil {
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		if len(lines) == 2 {
			if lines[0] != "" {
				dirs = append(dirs, lines[0])
			}
			for _, gp := range filepath.SplitList(lines[1]) {
				dirs = append(dirs, filepath.Join(gp, "bin"))
			}
		}
	}
	for _, d := range dirs {
		p := filepath.Join(d, "versitygw")
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p, nil
		}
	}
	return "", fmt.Errorf("versitygw not found (PATH, GOBIN, GOPATH/bin); install it with: %s", InstallCommand)
}

// Start runs a new versitygw serving dir on a free loopback port and waits
// until it accepts connections. The server dies with the test process
// (Pdeathsig) even if Stop is never called.
func Start(dir string) (*Server, error) {
	bin, err := Binary()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	addr := l.Addr().String()
	l.Close()
	cmd := exec.Command(bin, "--access", AccessKey, "--secret", SecretKey, "--region", Region, "--port", addr, "posix", dir)
	logf, err := os.Create(filepath.Join(dir, "..", filepath.Base(dir)+".log"))
	if err != nil {
		return nil, err
	}
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		logf.Close()
		return nil, fmt.Errorf("start versitygw: %w", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait(); logf.Close() }()
	// Readiness: the port accepts connections.
	deadline := time.Now().Add(30 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
			break
		}
		select {
		case err := <-exited:
			log, _ := os.ReadFile(logf.Name())
			return nil, fmt.Errorf("versitygw exited at start (%v): %s", err, log)
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			return nil, errors.New("versitygw did not listen within 30 s")
		}
	}
	return &Server{Endpoint: "http://" + addr, Dir: dir, cmd: cmd}, nil
}

// Stop ends the server.
func (s *Server) Stop() {
	if s.cmd != nil && s.cmd.Process != nil {
		s.cmd.Process.Kill()
	}
}

// Shared returns the test process's server, started on first use in a
// temporary directory.
func Shared(t testing.TB) *Server {
	t.Helper()
	sharedOnce.Do(func() {
		dir, err := os.MkdirTemp("", "larder-versitygw-")
		if err != nil {
			sharedErr = err
			return
		}
		shared, sharedErr = Start(filepath.Join(dir, "data"))
	})
	if sharedErr != nil {
		t.Fatalf("S3 test server: %v", sharedErr)
	}
	return shared
}

// Config returns the settings of a new, empty bucket on s.
func (s *Server) Config(ctx context.Context) (filestore.S3Config, error) {
	b := make([]byte, 6)
	rand.Read(b)
	cfg := filestore.S3Config{
		Endpoint: s.Endpoint, Bucket: "larder-" + hex.EncodeToString(b), Region: Region,
		AccessKeyID: AccessKey, SecretAccessKey: SecretKey, PathStyle: true,
	}
	client, err := minio.New(strings.TrimPrefix(s.Endpoint, "http://"), &minio.Options{
		Creds: credentials.NewStaticV4(AccessKey, SecretKey, ""), Region: Region, BucketLookup: minio.BucketLookupPath,
	})
	if err != nil {
		return cfg, err
	}
	if err := client.MakeBucket(ctx, cfg.Bucket, minio.MakeBucketOptions{Region: Region}); err != nil {
		return cfg, fmt.Errorf("create bucket: %w", err)
	}
	return cfg, nil
}

// Bucket returns the settings of a new, empty bucket on the shared server.
func Bucket(t testing.TB) filestore.S3Config {
	t.Helper()
	cfg, err := Shared(t).Config(context.Background())
	if err != nil {
		t.Fatalf("S3 test bucket: %v", err)
	}
	return cfg
}

// Store returns an S3 store on a new bucket of the shared server.
func Store(t testing.TB) *filestore.S3 {
	t.Helper()
	s, err := filestore.NewS3(Bucket(t))
	if err != nil {
		t.Fatal(err)
	}
	return s
}
