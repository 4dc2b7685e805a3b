// Command backup measures backups against the targets on a seeded
// installation (10,000 recipes and N MB of images by default 1 GB):
//
//   - creating a backup takes at most 1.3× the time of `zip -r -1` over the
//     same files plus a COPY of the same tables;
//   - restoring it takes at most 2× the time of creating it;
//   - the peak memory (VmHWM, the resident-set high-water mark) of the
//     process doing either stays under 100 MB.
//
// Create and restore each run in a child process of their own, so that each
// high-water mark is that operation's alone; every measurement starts from
// a warm cache with nothing left to write back (see README.md). Usage:
//
//	go run ./bench/backup [--recipes 10000] [--images-mb 1024] [--dir /tmp/larder-bench-backup] [-v] [--cpuprofile PATH]
//
// It creates (and drops, unless --keep) the database larder_bench_backup on
// the server of --database-url.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/pprof"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"larder/backup"
	"larder/filestore"
	"larder/filestore/s3test"
	"larder/migrations"
	"larder/repo"
	"larder/seed"
	"larder/storage"
)

type options struct {
	server   string
	recipes  int
	imagesMB int
	dir      string
	keep     bool
	verbose  bool
	phase    string
	name     string
	cpuProf  string
	s3       bool
	endpoint string
	bucket   string
}

// stores are the bench's images and backups: directories under dir, or
// the bucket of a versitygw the bench started (--s3).
func (o options) stores(pool *pgxpool.Pool) (filestore.Generations, filestore.Store, error) {
	var files, backups filestore.Store = filestore.Local{Root: filepath.Join(o.dir, "uploads")}, filestore.Local{Root: filepath.Join(o.dir, "backups")}
	if o.s3 {
		b, err := filestore.NewS3(filestore.S3Config{Endpoint: o.endpoint, Bucket: o.bucket, Region: s3test.Region,
			AccessKeyID: s3test.AccessKey, SecretAccessKey: s3test.SecretKey, PathStyle: true})
		if err != nil {
			return filestore.Generations{}, nil, err
		}
		files, backups = b.WithPrefix("uploads"), b.WithPrefix("backups")
	}
	return filestore.Generations{Base: files, Current: func(ctx context.Context) (string, error) {
		return repo.FileGeneration(ctx, pool)
	}}, backups, nil
}

func main() {
	var o options
	flag.StringVar(&o.server, "database-url", "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable", "PostgreSQL server (its database part is replaced)")
	flag.IntVar(&o.recipes, "recipes", 10_000, "recipes to seed")
	flag.IntVar(&o.imagesMB, "images-mb", 1024, "megabytes of generated images")
	flag.StringVar(&o.dir, "dir", filepath.Join(os.TempDir(), "larder-bench-backup"), "working directory (uploads, backups, baseline)")
	flag.BoolVar(&o.keep, "keep", false, "keep the database and files afterwards")
	flag.BoolVar(&o.verbose, "v", false, "log the time of each phase of the restore")
	flag.StringVar(&o.phase, "phase", "", "internal: run one phase (create, restore) in this process and print its figures")
	flag.StringVar(&o.name, "name", "", "internal: the backup the restore phase restores")
	flag.StringVar(&o.cpuProf, "cpuprofile", "", "write a CPU profile of each phase to this path with the phase's name appended (PATH.create, PATH.restore)")
	flag.BoolVar(&o.s3, "s3", false, "keep images and backups in an S3 bucket of a versitygw started for the bench (as on several machines)")
	flag.StringVar(&o.endpoint, "s3-endpoint", "", "internal: the S3 server of the phases")
	flag.StringVar(&o.bucket, "s3-bucket", "", "internal: the bucket of the phases")
	flag.Parse()
	ctx := context.Background()
	var err error
	if o.phase != "" {
		err = runPhase(ctx, o)
	} else {
		err = run(ctx, o)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench/backup:", err)
		os.Exit(1)
	}
}

const dbName = "larder_bench_backup"

func dbURL(server, name string) string {
	u, err := url.Parse(server)
	if err != nil {
		panic(err)
	}
	u.Path = "/" + name
	return u.String()
}

// phaseResult is what a child process reports.
type phaseResult struct {
	Seconds float64 `json:"seconds"`
	PeakKB  int64   `json:"peakKB"`
	Name    string  `json:"name"`
	Size    int64   `json:"size"`
	Rows    int64   `json:"rows"`
	Files   int     `json:"files"`
}

