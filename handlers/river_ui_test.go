package handlers

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"

	"riverqueue.com/riverui"

	"larder/metrics"
)

// River UI answers administrators only: anonymous and USER callers are
// refused, with or without a cookie; an ADMIN exchanges the access token
// for the UI's cookie and gets the UI and its API.
func TestRiverUIAccess(t *testing.T) {
	t.Parallel()
	b := setup(t, func(d *Deps) {
		ctx, cancel := context.WithCancel(context.Background())
		t.Cleanup(cancel)
		h, err := riverui.NewHandler(&riverui.HandlerOpts{
			Endpoints: riverui.NewEndpoints(d.Queue.Client(), nil),
			Logger:    slog.New(slog.NewTextHandler(io.Discard, nil)),
			Prefix:    riverUIPath,
		})
		if err != nil {
			t.Fatal(err)
		}
		if err := h.Start(ctx); err != nil {
			t.Fatal(err)
		}
		d.RiverUI = h
	})
	_, userTok := b.user(t, "USER")
	_, adminTok := b.user(t, "ADMIN")
	jobsAPI := riverUIPath + "/api/jobs?state=available"

	for _, path := range []string{riverUIPath + "/", jobsAPI} {
		if r := b.do(t, "GET", path, nil, ""); r.Status != 401 {
			t.Errorf("anonymous GET %s: %d", path, r.Status)
		}
		// A bearer token is not how the UI is reached, and a USER's token
		// in the cookie is refused.
		if r := b.do(t, "GET", path, nil, adminTok); r.Status != 401 {
			t.Errorf("GET %s with a bearer token only: %d", path, r.Status)
		}
		if r := b.do(t, "GET", path, nil, "", "Cookie", riverUICookie+"="+userTok); r.Status != 403 {
			t.Errorf("USER GET %s: %d", path, r.Status)
		}
	}
	if r := b.do(t, "POST", riverUIPath+"/session", nil, userTok); r.Status != 403 {
		t.Errorf("USER session: %d", r.Status)
	}
	if r := b.do(t, "POST", riverUIPath+"/session", nil, ""); r.Status != 401 {
		t.Errorf("anonymous session: %d", r.Status)
	}

	r := b.do(t, "POST", riverUIPath+"/session", nil, adminTok)
	wantStatus(t, r, 200)
	cookie := r.cookie(t, riverUICookie)
	if !cookie.HttpOnly || cookie.Path != riverUIPath || cookie.SameSite != 3 /* Strict */ {
		t.Errorf("cookie %+v", cookie)
	}
	r = b.do(t, "GET", riverUIPath+"/", nil, "", "Cookie", riverUICookie+"="+cookie.Value)
	wantStatus(t, r, 200)
	if !strings.Contains(string(r.Body), "<html") {
		t.Errorf("UI page: %.200s", r.Body)
	}
	r = b.do(t, "GET", jobsAPI, nil, "", "Cookie", riverUICookie+"="+cookie.Value)
	wantStatus(t, r, 200)
	if !strings.Contains(string(r.Body), `"data"`) {
		t.Errorf("jobs API: %.200s", r.Body)
	}
}

// Metrics are never on the public port, whoever asks: they are served on
// the operator address (METRICS_ADDR) only.
func TestNoMetricsOnThePublicPort(t *testing.T) {
	t.Parallel()
	b := setup(t, func(d *Deps) { d.Metrics = metrics.New() })
	_, userTok := b.user(t, "USER")
	_, adminTok := b.user(t, "ADMIN")
	b.do(t, "GET", "/api/health", nil, "") // something to count
	for _, tok := range []string{"", userTok, adminTok} {
		for _, path := range []string{"/metrics", "/api/metrics"} {
			r := b.do(t, "GET", path, nil, tok)
			if strings.Contains(string(r.Body), "larder_http_requests_total") || r.Status == 200 && strings.Contains(string(r.Body), "# HELP") {
				t.Errorf("GET %s served metrics on the public port", path)
			}
		}
	}
}
