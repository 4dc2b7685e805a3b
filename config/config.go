// Package config loads and validates the one configuration shared by the
// api, worker and admin binaries. Only main reads the environment; it passes
// os.Getenv to Load so tests can drive Load with a map.
package config

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Secret is a string that never prints: fmt and slog show "<redacted>".
type Secret string

// String hides the value from fmt and from accidental logging.
func (Secret) String() string { return "<redacted>" }

// LogValue hides the value from slog.
func (Secret) LogValue() slog.Value { return slog.StringValue("<redacted>") }

// MarshalText hides the value from encoders.
func (Secret) MarshalText() ([]byte, error) { return []byte("<redacted>"), nil }

// Reveal returns the secret itself, for the few places that must use it.
func (s Secret) Reveal() string { return string(s) }

// Queue names: one per kind of background work, so operators can scale each
// kind independently with its own worker processes and concurrency.
const (
	QueueImport  = "import"
	QueueImages  = "images"
	QueueMapping = "mapping"
	QueueEmail   = "email"
	QueueBackup  = "backup"
)

// Queues lists every queue, in a stable order.
var Queues = []string{QueueImport, QueueImages, QueueMapping, QueueEmail, QueueBackup}

// SMTP holds outgoing mail settings. Without Host, mail is written to the log.
type SMTP struct {
	Host     string
	Port     int
	User     string
	Password Secret
	From     string
	TLS      string // none, starttls or tls
}

// IDP describes the optional external OpenID Connect identity provider.
type IDP struct {
	Name         string // the :idp path segment, e.g. "google" or "authentik"
	Label        string // the sign-in button's text; "" derives it from Name
	Issuer       string
	ClientID     string
	ClientSecret Secret
}

// Enabled reports whether an identity provider is configured.
func (i IDP) Enabled() bool { return i.Name != "" }

// Config is the whole service configuration.
type Config struct {
	Env        string // development, production or test
	DataDir    string
	ListenAddr string

	DatabaseURL string
	RedisURL    Secret // may carry a password

	AppURL string
	APIURL string

	JWTSecret           Secret
	JWTRefreshSecret    Secret
	JWTExpiresIn        time.Duration
	JWTRefreshExpiresIn time.Duration

	UploadPath string
	BackupPath string
	// BackupInterval schedules automatic backups; zero turns them off.
	BackupInterval time.Duration
	// BackupKeep is how many scheduled backups are kept.
	BackupKeep int
	// BackupMaxUpload is the largest backup archive POST /api/backups/upload
	// accepts, in bytes (BACKUP_MAX_UPLOAD: a number with an optional KB,
	// MB, GB or TB suffix, powers of 1024).
	BackupMaxUpload int64

	SMTP SMTP
	IDP  IDP

	AuthRateLimit       int
	AuthRateLimitWindow time.Duration
	// ShareRateLimit bounds the share-by-email attempts of one user per
	// ShareRateLimitWindow: each attempt tells whether an address has an
	// account.
	ShareRateLimit       int
	ShareRateLimitWindow time.Duration
	TrustedProxies       []netip.Prefix

	ImportAllowPrivate bool
	ChromiumPath       string

	// QueueConcurrency is the number of jobs each worker process runs at once, per queue.
	QueueConcurrency map[string]int
	// JobRescueAfter is how long a running job may go without finishing
	// before River assumes its worker died and hands it to another.
	JobRescueAfter time.Duration
	// JobTimeLimit, when above zero, caps every job kind's own time limit
	// (2 minutes, 3 hours for an archive import): an attempt is cancelled
	// after it, and River rescues a vanished worker's job only after the
	// longer of it and JobRescueAfter. Tests of rescue set it short; 0
	// keeps each kind's own.
	JobTimeLimit time.Duration
	// RecipeListCache is how long a recipe-list total may be reused
	// (handlers.ListCache) while no recipe changes; any committed change
	// drops the totals at once. 0 counts on every request.
	RecipeListCache time.Duration

	LogLevel  slog.Level
	LogFormat string // text or json

	// Storage is where images and backups live: StorageLocal (UPLOAD_PATH,
	// BACKUP_PATH) or StorageS3 (the bucket S3 names); see storage.go.
	Storage string
	S3      S3
	// MetricsAddr is the operator listener for /metrics; "" turns it off.
	MetricsAddr string
	// MetricsToken, if set, is the bearer token /metrics requires.
	MetricsToken Secret
	// ChromiumSandbox keeps Chromium's sandbox on (it is off as root
	// anyway); containers without user namespaces set it false.
	ChromiumSandbox bool
}