func runPhase(ctx context.Context, o options) error {
	pool, err := pgxpool.New(ctx, dbURL(o.server, dbName))
	if err != nil {
		return err
	}
	defer pool.Close()
	if o.cpuProf != "" {
		f, err := os.Create(o.cpuProf + "." + o.phase)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	files, backups, err := o.stores(pool)
	if err != nil {
		return err
	}
	var res phaseResult
	start := time.Now()
	switch o.phase {
	case "create":
		info, err := backup.Create(ctx, pool, backup.CreateOptions{Backups: backups, Files: files})
		if err != nil {
			return err
		}
		res.Name, res.Size = info.Name, info.Size
	case "download":
		// What GET /api/backups/:name/download does: stream the archive
		// out of the store (here into a local file).
		rc, info, err := backup.Open(ctx, backups, o.name)
		if err != nil {
			return err
		}
		f, err := os.Create(filepath.Join(o.dir, "downloaded.zip"))
		if err != nil {
			return err
		}
		n, err := io.Copy(f, rc)
		rc.Close()
		f.Close()
		os.Remove(f.Name())
		if err != nil {
			return err
		}
		if n != info.Size {
			return fmt.Errorf("downloaded %d bytes of %d", n, info.Size)
		}
		res.Name, res.Size = info.Name, n
	case "restore":
		// Restore returns once the data and files are in place and writes
		// are allowed again; it removes the replaced files in the
		// background, which this process does not wait for.
		logger := slog.New(slog.DiscardHandler)
		if o.verbose {
			logger = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
		}
		r, err := backup.Restore(ctx, pool, o.name, backup.RestoreOptions{
			Backups: backups, Files: files, TempDir: filepath.Join(o.dir, "tmp"), Logger: logger})
		if err != nil {
			return err
		}
		res.Name, res.Rows, res.Files = r.Name, r.Rows, r.Files
	default:
		return fmt.Errorf("unknown phase %q", o.phase)
	}
	res.Seconds = time.Since(start).Seconds()
	res.PeakKB = peakKB()
	return json.NewEncoder(os.Stdout).Encode(res)
}

// peakKB is this process's resident-set high-water mark (VmHWM).
func peakKB() int64 {
	raw, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return -1
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			n, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return n
		}
	}
	return -1
}

func child(o options, phase string, extra ...string) (phaseResult, error) {
	args := append([]string{"-phase", phase, "-database-url", o.server, "-dir", o.dir, "-v=" + strconv.FormatBool(o.verbose), "-cpuprofile", o.cpuProf,
		"-s3=" + strconv.FormatBool(o.s3), "-s3-endpoint", o.endpoint, "-s3-bucket", o.bucket}, extra...)
	cmd := exec.Command(os.Args[0], args...)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return phaseResult{}, fmt.Errorf("%s phase: %w", phase, err)
	}
	var r phaseResult
	if err := json.Unmarshal(out, &r); err != nil {
		return r, fmt.Errorf("%s phase printed %q: %w", phase, out, err)
	}
	return r, nil
}

