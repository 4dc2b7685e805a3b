package config

import (
	"errors"
	"net"
	"net/url"
	"strings"
)

// Operations settings: where uploaded images and backups are kept, the
// operator address of the metrics, Chromium's sandbox. Read by Load
// through readOperations.

// StorageLocal and StorageS3 are the values of STORAGE.
const (
	StorageLocal = "local"
	StorageS3    = "s3"
)

// S3 locates the bucket when STORAGE=s3.
type S3 struct {
	Endpoint        string
	Bucket          string
	Region          string
	AccessKeyID     string
	SecretAccessKey Secret
	PathStyle       bool
	Prefix          string
}

// readOperations reads STORAGE, S3_*, METRICS_ADDR and CHROMIUM_SANDBOX
// into c.
func (r *reader) readOperations(c *Config) {
	c.Storage = r.oneOf("STORAGE", StorageLocal, StorageLocal, StorageS3)
	c.S3 = S3{
		Endpoint:        strings.TrimRight(r.str("S3_ENDPOINT", ""), "/"),
		Bucket:          r.str("S3_BUCKET", ""),
		Region:          r.str("S3_REGION", "us-east-1"),
		AccessKeyID:     r.str("S3_ACCESS_KEY_ID", ""),
		SecretAccessKey: Secret(r.str("S3_SECRET_ACCESS_KEY", "")),
		PathStyle:       r.boolean("S3_PATH_STYLE", false),
		Prefix:          strings.Trim(r.str("S3_PREFIX", ""), "/"),
	}
	c.MetricsAddr = r.str("METRICS_ADDR", "")
	c.MetricsToken = Secret(r.str("METRICS_TOKEN", ""))
	c.ChromiumSandbox = r.boolean("CHROMIUM_SANDBOX", true)
	r.check(c.validateOperations())
}

func (c Config) validateOperations() []error {
	var errs []error
	if c.Storage == StorageS3 {
		if u, err := url.Parse(c.S3.Endpoint); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			errs = append(errs, errors.New("S3_ENDPOINT: required with STORAGE=s3, an http(s):// address"))
		}
		if c.S3.Bucket == "" {
			errs = append(errs, errors.New("S3_BUCKET: required with STORAGE=s3"))
		}
		if c.S3.AccessKeyID == "" {
			errs = append(errs, errors.New("S3_ACCESS_KEY_ID: required with STORAGE=s3"))
		}
		if c.S3.SecretAccessKey == "" {
			errs = append(errs, errors.New("S3_SECRET_ACCESS_KEY: required with STORAGE=s3"))
		}
		if c.S3.Prefix != "" && strings.ContainsAny(c.S3.Prefix, `\ `) {
			errs = append(errs, errors.New("S3_PREFIX: a slash-separated path without spaces or backslashes"))
		}
	}
	if c.MetricsAddr != "" {
		if _, _, err := net.SplitHostPort(c.MetricsAddr); err != nil {
			errs = append(errs, errors.New("METRICS_ADDR: not host:port"))
		} else if c.MetricsAddr == c.ListenAddr {
			errs = append(errs, errors.New("METRICS_ADDR: must differ from LISTEN_ADDR (metrics are for operators, not the public port)"))
		}
	}
	return errs
}
