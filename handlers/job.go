package handlers

import (
	"encoding/json"
	"errors"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"

	"larder/repo"
)

// Job is the job shape of docs/api.md.
type Job struct {
	ID       uuid.UUID `json:"id"`
	Kind     string    `json:"kind"`
	State    string    `json:"state"`
	Progress *float32  `json:"progress"`
	// Stage is what a running job is doing now (an import: fetching,
	// browser, reading, saving, retrying); null when the job does not say.
	Stage *string `json:"stage"`
	// Detail is what a running job reports besides its progress (the
	// archive import: {format, done, total}); omitted when nothing.
	Detail     json.RawMessage `json:"detail,omitempty"`
	Result     json.RawMessage `json:"result"`
	Error      *JobError       `json:"error"`
	CreatedAt  time.Time       `json:"createdAt"`
	FinishedAt *time.Time      `json:"finishedAt"`
}

// JobError is why a job failed.
type JobError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// jobView turns the stored job into its API shape. Our own record of the
// outcome wins over River's state, because River may have pruned its row
// and because a permanent failure is a River "cancel" but an API "failed".
func jobView(j repo.Job) Job {
	v := Job{ID: j.ID, Kind: j.Kind, Progress: j.Progress, Stage: j.Stage, CreatedAt: j.CreatedAt.UTC(), FinishedAt: j.FinishedAt}
	if j.Result != nil {
		v.Result = *j.Result
	}
	if j.ProgressDetail != nil {
		v.Detail = *j.ProgressDetail
	}
	river := ""
	if j.RiverState != nil {
		river = *j.RiverState
	}
	switch {
	case j.ErrorCode != nil:
		v.State = "failed"
		v.Error = &JobError{Code: *j.ErrorCode, Message: deref(j.ErrorMessage)}
	case j.Result != nil:
		v.State = "completed"
	case j.RestoreAbandoned:
		// Its worker went away (repo.GetJob): River still says running
		// until its rescuer looks, hours later.
		v.State = "failed"
		v.Error = &JobError{Code: "interrupted", Message: repo.AbandonedRestoreMessage}
	case river == "running":
		v.State = "running"
	case river == "completed":
		v.State = "completed"
	case river == "discarded" && deref(j.RiverError) == riverRescued:
		// Its last attempt's worker died (a restore has only one).
		v.State = "failed"
		v.Error = &JobError{Code: "interrupted", Message: "the worker running this job stopped before it finished; start it again"}
	case river == "discarded":
		v.State = "failed"
		v.Error = &JobError{Code: "internal", Message: "the job failed; the server log has details"}
	case river == "cancelled":
		v.State = "cancelled"
	case river == "":
		// River pruned a job we have no outcome for: it can no longer finish.
		v.State = "failed"
		v.Error = &JobError{Code: "lost", Message: "the job's record has expired"}
	default: // available, scheduled, pending, retryable: waiting for a worker
		v.State = "queued"
	}
	if v.FinishedAt == nil && (v.State == "completed" || v.State == "failed" || v.State == "cancelled") {
		v.FinishedAt = j.RiverFinalizedAt
	}
	if v.FinishedAt != nil {
		t := v.FinishedAt.UTC()
		v.FinishedAt = &t
	}
	return v
}

// riverRescued is the error River's rescuer records on a job whose worker
// vanished while it ran it.
const riverRescued = "Stuck job rescued by JobRescuer"

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// getJob answers GET /api/jobs/:id, only to the user who started the job or an admin.
func (s *Server) getJob(c *fiber.Ctx) error {
	id, err := uuid.Parse(c.Params("id"))
	if err != nil {
		return errNotFound("job")
	}
	j, err := repo.GetJob(c.UserContext(), s.DB, id)
	if errors.Is(err, repo.ErrNotFound) {
		return errNotFound("job")
	}
	if err != nil {
		return err
	}
	me := caller(c)
	if !me.IsAdmin() && (j.UserID == nil || *j.UserID != me.ID) {
		return errNotFound("job") // never reveal someone else's job exists
	}
	return c.JSON(jobView(j))
}

// accepted answers 202 with the job just enqueued.
func (s *Server) accepted(c *fiber.Ctx, jobID uuid.UUID) error {
	j, err := repo.GetJob(c.UserContext(), s.DB, jobID)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusAccepted).JSON(fiber.Map{"job": jobView(j)})
}
