// Package metrics exports Prometheus metrics (prometheus/client_golang) on
// an operator address (METRICS_ADDR), never on the public port: HTTP
// requests by route pattern (never the raw path), method and status with
// latency histograms, PostgreSQL pool statistics and the Go runtime.
package metrics

import (
	"context"
	"crypto/subtle"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Registry holds one process's metrics.
type Registry struct {
	reg      *prometheus.Registry
	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec

	jobsOnce sync.Once
	jm       *jobMetrics
}

// New returns a registry with the Go runtime and process collectors.
func New() *Registry {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	r := &Registry{
		reg: reg,
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "larder_http_requests_total", Help: "HTTP requests by route pattern, method and status.",
		}, []string{"route", "method", "status"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "larder_http_request_duration_seconds", Help: "HTTP request latency by route pattern and method.",
			Buckets: prometheus.DefBuckets,
		}, []string{"route", "method"}),
	}
	reg.MustRegister(r.requests, r.latency)
	return r
}

// Prometheus is the underlying registry, for other packages' collectors.
func (r *Registry) Prometheus() *prometheus.Registry { return r.reg }

// Observe records one request: route is the matched pattern
// ("/api/recipes/:id"), never the path, so labels stay few.
func (r *Registry) Observe(route, method string, status int, d time.Duration) {
	r.requests.WithLabelValues(route, method, strconv.Itoa(status)).Inc()
	r.latency.WithLabelValues(route, method).Observe(d.Seconds())
}

// Middleware observes every request of a Fiber app. It runs the error
// handler first (as the request logger does), so the status is the one
// the client got; requests no route matched count under "unmatched".
func (r *Registry) Middleware(errorHandler fiber.ErrorHandler) fiber.Handler {
	return func(c *fiber.Ctx) error {
		start := time.Now()
		if err := c.Next(); err != nil {
			if herr := errorHandler(c, err); herr != nil {
				return herr
			}
		}
		route := "unmatched"
		if rt := c.Route(); rt != nil && rt.Path != "/" && rt.Path != "" {
			route = rt.Path
		}
		r.Observe(route, c.Method(), c.Response().StatusCode(), time.Since(start))
		return nil
	}
}

// WatchPool exports the statistics of a pgx pool.
func (r *Registry) WatchPool(pool *pgxpool.Pool) {
	gauge := func(name, help string, f func(*pgxpool.Stat) float64) {
		r.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "larder_db_pool_" + name, Help: help},
			func() float64 { return f(pool.Stat()) }))
	}
	counter := func(name, help string, f func(*pgxpool.Stat) float64) {
		r.reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "larder_db_pool_" + name, Help: help},
			func() float64 { return f(pool.Stat()) }))
	}
	gauge("connections_acquired", "Connections in use.", func(s *pgxpool.Stat) float64 { return float64(s.AcquiredConns()) })
	gauge("connections_idle", "Idle connections.", func(s *pgxpool.Stat) float64 { return float64(s.IdleConns()) })
	gauge("connections_total", "Open connections.", func(s *pgxpool.Stat) float64 { return float64(s.TotalConns()) })
	gauge("connections_max", "The pool's limit.", func(s *pgxpool.Stat) float64 { return float64(s.MaxConns()) })
	counter("acquires_total", "Connections acquired.", func(s *pgxpool.Stat) float64 { return float64(s.AcquireCount()) })
	counter("acquire_waits_total", "Acquires that had to wait.", func(s *pgxpool.Stat) float64 { return float64(s.EmptyAcquireCount()) })
	counter("acquire_wait_seconds_total", "Time spent waiting to acquire.", func(s *pgxpool.Stat) float64 { return s.AcquireDuration().Seconds() })
}

// Handler serves the metrics in Prometheus's format.
func (r *Registry) Handler() http.Handler {
	return promhttp.HandlerFor(r.reg, promhttp.HandlerOpts{Registry: r.reg})
}

// Protected serves the metrics only to requests with "Authorization:
// Bearer token" (Prometheus's bearer_token setting); an empty token lets
// every request through (the listener is then guarded by the network
// alone).
func (r *Registry) Protected(token string) http.Handler {
	h := r.Handler()
	if token == "" {
		return h
	}
	want := []byte("Bearer " + token)
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if subtle.ConstantTimeCompare([]byte(req.Header.Get("Authorization")), want) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="metrics"`)
			http.Error(w, "metrics need the operator's token (METRICS_TOKEN)", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, req)
	})
}

// Serve serves /metrics on ln until ctx ends, behind token (see Protected).
func (r *Registry) Serve(ctx context.Context, ln net.Listener, token string, logger *slog.Logger) error {
	mux := http.NewServeMux()
	mux.Handle("/metrics", r.Protected(token))
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		srv.Close()
	}()
	logger.Info("metrics listening", "addr", ln.Addr().String())
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
