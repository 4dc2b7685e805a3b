// Package mailertest runs a small SMTP server on loopback for tests, the
// way httptest runs an HTTP server: it accepts messages, hands them to the
// test, and can be told to refuse or to stall.
package mailertest

import (
	"bufio"
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"fmt"
	"io"
	"math/big"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"larder/config"
)

// Received is one accepted message.
type Received struct {
	From string   // envelope sender
	To   []string // envelope recipients
	Data []byte   // the message as sent, headers and body
	// Auth is "user:password" when the client authenticated.
	Auth string
	// TLS reports whether the message came over an encrypted connection.
	TLS bool
}

// Mode is how the server answers.
type Mode int

// Server behaviours.
const (
	Accept     Mode = iota // accept every message
	RefuseTemp             // answer 451 to MAIL FROM: try again later
	RefusePerm             // answer 550 to RCPT TO: the mailbox does not exist
	Stall                  // accept the connection and never answer
)

// Options configure a server.
type Options struct {
	// STARTTLS offers STARTTLS with a self-signed certificate.
	STARTTLS bool
	// ImplicitTLS speaks TLS from the first byte (SMTP_TLS=tls).
	ImplicitTLS bool
}

// Server is a running SMTP server.
type Server struct {
	Addr     string
	Host     string
	Port     int
	messages chan Received
	ln       net.Listener
	tlsConf  *tls.Config
	certPool *x509.CertPool
	opts     Options

	mu    sync.Mutex
	mode  Mode
	seen  int // connections accepted
	conns map[net.Conn]bool
}

// NewServer starts a server on 127.0.0.1:0, closed when the test ends.
func NewServer(t testing.TB, opts ...Options) *Server {
	t.Helper()
	var o Options
	if len(opts) > 0 {
		o = opts[0]
	}
	s := &Server{messages: make(chan Received, 100), opts: o, conns: map[net.Conn]bool{}}
	if o.STARTTLS || o.ImplicitTLS {
		s.tlsConf, s.certPool = selfSigned(t)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if o.ImplicitTLS {
		ln = tls.NewListener(ln, s.tlsConf)
	}
	s.ln = ln
	s.Addr = ln.Addr().String()
	host, port, _ := net.SplitHostPort(s.Addr)
	s.Host = host
	s.Port, _ = strconv.Atoi(port)
	done := make(chan struct{})
	var conns sync.WaitGroup
	go func() {
		defer close(done)
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s.mu.Lock()
			s.seen++
			s.conns[c] = true
			s.mu.Unlock()
			conns.Add(1)
			go func() {
				defer conns.Done()
				s.serve(c)
				s.mu.Lock()
				delete(s.conns, c)
				s.mu.Unlock()
			}()
		}
	}()
	t.Cleanup(func() {
		_ = ln.Close()
		<-done
		s.mu.Lock()
		for c := range s.conns {
			_ = c.Close()
		}
		s.mu.Unlock()
		conns.Wait()
	})
	return s
}

// Config returns SMTP settings that point at the server. TLS is "none"
// unless the server was started with a TLS option.
func (s *Server) Config() config.SMTP {
	mode := "none"
	switch {
	case s.opts.ImplicitTLS:
		mode = "tls"
	case s.opts.STARTTLS:
		mode = "starttls"
	}
	return config.SMTP{Host: s.Host, Port: s.Port, From: "Larder <no-reply@larder.test>", TLS: mode}
}

// TLSConfig is a client configuration that trusts the server's certificate.
func (s *Server) TLSConfig() *tls.Config {
	return &tls.Config{RootCAs: s.certPool, ServerName: "127.0.0.1", MinVersion: tls.VersionTLS12}
}

// SetMode changes how the server answers from the next connection on.
func (s *Server) SetMode(m Mode) {
	s.mu.Lock()
	s.mode = m
	s.mu.Unlock()
}

// Connections is how many connections the server has accepted.
func (s *Server) Connections() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.seen
}

// Next waits for the next accepted message.
func (s *Server) Next(t testing.TB, timeout time.Duration) Received {
	t.Helper()
	select {
	case m := <-s.messages:
		return m
	case <-time.After(timeout):
		t.Fatalf("mailertest: no message within %s", timeout)
		return Received{}
	}
}

// Pending returns how many accepted messages the test has not taken yet.
func (s *Server) Pending() int { return len(s.messages) }

