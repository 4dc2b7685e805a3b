package repo

import (
	"context"
	"fmt"
)

// QueueDepth counts the River jobs waiting or running, by queue and state
// (available, scheduled, retryable, running), for the metrics.
func QueueDepth(ctx context.Context, db DBTX) (map[[2]string]int64, error) {
	rows, err := db.Query(ctx, `SELECT queue, state::text, count(*) FROM river_job
		WHERE state IN ('available', 'scheduled', 'retryable', 'running') GROUP BY 1, 2`)
	if err != nil {
		return nil, fmt.Errorf("queue depth: %w", err)
	}
	defer rows.Close()
	out := map[[2]string]int64{}
	for rows.Next() {
		var q, st string
		var n int64
		if err := rows.Scan(&q, &st, &n); err != nil {
			return nil, fmt.Errorf("queue depth: %w", err)
		}
		out[[2]string{q, st}] = n
	}
	return out, rows.Err()
}
