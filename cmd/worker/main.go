// Command worker runs background jobs (import, images, mapping, email,
// backup) against the shared PostgreSQL. Run several, each with the queues
// and concurrency it should handle, to scale each kind of work on its own:
//
//	worker --queues import --import-concurrency 4
//	worker --queues images,mapping,email,backup
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"larder/boot"
	"larder/config"
	"larder/jobs"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "worker:", err)
		os.Exit(1)
	}
}

func run() error {
	cfg := boot.Config()
	fs := flag.NewFlagSet("worker", flag.ExitOnError)
	queueList := fs.String("queues", strings.Join(config.Queues, ","), "comma-separated queues to work")
	concurrency := map[string]*int{}
	for _, q := range config.Queues {
		concurrency[q] = fs.Int(q+"-concurrency", cfg.QueueConcurrency[q],
			fmt.Sprintf("jobs of the %s queue run at once (env WORKER_%s_CONCURRENCY)", q, strings.ToUpper(q)))
	}
	healthcheck := fs.Bool("healthcheck", false, "check this process's dependencies (and, for the API, its /api/ready) and exit 0 when healthy: the container health check")
	grace := fs.Duration("shutdown-grace", 30*time.Second, "how long running jobs may finish after SIGTERM before they are handed back to the queue")
	_ = fs.Parse(os.Args[1:])
	if *healthcheck {
		if err := boot.Healthcheck(cfg, false); err != nil {
			return fmt.Errorf("healthcheck: %w", err)
		}
		return nil
	}

	queues, err := selectQueues(*queueList, concurrency)
	if err != nil {
		return err
	}
	logger := boot.Logger(cfg, "worker")
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()

	pool, err := boot.Database(ctx, cfg, logger, 0)
	if err != nil {
		return err
	}
	defer pool.Close()
	reg, err := boot.Metrics(ctx, cfg, pool, logger)
	if err != nil {
		return err
	}
	client, closeDeps, err := boot.Workers(cfg, pool, logger, queues, reg)
	if err != nil {
		return err
	}
	defer closeDeps()
	if err := client.Start(context.WithoutCancel(ctx)); err != nil {
		return fmt.Errorf("start workers: %w", err)
	}
	logger.Info("working", "queues", queues)
	<-ctx.Done()
	logger.Info("stopping: running jobs get a grace period", "grace", *grace)
	return jobs.Shutdown(client, *grace)
}

// selectQueues returns the concurrency of each chosen queue.
func selectQueues(list string, concurrency map[string]*int) (map[string]int, error) {
	out := map[string]int{}
	for _, q := range strings.Split(list, ",") {
		q = strings.TrimSpace(q)
		if q == "" {
			continue
		}
		n, ok := concurrency[q]
		if !ok {
			return nil, fmt.Errorf("--queues: unknown queue %q (known: %s)", q, strings.Join(config.Queues, ", "))
		}
		out[q] = *n
	}
	return out, nil
}
