// Command bench measures the recipe API under load, next to the ceiling of
// the PostgreSQL it runs on:
//
//	go run ./bench --recipes 100000
//
// It builds cmd/api and cmd/admin, fills a bench database with `admin seed`
// up to the number of recipes asked for (only the first run pays for it),
// starts the API on a loopback port, and drives each scenario with
// concurrent keep-alive clients for a fixed time, printing requests per
// second and p50/p99 latency. Before the scenarios and after them, it runs
// the select-only pgbench (-S) on a scratch database of the same server,
// with the same number of clients and time, and prints each scenario's
// rate as a fraction of the mean of the two. See bench/README.md.
package main

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	mrand "math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"larder/token"
)

type options struct {
	recipes     int
	databaseURL string
	clients     int
	duration    time.Duration
	warmup      time.Duration
	pgbench     string
	only        string
	keepAPILog  bool
}

func main() {
	var o options
	flag.IntVar(&o.recipes, "recipes", 100_000, "recipes the bench database must hold (seeded when fewer)")
	flag.StringVar(&o.databaseURL, "database-url", "postgres://postgres@127.0.0.1:5432/larder_bench?sslmode=disable", "the bench database (created when missing)")
	flag.IntVar(&o.clients, "clients", 16, "concurrent clients")
	flag.DurationVar(&o.duration, "duration", 20*time.Second, "measured time per scenario")
	flag.DurationVar(&o.warmup, "warmup", 3*time.Second, "unmeasured load before each scenario")
	flag.StringVar(&o.pgbench, "pgbench", "", "pgbench binary (default: PATH, then /usr/lib/postgresql/*/bin/pgbench); \"none\" skips it")
	flag.StringVar(&o.only, "only", "", "run only the scenarios whose name contains this (several: separated by commas)")
	flag.BoolVar(&o.keepAPILog, "api-log", false, "print the API's log on exit")
	flag.Parse()
	if err := run(context.Background(), o); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, o options) error {
	if _, err := os.Stat("go.mod"); err != nil {
		return errors.New("run from the repository root: go run ./bench")
	}
	tmp, err := os.MkdirTemp("", "larder-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)

	// Everything shares the machine; a busy one shows in every figure.
	startLoad := loadAverage()
	fmt.Println("== building cmd/api and cmd/admin")
	for _, cmd := range []string{"api", "admin"} {
		if err := runCmd(ctx, nil, os.Stdout, "go", "build", "-o", filepath.Join(tmp, cmd), "./cmd/"+cmd); err != nil {
			return fmt.Errorf("build %s: %w", cmd, err)
		}
	}
	env := append(os.Environ(), "DATABASE_URL="+o.databaseURL, "LOG_LEVEL=warn", "DATA_DIR="+tmp,
		"UPLOAD_PATH="+filepath.Join(tmp, "uploads"), "BACKUP_PATH="+filepath.Join(tmp, "backups"))

	// Migrate (creating the database), then seed what is missing.
	if err := runCmd(ctx, env, io.Discard, filepath.Join(tmp, "admin"), "migrate"); err != nil {
		return err
	}
	pool, err := pgxpool.New(ctx, o.databaseURL)
	if err != nil {
		return err
	}
	defer pool.Close()
	var have int
	if err := pool.QueryRow(ctx, "SELECT count(*) FROM recipe").Scan(&have); err != nil {
		return err
	}
	if have < o.recipes {
		fmt.Printf("== seeding %d recipes (the database has %d)\n", o.recipes-have, have)
		if err := runCmd(ctx, env, os.Stdout, filepath.Join(tmp, "admin"), "seed", "--recipes", strconv.Itoa(o.recipes-have)); err != nil {
			return err
		}
	} else {
		fmt.Printf("== the database has %d recipes; refreshing statistics\n", have)
		if _, err := pool.Exec(ctx, "VACUUM (ANALYZE) recipe, recipe_tag, recipe_share, ingredient, instruction_step"); err != nil {
			return err
		}
	}
	fx, err := loadFixtures(ctx, pool)
	if err != nil {
		return err
	}

	// The API, on a free loopback port, with its request log off (every
	// request would otherwise write a line) and secrets of this run.
	port, err := freePort()
	if err != nil {
		return err
	}
	secret, refresh := randomHex(32), randomHex(32)
	apiLog := filepath.Join(tmp, "api.log")
	logFile, err := os.Create(apiLog)
	if err != nil {
		return err
	}
	api := exec.CommandContext(ctx, filepath.Join(tmp, "api"))
	api.Env = append(env, "APP_ENV=production", "LISTEN_ADDR=127.0.0.1:"+strconv.Itoa(port),
		"JWT_SECRET="+secret, "JWT_REFRESH_SECRET="+refresh, "JWT_EXPIRES_IN=6h")
	api.Stdout, api.Stderr = logFile, logFile
	if err := api.Start(); err != nil {
		return err
	}
	defer func() {
		_ = api.Process.Signal(os.Interrupt)
		_ = api.Wait()
		logFile.Close()
		if o.keepAPILog {
			b, _ := os.ReadFile(apiLog)
			fmt.Printf("== API log\n%s", b)
		}
	}()
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	if err := waitHealthy(ctx, base, 60*time.Second); err != nil {
		b, _ := os.ReadFile(apiLog)
		return fmt.Errorf("%w; API log:\n%s", err, b)
	}
	issuer := &token.Issuer{AccessSecret: []byte(secret), RefreshSecret: []byte(refresh), AccessTTL: 6 * time.Hour, RefreshTTL: 6 * time.Hour}
	for i := range fx.users {
		if fx.users[i].token, err = issuer.Access(fx.users[i].id, "USER", fx.users[i].sessionVersion); err != nil {
			return err
		}
	}

	client := &http.Client{Transport: &http.Transport{
		MaxIdleConns: o.clients * 2, MaxIdleConnsPerHost: o.clients * 2, MaxConnsPerHost: o.clients,
		DisableCompression: true, IdleConnTimeout: time.Minute,
	}, Timeout: 30 * time.Second}
	// The ceiling is measured before the scenarios and after them, and the
	// ratios use the mean: the machine's speed drifts over the minutes of a
	// run (other tenants of the host, the kernel's own work), and a single
	// measurement at one end put all of that drift on one side.
	var ceiling *pgbenchDB
	var pgBefore, pgAfter float64
	if o.pgbench != "none" {
		if ceiling, err = newPgbenchDB(ctx, o); err != nil {
			return err
		}
		defer ceiling.close(ctx)
		fmt.Println("== pgbench -S (select-only) on a scratch database of the same server, before the scenarios")
		if pgBefore, err = ceiling.run(ctx); err != nil {
			return err
		}
		fmt.Printf("   %.0f transactions/s\n", pgBefore)
	}
	var results []result
	for _, sc := range scenarios(fx) {
		if o.only != "" && !slices.ContainsFunc(strings.Split(o.only, ","), func(part string) bool { return strings.Contains(sc.name, part) }) {
			continue
		}
		fmt.Printf("== %s\n", sc.name)
		load(ctx, client, base, sc, o.clients, o.warmup) // warm-up, not measured
		api0, db0 := serverCPU(ctx, pool, api.Process.Pid)
		res := load(ctx, client, base, sc, o.clients, o.duration)
		api1, db1 := serverCPU(ctx, pool, api.Process.Pid)
		res.apiCPU, res.dbCPU = api1-api0, db1-db0
		results = append(results, res)
		fmt.Printf("   %.0f req/s, p50 %s, p99 %s, CPU/req %.2f ms (API %.2f + PostgreSQL %.2f), %d errors\n", res.rate(), ms(res.p(50)), ms(res.p(99)),
			res.perRequest(res.apiCPU+res.dbCPU), res.perRequest(res.apiCPU), res.perRequest(res.dbCPU), res.errors)
	}

	var pgTPS float64
	if ceiling != nil {
		fmt.Println("== pgbench -S (select-only), after the scenarios")
		if pgAfter, err = ceiling.run(ctx); err != nil {
			return err
		}
		fmt.Printf("   %.0f transactions/s\n", pgAfter)
		pgTPS = (pgBefore + pgAfter) / 2
	}

	fmt.Printf("\n%d recipes, %d clients, %s per scenario, API and PostgreSQL on this machine (%d CPUs); load average %s before, %s after\n\n",
		fx.recipes, o.clients, o.duration, runtime.NumCPU(), startLoad, loadAverage())
	fmt.Printf("%-46s %8s %9s %9s %9s %9s %6s %8s\n", "scenario", "req/s", "p50", "p99", "API CPU", "PG CPU", "errors", "×pgbench")
	for _, r := range results {
		ratio := "-"
		if pgTPS > 0 {
			ratio = fmt.Sprintf("%.2f", r.rate()/pgTPS)
		}
		fmt.Printf("%-46s %8.0f %9s %9s %6.2f ms %6.2f ms %6d %8s\n", r.name, r.rate(), ms(r.p(50)), ms(r.p(99)),
			r.perRequest(r.apiCPU), r.perRequest(r.dbCPU), r.errors, ratio)
	}
	if pgTPS > 0 {
		fmt.Printf("%-46s %10.0f   (%.0f before the scenarios, %.0f after)\n", "pgbench -S (select-only, same server)", pgTPS, pgBefore, pgAfter)
	}
	for _, r := range results {
		if r.errors > 0 {
			return fmt.Errorf("%s: %d requests failed (first: %s)", r.name, r.errors, r.firstError)
		}
	}
	return nil
}

// fixtures are what the scenarios pick from: readable recipe ids and the
// seeded users with tokens.
type fixtures struct {
	recipes    int
	publicIDs  []uuid.UUID
	users      []benchUser
	categories []string
	tags       []string
}

type benchUser struct {
	id             uuid.UUID
	sessionVersion int
	token          string
}

func loadFixtures(ctx context.Context, pool *pgxpool.Pool) (*fixtures, error) {
	fx := &fixtures{}
	if err := pool.QueryRow(ctx, "SELECT count(*) FROM recipe").Scan(&fx.recipes); err != nil {
		return nil, err
	}
	rows, _ := pool.Query(ctx, "SELECT id FROM recipe WHERE visibility = 'PUBLIC' ORDER BY random() LIMIT 5000")
	ids, err := pgx.CollectRows(rows, pgx.RowTo[uuid.UUID])
	if err != nil {
		return nil, err
	}
	fx.publicIDs = ids
	rows, _ = pool.Query(ctx, `SELECT id, session_version FROM app_user WHERE email LIKE 'seed-%@larder.test' ORDER BY email`)
	for rows.Next() {
		var u benchUser
		if err := rows.Scan(&u.id, &u.sessionVersion); err != nil {
			return nil, err
		}
		fx.users = append(fx.users, u)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(fx.publicIDs) == 0 || len(fx.users) == 0 {
		return nil, errors.New("the bench database has no seeded recipes or users")
	}
	rows, _ = pool.Query(ctx, `SELECT c FROM (SELECT unnest(categories) c FROM recipe TABLESAMPLE SYSTEM (5)) x GROUP BY c ORDER BY count(*) DESC LIMIT 12`)
	if fx.categories, err = pgx.CollectRows(rows, pgx.RowTo[string]); err != nil {
		return nil, err
	}
	rows, _ = pool.Query(ctx, `SELECT name FROM tag ORDER BY name`)
	if fx.tags, err = pgx.CollectRows(rows, pgx.RowTo[string]); err != nil {
		return nil, err
	}
	return fx, nil
}

// searches are what people type: the commonest recipe word, a typo of it,
// two-word queries, a fragment still being typed, a rare word.
var searches = []string{"chicken", "chiken", "lemon garlic", "choc", "curry", "tamarind", "sweet potato",
	"salmon teriyaki", "banana bread", "brownies", "spicy beef", "coconut", "mushroom risotto", "ginger"}

// scenario is one kind of request; path picks the next one for a client.
type scenario struct {
	name string
	path func(rng *mrand.Rand, client int) (path, token string)
}

func scenarios(fx *fixtures) []scenario {
	user := func(client int) string { return fx.users[client%len(fx.users)].token }
	return []scenario{
		{"GET /api/recipes/:id (anonymous, PUBLIC)", func(rng *mrand.Rand, _ int) (string, string) {
			return "/api/recipes/" + fx.publicIDs[rng.IntN(len(fx.publicIDs))].String(), ""
		}},
		{"GET /api/recipes/:id (signed in)", func(rng *mrand.Rand, c int) (string, string) {
			return "/api/recipes/" + fx.publicIDs[rng.IntN(len(fx.publicIDs))].String(), user(c)
		}},
		{"GET /api/recipes first page (anonymous)", func(*mrand.Rand, int) (string, string) {
			return "/api/recipes", ""
		}},
		{"GET /api/recipes first page (signed in)", func(_ *mrand.Rand, c int) (string, string) {
			return "/api/recipes", user(c)
		}},
		{"GET /api/recipes?category|tag= first page", func(rng *mrand.Rand, c int) (string, string) {
			if rng.IntN(2) == 0 {
				return "/api/recipes?category=" + url.QueryEscape(fx.categories[rng.IntN(len(fx.categories))]), user(c)
			}
			return "/api/recipes?tag=" + url.QueryEscape(fx.tags[rng.IntN(len(fx.tags))]), user(c)
		}},
		{"GET /api/recipes?q= (signed in)", func(rng *mrand.Rand, c int) (string, string) {
			return "/api/recipes?q=" + url.QueryEscape(searches[rng.IntN(len(searches))]), user(c)
		}},
		{"GET /api/recipes?q=chicken (commonest word)", func(_ *mrand.Rand, c int) (string, string) {
			return "/api/recipes?q=chicken", user(c)
		}},
	}
}

type result struct {
	name       string
	elapsed    time.Duration
	latencies  []time.Duration
	errors     int
	firstError string
	// apiCPU and dbCPU are the CPU time the API process and its
	// PostgreSQL backends used during the run: unlike latency, hardly
	// moved by whatever else runs on the machine.
	apiCPU, dbCPU time.Duration
}

// perRequest is d per answered request, in milliseconds.
func (r result) perRequest(d time.Duration) float64 {
	if len(r.latencies) == 0 {
		return 0
	}
	return float64(d.Microseconds()) / 1000 / float64(len(r.latencies))
}

func (r result) rate() float64 { return float64(len(r.latencies)) / r.elapsed.Seconds() }

func (r result) p(pct float64) time.Duration {
	if len(r.latencies) == 0 {
		return 0
	}
	i := int(math.Ceil(pct/100*float64(len(r.latencies)))) - 1
	return r.latencies[max(0, min(i, len(r.latencies)-1))]
}

// load runs the scenario with n clients for d; each client sends its next
// request as soon as the previous answer is read (a closed loop).
func load(ctx context.Context, client *http.Client, base string, sc scenario, n int, d time.Duration) result {
	deadline := time.Now().Add(d)
	var mu sync.Mutex
	res := result{name: sc.name}
	var wg sync.WaitGroup
	start := time.Now()
	for c := range n {
		wg.Go(func() {
			rng := mrand.New(mrand.NewPCG(uint64(c), uint64(time.Now().UnixNano())))
			var lat []time.Duration
			errs, first := 0, ""
			for time.Now().Before(deadline) {
				path, tok := sc.path(rng, c)
				req, _ := http.NewRequestWithContext(ctx, "GET", base+path, nil)
				if tok != "" {
					req.Header.Set("Authorization", "Bearer "+tok)
				}
				t0 := time.Now()
				resp, err := client.Do(req)
				if err == nil {
					_, err = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					if err == nil && resp.StatusCode != 200 {
						err = fmt.Errorf("%s: status %d", path, resp.StatusCode)
					}
				}
				if err != nil {
					errs++
					if first == "" {
						first = err.Error()
					}
					continue
				}
				lat = append(lat, time.Since(t0))
			}
			mu.Lock()
			res.latencies = append(res.latencies, lat...)
			res.errors += errs
			if res.firstError == "" {
				res.firstError = first
			}
			mu.Unlock()
		})
	}
	wg.Wait()
	res.elapsed = time.Since(start)
	slices.Sort(res.latencies)
	return res
}

// pgbenchDB is a scratch database next to the bench database, initialized
// for pgbench, and how to run pgbench against it.
type pgbenchDB struct {
	bin   string
	env   []string
	args  []string // connection and database
	admin *pgx.Conn
	o     options
}

// newPgbenchDB creates and initializes the scratch database larder_pgbench.
func newPgbenchDB(ctx context.Context, o options) (*pgbenchDB, error) {
	bin := o.pgbench
	if bin == "" {
		if p, err := exec.LookPath("pgbench"); err == nil {
			bin = p
		} else if m, _ := filepath.Glob("/usr/lib/postgresql/*/bin/pgbench"); len(m) > 0 {
			bin = m[len(m)-1]
		} else {
			return nil, errors.New("pgbench not found; pass --pgbench PATH or --pgbench none")
		}
	}
	u, err := url.Parse(o.databaseURL)
	if err != nil {
		return nil, err
	}
	host, port := u.Hostname(), u.Port()
	if port == "" {
		port = "5432"
	}
	admin := *u
	admin.Path = "/postgres"
	c, err := pgx.Connect(ctx, admin.String())
	if err != nil {
		return nil, err
	}
	p := &pgbenchDB{bin: bin, env: os.Environ(), args: []string{"-h", host, "-p", port, "-U", u.User.Username(), "larder_pgbench"}, admin: c, o: o}
	if pw, ok := u.User.Password(); ok {
		p.env = append(p.env, "PGPASSWORD="+pw)
	}
	if _, err := c.Exec(ctx, "DROP DATABASE IF EXISTS larder_pgbench WITH (FORCE)"); err != nil {
		c.Close(ctx)
		return nil, err
	}
	if _, err := c.Exec(ctx, "CREATE DATABASE larder_pgbench"); err != nil {
		c.Close(ctx)
		return nil, err
	}
	if err := runCmd(ctx, p.env, io.Discard, bin, append([]string{"-i", "-q", "-s", "10"}, p.args...)...); err != nil {
		p.close(ctx)
		return nil, fmt.Errorf("pgbench -i: %w", err)
	}
	return p, nil
}

// run runs select-only pgbench with the bench's clients and duration and
// returns its transactions per second.
func (p *pgbenchDB) run(ctx context.Context) (float64, error) {
	var out strings.Builder
	args := append([]string{"-S", "-n", "-c", strconv.Itoa(p.o.clients), "-j", strconv.Itoa(runtime.NumCPU()),
		"-T", strconv.Itoa(int(p.o.duration.Seconds()))}, p.args...)
	if err := runCmd(ctx, p.env, &out, p.bin, args...); err != nil {
		return 0, fmt.Errorf("pgbench -S: %w\n%s", err, out.String())
	}
	m := regexp.MustCompile(`tps = ([0-9.]+) \(without initial connection time\)`).FindStringSubmatch(out.String())
	if m == nil {
		return 0, fmt.Errorf("no tps in pgbench output:\n%s", out.String())
	}
	return strconv.ParseFloat(m[1], 64)
}

// close drops the scratch database.
func (p *pgbenchDB) close(ctx context.Context) {
	_, _ = p.admin.Exec(ctx, "DROP DATABASE IF EXISTS larder_pgbench WITH (FORCE)")
	p.admin.Close(ctx)
}

func runCmd(ctx context.Context, env []string, out io.Writer, name string, args ...string) error {
	cmd := exec.CommandContext(ctx, name, args...)
	if env != nil {
		cmd.Env = env
	}
	cmd.Stdout = out
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s %s: %w\n%s", name, strings.Join(args, " "), err, stderr.String())
	}
	return nil
}

func waitHealthy(ctx context.Context, base string, within time.Duration) error {
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		resp, err := http.Get(base + "/api/health")
		if err == nil {
			var h struct{ Status string }
			_ = json.NewDecoder(bufio.NewReader(resp.Body)).Decode(&h)
			resp.Body.Close()
			if h.Status == "ok" {
				return nil
			}
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
	return errors.New("the API did not become healthy")
}

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d.Microseconds())/1000) }

