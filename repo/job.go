package repo

import (
	"context"
	"encoding/json"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
)

// Job is the public view of a background job: app_job joined with River's
// row while River still has it.
type Job struct {
	ID       uuid.UUID  `db:"id"`
	UserID   *uuid.UUID `db:"user_id"`
	Kind     string     `db:"kind"`
	Progress *float32   `db:"progress"`
	// ProgressDetail is what a running job reports besides its progress
	// (SetJobProgressDetail), nil when it reports nothing.
	ProgressDetail *json.RawMessage `db:"progress_detail"`
	// Stage is what the running job is doing now (SetJobStage), or nil.
	Stage        *string          `db:"stage"`
	Result       *json.RawMessage `db:"result"`
	ErrorCode    *string          `db:"error_code"`
	ErrorMessage *string          `db:"error_message"`
	CreatedAt    time.Time        `db:"created_at"`
	FinishedAt   *time.Time       `db:"finished_at"`
	// RiverState is River's state (available, running, completed, ...), or
	// nil once River has pruned its row.
	RiverState *string `db:"river_state"`
	// RiverError is the last attempt's error message recorded by River.
	RiverError *string `db:"river_error"`
	// RiverFinalizedAt is when River finished the job.
	RiverFinalizedAt *time.Time `db:"river_finalized_at"`
	// RiverAttemptedBy is the River client ID of the worker process that
	// took the job's last attempt (nil before any).
	RiverAttemptedBy *string `db:"river_attempted_by"`
	// RiverAttemptedAt is when that attempt began.
	RiverAttemptedAt *time.Time `db:"river_attempted_at"`
	// RestoreLockPID is the session that holds the restore lock for a
	// restore's attempt (ClaimRestore), nil for other kinds and before
	// the claim.
	RestoreLockPID *int32 `db:"restore_lock_pid"`
	// RestoreAbandoned means a restore lost its worker before it
	// finished, and changed nothing (restoreWorkerGone).
	RestoreAbandoned bool `db:"-"`
}

// CreateJob records who started River job riverJobID, in the same
// transaction as the River insert.
func CreateJob(ctx context.Context, db DBTX, riverJobID int64, userID *uuid.UUID, kind string) (uuid.UUID, error) {
	var id uuid.UUID
	err := db.QueryRow(ctx, `INSERT INTO app_job (river_job_id, user_id, kind) VALUES ($1, $2, $3) RETURNING id`,
		riverJobID, userID, kind).Scan(&id)
	return id, wrap("create job", err)
}

// GetJobIDByRiverID returns the public id of River job riverJobID.
func GetJobIDByRiverID(ctx context.Context, db DBTX, riverJobID int64) (uuid.UUID, error) {
	var id uuid.UUID
	err := db.QueryRow(ctx, `SELECT id FROM app_job WHERE river_job_id = $1`, riverJobID).Scan(&id)
	return id, wrap("get job by river id", err)
}

// GetJob returns a job by its public id, with RestoreAbandoned worked out.
//
// The check of a restore's worker reads pg_locks, which is no snapshot, after
// the row: the restore may have claimed the job, or recorded its outcome, and
// then given up the lock that the check found gone. So after a check that
// finds the worker gone, the row is read again; when it changed (a claim), the
// check is repeated on it. A claim happens once and an outcome is final, so
// this ends within three reads.
func GetJob(ctx context.Context, db DBTX, id uuid.UUID) (Job, error) {
	j, err := getJob(ctx, db, id)
	for err == nil && j.Kind == RestoreJobKind && j.Result == nil && j.ErrorCode == nil {
		gone, err := restoreWorkerGoneFor(ctx, db, j)
		if err != nil || !gone {
			return j, err
		}
		again, err := getJob(ctx, db, id)
		if err != nil {
			return again, err
		}
		if samePID(again.RestoreLockPID, j.RestoreLockPID) {
			again.RestoreAbandoned = again.Result == nil && again.ErrorCode == nil
			return again, nil
		}
		j = again
	}
	return j, err
}

func samePID(a, b *int32) bool {
	return (a == nil) == (b == nil) && (a == nil || *a == *b)
}

func getJob(ctx context.Context, db DBTX, id uuid.UUID) (Job, error) {
	rows, _ := db.Query(ctx, `
		SELECT j.id, j.user_id, j.kind, j.progress, j.stage, j.progress_detail, j.result, j.error_code, j.error_message, j.created_at, j.finished_at,
		       j.restore_lock_pid,
		       r.state::text AS river_state,
		       r.attempted_by[array_upper(r.attempted_by, 1)] AS river_attempted_by,
		       r.attempted_at AS river_attempted_at,
		       r.errors[array_upper(r.errors, 1)]->>'error' AS river_error,
		       r.finalized_at AS river_finalized_at
		FROM app_job j LEFT JOIN river_job r ON r.id = j.river_job_id
		WHERE j.id = $1`, id)
	j, err := pgx.CollectExactlyOneRow(rows, pgx.RowToStructByName[Job])
	return j, wrap("get job "+id.String(), err)
}

// SetJobProgress records a running job's progress (0..1).
func SetJobProgress(ctx context.Context, db DBTX, riverJobID int64, progress float64) error {
	_, err := db.Exec(ctx, `UPDATE app_job SET progress = $2 WHERE river_job_id = $1`, riverJobID, progress)
	return wrap("set job progress", err)
}

// SetJobStage records what a running job is doing now.
func SetJobStage(ctx context.Context, db DBTX, riverJobID int64, stage string) error {
	_, err := db.Exec(ctx, `UPDATE app_job SET stage = $2 WHERE river_job_id = $1`, riverJobID, stage)
	return wrap("set job stage", err)
}

// CompleteJob stores a job's result.
func CompleteJob(ctx context.Context, db DBTX, riverJobID int64, result json.RawMessage) error {
	_, err := db.Exec(ctx, `UPDATE app_job SET result = $2, progress = 1, error_code = NULL, error_message = NULL, finished_at = now()
		WHERE river_job_id = $1`, riverJobID, result)
	return wrap("complete job", err)
}

// FailJob stores the error that ended a job for good.
func FailJob(ctx context.Context, db DBTX, riverJobID int64, code, message string) error {
	_, err := db.Exec(ctx, `UPDATE app_job SET error_code = $2, error_message = $3, finished_at = now() WHERE river_job_id = $1`,
		riverJobID, code, message)
	return wrap("fail job", err)
}

// PurgeExpired deletes expired refresh and verification tokens and job
// records finished more than 30 days ago, returning how many rows went.
func PurgeExpired(ctx context.Context, db DBTX) (int64, error) {
	var n int64
	err := db.QueryRow(ctx, `
		WITH a AS (DELETE FROM refresh_token WHERE expires_at < now() RETURNING 1),
		     b AS (DELETE FROM verification_token WHERE expires_at < now() - interval '1 day' RETURNING 1),
		     c AS (DELETE FROM app_job WHERE finished_at < now() - interval '30 days' RETURNING 1)
		SELECT (SELECT count(*) FROM a) + (SELECT count(*) FROM b) + (SELECT count(*) FROM c)`).Scan(&n)
	return n, wrap("purge expired", err)
}
