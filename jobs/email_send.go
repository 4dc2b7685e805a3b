package jobs

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"net/url"
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river"

	"larder/config"
	"larder/mailer"
	"larder/repo"
	"larder/token"
)

// Email templates SendEmailArgs can send.
const (
	EmailVerify        = "verify_email"
	EmailResetPassword = "reset_password"
)

// Lifetimes of the emailed links.
const (
	VerifyEmailTTL   = 24 * time.Hour
	ResetPasswordTTL = time.Hour
)

// SendEmailArgs sends one of the account emails to a user. It carries the
// user's id and the template, not the message: the link's token is made
// when the job runs and exists in clear only in the email, never in the
// database, the job's arguments included.
type SendEmailArgs struct {
	Template string    `json:"template"`
	UserID   uuid.UUID `json:"userId"`
}

// Kind is the stable job kind.
func (SendEmailArgs) Kind() string { return "email_send" }

// InsertOpts puts the job on the email queue. Eight attempts with
// SendEmailWorker.NextRetry's backoff span about an hour, enough to ride
// out a mail server's restart or a greylisting delay.
func (SendEmailArgs) InsertOpts() river.InsertOpts { return queueOpts(config.QueueEmail, 8) }

// SendEmailWorker runs SendEmailArgs.
type SendEmailWorker struct {
	river.WorkerDefaults[SendEmailArgs]
	deps *Deps
}

// NextRetry backs off exponentially: 15 s, 30 s, 1 min, ... at most 30 min.
func (w *SendEmailWorker) NextRetry(job *river.Job[SendEmailArgs]) time.Time {
	return time.Now().Add(emailBackoff(job.Attempt))
}

func emailBackoff(attempt int) time.Duration {
	d := 15 * time.Second
	for i := 1; i < attempt && d < 30*time.Minute; i++ {
		d *= 2
	}
	return min(d, 30*time.Minute)
}

// Timeout bounds one attempt; the SMTP exchange has its own, shorter deadlines.
func (w *SendEmailWorker) Timeout(*river.Job[SendEmailArgs]) time.Duration {
	return w.deps.timeLimit(2 * time.Minute)
}

// Work makes a fresh token, stores its hash, and sends the email with the
// link. A failed attempt leaves no live token behind; the retry makes a new one.
func (w *SendEmailWorker) Work(ctx context.Context, job *river.Job[SendEmailArgs]) error {
	result, err := w.send(ctx, job.Args)
	return w.deps.recorder().finish(ctx, job.JobRow, result, err)
}

func (w *SendEmailWorker) send(ctx context.Context, args SendEmailArgs) (map[string]any, error) {
	var purpose string
	var ttl time.Duration
	switch args.Template {
	case EmailVerify:
		purpose, ttl = repo.PurposeVerifyEmail, VerifyEmailTTL
	case EmailResetPassword:
		purpose, ttl = repo.PurposeResetPassword, ResetPasswordTTL
	default:
		return nil, Fail("unknown_template", fmt.Sprintf("no email template %q", args.Template))
	}
	user, err := repo.GetUser(ctx, w.deps.DB, args.UserID)
	if errors.Is(err, repo.ErrNotFound) {
		return map[string]any{"sent": false, "reason": "the account no longer exists"}, nil
	}
	if err != nil {
		return nil, err
	}
	// The state may have changed since the job was queued.
	switch {
	case args.Template == EmailVerify && user.EmailVerified:
		return map[string]any{"sent": false, "reason": "the address is already verified"}, nil
	case args.Template == EmailResetPassword && user.PasswordHash == nil:
		return map[string]any{"sent": false, "reason": "the account signs in through its identity provider"}, nil
	}

	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return nil, err
	}
	tok := base64.RawURLEncoding.EncodeToString(raw)
	var msg mailer.Message
	switch args.Template {
	case EmailVerify:
		msg = mailer.VerificationEmail(user.Email, user.Name, w.deps.Config.AppURL+"/verify-email/"+tok, ttl)
	case EmailResetPassword:
		msg = mailer.PasswordResetEmail(user.Email, user.Name, w.deps.Config.AppURL+"/reset-password?token="+url.QueryEscape(tok), ttl)
	}

	// The token is committed before the message leaves: the link must work
	// the moment the email arrives. If sending fails, the token is deleted
	// again (and would be harmless anyway: nobody has seen it, and the
	// retry's new token replaces it).
	hash := token.Hash(tok)
	if err := repo.CreateVerificationToken(ctx, w.deps.DB, repo.CreateVerificationTokenParams{
		TokenHash: hash, UserID: user.ID, Purpose: purpose, ExpiresAt: time.Now().Add(ttl),
	}); err != nil {
		return nil, err
	}
	err = w.deps.mailer().Send(ctx, msg)
	if err != nil {
		if derr := repo.DeleteVerificationToken(context.WithoutCancel(ctx), w.deps.DB, hash); derr != nil {
			w.deps.Logger.WarnContext(ctx, "delete the token of an unsent email", "user_id", user.ID, "error", derr)
		}
	}
	var se *mailer.Error
	if errors.As(err, &se) && se.Permanent() {
		return nil, Fail("email_refused", fmt.Sprintf("the mail server refused the message (%d %s)", se.Code, se.Message))
	}
	if err != nil {
		return nil, fmt.Errorf("send %s email: %w", args.Template, err)
	}
	return map[string]any{"sent": true}, nil
}

// mailer returns the configured mailer; without one, mail goes to the log
// rather than nowhere.
func (d *Deps) mailer() mailer.Mailer {
	if d.Mailer != nil {
		return d.Mailer
	}
	return &mailer.Log{Logger: d.Logger}
}