// loadAverage is the one-minute load average, "?" where /proc has none.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return "?"
	}
	return f[0]
}

// serverCPU is the CPU time used so far by the API process and by the
// PostgreSQL backends serving the bench database (the API's pool; the
// bench's own connection is idle meanwhile), from /proc; 0 where /proc is
// missing.
func serverCPU(ctx context.Context, pool *pgxpool.Pool, apiPID int) (api, db time.Duration) {
	var backends []int
	rows, _ := pool.Query(ctx, `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`)
	if pids, err := pgx.CollectRows(rows, pgx.RowTo[int32]); err == nil {
		for _, p := range pids {
			backends = append(backends, int(p))
		}
	}
	return processCPU(apiPID), processCPU(backends...)
}

// processCPU is the CPU time used so far by the processes pids.
func processCPU(pids ...int) time.Duration {
	var ticks int64
	for _, pid := range pids {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			continue
		}
		// Fields after the command name (which may hold spaces), from the
		// last ')': state is field 3, utime 14 and stime 15.
		f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
		if len(f) > 12 {
			u, _ := strconv.ParseInt(f[11], 10, 64)
			s, _ := strconv.ParseInt(f[12], 10, 64)
			ticks += u + s
		}
	}
	// Linux reports in USER_HZ, 100 on every common platform.
	return time.Duration(ticks) * (time.Second / 100)
}
