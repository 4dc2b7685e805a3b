package jobs

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"larder/repo"
)

// A worker killed in the middle of a job of any kind loses nothing: once
// the job has been running for longer than any kind may take (a day here,
// against limits of minutes to hours), River's rescuer hands it back to
// the queue (or, for a restore, which never runs again by itself, ends it).
// A kind without a finite time limit would stay "running" for ever.
func TestEveryKindIsRescuedAfterItsWorkerDied(t *testing.T) {
	t.Parallel()
	e := newJobEnv(t)
	ctx := context.Background()
	user := e.user.ID
	// One job of every kind NewWorkers registers, inserted as the service does.
	all := []river.JobArgs{
		PurgeExpiredArgs{},
		ProcessImageArgs{Target: repo.RecipeImage, ID: uuid.New(), ImageKey: "recipes/ab/photo.jpg"},
		SendEmailArgs{Template: "verify", UserID: user},
		DownloadCookbookImageArgs{CookbookID: uuid.New(), UserID: user, URL: "https://example.com/a.jpg"},
		BackupCreateArgs{},
		BackupRestoreArgs{Name: "backup-20250102T030405Z.zip"},
		GenerateMappingsArgs{RecipeID: uuid.New()},
		ImportRecipeArgs{UserID: user, URL: "https://example.com/soup"},
		DownloadRecipeImageArgs{RecipeID: uuid.New(), UserID: user, URL: "https://example.com/b.jpg"},
		ImportArchiveArgs{UserID: user, FileKey: "imports/x.zip", FileName: "x.zip", Visibility: "private"},
	}
	ids := map[string]int64{}
	for _, args := range all {
		ids[args.Kind()] = e.enqueue(t, args, nil).ID
	}
	// Every job was taken by a worker a day ago, which then died: River's
	// row still says running.
	if _, err := e.db.Exec(ctx, `UPDATE river_job SET state = 'running', attempt = 1,
		attempted_at = now() - interval '1 day', attempted_by = '{killed-worker}'`); err != nil {
		t.Fatal(err)
	}

	// A live worker process leads; it works a queue none of these are on,
	// so what happens to them is the rescuer's doing alone.
	client, err := NewClient(e.db, discardLogger(), NewWorkers(e.deps), ClientConfig{
		Concurrency: map[string]int{"rescue_test_unworked": 1},
		RescueAfter: time.Hour,
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := client.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = client.Stop(context.Background()) })

	// The rescuer updates every stuck job of its pass at once: when the
	// first has moved, the pass is over.
	states := func() map[string]rivertype.JobState {
		out := map[string]rivertype.JobState{}
		for kind, id := range ids {
			out[kind] = e.row(t, id).State
		}
		return out
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		moved := false
		for _, s := range states() {
			moved = moved || s != rivertype.JobStateRunning
		}
		if moved {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the rescuer rescued nothing within a minute")
		}
		time.Sleep(50 * time.Millisecond)
	}
	for kind, state := range states() {
		if kind == (BackupRestoreArgs{}).Kind() {
			// A single attempt: the administrator starts it again.
			if state != rivertype.JobStateDiscarded {
				t.Errorf("%s: %s a day after its worker died, want discarded", kind, state)
			}
			continue
		}
		// Rescued for another attempt: retryable, or already available
		// again once River's scheduler has seen its retry time pass (its
		// first retry waits about a second, so a loaded machine sees both).
		if state != rivertype.JobStateRetryable && state != rivertype.JobStateAvailable {
			t.Errorf("%s: %s a day after its worker died, want retryable or available", kind, state)
		}
	}
}

// A kind registered without a time limit of its own could never be
// rescued; NewWorkers refuses it rather than let it in.
func TestAddWorkerRefusesAKindWithoutTimeLimit(t *testing.T) {
	t.Parallel()
	defer func() {
		if recover() == nil {
			t.Fatal("a worker without a time limit was registered")
		}
	}()
	addWorker(river.NewWorkers(), river.WorkFunc(func(context.Context, *river.Job[noLimitArgs]) error { return nil }))
}

type noLimitArgs struct{}

func (noLimitArgs) Kind() string { return "no_limit_test" }
