package jobs

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertest"
	"github.com/riverqueue/river/rivertype"

	"larder/config"
	"larder/mailer"
	"larder/mailer/mailertest"
	"larder/repo"
	"larder/token"
)

// emailBundle is the job environment with the mail job's SMTP server.
type emailBundle struct {
	*jobEnv
	smtp *mailertest.Server
}

func emailSetup(t *testing.T) *emailBundle {
	t.Helper()
	e := newJobEnv(t)
	srv := mailertest.NewServer(t)
	e.deps.Config.AppURL = "https://recipes.example.test"
	e.deps.Mailer = &mailer.SMTP{Config: srv.Config()}
	return &emailBundle{jobEnv: e, smtp: srv}
}

// enqueue inserts the job for the user it mails, as the API does.
func (b *emailBundle) enqueue(t *testing.T, args SendEmailArgs) *rivertype.JobRow {
	t.Helper()
	return b.enqueueAs(t, &args.UserID, args, nil)
}

// work runs one attempt of the job and commits what River recorded.
func (b *emailBundle) work(t *testing.T, row *rivertype.JobRow) *rivertest.WorkResult {
	t.Helper()
	return workJob[SendEmailArgs](t, b.db, &SendEmailWorker{deps: b.deps}, row)
}

func (b *emailBundle) tokens(t *testing.T, userID any) []repo.CreateVerificationTokenParams {
	t.Helper()
	rows, _ := b.db.Query(context.Background(), `SELECT token_hash, user_id, purpose, expires_at FROM verification_token WHERE user_id = $1`, userID)
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (repo.CreateVerificationTokenParams, error) {
		var p repo.CreateVerificationTokenParams
		err := r.Scan(&p.TokenHash, &p.UserID, &p.Purpose, &p.ExpiresAt)
		return p, err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func newUser(t *testing.T, db *pgxpool.Pool, verified bool, hash *string) repo.User {
	t.Helper()
	u, err := repo.CreateUser(context.Background(), db, repo.CreateUserParams{
		Email: "cook-" + uuid.NewString()[:8] + "@example.test", Name: "Ada Cook", PasswordHash: hash, EmailVerified: verified,
	})
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func TestSendEmailSendsTheLinks(t *testing.T) {
	t.Parallel()
	hash := "$2a$04$x"
	tests := []struct {
		template string
		purpose  string
		ttl      time.Duration
		subject  string
		link     func(tok string) string
	}{
		{EmailVerify, repo.PurposeVerifyEmail, 24 * time.Hour, "Confirm your email address for Larder",
			func(tok string) string { return "https://recipes.example.test/verify-email/" + tok }},
		{EmailResetPassword, repo.PurposeResetPassword, time.Hour, "Reset your Larder password",
			func(tok string) string { return "https://recipes.example.test/reset-password?token=" + tok }},
	}
	for _, tt := range tests {
		t.Run(tt.template, func(t *testing.T) {
			t.Parallel()
			b := emailSetup(t)
			u := newUser(t, b.db, false, &hash)
			row := b.enqueue(t, SendEmailArgs{Template: tt.template, UserID: u.ID})
			if row.Queue != config.QueueEmail || row.MaxAttempts != 8 {
				t.Errorf("queue %s, max attempts %d", row.Queue, row.MaxAttempts)
			}
			// The arguments carry no token, no link, no password.
			if strings.Contains(string(row.EncodedArgs), "token") || strings.Contains(string(row.EncodedArgs), "http") {
				t.Errorf("args: %s", row.EncodedArgs)
			}
			res := b.work(t, row)
			if res.EventKind != river.EventKindJobCompleted {
				t.Fatalf("event %s: %v", res.EventKind, res.Job.Errors)
			}
			msg := b.smtp.Next(t, 10*time.Second)
			if len(msg.To) != 1 || msg.To[0] != u.Email {
				t.Errorf("sent to %v", msg.To)
			}
			p := msg.Parse(t)
			if p.Subject != tt.subject {
				t.Errorf("subject %q", p.Subject)
			}
			links := mailertest.Links(p.Text)
			if len(links) != 1 {
				t.Fatalf("text links: %v", links)
			}
			if html := mailertest.Links(strings.ReplaceAll(p.HTML, "&amp;", "&")); len(html) != 1 || html[0] != links[0] {
				t.Errorf("html links %v, text links %v", html, links)
			}
			u2, _ := url.Parse(links[0])
			tok := strings.TrimPrefix(u2.Path, "/verify-email/")
			if tt.template == EmailResetPassword {
				tok = u2.Query().Get("token")
			}
			if links[0] != tt.link(tok) || len(tok) != 43 {
				t.Errorf("link %s (token %q)", links[0], tok)
			}
			stored := b.tokens(t, u.ID)
			if len(stored) != 1 || string(stored[0].TokenHash) != string(token.Hash(tok)) || stored[0].Purpose != tt.purpose {
				t.Fatalf("stored tokens: %+v", stored)
			}
			if d := time.Until(stored[0].ExpiresAt); d < tt.ttl-time.Minute || d > tt.ttl {
				t.Errorf("expires in %s, want %s", d, tt.ttl)
			}
			result := b.outcome(t, row.ID).Result
			if string(result) != `{"sent": true}` {
				t.Errorf("job result %s", result)
			}
		})
	}
}

// A mail server that refuses for now makes the job fail this attempt and
// come back later; the failed attempt leaves no live token behind.
func TestSendEmailRetriesWhenRefused(t *testing.T) {
	t.Parallel()
	b := emailSetup(t)
	hash := "$2a$04$x"
	u := newUser(t, b.db, false, &hash)
	b.smtp.SetMode(mailertest.RefuseTemp)
	row := b.enqueue(t, SendEmailArgs{Template: EmailVerify, UserID: u.ID})
	res := b.work(t, row)
	if res.EventKind != river.EventKindJobFailed || res.Job.State != rivertype.JobStateRetryable {
		t.Fatalf("first attempt: %s %s", res.EventKind, res.Job.State)
	}
	if wait := time.Until(res.Job.ScheduledAt); wait < 10*time.Second || wait > 20*time.Second {
		t.Errorf("retry in %s, want about 15s", wait)
	}
	if len(res.Job.Errors) != 1 || !strings.Contains(res.Job.Errors[0].Error, "451") {
		t.Errorf("recorded errors: %+v", res.Job.Errors)
	}
	if n := len(b.tokens(t, u.ID)); n != 0 {
		t.Fatalf("%d tokens left by the failed attempt", n)
	}

	b.smtp.SetMode(mailertest.Accept)
	res = b.work(t, res.Job)
	if res.EventKind != river.EventKindJobCompleted || res.Job.Attempt != 2 {
		t.Fatalf("second attempt: %s attempt %d", res.EventKind, res.Job.Attempt)
	}
	b.smtp.Next(t, 10*time.Second)
	if n := len(b.tokens(t, u.ID)); n != 1 {
		t.Fatalf("%d tokens after the successful attempt", n)
	}
}

// A permanent refusal ends the job at once, with an error a person can read.
func TestSendEmailPermanentRefusal(t *testing.T) {
	t.Parallel()
	b := emailSetup(t)
	hash := "$2a$04$x"
	u := newUser(t, b.db, false, &hash)
	b.smtp.SetMode(mailertest.RefusePerm)
	row := b.enqueue(t, SendEmailArgs{Template: EmailVerify, UserID: u.ID})
	res := b.work(t, row)
	if res.EventKind != river.EventKindJobCancelled {
		t.Fatalf("event %s", res.EventKind)
	}
	o := b.outcome(t, row.ID)
	if derefOr(o.Code) != "email_refused" || !strings.Contains(derefOr(o.Message), "550") {
		t.Errorf("job error %s: %s", derefOr(o.Code), derefOr(o.Message))
	}
}

// Nothing is sent when the state changed since the job was queued, or the
// template is unknown.
func TestSendEmailSkips(t *testing.T) {
	t.Parallel()
	b := emailSetup(t)
	hash := "$2a$04$x"
	verified := newUser(t, b.db, true, &hash)
	idpOnly, err := repo.CreateUser(context.Background(), b.db, repo.CreateUserParams{Email: "idp@example.test", EmailVerified: true})
	if err != nil {
		t.Fatal(err)
	}
	gone := newUser(t, b.db, false, &hash)
	if _, err := b.db.Exec(context.Background(), `DELETE FROM app_user WHERE id = $1`, gone.ID); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		args  SendEmailArgs
		event river.EventKind
	}{
		{"already verified", SendEmailArgs{Template: EmailVerify, UserID: verified.ID}, river.EventKindJobCompleted},
		{"no local password", SendEmailArgs{Template: EmailResetPassword, UserID: idpOnly.ID}, river.EventKindJobCompleted},
		{"deleted user", SendEmailArgs{Template: EmailResetPassword, UserID: gone.ID}, river.EventKindJobCompleted},
		{"unknown template", SendEmailArgs{Template: "welcome", UserID: verified.ID}, river.EventKindJobCancelled},
	}
	for _, tt := range tests {
		var row *rivertype.JobRow
		if tt.name == "deleted user" {
			// The API cannot enqueue for a user that does not exist; insert directly.
			res, err := b.q.client.Insert(context.Background(), tt.args, nil)
			if err != nil {
				t.Fatal(err)
			}
			row = res.Job
		} else {
			row = b.enqueue(t, tt.args)
		}
		if res := b.work(t, row); res.EventKind != tt.event {
			t.Errorf("%s: event %s", tt.name, res.EventKind)
		}
	}
	if b.smtp.Connections() != 0 {
		t.Errorf("%d connections to the mail server", b.smtp.Connections())
	}
}

func TestEmailBackoff(t *testing.T) {
	t.Parallel()
	want := []time.Duration{15 * time.Second, 30 * time.Second, time.Minute, 2 * time.Minute, 4 * time.Minute, 8 * time.Minute, 16 * time.Minute, 30 * time.Minute, 30 * time.Minute}
	for i, w := range want {
		if got := emailBackoff(i + 1); got != w {
			t.Errorf("attempt %d: %s, want %s", i+1, got, w)
		}
	}
}
