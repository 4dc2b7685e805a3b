package e2e

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"larder/filestore/s3test"
	"larder/repo/repotest"
)

// TestMultiProcess runs the service as it runs on several machines: the
// built binaries, two API processes and two worker processes, each with
// its own empty data directory, sharing only PostgreSQL, the S3 server
// (versitygw) and Redis. Nothing here needs Chromium or the web client.
func TestMultiProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binaries and starts six processes")
	}
	ctx := context.Background()
	bin := buildBinaries(t)
	dbName := repotest.NewDatabase(t)
	bucket, err := s3test.Shared(t).Config(ctx)
	if err != nil {
		t.Fatal(err)
	}
	secret := func() string { b := make([]byte, 24); rand.Read(b); return hex.EncodeToString(b) }
	env := []string{
		"APP_ENV=production", "LOG_FORMAT=json", "LOG_LEVEL=info",
		"DATABASE_URL=" + repotest.URLFor(dbName),
		"JWT_SECRET=" + secret(), "JWT_REFRESH_SECRET=" + secret(),
		"STORAGE=s3", "S3_ENDPOINT=" + bucket.Endpoint, "S3_BUCKET=" + bucket.Bucket, "S3_REGION=" + bucket.Region,
		"S3_ACCESS_KEY_ID=" + bucket.AccessKeyID, "S3_SECRET_ACCESS_KEY=" + bucket.SecretAccessKey,
		"S3_PATH_STYLE=true", "S3_PREFIX=larder",
		"IMPORT_ALLOW_PRIVATE_ADDRESSES=true", "CHROMIUM_PATH=/nonexistent",
		// The killed worker's import is rescued after the longer of the
		// two, not the import's own 2 minutes. The limit caps the backup
		// and the restore too, which the test holds for a few seconds on a
		// busy machine: it leaves them room.
		"JOB_RESCUE_AFTER=10s", "JOB_TIME_LIMIT=20s",
		// A limit shared through Redis; each run has addresses of its own
		// (X-Forwarded-For from a trusted loopback proxy), so the counts of
		// another run or test never mix in.
		"REDIS_URL=redis://127.0.0.1:6379/9", "AUTH_RATE_LIMIT=3/15m", "TRUSTED_PROXIES=127.0.0.1,::1",
	}
	mp := &cluster{t: t, bin: bin, env: env}
	api1, api2 := mp.start("api", "api1"), mp.start("api", "api2")
	workers := []*proc{mp.start("worker", "worker1"), mp.start("worker", "worker2")}
	for _, a := range []*proc{api1, api2} {
		a.waitReady()
	}
	for _, w := range workers {
		w.waitClientID()
	}
	mp.run("admin", "create-admin", "--email", "ops@example.test", "--name", "Ops", "--password", "Kitchen-Sink-42")
	tok := api1.login("ops@example.test", "Kitchen-Sink-42")

	t.Run("an image uploaded through API 1 is read through API 2", func(t *testing.T) {
		var rec struct {
			ID       string  `json:"id"`
			ImageURL *string `json:"imageUrl"`
		}
		api1.json(t, "POST", "/api/recipes", tok, map[string]any{"title": "Shared soup"}, 201, &rec)
		img := testJPEG(t)
		api1.upload(t, "/api/recipes/"+rec.ID+"/image", tok, img, &rec)
		if rec.ImageURL == nil {
			t.Fatal("no image address")
		}
		// The same image as stored (re-encoded): read it through both.
		got1 := api1.get(t, *rec.ImageURL, "", 200)
		got2 := api2.get(t, *rec.ImageURL, "", 200)
		if len(got2) == 0 || !bytes.Equal(got1, got2) {
			t.Fatalf("API 2 served %d bytes, API 1 %d", len(got2), len(got1))
		}
	})

	// A page served on loopback; the first request for /slow blocks until
	// released, so a job can be caught running.
	release := make(chan struct{})
	var slowOnce sync.Once
	slowStarted := make(chan struct{})
	pages := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow" {
			first := false
			slowOnce.Do(func() { first = true; close(slowStarted) })
			if first {
				select {
				case <-release:
				case <-r.Context().Done():
					return
				}
			}
		}
		title := "Loopback lentil soup " + strings.TrimPrefix(r.URL.Path, "/")
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><html><head><title>%s</title><script type="application/ld+json">
{"@context":"https://schema.org","@type":"Recipe","name":%q,"recipeIngredient":["200 g red lentils","1 onion"],
"recipeInstructions":[{"@type":"HowToStep","text":"Simmer the lentils."},{"@type":"HowToStep","text":"Add the onion."}]}
</script></head><body><h1>%s</h1></body></html>`, title, title, title)
	}))
	defer pages.Close()
	defer func() {
		select {
		case <-release:
		default:
			close(release)
		}
	}()

	t.Run("an import queued on API 2 runs on a worker", func(t *testing.T) {
		job := api2.enqueue(t, "/api/recipes/import", tok, map[string]any{"url": pages.URL + "/quick"})
		res := api1.waitJob(t, tok, job, "completed")
		var out struct{ RecipeID string }
		json.Unmarshal(res, &out)
		var rec struct{ Title string }
		api1.json(t, "GET", "/api/recipes/"+out.RecipeID, tok, nil, 200, &rec)
		if rec.Title != "Loopback lentil soup quick" {
			t.Fatalf("imported %q", rec.Title)
		}
	})

	t.Run("a worker killed mid-job has its job completed by the other", func(t *testing.T) {
		job := api1.enqueue(t, "/api/recipes/import", tok, map[string]any{"url": pages.URL + "/slow"})
		select {
		case <-slowStarted:
		case <-time.After(time.Minute):
			t.Fatal("the import never reached the page")
		}
		// The worker running it, by River's record of who attempted it.
		running := lastAttempt(t, dbName, job)
		var victim, other *proc
		for _, w := range workers {
			if w.clientID == running {
				victim = w
			} else {
				other = w
			}
		}
		if victim == nil || other == nil {
			t.Fatalf("job attempted by %q, workers %q and %q", running, workers[0].clientID, workers[1].clientID)
		}
		victim.kill()
		close(release)
		api2.waitJob(t, tok, job, "completed")
		if by := lastAttempt(t, dbName, job); by != other.clientID {
			t.Fatalf("completed by %q, want the surviving worker %q", by, other.clientID)
		}
	})

	t.Run("a backup made by a worker downloads through API 1 and restores through API 2", func(t *testing.T) {
		job := api1.enqueue(t, "/api/backups", tok, nil)
		res := api1.waitJob(t, tok, job, "completed")
		var made struct{ Name string }
		json.Unmarshal(res, &made)
		archive := api1.get(t, "/api/backups/"+made.Name+"/download", tok, 200)
		if len(archive) < 100 || string(archive[:2]) != "PK" {
			t.Fatalf("downloaded %d bytes", len(archive))
		}
		// Changes after the backup, which the restore must undo.
		var later struct{ ID string }
		api2.json(t, "POST", "/api/recipes", tok, map[string]any{"title": "Made after the backup"}, 201, &later)

		// Hold the restore inside its transaction: a lock on a table it
		// empties keeps it waiting while the test looks at both APIs.
		conn, err := pgx.Connect(ctx, repotest.URLFor(dbName))
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close(ctx)
		hold, err := conn.Begin(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := hold.Exec(ctx, "LOCK TABLE tag IN ACCESS SHARE MODE"); err != nil {
			t.Fatal(err)
		}
		restore := api2.enqueue(t, "/api/backups/"+made.Name+"/restore", tok, nil)
		// Requests the API answers before touching any table, so that none
		// can queue behind the restore's locks: a write without a title
		// (400 until the API sees the restore), a read without a token (401, refused before any query)
		// and the API document (200); all 503 while it runs, and the
		// instance is not ready.
		for _, a := range []*proc{api1, api2} {
			a.waitStatus(t, "POST", "/api/recipes", tok, map[string]any{"title": ""}, 503)
			a.waitStatus(t, "GET", "/api/backups", "", nil, 503)
			a.waitStatus(t, "GET", "/api/openapi.json", "", nil, 503)
			a.waitStatus(t, "GET", "/api/ready", "", nil, 503)
			a.waitStatus(t, "GET", "/api/health", "", nil, 200)
		}
		hold.Rollback(ctx)
		// The restore ends every session, the one following it included:
		// once the old token is refused, sign in again and read the job.
		api1.waitStatus(t, "GET", "/api/jobs/"+restore, tok, nil, 401)
		tok2 := api2.login("ops@example.test", "Kitchen-Sink-42")
		api1.waitJob(t, tok2, restore, "completed")
		for _, a := range []*proc{api1, api2} {
			a.waitStatus(t, "GET", "/api/recipes/"+later.ID, tok2, nil, 404)
			var list struct {
				Items []struct {
					Title    string  `json:"title"`
					ImageURL *string `json:"imageUrl"`
				} `json:"items"`
			}
			a.json(t, "GET", "/api/recipes", tok2, nil, 200, &list)
			found := false
			for _, it := range list.Items {
				if it.Title == "Shared soup" && it.ImageURL != nil {
					found = true
					a.get(t, *it.ImageURL, "", 200) // the restored file, in the new generation
				}
			}
			if !found {
				t.Errorf("%s: the restored recipe with its image is missing: %+v", a.name, list.Items)
			}
		}
	})

	t.Run("a rate limit is reached across the two API processes", func(t *testing.T) {
		client := randomClient()
		body := map[string]any{"email": "nobody@example.test", "password": "Wrong-password-1"}
		statuses := []int{}
		for _, a := range []*proc{api1, api2, api1, api2} {
			statuses = append(statuses, a.status(t, "POST", "/api/auth/login", "", body, "X-Forwarded-For", client))
		}
		if statuses[0] == 429 || statuses[1] == 429 || statuses[2] == 429 || statuses[3] != 429 {
			t.Fatalf("statuses %v: want the fourth attempt (limit 3, counted in Redis) refused", statuses)
		}
	})
}

// buildBinaries builds cmd/api, cmd/worker and cmd/admin into a temporary
// directory.
func buildBinaries(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	cmd := exec.Command("go", "build", "-o", dir+string(os.PathSeparator), "larder/cmd/api", "larder/cmd/worker", "larder/cmd/admin")
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("build the binaries: %v", err)
	}
	return dir
}

type cluster struct {
	t   *testing.T
	bin string
	env []string
}

// proc is one running binary with its own empty data directory.
type proc struct {
	t    *testing.T
	name string
	url  string
	cmd  *exec.Cmd
	log  string
	// clientID is a worker's River client id (waitClientID).
	clientID string
}

func (c *cluster) start(binary, name string) *proc {
	t := c.t
	dir := t.TempDir()
	p := &proc{t: t, name: name, log: filepath.Join(dir, name+".log")}
	env := append(append(os.Environ(), c.env...), "DATA_DIR="+filepath.Join(dir, "data"))
	args := []string{}
	if binary == "api" {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := ln.Addr().String()
		ln.Close()
		p.url = "http://" + addr
		env = append(env, "LISTEN_ADDR="+addr, "APP_URL="+p.url, "API_URL="+p.url)
	} else {
		args = append(args, "--shutdown-grace", "1s")
	}
	logf, err := os.Create(p.log)
	if err != nil {
		t.Fatal(err)
	}
	p.cmd = exec.Command(filepath.Join(c.bin, binary), args...)
	p.cmd.Env, p.cmd.Stdout, p.cmd.Stderr = env, logf, logf
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		p.cmd.Process.Signal(syscall.SIGTERM)
		p.cmd.Wait()
		logf.Close()
		if t.Failed() {
			raw, _ := os.ReadFile(p.log)
			t.Logf("=== %s log ===\n%s", p.name, lastLines(string(raw), 60))
		}
	})
	return p
}

func lastLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// run runs a binary to completion with the cluster's environment.
func (c *cluster) run(binary string, args ...string) {
	c.t.Helper()
	cmd := exec.Command(filepath.Join(c.bin, binary), args...)
	cmd.Env = append(append(os.Environ(), c.env...), "DATA_DIR="+c.t.TempDir())
	if out, err := cmd.CombinedOutput(); err != nil {
		c.t.Fatalf("%s %v: %v\n%s", binary, args, err, out)
	}
}

// lastAttempt is the River client that last attempted the job behind the
// API's job id.
func lastAttempt(t *testing.T, dbName, jobID string) string {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), repotest.URLFor(dbName))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var by []string
	if err := conn.QueryRow(context.Background(), `SELECT coalesce(r.attempted_by, '{}') FROM river_job r
		JOIN app_job j ON j.river_job_id = r.id WHERE j.id = $1`, jobID).Scan(&by); err != nil {
		t.Fatal(err)
	}
	if len(by) == 0 {
		return ""
	}
	return by[len(by)-1]
}

// waitClientID reads the worker's River client id from its log.
func (p *proc) waitClientID() {
	p.t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		raw, _ := os.ReadFile(p.log)
		for _, line := range strings.Split(string(raw), "\n") {
			var rec struct {
				ClientID string `json:"client_id"`
			}
			if json.Unmarshal([]byte(line), &rec) == nil && rec.ClientID != "" {
				p.clientID = rec.ClientID
				return
			}
		}
		if p.cmd.ProcessState != nil {
			break
		}
		time.Sleep(100 * time.Millisecond) // polling a process that starts
	}
	raw, _ := os.ReadFile(p.log)
	p.t.Fatalf("%s never started its River client:\n%s", p.name, lastLines(string(raw), 40))
}

func (p *proc) kill() {
	p.cmd.Process.Signal(syscall.SIGKILL)
}

// waitReady polls /api/ready until the process is ready.
func (p *proc) waitReady() {
	p.t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		if r, err := http.Get(p.url + "/api/ready"); err == nil {
			r.Body.Close()
			if r.StatusCode == 200 {
				return
			}
		}
		if p.cmd.ProcessState != nil {
			break
		}
		time.Sleep(100 * time.Millisecond) // polling a process that starts, not waiting out a clock
	}
	raw, _ := os.ReadFile(p.log)
	p.t.Fatalf("%s never became ready:\n%s", p.name, lastLines(string(raw), 40))
}

func (p *proc) do(t *testing.T, method, path, tok string, body any, headers ...string) (int, []byte) {
	t.Helper()
	var r io.Reader
	ct := ""
	switch v := body.(type) {
	case nil:
	case *multipartBody:
		r, ct = bytes.NewReader(v.data), v.contentType
	default:
		raw, _ := json.Marshal(v)
		r, ct = bytes.NewReader(raw), "application/json"
	}
	req, err := http.NewRequest(method, p.url+path, r)
	if err != nil {
		t.Fatal(err)
	}
	if ct != "" {
		req.Header.Set("Content-Type", ct)
	}
	if tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := httpClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s %s: %v", p.name, method, path, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, raw
}

func (p *proc) status(t *testing.T, method, path, tok string, body any, headers ...string) int {
	t.Helper()
	st, _ := p.do(t, method, path, tok, body, headers...)
	return st
}

func (p *proc) json(t *testing.T, method, path, tok string, body any, want int, out any) {
	t.Helper()
	st, raw := p.do(t, method, path, tok, body)
	if st != want {
		t.Fatalf("%s %s %s: %d, want %d: %s", p.name, method, path, st, want, raw)
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			t.Fatalf("%s %s: %v: %s", method, path, err, raw)
		}
	}
}

func (p *proc) get(t *testing.T, path, tok string, want int) []byte {
	t.Helper()
	st, raw := p.do(t, "GET", path, tok, nil)
	if st != want {
		t.Fatalf("%s GET %s: %d, want %d: %.300s", p.name, path, st, want, raw)
	}
	return raw
}

// login signs in from an address of its own, so the shared limiter's
// counts of other runs never refuse it.
func (p *proc) login(email, password string) string {
	p.t.Helper()
	var out struct{ AccessToken string }
	// Right after a restore, an API may answer 503 for up to a second more.
	deadline := time.Now().Add(30 * time.Second)
	st, raw := p.do(p.t, "POST", "/api/auth/login", "", map[string]any{"email": email, "password": password},
		"X-Forwarded-For", randomClient())
	for st == 503 && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
		st, raw = p.do(p.t, "POST", "/api/auth/login", "", map[string]any{"email": email, "password": password},
			"X-Forwarded-For", randomClient())
	}
	if st != 200 || json.Unmarshal(raw, &out) != nil {
		p.t.Fatalf("%s login: %d %s", p.name, st, raw)
	}
	return out.AccessToken
}

// randomClient is a client address of the benchmarking range 198.18.0.0/15.
func randomClient() string {
	b := make([]byte, 2)
	rand.Read(b)
	return fmt.Sprintf("198.18.%d.%d", b[0], b[1])
}

// httpClient bounds every request, so that a test that went wrong fails
// instead of hanging.
var httpClient = &http.Client{Timeout: time.Minute}

type multipartBody struct {
	data        []byte
	contentType string
}

func (p *proc) upload(t *testing.T, path, tok string, img []byte, out any) {
	t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	part, _ := w.CreateFormFile("image", "soup.jpg")
	part.Write(img)
	w.Close()
	p.json(t, "POST", path, tok, &multipartBody{buf.Bytes(), w.FormDataContentType()}, 200, out)
}

// enqueue posts a request answered 202 {"job"} and returns the job's id.
func (p *proc) enqueue(t *testing.T, path, tok string, body any) string {
	t.Helper()
	var out struct{ Job struct{ ID string } }
	p.json(t, "POST", path, tok, body, 202, &out)
	return out.Job.ID
}

// waitJob polls the job until it ends, and wants it in state want.
func (p *proc) waitJob(t *testing.T, tok, id, want string) json.RawMessage {
	t.Helper()
	deadline := time.Now().Add(3 * time.Minute)
	for time.Now().Before(deadline) {
		var j struct {
			State  string
			Result json.RawMessage
			Error  *struct{ Code, Message string }
		}
		st, raw := p.do(t, "GET", "/api/jobs/"+id, tok, nil)
		if st == 200 {
			json.Unmarshal(raw, &j)
			switch j.State {
			case want:
				return j.Result
			case "failed", "cancelled", "completed":
				t.Fatalf("job %s ended %s, want %s: %s", id, j.State, want, raw)
			}
		}
		time.Sleep(200 * time.Millisecond) // polling the job's state
	}
	t.Fatalf("job %s did not end", id)
	return nil
}

// waitStatus repeats a request until it answers want (the API sees a
// restore within a second).
func (p *proc) waitStatus(t *testing.T, method, path, tok string, body any, want int) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	last := 0
	for time.Now().Before(deadline) {
		if last = p.status(t, method, path, tok, body); last == want {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("%s %s %s: still %d, want %d", p.name, method, path, last, want)
}

func testJPEG(t *testing.T) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 64, 48))
	for x := range 64 {
		for y := range 48 {
			img.Set(x, y, color.RGBA{uint8(x * 4), uint8(y * 5), 90, 255})
		}
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, nil); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
