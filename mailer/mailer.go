// Package mailer sends the service's email: through SMTP with
// jordan-wright/email building the MIME message, or, when no SMTP server is
// configured, into the log so a local install can still follow the links.
package mailer

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/mail"
	"net/smtp"
	"net/textproto"
	"strconv"
	"time"

	"github.com/jordan-wright/email"

	"larder/config"
)

// Message is one email with a plain-text and an HTML body.
type Message struct {
	To      string
	Subject string
	Text    string
	HTML    string
}

// Mailer sends messages.
type Mailer interface {
	Send(ctx context.Context, m Message) error
}

// New returns the SMTP mailer for cfg, or the log mailer when cfg.Host is
// empty. It says which in the log, once, at start.
func New(cfg config.SMTP, logger *slog.Logger) Mailer {
	if cfg.Host == "" {
		logger.Warn("SMTP_HOST is not set: emails are not sent but written to the log, links included")
		return &Log{Logger: logger}
	}
	logger.Info("sending email through SMTP", "smtp_host", cfg.Host, "smtp_port", cfg.Port, "smtp_tls", cfg.TLS)
	return &SMTP{Config: cfg}
}

// Log writes messages to the log instead of sending them.
type Log struct {
	Logger *slog.Logger
}

// Send logs the whole message: without a mail server, the log is where an
// operator finds the verification and reset links.
func (l *Log) Send(ctx context.Context, m Message) error {
	l.Logger.InfoContext(ctx, "email not sent (SMTP_HOST is not set); its content follows",
		"to", m.To, "subject", m.Subject, "text", m.Text, "html", m.HTML)
	return nil
}

// Default time limits of one SMTP delivery. jordan-wright/email sets none,
// and a server that accepts the connection and then says nothing would
// otherwise hold a worker forever.
const (
	DefaultDialTimeout = 10 * time.Second
	DefaultIOTimeout   = 30 * time.Second
)

// SMTP sends through an SMTP server, one connection per message.
type SMTP struct {
	Config config.SMTP
	// DialTimeout bounds connecting; IOTimeout bounds the whole exchange
	// after that. Zero means the defaults.
	DialTimeout time.Duration
	IOTimeout   time.Duration
	// TLSConfig overrides the TLS settings (tests trust their own
	// certificate with it); nil verifies the server against the system roots.
	TLSConfig *tls.Config
	// HelloName is the name given in EHLO; "" means "localhost".
	HelloName string
}

// Error is an SMTP error reply. Permanent reports a 5xx reply: sending the
// same message again will not help.
type Error struct {
	Code    int
	Message string
}

func (e *Error) Error() string { return fmt.Sprintf("smtp %d: %s", e.Code, e.Message) }

// Permanent reports whether the server refused for good (a 5xx reply).
func (e *Error) Permanent() bool { return e.Code >= 500 }

// Send delivers m. Every step runs under one deadline, so a silent or slow
// server makes Send fail instead of hang; the email job then retries.
func (s *SMTP) Send(ctx context.Context, m Message) error {
	from, err := mail.ParseAddress(s.Config.From)
	if err != nil {
		return fmt.Errorf("SMTP_FROM %q: %w", s.Config.From, err)
	}
	to, err := mail.ParseAddress(m.To)
	if err != nil {
		return fmt.Errorf("recipient %q: %w", m.To, err)
	}
	e := email.NewEmail()
	e.From = from.String()
	e.To = []string{to.String()}
	e.Subject = m.Subject
	e.Text = []byte(m.Text)
	e.HTML = []byte(m.HTML)
	raw, err := e.Bytes()
	if err != nil {
		return fmt.Errorf("build message: %w", err)
	}
	if err := s.deliver(ctx, from.Address, to.Address, raw); err != nil {
		return smtpError(err)
	}
	return nil
}

// deliver runs one SMTP transaction over a connection it dials itself, so it
// can put deadlines on it (net/smtp and jordan-wright/email have none).
func (s *SMTP) deliver(ctx context.Context, from, to string, raw []byte) error {
	dialTimeout, ioTimeout := s.DialTimeout, s.IOTimeout
	if dialTimeout <= 0 {
		dialTimeout = DefaultDialTimeout
	}
	if ioTimeout <= 0 {
		ioTimeout = DefaultIOTimeout
	}
	addr := net.JoinHostPort(s.Config.Host, strconv.Itoa(s.Config.Port))
	d := net.Dialer{Timeout: dialTimeout}
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return fmt.Errorf("connect to %s: %w", addr, err)
	}
	defer conn.Close()
	deadline := time.Now().Add(ioTimeout)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	if err := conn.SetDeadline(deadline); err != nil {
		return err
	}
	// Cancelling the job cancels the exchange too.
	stop := context.AfterFunc(ctx, func() { _ = conn.SetDeadline(time.Now()) })
	defer stop()

	tlsConfig := s.TLSConfig
	if tlsConfig == nil {
		tlsConfig = &tls.Config{ServerName: s.Config.Host, MinVersion: tls.VersionTLS12}
	}
	if s.Config.TLS == "tls" {
		tc := tls.Client(conn, tlsConfig)
		if err := tc.HandshakeContext(ctx); err != nil {
			return fmt.Errorf("TLS handshake with %s: %w", addr, err)
		}
		conn = tc
	}
	c, err := smtp.NewClient(conn, s.Config.Host)
	if err != nil {
		return fmt.Errorf("greeting from %s: %w", addr, err)
	}
	defer c.Close()
	hello := s.HelloName
	if hello == "" {
		hello = "localhost"
	}
	if err := c.Hello(hello); err != nil {
		return fmt.Errorf("EHLO: %w", err)
	}
	if s.Config.TLS == "starttls" {
		if ok, _ := c.Extension("STARTTLS"); !ok {
			// Never fall back to plain text when TLS was asked for: the
			// message carries a sign-in link.
			return errors.New("the server does not offer STARTTLS (SMTP_TLS=starttls); set SMTP_TLS=none to send without TLS")
		}
		if err := c.StartTLS(tlsConfig); err != nil {
			return fmt.Errorf("STARTTLS: %w", err)
		}
	}
	if s.Config.User != "" {
		if err := c.Auth(smtp.PlainAuth("", s.Config.User, s.Config.Password.Reveal(), s.Config.Host)); err != nil {
			return fmt.Errorf("AUTH: %w", err)
		}
	}
	if err := c.Mail(from); err != nil {
		return fmt.Errorf("MAIL FROM: %w", err)
	}
	if err := c.Rcpt(to); err != nil {
		return fmt.Errorf("RCPT TO: %w", err)
	}
	w, err := c.Data()
	if err != nil {
		return fmt.Errorf("DATA: %w", err)
	}
	if _, err := w.Write(raw); err != nil {
		return fmt.Errorf("write message: %w", err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("end of message: %w", err)
	}
	// The message is accepted once DATA ends; a failed QUIT changes nothing.
	_ = c.Quit()
	return nil
}

// smtpError keeps the chain but surfaces the server's reply as *Error, so
// the job can tell a permanent refusal from a passing one.
func smtpError(err error) error {
	var tp *textproto.Error
	if errors.As(err, &tp) {
		return fmt.Errorf("%w (%w)", &Error{Code: tp.Code, Message: tp.Msg}, err)
	}
	return err
}