func run(ctx context.Context, o options) error {
	if _, err := exec.LookPath("zip"); err != nil {
		return errors.New("the baseline needs the zip command (apt-get install zip)")
	}
	if err := os.RemoveAll(o.dir); err != nil {
		return err
	}
	for _, d := range []string{"uploads", "backups", "baseline"} {
		if err := os.MkdirAll(filepath.Join(o.dir, d), 0o755); err != nil {
			return err
		}
	}
	admin, err := pgx.Connect(ctx, dbURL(o.server, "postgres"))
	if err != nil {
		return err
	}
	defer admin.Close(ctx)
	if _, err := admin.Exec(ctx, "DROP DATABASE IF EXISTS "+dbName+" WITH (FORCE)"); err != nil {
		return err
	}
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+dbName); err != nil {
		return err
	}
	if !o.keep {
		defer func() {
			_, _ = admin.Exec(context.Background(), "DROP DATABASE IF EXISTS "+dbName+" WITH (FORCE)")
			_ = os.RemoveAll(o.dir)
		}()
	}
	pool, err := pgxpool.New(ctx, dbURL(o.server, dbName))
	if err != nil {
		return err
	}
	defer pool.Close()
	if err := migrations.Migrate(ctx, pool); err != nil {
		return err
	}

	t0 := time.Now()
	images, err := writeImages(filepath.Join(o.dir, "uploads"), int64(o.imagesMB)<<20)
	if err != nil {
		return err
	}
	// The shared seeder of `admin seed`, asked for everything a running
	// installation has: images, mappings, cookbooks, sessions.
	if err := seed.Run(ctx, pool, seed.Options{Recipes: o.recipes, Users: 25, Seed: 1, Images: images,
		Mappings: true, Cookbooks: max(o.recipes/20, 1), Sessions: true}, io.Discard); err != nil {
		return err
	}
	// As autovacuum would have on a running installation: the visibility
	// information of every row is settled, so neither the baseline nor the
	// backup is the first reader to pay for it, and autovacuum has nothing
	// left to do while they are measured.
	if _, err := pool.Exec(ctx, "VACUUM (ANALYZE)"); err != nil {
		return err
	}
	if o.s3 {
		srv, err := s3test.Start(filepath.Join(o.dir, "s3"))
		if err != nil {
			return err
		}
		defer srv.Stop()
		cfg, err := srv.Config(ctx)
		if err != nil {
			return err
		}
		o.endpoint, o.bucket = srv.Endpoint, cfg.Bucket
		files, _, err := o.stores(pool)
		if err != nil {
			return err
		}
		res, err := storage.Migrate(ctx, filestore.Local{Root: filepath.Join(o.dir, "uploads")}, files.Base, nil)
		if err != nil {
			return err
		}
		fmt.Printf("copied %d images (%d MB) into the S3 bucket\n", res.Copied, res.Bytes>>20)
	}
	var rows int64
	tables, err := repo.ListBackupTables(ctx, pool, "")
	if err != nil {
		return err
	}
	for _, t := range tables {
		var n int64
		if err := pool.QueryRow(ctx, "SELECT count(*) FROM "+pgx.Identifier{t.Name}.Sanitize()).Scan(&n); err != nil {
			return err
		}
		rows += n
	}
	fmt.Printf("seeded %d recipes, %d rows in %d tables, %d images (%d MB) in %s\n",
		o.recipes, rows, len(tables), len(images), o.imagesMB, time.Since(t0).Round(time.Millisecond))
	fmt.Printf("started %s, load average %s\n", time.Now().UTC().Format(time.RFC3339), loadAverage())
	// Read every file and every table once so that every measurement
	// starts from the same, warm page cache (and no reader is the first to
	// set the rows' hint bits; seed vacuums for that).
	if err := warm(filepath.Join(o.dir, "uploads")); err != nil {
		return err
	}
	if err := warmTables(ctx, pool, tables); err != nil {
		return err
	}

	// The baseline: zip -r -1 over the files, plus a COPY of the same tables.
	if err := settle(ctx, pool); err != nil {
		return err
	}
	start := time.Now()
	zipCmd := exec.Command("zip", "-r", "-1", "-q", filepath.Join(o.dir, "baseline", "uploads.zip"), ".")
	zipCmd.Dir = filepath.Join(o.dir, "uploads")
	zipCmd.Stderr = os.Stderr
	if err := zipCmd.Run(); err != nil {
		return fmt.Errorf("zip: %w", err)
	}
	zipTime := time.Since(start)
	start = time.Now()
	if err := copyTables(ctx, pool, tables, filepath.Join(o.dir, "baseline")); err != nil {
		return err
	}
	copyTime := time.Since(start)
	baseline := zipTime + copyTime
	_ = os.RemoveAll(filepath.Join(o.dir, "baseline"))

	if err := settle(ctx, pool); err != nil {
		return err
	}
	created, err := child(o, "create")
	if err != nil {
		return err
	}
	if err := settle(ctx, pool); err != nil {
		return err
	}
	genBefore, err := repo.FileGeneration(ctx, pool)
	if err != nil {
		return err
	}
	downloaded, err := child(o, "download", "-name", created.Name)
	if err != nil {
		return err
	}
	restored, err := child(o, "restore", "-name", created.Name)
	if err != nil {
		return err
	}
	if restored.Rows != rows {
		return fmt.Errorf("restored %d rows, the database had %d", restored.Rows, rows)
	}
	// The restore must have switched to a new generation of files,
	// holding as many files, and as many bytes, as were seeded.
	genAfter, err := repo.FileGeneration(ctx, pool)
	if err != nil {
		return err
	}
	if genAfter == genBefore {
		return errors.New("the restore did not switch to a new generation of files")
	}
	filesStore, _, err := o.stores(pool)
	if err != nil {
		return err
	}
	var files int
	var bytes int64
	if err := filesStore.Walk(ctx, func(_ string, n int64) error { files++; bytes += n; return nil }); err != nil {
		return err
	}
	if files != len(images) || bytes != int64(o.imagesMB)<<20 {
		return fmt.Errorf("after the restore the store holds %d files (%d bytes); %d files (%d bytes) were seeded",
			files, bytes, len(images), int64(o.imagesMB)<<20)
	}

	sec := func(d time.Duration) string { return fmt.Sprintf("%.2f s", d.Seconds()) }
	createRatio := created.Seconds / baseline.Seconds()
	restoreRatio := restored.Seconds / created.Seconds
	fmt.Printf("archive: %s, %.1f MB\n", created.Name, float64(created.Size)/(1<<20))
	fmt.Printf("baseline: zip -r -1 %s + COPY %s = %s\n", sec(zipTime), sec(copyTime), sec(baseline))
	fmt.Printf("create:  %.2f s  ratio to baseline %.2f (target <= 1.30)  peak RSS %.1f MB (target < 100)\n",
		created.Seconds, createRatio, float64(created.PeakKB)/1024)
	fmt.Printf("download: %.2f s  peak RSS %.1f MB\n", downloaded.Seconds, float64(downloaded.PeakKB)/1024)
	fmt.Printf("restore: %.2f s  ratio to create   %.2f (target <= 2.00)  peak RSS %.1f MB (target < 100)\n",
		restored.Seconds, restoreRatio, float64(restored.PeakKB)/1024)
	ok := createRatio <= 1.3 && restoreRatio <= 2 && created.PeakKB < 100<<10 && restored.PeakKB < 100<<10
	fmt.Printf("targets met: %v\n", ok)
	fmt.Printf("finished %s, load average %s\n", time.Now().UTC().Format(time.RFC3339), loadAverage())
	return nil
}

