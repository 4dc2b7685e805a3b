package handlers

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"larder/jobs"
	"larder/repo"
)

// insertTestJob enqueues a real job kind on behalf of u and returns its id.
func insertTestJob(t *testing.T, b *testBundle, u repo.User) uuid.UUID {
	t.Helper()
	var id uuid.UUID
	err := pgx.BeginFunc(context.Background(), b.db, func(tx pgx.Tx) error {
		var err error
		id, err = b.deps.Queue.Enqueue(context.Background(), tx, &u.ID, jobs.PurgeExpiredArgs{})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func TestHealth(t *testing.T) {
	t.Parallel()
	b := setup(t)
	r := b.do(t, "GET", "/api/health", nil, "")
	wantStatus(t, r, 200)
	var body struct{ Status, Version string }
	r.JSON(t, &body)
	if body.Status != "ok" || body.Version != "2025.10.1" {
		t.Fatalf("health: %+v", body)
	}
	if r.Header.Get("X-Request-Id") == "" {
		t.Error("no request id header")
	}
}

// Every error, Fiber's own included, has the one body of docs/api.md.
func TestErrorBodies(t *testing.T) {
	t.Parallel()
	b := setup(t)
	_, tok := b.user(t, repo.RoleUser)
	tests := []struct {
		name, method, path string
		body               any
		tok                string
		status             int
		code               string
	}{
		{"unknown route", "GET", "/api/nothing-here", nil, "", 404, "not_found"},
		{"wrong method", "POST", "/api/health", nil, "", 405, "method_not_allowed"},
		{"no token", "GET", "/api/jobs/" + uuid.NewString(), nil, "", 401, "unauthenticated"},
		{"bad token", "GET", "/api/jobs/" + uuid.NewString(), nil, "nonsense", 401, "unauthenticated"},
		{"unknown job", "GET", "/api/jobs/" + uuid.NewString(), nil, tok, 404, "not_found"},
		{"job id not a uuid", "GET", "/api/jobs/42", nil, tok, 404, "not_found"},
	}
	for _, tt := range tests {
		r := b.do(t, tt.method, tt.path, tt.body, tt.tok)
		if r.Status != tt.status || r.ErrorCode() != tt.code {
			t.Errorf("%s: %d %s, want %d %s; body %s", tt.name, r.Status, r.ErrorCode(), tt.status, tt.code, r.Body)
		}
		var e struct {
			Error struct{ Message string } `json:"error"`
		}
		_ = json.Unmarshal(r.Body, &e)
		if e.Error.Message == "" {
			t.Errorf("%s: no message in %s", tt.name, r.Body)
		}
	}
}

func TestOversizeBodyIs413(t *testing.T) {
	t.Parallel()
	b := setup(t)
	base := b.serve(t)
	// Announce a body over the limit and read the answer before sending it:
	// the server must refuse from the header alone, without reading the body.
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /api/health HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n{", MaxImageBytes+2<<20)
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	r := response{Status: resp.StatusCode, Body: raw}
	if r.Status != 413 || r.ErrorCode() != "payload_too_large" {
		t.Fatalf("oversize body: %d %s", r.Status, r.Body)
	}
}

func TestMalformedJSONBody(t *testing.T) {
	t.Parallel()
	b := setup(t)
	// A route of the test's own, so decoding is tested apart from any resource.
	b.app.Post("/api/echo-test", func(c *fiber.Ctx) error {
		var v struct {
			Name     string `json:"name"`
			Servings int    `json:"servings"`
		}
		if err := decodeJSON(c, &v); err != nil {
			return err
		}
		return c.JSON(v)
	})
	tests := []struct {
		body  string
		code  string
		field string
	}{
		{`{"name": "soup"`, "invalid_request", ""},
		{`not json`, "invalid_request", ""},
		{``, "invalid_request", ""},
		{`{"name": "a"} {"name": "b"}`, "invalid_request", ""},
		{`{"servings": "four"}`, "validation_failed", "servings"},
	}
	for _, tt := range tests {
		r := b.do(t, "POST", "/api/echo-test", tt.body, "")
		if r.Status != 400 || r.ErrorCode() != tt.code {
			t.Errorf("%q: %d %s", tt.body, r.Status, r.Body)
		}
		if tt.field != "" && !strings.Contains(string(r.Body), `"fields":{"`+tt.field+`"`) {
			t.Errorf("%q: no field error for %s: %s", tt.body, tt.field, r.Body)
		}
	}
	wantStatus(t, b.do(t, "POST", "/api/echo-test", `{"name":"soup","servings":4}`, ""), 200)
}

func TestJobsAreVisibleOnlyToTheirOwner(t *testing.T) {
	t.Parallel()
	b := setup(t)
	owner, ownerTok := b.user(t, repo.RoleUser)
	_, otherTok := b.user(t, repo.RoleUser)
	_, adminTok := b.user(t, repo.RoleAdmin)
	id := insertTestJob(t, b, owner)
	for tok, want := range map[string]int{ownerTok: 200, adminTok: 200, otherTok: 404} {
		if r := b.do(t, "GET", "/api/jobs/"+id.String(), nil, tok); r.Status != want {
			t.Errorf("status %d, want %d", r.Status, want)
		}
	}
	var j Job
	b.do(t, "GET", "/api/jobs/"+id.String(), nil, ownerTok).JSON(t, &j)
	if j.State != "queued" || j.Kind != "purge_expired" || j.ID != id || string(j.Result) != "null" || j.Error != nil {
		t.Fatalf("new job: %+v", j)
	}
}

func TestDeletedUsersTokensStopWorking(t *testing.T) {
	t.Parallel()
	b := setup(t)
	u, tok := b.user(t, repo.RoleUser)
	id := insertTestJob(t, b, u)
	wantStatus(t, b.do(t, "GET", "/api/jobs/"+id.String(), nil, tok), 200)
	if _, err := b.db.Exec(context.Background(), "DELETE FROM app_user WHERE id = $1", u.ID); err != nil {
		t.Fatal(err)
	}
	r := b.do(t, "GET", "/api/jobs/"+id.String(), nil, tok)
	if r.Status != 401 {
		t.Fatalf("deleted user's token: %d", r.Status)
	}
}

// Every route is under /api and in the OpenAPI document; outside /api the
// app serves only the uploaded files and the web client.
func TestOpenAPICoversEveryRoute(t *testing.T) {
	t.Parallel()
	b := setup(t, func(d *Deps) { d.Web = fstest.MapFS{"index.html": {Data: []byte("<!doctype html>")}} })
	r := b.do(t, "GET", "/api/openapi.json", nil, "")
	wantStatus(t, r, 200)
	var doc struct {
		OpenAPI string                                `json:"openapi"`
		Info    struct{ Version string }              `json:"info"`
		Paths   map[string]map[string]json.RawMessage `json:"paths"`
	}
	r.JSON(t, &doc)
	if doc.Info.Version != "2025.10.1" || !strings.HasPrefix(doc.OpenAPI, "3.") {
		t.Fatalf("document head: %s %s", doc.OpenAPI, doc.Info.Version)
	}
	for p := range doc.Paths {
		if !strings.HasPrefix(p, "/api/") {
			t.Errorf("the OpenAPI document has %s, outside /api", p)
		}
	}
	param := regexp.MustCompile(`:([A-Za-z]+)`)
	for _, rt := range b.app.GetRoutes(true) {
		switch {
		case rt.Method == "USE" && (rt.Path == "/" || rt.Path == "/api"):
			continue // middleware, and the web client's file handler
		case rt.Path == "/uploads" || strings.HasPrefix(rt.Path, "/uploads/") || strings.HasPrefix(rt.Path, "/uploads*"):
			continue // the stored images
		case !strings.HasPrefix(rt.Path, "/api/"):
			t.Errorf("%s %s is outside /api", rt.Method, rt.Path)
			continue
		case rt.Method == "HEAD" || rt.Method == "USE":
			continue
		}
		p := param.ReplaceAllString(rt.Path, "{$1}")
		if _, ok := doc.Paths[p][strings.ToLower(rt.Method)]; !ok {
			t.Errorf("%s %s is not in the OpenAPI document (as %s)", rt.Method, rt.Path, p)
		}
	}
}

// The document is exact enough to generate the client from: every answer
// with a body says what the body is, and every error answer is the one
// error body.
func TestOpenAPIDescribesEveryBody(t *testing.T) {
	t.Parallel()
	raw, err := buildOpenAPI("test")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Paths map[string]map[string]struct {
			Responses map[string]struct {
				Ref     string `json:"$ref"`
				Content map[string]struct {
					Schema json.RawMessage `json:"schema"`
				} `json:"content"`
			} `json:"responses"`
		} `json:"paths"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	for path, ops := range doc.Paths {
		for method, op := range ops {
			if len(op.Responses) == 0 {
				t.Errorf("%s %s documents no answer", method, path)
			}
			success := false
			for code, resp := range op.Responses {
				switch {
				case resp.Ref != "":
					if !strings.HasPrefix(resp.Ref, "#/components/responses/") {
						t.Errorf("%s %s %s refers to %s", method, path, code, resp.Ref)
					}
				case code == "204" || code[0] == '3':
				case len(resp.Content) == 0:
					t.Errorf("%s %s %s has a body the document does not describe", method, path, code)
				default:
					for ct, c := range resp.Content {
						if len(c.Schema) == 0 {
							t.Errorf("%s %s %s (%s) has no schema", method, path, code, ct)
						}
					}
				}
				success = success || code[0] == '2' || code[0] == '3'
			}
			if !success {
				t.Errorf("%s %s documents no successful answer", method, path)
			}
		}
	}
}