func (s *Server) serve(c net.Conn) {
	defer c.Close()
	s.mu.Lock()
	mode := s.mode
	s.mu.Unlock()
	if mode == Stall {
		// Hold the connection open, silent, until the client gives up.
		_, _ = io.Copy(io.Discard, c)
		return
	}
	_ = c.SetDeadline(time.Now().Add(time.Minute))
	r := bufio.NewReader(c)
	w := bufio.NewWriter(c)
	reply := func(format string, args ...any) {
		fmt.Fprintf(w, format+"\r\n", args...)
		_ = w.Flush()
	}
	_, isTLS := c.(*tls.Conn)
	var cur Received
	cur.TLS = isTLS
	reply("220 mailertest ESMTP ready")
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		line = strings.TrimRight(line, "\r\n")
		verb, arg, _ := strings.Cut(line, " ")
		switch strings.ToUpper(verb) {
		case "EHLO", "HELO":
			exts := []string{"mailertest", "8BITMIME", "AUTH PLAIN"}
			if s.opts.STARTTLS && !isTLS {
				exts = append(exts, "STARTTLS")
			}
			for i, e := range exts {
				sep := "-"
				if i == len(exts)-1 {
					sep = " "
				}
				reply("250%s%s", sep, e)
			}
		case "STARTTLS":
			if !s.opts.STARTTLS || isTLS {
				reply("502 not offered")
				continue
			}
			reply("220 go ahead")
			tc := tls.Server(c, s.tlsConf)
			if err := tc.Handshake(); err != nil {
				return
			}
			c, isTLS = tc, true
			r, w = bufio.NewReader(c), bufio.NewWriter(c)
			cur = Received{TLS: true}
		case "AUTH":
			mech, initial, _ := strings.Cut(arg, " ")
			if !strings.EqualFold(mech, "PLAIN") {
				reply("504 only PLAIN")
				continue
			}
			raw, err := base64.StdEncoding.DecodeString(initial)
			parts := bytes.Split(raw, []byte{0})
			if err != nil || len(parts) != 3 {
				reply("501 bad credentials encoding")
				continue
			}
			cur.Auth = string(parts[1]) + ":" + string(parts[2])
			reply("235 authenticated")
		case "MAIL":
			if mode == RefuseTemp {
				reply("451 4.3.0 try again later")
				continue
			}
			cur.From = addrOf(arg)
			reply("250 ok")
		case "RCPT":
			if mode == RefusePerm {
				reply("550 5.1.1 no such mailbox")
				continue
			}
			cur.To = append(cur.To, addrOf(arg))
			reply("250 ok")
		case "DATA":
			if cur.From == "" || len(cur.To) == 0 {
				reply("503 need MAIL and RCPT first")
				continue
			}
			reply("354 end with <CRLF>.<CRLF>")
			var data bytes.Buffer
			for {
				l, err := r.ReadString('\n')
				if err != nil {
					return
				}
				if l == ".\r\n" {
					break
				}
				// Undo dot-stuffing (RFC 5321 4.5.2).
				data.WriteString(strings.TrimPrefix(l, "."))
			}
			cur.Data = data.Bytes()
			s.messages <- cur
			cur = Received{TLS: isTLS, Auth: cur.Auth}
			reply("250 ok: queued")
		case "RSET":
			cur = Received{TLS: isTLS, Auth: cur.Auth}
			reply("250 ok")
		case "NOOP":
			reply("250 ok")
		case "QUIT":
			reply("221 bye")
			return
		default:
			reply("500 unknown command")
		}
	}
}

func addrOf(arg string) string {
	if i := strings.IndexByte(arg, '<'); i >= 0 {
		if j := strings.IndexByte(arg[i:], '>'); j > 0 {
			return arg[i+1 : i+j]
		}
	}
	return arg
}

// Parsed is a received message taken apart.
type Parsed struct {
	Header  mail.Header
	Subject string
	// Text and HTML are the decoded bodies of the two alternatives.
	Text string
	HTML string
}

// Parse reads the message as a mail client would: its headers, and the
// text/plain and text/html parts of its multipart/alternative body, each
// decoded from its transfer encoding. It fails the test unless both parts
// are there.
func (m Received) Parse(t testing.TB) Parsed {
	t.Helper()
	msg, err := mail.ReadMessage(bytes.NewReader(m.Data))
	if err != nil {
		t.Fatalf("mailertest: parse message: %v", err)
	}
	var p Parsed
	p.Header = msg.Header
	dec := new(mime.WordDecoder)
	p.Subject, err = dec.DecodeHeader(msg.Header.Get("Subject"))
	if err != nil {
		t.Fatalf("mailertest: subject: %v", err)
	}
	mediaType, params, err := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	if err != nil || mediaType != "multipart/alternative" {
		t.Fatalf("mailertest: Content-Type %q, want multipart/alternative", msg.Header.Get("Content-Type"))
	}
	mr := multipart.NewReader(msg.Body, params["boundary"])
	for {
		part, err := mr.NextRawPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("mailertest: multipart: %v", err)
		}
		var body io.Reader = part
		if strings.EqualFold(part.Header.Get("Content-Transfer-Encoding"), "quoted-printable") {
			body = quotedprintable.NewReader(part)
		}
		raw, err := io.ReadAll(body)
		if err != nil {
			t.Fatalf("mailertest: read part: %v", err)
		}
		pt, pparams, _ := mime.ParseMediaType(part.Header.Get("Content-Type"))
		if cs := pparams["charset"]; cs != "" && !strings.EqualFold(cs, "utf-8") {
			t.Fatalf("mailertest: part charset %q", cs)
		}
		switch pt {
		case "text/plain":
			p.Text = string(raw)
		case "text/html":
			p.HTML = string(raw)
		}
	}
	if p.Text == "" || p.HTML == "" {
		t.Fatalf("mailertest: want a text/plain and a text/html part; text=%q html=%q", p.Text, p.HTML)
	}
	return p
}

var linkRe = regexp.MustCompile(`https?://[^\s"'<>]+`)

// Links returns the http(s) addresses in the text (in order, repeated ones once).
func Links(text string) []string {
	var out []string
	seen := map[string]bool{}
	for _, l := range linkRe.FindAllString(text, -1) {
		if !seen[l] {
			seen[l] = true
			out = append(out, l)
		}
	}
	return out
}

// selfSigned makes a certificate for 127.0.0.1 and a pool that trusts it.
func selfSigned(t testing.TB) (*tls.Config, *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "mailertest"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(time.Hour),
		IPAddresses:           []net.IP{net.ParseIP("127.0.0.1")},
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	return &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}, MinVersion: tls.VersionTLS12}, pool
}