// Production reports whether the service runs with production safeguards.
func (c Config) Production() bool { return c.Env == "production" }

// Part is a group of settings that only some binaries use; a binary names
// the parts it uses, and only those are required of it (a worker signs no
// tokens, so it must start without JWT secrets).
type Part int

const (
	// Tokens: JWT_SECRET and JWT_REFRESH_SECRET, required in production.
	// Only the API signs and verifies tokens.
	Tokens Part = iota + 1
)

// Load reads the configuration through getenv and validates it, with the
// requirements of each part the binary uses. Every problem is reported,
// each naming its variable. Settings of other parts are still checked when
// they are given (a malformed value is a mistake whoever reads it), but
// never required.
func Load(getenv func(string) string, uses ...Part) (Config, error) {
	r := reader{getenv: getenv}
	c := Config{
		Env:        r.oneOf("APP_ENV", "development", "development", "production", "test"),
		DataDir:    r.str("DATA_DIR", "./data"),
		ListenAddr: r.str("LISTEN_ADDR", ":8080"),

		DatabaseURL: r.str("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/recipes?sslmode=disable"),
		RedisURL:    Secret(r.str("REDIS_URL", "")),

		AppURL: r.url("APP_URL", "http://localhost:8080"),
		APIURL: r.url("API_URL", "http://localhost:8080"),

		JWTSecret:           Secret(r.str("JWT_SECRET", "")),
		JWTRefreshSecret:    Secret(r.str("JWT_REFRESH_SECRET", "")),
		JWTExpiresIn:        r.duration("JWT_EXPIRES_IN", 15*time.Minute),
		JWTRefreshExpiresIn: r.duration("JWT_REFRESH_EXPIRES_IN", 7*24*time.Hour),

		BackupInterval:  r.duration("BACKUP_INTERVAL", 0),
		BackupKeep:      r.integer("BACKUP_KEEP", 7, 1),
		BackupMaxUpload: r.size("BACKUP_MAX_UPLOAD", 10<<30),

		SMTP: SMTP{
			Host:     r.str("SMTP_HOST", ""),
			Port:     r.integer("SMTP_PORT", 587, 1),
			User:     r.str("SMTP_USER", ""),
			Password: Secret(r.str("SMTP_PASSWORD", "")),
			From:     r.str("SMTP_FROM", "Larder <no-reply@localhost>"),
			TLS:      r.oneOf("SMTP_TLS", "starttls", "none", "starttls", "tls"),
		},
		IDP: IDP{
			Name:         strings.ToLower(r.str("IDP_NAME", "")),
			Label:        r.str("IDP_LABEL", ""),
			Issuer:       r.str("IDP_ISSUER", ""),
			ClientID:     r.str("IDP_CLIENT_ID", ""),
			ClientSecret: Secret(r.str("IDP_CLIENT_SECRET", "")),
		},

		TrustedProxies:     r.prefixes("TRUSTED_PROXIES"),
		ImportAllowPrivate: r.boolean("IMPORT_ALLOW_PRIVATE_ADDRESSES", false),
		ChromiumPath:       r.str("CHROMIUM_PATH", "/usr/bin/chromium"),
		JobRescueAfter:     r.duration("JOB_RESCUE_AFTER", 15*time.Minute),
		JobTimeLimit:       r.duration("JOB_TIME_LIMIT", 0),
		RecipeListCache:    r.duration("RECIPE_LIST_CACHE", 10*time.Minute),

		LogLevel:  r.level("LOG_LEVEL"),
		LogFormat: r.oneOf("LOG_FORMAT", "text", "text", "json"),
	}
	c.UploadPath = r.str("UPLOAD_PATH", strings.TrimRight(c.DataDir, "/")+"/uploads")
	c.BackupPath = r.str("BACKUP_PATH", strings.TrimRight(c.DataDir, "/")+"/backups")
	c.AuthRateLimit, c.AuthRateLimitWindow = r.rate("AUTH_RATE_LIMIT", 5, 15*time.Minute)
	c.ShareRateLimit, c.ShareRateLimitWindow = r.rate("SHARE_RATE_LIMIT", 30, time.Hour)

	r.readOperations(&c)

	c.QueueConcurrency = map[string]int{}
	defaults := map[string]int{QueueImport: 2, QueueImages: 2, QueueMapping: 4, QueueEmail: 4, QueueBackup: 1}
	for _, q := range Queues {
		c.QueueConcurrency[q] = r.integer("WORKER_"+strings.ToUpper(q)+"_CONCURRENCY", defaults[q], 0)
	}

	r.check(c.validate(uses))
	return c, errors.Join(r.errs...)
}

