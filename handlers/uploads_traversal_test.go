package handlers

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// /uploads serves files of the image store and nothing beside it, even to
// an address that carries a valid signature: a key that climbs out of the
// store ("..", however it is spelled) is a 404, and the bytes of a file next
// to the store are never sent.
func TestUploadsRefusePathTraversal(t *testing.T) {
	t.Parallel()
	b := setup(t)
	secret := quadrantJPEG(t, 8, 8)
	outside := filepath.Dir(b.deps.Config.UploadPath)
	if err := os.MkdirAll(b.deps.Config.UploadPath, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(outside, "secret.jpg"), secret, 0o644); err != nil {
		t.Fatal(err)
	}
	// Signed as the service signs, as if such a key had reached a recipe.
	signer := newUploadSigner(b.deps.Tokens.AccessSecret, time.Now)
	for _, key := range []string{"../secret.jpg", "recipes/../../secret.jpg", "..%2fsecret.jpg", "%2e%2e/secret.jpg",
		"recipes/..%2f..%2fsecret.jpg", "..%5csecret.jpg", "%2fsecret.jpg"} {
		addr := signer.address(key, false)
		for _, path := range []string{addr, strings.Replace(addr, "%2f", "%252f", -1)} {
			r := b.do(t, "GET", path, nil, "")
			if r.Status != 404 || bytes.Contains(r.Body, secret[:64]) {
				t.Errorf("%s: %d, %d bytes", path, r.Status, len(r.Body))
			}
		}
	}
}
