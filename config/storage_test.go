package config

import (
	"fmt"
	"strings"
	"testing"
)

func TestStorageSettings(t *testing.T) {
	t.Parallel()
	env := map[string]string{
		"STORAGE": "s3", "S3_ENDPOINT": "https://s3.example.test/", "S3_BUCKET": "larder",
		"S3_ACCESS_KEY_ID": "AKIAEXAMPLE", "S3_SECRET_ACCESS_KEY": "very-secret-key-value",
		"S3_PATH_STYLE": "true", "S3_PREFIX": "/prod/", "METRICS_ADDR": "127.0.0.1:9090",
	}
	c, err := Load(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	if c.Storage != StorageS3 || c.S3.Endpoint != "https://s3.example.test" || !c.S3.PathStyle || c.S3.Prefix != "prod" ||
		c.S3.Region != "us-east-1" || c.MetricsAddr != "127.0.0.1:9090" {
		t.Errorf("settings %+v", c.S3)
	}
	// The secret never prints, whichever way the configuration is shown.
	for _, shown := range []string{c.String(), fmt.Sprintf("%v %+v", c, c.S3)} {
		if strings.Contains(shown, "very-secret-key-value") {
			t.Fatalf("the S3 secret is shown: %s", shown)
		}
	}

	// Local storage is the default and needs nothing.
	if c, err := Load(func(string) string { return "" }); err != nil || c.Storage != StorageLocal || c.MetricsAddr != "" {
		t.Fatalf("defaults: %v %q %q", err, c.Storage, c.MetricsAddr)
	}

	// Every missing or bad setting is named.
	_, err = Load(func(k string) string {
		return map[string]string{"STORAGE": "s3", "S3_ENDPOINT": "s3.example.test", "METRICS_ADDR": ":8080"}[k]
	})
	for _, name := range []string{"S3_ENDPOINT", "S3_BUCKET", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY", "METRICS_ADDR"} {
		if err == nil || !strings.Contains(err.Error(), name+":") {
			t.Errorf("error %v does not name %s", err, name)
		}
	}
	if _, err := Load(func(k string) string { return map[string]string{"STORAGE": "nfs"}[k] }); err == nil || !strings.Contains(err.Error(), "STORAGE") {
		t.Errorf("STORAGE=nfs: %v", err)
	}
}