// validate checks that options agree with each other and that the parts
// in uses have what they need.
func (c Config) validate(uses []Part) []error {
	var errs []error
	if u, err := url.Parse(c.DatabaseURL); err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		errs = append(errs, errors.New("DATABASE_URL: must be a postgres:// URL"))
	}
	if _, _, err := net.SplitHostPort(c.ListenAddr); err != nil {
		errs = append(errs, fmt.Errorf("LISTEN_ADDR: %q is not host:port", c.ListenAddr))
	}
	if c.Production() && slices.Contains(uses, Tokens) {
		if len(c.JWTSecret) < 32 {
			errs = append(errs, errors.New("JWT_SECRET: required in production, at least 32 characters"))
		}
		if len(c.JWTRefreshSecret) < 32 {
			errs = append(errs, errors.New("JWT_REFRESH_SECRET: required in production, at least 32 characters"))
		}
	}
	if c.JWTSecret != "" && c.JWTSecret == c.JWTRefreshSecret {
		errs = append(errs, errors.New("JWT_REFRESH_SECRET: must differ from JWT_SECRET"))
	}
	if c.RedisURL != "" {
		if u, err := url.Parse(c.RedisURL.Reveal()); err != nil || (u.Scheme != "redis" && u.Scheme != "rediss" && u.Scheme != "unix") {
			errs = append(errs, errors.New("REDIS_URL: must be a redis://, rediss:// or unix:// URL"))
		}
	}
	if c.SMTP.Host != "" && c.SMTP.From == "" {
		errs = append(errs, errors.New("SMTP_FROM: required when SMTP_HOST is set"))
	}
	if c.IDP.Enabled() {
		if c.IDP.Issuer == "" {
			errs = append(errs, errors.New("IDP_ISSUER: required when IDP_NAME is set"))
		}
		if c.IDP.ClientID == "" {
			errs = append(errs, errors.New("IDP_CLIENT_ID: required when IDP_NAME is set"))
		}
		// "providers" and "me" are GET /api/auth routes of their own.
		if strings.ContainsAny(c.IDP.Name, "/?#% ") || c.IDP.Name == "providers" || c.IDP.Name == "me" {
			errs = append(errs, fmt.Errorf("IDP_NAME: %q cannot be used as a path segment", c.IDP.Name))
		}
	}
	return errs
}

// LogValue lists the configuration for the start-up log; secrets are redacted
// by their type.
func (c Config) LogValue() slog.Value {
	return slog.GroupValue(
		slog.String("env", c.Env),
		slog.String("listen_addr", c.ListenAddr),
		slog.String("database_url", redactURL(c.DatabaseURL)),
		slog.Bool("redis", c.RedisURL != ""),
		slog.String("app_url", c.AppURL),
		slog.String("api_url", c.APIURL),
		slog.Duration("jwt_expires_in", c.JWTExpiresIn),
		slog.Duration("jwt_refresh_expires_in", c.JWTRefreshExpiresIn),
		slog.String("upload_path", c.UploadPath),
		slog.String("backup_path", c.BackupPath),
		slog.Duration("backup_interval", c.BackupInterval),
		slog.Int64("backup_max_upload", c.BackupMaxUpload),
		slog.String("smtp_host", c.SMTP.Host),
		slog.String("idp_name", c.IDP.Name),
		slog.Int("auth_rate_limit", c.AuthRateLimit),
		slog.Duration("auth_rate_limit_window", c.AuthRateLimitWindow),
		slog.Bool("import_allow_private_addresses", c.ImportAllowPrivate),
		slog.Any("queue_concurrency", c.QueueConcurrency),
		slog.String("storage", c.Storage),
		slog.String("s3_endpoint", c.S3.Endpoint),
		slog.String("s3_bucket", c.S3.Bucket),
		slog.String("metrics_addr", c.MetricsAddr),
	)
}

// redactURL drops the password of a connection URL.
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "<unparseable>"
	}
	if _, ok := u.User.Password(); ok {
		u.User = url.UserPassword(u.User.Username(), "redacted")
	}
	return u.String()
}

// reader collects one error per bad variable instead of stopping at the first.
type reader struct {
	getenv func(string) string
	errs   []error
}

func (r *reader) check(errs []error) { r.errs = append(r.errs, errs...) }

