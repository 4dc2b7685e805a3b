package mailer_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"larder/config"
	"larder/mailer"
	"larder/mailer/mailertest"
)

func TestSMTPSendsBothParts(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		opts mailertest.Options
		user string
	}{
		{name: "plain", opts: mailertest.Options{}},
		{name: "plain with auth on loopback", opts: mailertest.Options{}, user: "larder"},
		{name: "starttls", opts: mailertest.Options{STARTTLS: true}, user: "larder"},
		{name: "implicit tls", opts: mailertest.Options{ImplicitTLS: true}, user: "larder"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := mailertest.NewServer(t, tt.opts)
			cfg := srv.Config()
			cfg.User, cfg.Password = tt.user, "s3cret"
			m := &mailer.SMTP{Config: cfg, TLSConfig: srv.TLSConfig()}
			msg := mailer.VerificationEmail("Cook <cook@example.test>", "Ada <Lovelace>", "http://app.test/verify-email/abc_DEF-123", 24*time.Hour)
			if err := m.Send(context.Background(), msg); err != nil {
				t.Fatal(err)
			}
			got := srv.Next(t, 10*time.Second)
			if got.From != "no-reply@larder.test" || len(got.To) != 1 || got.To[0] != "cook@example.test" {
				t.Errorf("envelope: from %q to %v", got.From, got.To)
			}
			if wantTLS := tt.opts.STARTTLS || tt.opts.ImplicitTLS; got.TLS != wantTLS {
				t.Errorf("TLS = %v, want %v", got.TLS, wantTLS)
			}
			if tt.user != "" && got.Auth != "larder:s3cret" {
				t.Errorf("auth = %q", got.Auth)
			}
			p := got.Parse(t)
			if p.Subject != "Confirm your email address for Larder" {
				t.Errorf("subject %q", p.Subject)
			}
			if !strings.Contains(p.Header.Get("To"), "cook@example.test") || !strings.Contains(p.Header.Get("From"), "no-reply@larder.test") {
				t.Errorf("headers: %v", p.Header)
			}
			for part, body := range map[string]string{"text": p.Text, "html": p.HTML} {
				links := mailertest.Links(body)
				if len(links) != 1 || links[0] != "http://app.test/verify-email/abc_DEF-123" {
					t.Errorf("%s links: %v", part, links)
				}
				if !strings.Contains(body, "24 hours") {
					t.Errorf("%s does not say when the link expires", part)
				}
			}
			// The name is escaped in HTML, not interpreted.
			if !strings.Contains(p.HTML, "Ada &lt;Lovelace&gt;") || strings.Contains(p.HTML, "<Lovelace>") {
				t.Errorf("name not escaped in HTML")
			}
			if !strings.Contains(p.Text, "Hello Ada <Lovelace>,") {
				t.Errorf("text greeting: %q", p.Text)
			}
			if !strings.Contains(p.HTML, "style=") || !strings.Contains(p.HTML, "<a href=") {
				t.Error("the HTML part is not styled with a button link")
			}
		})
	}
}

// Asking for STARTTLS never falls back to plain text.
func TestSMTPRefusesWithoutSTARTTLS(t *testing.T) {
	t.Parallel()
	srv := mailertest.NewServer(t) // offers no STARTTLS
	cfg := srv.Config()
	cfg.TLS = "starttls"
	err := (&mailer.SMTP{Config: cfg}).Send(context.Background(), mailer.PasswordResetEmail("a@example.test", "", "http://x.test/r", time.Hour))
	if err == nil || !strings.Contains(err.Error(), "STARTTLS") {
		t.Fatalf("err = %v", err)
	}
	if srv.Pending() != 0 {
		t.Fatal("a message went out in plain text")
	}
}

func TestSMTPErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		mode      mailertest.Mode
		code      int
		permanent bool
	}{
		{mailertest.RefuseTemp, 451, false},
		{mailertest.RefusePerm, 550, true},
	}
	for _, tt := range tests {
		srv := mailertest.NewServer(t)
		srv.SetMode(tt.mode)
		err := (&mailer.SMTP{Config: srv.Config()}).Send(context.Background(), mailer.PasswordResetEmail("a@example.test", "", "http://x.test/r", time.Hour))
		var se *mailer.Error
		if !errors.As(err, &se) || se.Code != tt.code || se.Permanent() != tt.permanent {
			t.Errorf("mode %d: err = %v", tt.mode, err)
		}
	}
}

// A server that accepts the connection and then says nothing makes Send
// fail at its deadline instead of hanging the worker.
func TestSMTPDeadline(t *testing.T) {
	t.Parallel()
	srv := mailertest.NewServer(t)
	srv.SetMode(mailertest.Stall)
	m := &mailer.SMTP{Config: srv.Config(), IOTimeout: 300 * time.Millisecond}
	done := make(chan error, 1)
	go func() {
		done <- m.Send(context.Background(), mailer.PasswordResetEmail("a@example.test", "", "http://x.test/r", time.Hour))
	}()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("send to a silent server succeeded")
		}
	case <-time.After(time.Minute):
		t.Fatal("send to a silent server never returned: no IO deadline")
	}

	// Cancelling the context ends the exchange as well.
	ctx, cancel := context.WithCancel(context.Background())
	slow := &mailer.SMTP{Config: srv.Config(), IOTimeout: time.Hour}
	go func() {
		done <- slow.Send(ctx, mailer.PasswordResetEmail("a@example.test", "", "http://x.test/r", time.Hour))
	}()
	time.Sleep(100 * time.Millisecond)
	cancel()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("cancelled send succeeded")
		}
	case <-time.After(time.Minute):
		t.Fatal("cancelling the context did not stop the send")
	}
}

func TestSMTPBadAddresses(t *testing.T) {
	t.Parallel()
	srv := mailertest.NewServer(t)
	cfg := srv.Config()
	if err := (&mailer.SMTP{Config: cfg}).Send(context.Background(), mailer.Message{To: "not an address", Subject: "x", Text: "x", HTML: "x"}); err == nil {
		t.Error("bad recipient accepted")
	}
	cfg.From = "nobody"
	if err := (&mailer.SMTP{Config: cfg}).Send(context.Background(), mailer.Message{To: "a@example.test", Subject: "x", Text: "x", HTML: "x"}); err == nil {
		t.Error("bad sender accepted")
	}
	if srv.Connections() != 0 {
		t.Error("connected although the addresses were bad")
	}
}

func TestNewChoosesByHost(t *testing.T) {
	t.Parallel()
	var logs bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&logs, nil))
	m := mailer.New(config.SMTP{}, logger)
	if _, ok := m.(*mailer.Log); !ok {
		t.Fatalf("without SMTP_HOST: %T", m)
	}
	if !strings.Contains(logs.String(), "SMTP_HOST is not set") {
		t.Errorf("start-up does not say mail goes to the log: %s", logs.String())
	}
	// The log mailer writes the whole message, link included.
	msg := mailer.PasswordResetEmail("cook@example.test", "Ada", "http://app.test/reset-password?token=tok123", time.Hour)
	if err := m.Send(context.Background(), msg); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"cook@example.test", "Reset your Larder password", "http://app.test/reset-password?token=tok123", "1 hour"} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("log lacks %q", want)
		}
	}
	if _, ok := mailer.New(config.SMTP{Host: "mail.example.test", Port: 587, From: "a@b.test"}, logger).(*mailer.SMTP); !ok {
		t.Error("with SMTP_HOST: not the SMTP mailer")
	}
}
