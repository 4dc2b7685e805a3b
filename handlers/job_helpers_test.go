package handlers

import (
	"testing"
	"time"

	"github.com/google/uuid"
)

// The one way tests wait for background work: the jobs run in a real River
// client, so the test polls what the API reports until it changes.

// eventually polls until ok holds, failing after 30 s.
func eventually(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// finishedJob waits for the job to end and returns it.
func finishedJob(t *testing.T, b *testBundle, tok string, id uuid.UUID) Job {
	t.Helper()
	var j Job
	eventually(t, "job "+id.String(), func() bool {
		j = Job{}
		b.do(t, "GET", "/api/jobs/"+id.String(), nil, tok).JSON(t, &j)
		return j.State == "completed" || j.State == "failed" || j.State == "cancelled"
	})
	return j
}

// completedJob waits for the job to end and wants it completed.
func completedJob(t *testing.T, b *testBundle, tok string, id uuid.UUID) Job {
	t.Helper()
	j := finishedJob(t, b, tok, id)
	if j.State != "completed" {
		t.Fatalf("job %s %s: %+v", id, j.State, j.Error)
	}
	return j
}