func (r *reader) fail(name, format string, args ...any) {
	r.errs = append(r.errs, fmt.Errorf("%s: "+format, append([]any{name}, args...)...))
}

func (r *reader) str(name, def string) string {
	if v := strings.TrimSpace(r.getenv(name)); v != "" {
		return v
	}
	return def
}

func (r *reader) oneOf(name, def string, allowed ...string) string {
	v := strings.ToLower(r.str(name, def))
	for _, a := range allowed {
		if v == a {
			return v
		}
	}
	r.fail(name, "%q is not one of %s", v, strings.Join(allowed, ", "))
	return def
}

func (r *reader) url(name, def string) string {
	v := strings.TrimRight(r.str(name, def), "/")
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		r.fail(name, "%q is not an http(s) URL", v)
		return def
	}
	return v
}

func (r *reader) integer(name string, def, min int) int {
	v := r.str(name, "")
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < min {
		r.fail(name, "%q is not a whole number of at least %d", v, min)
		return def
	}
	return n
}

func (r *reader) boolean(name string, def bool) bool {
	v := r.str(name, "")
	if v == "" {
		return def
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		r.fail(name, "%q is not true or false", v)
		return def
	}
	return b
}

// duration accepts Go durations and, because the specification's variable
// names come from a world of "7d", a whole number of days.
func (r *reader) duration(name string, def time.Duration) time.Duration {
	v := r.str(name, "")
	if v == "" {
		return def
	}
	d, err := ParseDuration(v)
	if err != nil || d < 0 {
		r.fail(name, "%q is not a duration such as 15m, 12h or 7d", v)
		return def
	}
	return d
}

// size reads a byte count: a whole number with an optional KB, MB, GB or TB
// suffix (powers of 1024), e.g. "10GB".
func (r *reader) size(name string, def int64) int64 {
	v := strings.ToUpper(strings.ReplaceAll(r.str(name, ""), " ", ""))
	if v == "" {
		return def
	}
	mult := int64(1)
	for i, unit := range []string{"KB", "MB", "GB", "TB"} {
		if n, ok := strings.CutSuffix(v, unit); ok {
			v, mult = n, int64(1)<<(10*(i+1))
			break
		}
	}
	n, err := strconv.ParseInt(strings.TrimSuffix(v, "B"), 10, 64)
	if err != nil || n < 1 || n > (1<<62)/mult {
		r.fail(name, "%q is not a size such as 500MB or 10GB", r.getenv(name))
		return def
	}
	return n * mult
}

// ParseDuration is time.ParseDuration plus a "d" (days) unit.
func ParseDuration(v string) (time.Duration, error) {
	if days, ok := strings.CutSuffix(v, "d"); ok {
		n, err := strconv.Atoi(days)
		if err != nil {
			return 0, err
		}
		return time.Duration(n) * 24 * time.Hour, nil
	}
	return time.ParseDuration(v)
}

func (r *reader) level(name string) slog.Level {
	var l slog.Level
	if err := l.UnmarshalText([]byte(r.str(name, "info"))); err != nil {
		r.fail(name, "%q is not debug, info, warn or error", r.getenv(name))
		return slog.LevelInfo
	}
	return l
}

// rate reads "N/window", e.g. "5/15m".
func (r *reader) rate(name string, defN int, defWindow time.Duration) (int, time.Duration) {
	v := r.str(name, "")
	if v == "" {
		return defN, defWindow
	}
	count, window, ok := strings.Cut(v, "/")
	n, err1 := strconv.Atoi(count)
	d, err2 := ParseDuration(window)
	if !ok || err1 != nil || err2 != nil || n < 1 || d <= 0 {
		r.fail(name, "%q is not attempts/window such as 5/15m", v)
		return defN, defWindow
	}
	return n, d
}

// prefixes reads a comma-separated list of IP addresses or CIDR ranges.
func (r *reader) prefixes(name string) []netip.Prefix {
	var out []netip.Prefix
	for _, part := range strings.Split(r.getenv(name), ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		if p, err := netip.ParsePrefix(part); err == nil {
			out = append(out, p.Masked())
			continue
		}
		if a, err := netip.ParseAddr(part); err == nil {
			out = append(out, netip.PrefixFrom(a, a.BitLen()))
			continue
		}
		r.fail(name, "%q is not an IP address or CIDR range", part)
	}
	return out
}

// String prints the same redacted view as LogValue, so that printing a Config
// with fmt can never leak the database password.
func (c Config) String() string { return c.LogValue().String() }
