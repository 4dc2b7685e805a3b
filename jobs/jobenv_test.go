package jobs

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivertest"
	"github.com/riverqueue/river/rivertype"

	"larder/config"
	"larder/filestore"
	"larder/repo"
	"larder/repo/repotest"
)

// The setup every job test shares: a migrated database of its own, the
// default configuration with its directories in a temporary one, a local
// file store, Deps, the queue the API enqueues with, and a user; and the
// steps of a job's life as the service takes them (enqueue with its app_job
// row, work one attempt, read what app_job recorded).

type jobEnv struct {
	db    *pgxpool.Pool
	files filestore.Local
	deps  *Deps
	q     *Queue
	user  repo.User
}

// newJobEnv makes the environment on a fresh database.
func newJobEnv(t testing.TB) *jobEnv {
	t.Helper()
	return newJobEnvOn(t, repotest.DB(t))
}

// newJobEnvOn makes the environment on db, which several environments may
// share; each has its own user, file store and directories.
func newJobEnvOn(t testing.TB, db *pgxpool.Pool) *jobEnv {
	t.Helper()
	logger := discardLogger()
	cfg, err := config.Load(func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	cfg.DataDir = t.TempDir()
	cfg.UploadPath, cfg.BackupPath = filepath.Join(cfg.DataDir, "uploads"), filepath.Join(cfg.DataDir, "backups")
	files := filestore.Local{Root: t.TempDir()}
	q, err := NewQueue(db, logger)
	if err != nil {
		t.Fatal(err)
	}
	presence, err := OpenPresence(context.Background(), db, logger)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(presence.Close)
	return &jobEnv{
		db: db, files: files, q: q,
		deps: &Deps{DB: db, Logger: logger, Config: cfg, Files: files, Presence: presence},
		user: repotest.CreateUser(t, db, repo.RoleUser),
	}
}

func discardLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// enqueue inserts the job as the API does, for the environment's user, and
// returns River's row. also, if not nil, runs in the same transaction with
// the job's app_job id.
func (e *jobEnv) enqueue(t testing.TB, args river.JobArgs, also func(context.Context, pgx.Tx, uuid.UUID) error) *rivertype.JobRow {
	t.Helper()
	return e.enqueueAs(t, &e.user.ID, args, also)
}

// enqueueAs is enqueue for userID (nil: a job of the system).
func (e *jobEnv) enqueueAs(t testing.TB, userID *uuid.UUID, args river.JobArgs, also func(context.Context, pgx.Tx, uuid.UUID) error) *rivertype.JobRow {
	t.Helper()
	ctx := context.Background()
	var riverID int64
	err := pgx.BeginFunc(ctx, e.db, func(tx pgx.Tx) error {
		id, err := e.q.Enqueue(ctx, tx, userID, args)
		if err != nil {
			return err
		}
		if also != nil {
			if err := also(ctx, tx, id); err != nil {
				return err
			}
		}
		return tx.QueryRow(ctx, `SELECT river_job_id FROM app_job WHERE id = $1`, id).Scan(&riverID)
	})
	if err != nil {
		t.Fatal(err)
	}
	return e.row(t, riverID)
}

// row is River's current row of job riverID.
func (e *jobEnv) row(t testing.TB, riverID int64) *rivertype.JobRow {
	t.Helper()
	row, err := e.q.client.JobGet(context.Background(), riverID)
	if err != nil {
		t.Fatal(err)
	}
	return row
}

// workJob works one attempt of a River job with the worker, as a River
// client would, and commits what River recorded.
func workJob[T river.JobArgs](t testing.TB, db *pgxpool.Pool, w river.Worker[T], row *rivertype.JobRow) *rivertest.WorkResult {
	t.Helper()
	ctx := context.Background()
	tw := rivertest.NewWorker(t, riverpgxv5.New(db), &river.Config{Logger: discardLogger()}, w)
	tx, err := db.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx) //nolint:errcheck
	res, err := tw.WorkJob(ctx, t, tx, row)
	if err != nil && res == nil {
		t.Fatal(err)
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	return res
}

// jobOutcome is what app_job recorded for a job.
type jobOutcome struct {
	ID       uuid.UUID
	Result   json.RawMessage
	Code     *string
	Message  *string
	Progress *float32
	UserID   *uuid.UUID
	Stage    *string
}

// outcome is what app_job recorded for River job riverID.
func (e *jobEnv) outcome(t testing.TB, riverID int64) jobOutcome {
	t.Helper()
	var o jobOutcome
	if err := e.db.QueryRow(context.Background(), `SELECT id, result, error_code, error_message, progress, user_id, stage
		FROM app_job WHERE river_job_id = $1`, riverID).Scan(&o.ID, &o.Result, &o.Code, &o.Message, &o.Progress, &o.UserID, &o.Stage); err != nil {
		t.Fatal(err)
	}
	return o
}

// storedKeys lists the file store, sorted.
func (e *jobEnv) storedKeys(t testing.TB) []string {
	t.Helper()
	var keys []string
	if err := e.files.Walk(context.Background(), func(key string, _ int64) error {
		keys = append(keys, key)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	slices.Sort(keys)
	return keys
}

// derefOr is *s, or "<nil>" for a message.
func derefOr(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}