// settle writes out everything the steps before left dirty, in the page
// cache and in PostgreSQL's buffers, so that no measurement pays for the
// writeback, or the checkpoint, of another's writes.
func settle(ctx context.Context, pool *pgxpool.Pool) error {
	syscall.Sync()
	if _, err := pool.Exec(ctx, "CHECKPOINT"); err != nil {
		return fmt.Errorf("checkpoint (the bench needs a superuser or pg_checkpoint): %w", err)
	}
	return nil
}

// loadAverage is the 1, 5 and 15 minute load average: the machine may be
// shared, and the figures mean little without it.
func loadAverage() string {
	raw, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(raw))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

// writeImages writes about total bytes of incompressible files (random
// bytes behave like JPEG or WEBP data for a compressor) under file-store
// keys, 50-400 KB each, and returns the keys.
func writeImages(dir string, total int64) ([]string, error) {
	rng := rand.New(rand.NewChaCha8([32]byte{1, 2, 3}))
	buf := make([]byte, 400<<10)
	var keys []string
	for written := int64(0); written < total; {
		size := 50<<10 + rng.IntN(350<<10)
		size = int(min(int64(size), total-written))
		name := fmt.Sprintf("%032x", rng.Uint64())
		key := "recipes/" + name[:2] + "/" + name + ".jpg"
		p := filepath.Join(dir, filepath.FromSlash(key))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, err
		}
		fillRandom(rng, buf[:size])
		// A JPEG's first bytes: a restore accepts only images, by content.
		copy(buf[:size], []byte{0xff, 0xd8, 0xff, 0xe0})
		if err := os.WriteFile(p, buf[:size], 0o644); err != nil {
			return nil, err
		}
		keys = append(keys, key)
		written += int64(size)
	}
	return keys, nil
}

func fillRandom(rng *rand.Rand, b []byte) {
	for i := 0; i+8 <= len(b); i += 8 {
		v := rng.Uint64()
		for k := range 8 {
			b[i+k] = byte(v >> (8 * k))
		}
	}
}

func warm(dir string) error {
	return filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil || fi.IsDir() {
			return err
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		_, err = io.Copy(io.Discard, f)
		return err
	})
}

// warmTables reads every table once, as the baseline and the backup will.
func warmTables(ctx context.Context, pool *pgxpool.Pool, tables []repo.BackupTable) error {
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer conn.Release()
	for _, t := range tables {
		if _, err := conn.Conn().PgConn().CopyTo(ctx, io.Discard, "COPY "+pgx.Identifier{t.Name}.Sanitize()+" TO STDOUT"); err != nil {
			return fmt.Errorf("warm %s: %w", t.Name, err)
		}
	}
	return nil
}

// copyTables is the COPY half of the baseline: every table to a file, text
// format, as a dump would.
func copyTables(ctx context.Context, pool *pgxpool.Pool, tables []repo.BackupTable, dir string) error {
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer conn.Release()
	for _, t := range tables {
		f, err := os.Create(filepath.Join(dir, t.Name+".copy"))
		if err != nil {
			return err
		}
		_, err = conn.Conn().PgConn().CopyTo(ctx, f, "COPY "+pgx.Identifier{t.Name}.Sanitize()+" TO STDOUT")
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
	}
	return nil
}
