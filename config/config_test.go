package config

import (
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"
)

func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestLoadDefaults(t *testing.T) {
	t.Parallel()
	c, err := Load(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.ListenAddr != ":8080" || c.JWTExpiresIn != 15*time.Minute || c.JWTRefreshExpiresIn != 168*time.Hour {
		t.Errorf("defaults: %+v", c)
	}
	if c.AuthRateLimit != 5 || c.AuthRateLimitWindow != 15*time.Minute {
		t.Errorf("rate limit default = %d/%s", c.AuthRateLimit, c.AuthRateLimitWindow)
	}
	if c.ImportAllowPrivate {
		t.Error("private addresses must be refused by default")
	}
	if c.UploadPath != "./data/uploads" || c.BackupPath != "./data/backups" {
		t.Errorf("paths: %s %s", c.UploadPath, c.BackupPath)
	}
	if c.BackupInterval != 0 || c.BackupKeep != 7 || c.BackupMaxUpload != 10<<30 {
		t.Errorf("backups: interval %s, keep %d, max upload %d", c.BackupInterval, c.BackupKeep, c.BackupMaxUpload)
	}
	if c.QueueConcurrency[QueueBackup] != 1 || len(c.QueueConcurrency) != len(Queues) {
		t.Errorf("queue concurrency: %v", c.QueueConcurrency)
	}
}

func TestLoadNamesEveryBadVariable(t *testing.T) {
	t.Parallel()
	tests := []struct {
		env  map[string]string
		want []string
	}{
		{map[string]string{"JWT_EXPIRES_IN": "soon"}, []string{"JWT_EXPIRES_IN"}},
		{map[string]string{"DATABASE_URL": "mysql://x"}, []string{"DATABASE_URL"}},
		{map[string]string{"APP_URL": "ftp://x", "API_URL": "nope"}, []string{"APP_URL", "API_URL"}},
		{map[string]string{"SMTP_TLS": "maybe", "SMTP_PORT": "-1"}, []string{"SMTP_TLS", "SMTP_PORT"}},
		{map[string]string{"AUTH_RATE_LIMIT": "5"}, []string{"AUTH_RATE_LIMIT"}},
		{map[string]string{"TRUSTED_PROXIES": "10.0.0.0/8, banana"}, []string{"TRUSTED_PROXIES"}},
		{map[string]string{"IMPORT_ALLOW_PRIVATE_ADDRESSES": "sometimes"}, []string{"IMPORT_ALLOW_PRIVATE_ADDRESSES"}},
		{map[string]string{"IDP_NAME": "acme"}, []string{"IDP_ISSUER", "IDP_CLIENT_ID"}},
		{map[string]string{"IDP_NAME": "me", "IDP_ISSUER": "https://sso.test", "IDP_CLIENT_ID": "x"}, []string{"IDP_NAME"}},
		{map[string]string{"JWT_SECRET": "same", "JWT_REFRESH_SECRET": "same"}, []string{"JWT_REFRESH_SECRET"}},
		{map[string]string{"WORKER_IMPORT_CONCURRENCY": "x"}, []string{"WORKER_IMPORT_CONCURRENCY"}},
		{map[string]string{"LOG_LEVEL": "loud"}, []string{"LOG_LEVEL"}},
		{map[string]string{"LISTEN_ADDR": "8080"}, []string{"LISTEN_ADDR"}},
		{map[string]string{"BACKUP_MAX_UPLOAD": "lots"}, []string{"BACKUP_MAX_UPLOAD"}},
		{map[string]string{"BACKUP_MAX_UPLOAD": "0"}, []string{"BACKUP_MAX_UPLOAD"}},
		{map[string]string{"REDIS_URL": "127.0.0.1:6379"}, []string{"REDIS_URL"}},
		{map[string]string{"RECIPE_LIST_CACHE": "often"}, []string{"RECIPE_LIST_CACHE"}},
	}
	for _, tt := range tests {
		_, err := Load(env(tt.env))
		if err == nil {
			t.Errorf("%v: no error", tt.env)
			continue
		}
		for _, name := range tt.want {
			if !strings.Contains(err.Error(), name+":") {
				t.Errorf("%v: error %q does not name %s", tt.env, err, name)
			}
		}
	}
}

// Each binary is asked only for what it uses: in production the API needs
// its signing secrets, a worker or the admin tool needs none.
func TestLoadRequiresOnlyTheUsedParts(t *testing.T) {
	t.Parallel()
	prod := env(map[string]string{"APP_ENV": "production"})
	_, err := Load(prod, Tokens)
	for _, name := range []string{"JWT_SECRET", "JWT_REFRESH_SECRET"} {
		if err == nil || !strings.Contains(err.Error(), name+": required in production") {
			t.Errorf("API without %s: %v", name, err)
		}
	}
	if _, err := Load(prod); err != nil {
		t.Errorf("worker in production without JWT secrets: %v", err)
	}
	// A value given to a part the binary does not use is still checked.
	if _, err := Load(env(map[string]string{"APP_ENV": "production", "JWT_SECRET": "same", "JWT_REFRESH_SECRET": "same"})); err == nil {
		t.Error("equal secrets accepted for a worker")
	}
}

func TestLoadParsesValues(t *testing.T) {
	t.Parallel()
	c, err := Load(env(map[string]string{
		"JWT_REFRESH_EXPIRES_IN":    "7d",
		"AUTH_RATE_LIMIT":           "100/1m",
		"TRUSTED_PROXIES":           "10.0.0.0/8,127.0.0.1",
		"APP_URL":                   "https://recipes.example.org/",
		"LOG_LEVEL":                 "debug",
		"WORKER_IMPORT_CONCURRENCY": "6",
		"BACKUP_MAX_UPLOAD":         "512MB",
		"IDP_NAME":                  "Authentik",
		"IDP_LABEL":                 "Company login",
		"IDP_ISSUER":                "https://sso.example.org/application/o/larder/",
		"IDP_CLIENT_ID":             "larder",
		"RECIPE_LIST_CACHE":         "0",
		"JOB_TIME_LIMIT":            "5s",
	}))
	if err != nil {
		t.Fatal(err)
	}
	if c.JWTRefreshExpiresIn != 7*24*time.Hour || c.AuthRateLimit != 100 || c.AuthRateLimitWindow != time.Minute {
		t.Errorf("parsed: %+v", c)
	}
	if len(c.TrustedProxies) != 2 || c.TrustedProxies[1].Bits() != 32 {
		t.Errorf("proxies: %v", c.TrustedProxies)
	}
	if c.IDP.Name != "authentik" || c.IDP.Label != "Company login" || !c.IDP.Enabled() {
		t.Errorf("idp: %+v", c.IDP)
	}
	if c.JobTimeLimit != 5*time.Second {
		t.Errorf("JOB_TIME_LIMIT=5s gave %s", c.JobTimeLimit)
	}
	if c.RecipeListCache != 0 {
		t.Errorf("RECIPE_LIST_CACHE=0 gave %s", c.RecipeListCache)
	}
	if c.BackupMaxUpload != 512<<20 {
		t.Errorf("BACKUP_MAX_UPLOAD=512MB gave %d", c.BackupMaxUpload)
	}
	if c.AppURL != "https://recipes.example.org" || c.LogLevel != slog.LevelDebug || c.QueueConcurrency[QueueImport] != 6 {
		t.Errorf("parsed: %+v", c)
	}
}

func TestSecretsNeverPrint(t *testing.T) {
	t.Parallel()
	c, err := Load(env(map[string]string{
		"JWT_SECRET": "top-secret-access", "JWT_REFRESH_SECRET": "top-secret-refresh",
		"SMTP_PASSWORD": "top-secret-smtp", "IDP_CLIENT_SECRET": "top-secret-idp",
		"DATABASE_URL": "postgres://u:top-secret-db@h/db",
	}))
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	slog.New(slog.NewJSONHandler(&out, nil)).Info("config", "config", c)
	fmt.Fprintf(&out, "%v %+v", c, c)
	if strings.Contains(out.String(), "top-secret") {
		t.Errorf("a secret was printed: %s", out.String())
	}
}

func TestEnsureSecretsKeepsThem(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	c1 := Config{DataDir: dir}
	if gen, err := EnsureSecrets(&c1); err != nil || !gen || c1.JWTSecret == "" || c1.JWTSecret == c1.JWTRefreshSecret {
		t.Fatalf("first run: %v %v", gen, err)
	}
	c2 := Config{DataDir: dir}
	if _, err := EnsureSecrets(&c2); err != nil || c2.JWTSecret != c1.JWTSecret {
		t.Fatal("secrets were not kept across runs")
	}
	if _, err := EnsureSecrets(&Config{Env: "production", DataDir: dir}); err == nil {
		t.Fatal("production must not generate secrets")
	}
}
