package config

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// EnsureSecrets fills missing JWT secrets outside production by generating
// them once and keeping them under DataDir, so a development install keeps
// its sessions across restarts. It reports whether it had to do so, so main
// can say it in the log. Production configurations never reach here without
// secrets: Load refuses them.
func EnsureSecrets(c *Config) (generated bool, err error) {
	if c.JWTSecret != "" && c.JWTRefreshSecret != "" {
		return false, nil
	}
	if c.Production() {
		return false, errors.New("JWT_SECRET and JWT_REFRESH_SECRET are required in production")
	}
	path := filepath.Join(c.DataDir, "dev-secrets.json")
	var kept struct{ JWTSecret, JWTRefreshSecret string }
	raw, err := os.ReadFile(path)
	switch {
	case err == nil:
		if err := json.Unmarshal(raw, &kept); err != nil {
			return false, fmt.Errorf("read %s: %w", path, err)
		}
	case errors.Is(err, fs.ErrNotExist):
		kept.JWTSecret, kept.JWTRefreshSecret = randomHex(32), randomHex(32)
		raw, _ = json.Marshal(kept)
		if err := os.MkdirAll(c.DataDir, 0o700); err != nil {
			return false, fmt.Errorf("create %s: %w", c.DataDir, err)
		}
		if err := os.WriteFile(path, raw, 0o600); err != nil {
			return false, fmt.Errorf("write %s: %w", path, err)
		}
	default:
		return false, fmt.Errorf("read %s: %w", path, err)
	}
	if c.JWTSecret == "" {
		c.JWTSecret = Secret(kept.JWTSecret)
	}
	if c.JWTRefreshSecret == "" {
		c.JWTRefreshSecret = Secret(kept.JWTRefreshSecret)
	}
	return true, nil
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b) // crypto/rand.Read never fails on supported platforms
	return hex.EncodeToString(b)
}
