// Package idp signs users in through an external OpenID Connect identity
// provider: discovery from the issuer, the authorization-code flow with
// state, PKCE (S256) and a nonce, and a verified ID token. It knows nothing
// of accounts; the API decides what an Identity means.
package idp

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"
)

// Config describes one provider.
type Config struct {
	// Name is the provider's path segment in /api/auth/:idp.
	Name string
	// Label is what the sign-in button says; "" derives it from Name.
	Label        string
	Issuer       string
	ClientID     string
	ClientSecret string
	// RedirectURL is the callback registered with the provider.
	RedirectURL string
	// HTTPClient talks to the provider; nil means a client with a 10 s timeout.
	HTTPClient *http.Client
}

// Provider is a configured identity provider. Discovery happens on first
// use and is retried until it succeeds, so the API starts even while the
// provider is unreachable.
type Provider struct {
	Name  string
	Label string
	cfg   Config

	mu       sync.Mutex
	oidc     *oidc.Provider
	oauth    *oauth2.Config
	verifier *oidc.IDTokenVerifier
}

// New returns the provider described by c. It does not contact it.
func New(c Config) *Provider {
	if c.HTTPClient == nil {
		c.HTTPClient = &http.Client{Timeout: 10 * time.Second}
	}
	label := c.Label
	if label == "" {
		label = defaultLabel(c.Name)
	}
	return &Provider{Name: c.Name, Label: label, cfg: c}
}

func defaultLabel(name string) string {
	words := strings.FieldsFunc(name, func(r rune) bool { return r == '-' || r == '_' || r == '.' })
	for i, w := range words {
		r := []rune(w)
		r[0] = unicode.ToUpper(r[0])
		words[i] = string(r)
	}
	return strings.Join(words, " ")
}

// ErrUnavailable means the provider could not be reached or answered nonsense.
var ErrUnavailable = errors.New("the identity provider is unavailable")

func (p *Provider) ctx(ctx context.Context) context.Context {
	return oidc.ClientContext(ctx, p.cfg.HTTPClient)
}

// discover fetches the provider's metadata once.
func (p *Provider) discover(ctx context.Context) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.oidc != nil {
		return nil
	}
	op, err := oidc.NewProvider(p.ctx(ctx), p.cfg.Issuer)
	if err != nil {
		return fmt.Errorf("%w: discovery at %s: %v", ErrUnavailable, p.cfg.Issuer, err)
	}
	p.oidc = op
	p.oauth = &oauth2.Config{
		ClientID:     p.cfg.ClientID,
		ClientSecret: p.cfg.ClientSecret,
		Endpoint:     op.Endpoint(),
		RedirectURL:  p.cfg.RedirectURL,
		Scopes:       []string{oidc.ScopeOpenID, "email", "profile"},
	}
	p.verifier = op.Verifier(&oidc.Config{ClientID: p.cfg.ClientID})
	return nil
}

// Flow is what must survive between the redirect to the provider and the
// callback: kept by the browser in a sealed cookie, never on the server.
type Flow struct {
	State    string    `json:"s"`
	Verifier string    `json:"v"` // the PKCE code verifier
	Nonce    string    `json:"n"`
	Expires  time.Time `json:"e"`
}

// FlowTTL is how long a user may take at the provider.
const FlowTTL = 10 * time.Minute

// Start begins a sign-in: it returns the provider's authorization URL and
// the flow to keep for the callback.
func (p *Provider) Start(ctx context.Context, now time.Time) (string, Flow, error) {
	if err := p.discover(ctx); err != nil {
		return "", Flow{}, err
	}
	f := Flow{State: random(), Verifier: oauth2.GenerateVerifier(), Nonce: random(), Expires: now.Add(FlowTTL)}
	u := p.oauth.AuthCodeURL(f.State, oauth2.S256ChallengeOption(f.Verifier), oidc.Nonce(f.Nonce))
	return u, f, nil
}

// Identity is who the provider says signed in.
type Identity struct {
	Subject       string
	Email         string
	EmailVerified bool
	Name          string
}

// ErrState means the callback does not belong to a flow this browser started.
var ErrState = errors.New("the sign-in state does not match")

// CheckState compares the callback's state with the flow's, in constant time.
func (f Flow) CheckState(state string, now time.Time) error {
	if f.State == "" || subtle.ConstantTimeCompare([]byte(f.State), []byte(state)) != 1 {
		return ErrState
	}
	if now.After(f.Expires) {
		return fmt.Errorf("%w: the sign-in took too long", ErrState)
	}
	return nil
}

// ErrToken means the provider's answer could not be trusted: the code
// exchange failed, or the ID token is invalid (signature, issuer, audience,
// expiry or nonce).
var ErrToken = errors.New("the identity provider's answer could not be verified")

// Finish exchanges the code (proving the PKCE verifier) and verifies the ID
// token, its nonce included. The caller has checked the state.
func (p *Provider) Finish(ctx context.Context, f Flow, code string) (Identity, error) {
	if err := p.discover(ctx); err != nil {
		return Identity{}, err
	}
	ctx = p.ctx(ctx)
	tok, err := p.oauth.Exchange(ctx, code, oauth2.VerifierOption(f.Verifier))
	if err != nil {
		return Identity{}, fmt.Errorf("%w: code exchange: %v", ErrToken, err)
	}
	raw, ok := tok.Extra("id_token").(string)
	if !ok || raw == "" {
		return Identity{}, fmt.Errorf("%w: no id_token in the token response", ErrToken)
	}
	idt, err := p.verifier.Verify(ctx, raw)
	if err != nil {
		return Identity{}, fmt.Errorf("%w: %v", ErrToken, err)
	}
	if subtle.ConstantTimeCompare([]byte(idt.Nonce), []byte(f.Nonce)) != 1 {
		return Identity{}, fmt.Errorf("%w: nonce mismatch", ErrToken)
	}
	var claims struct {
		Email         string          `json:"email"`
		EmailVerified json.RawMessage `json:"email_verified"`
		Name          string          `json:"name"`
		Username      string          `json:"preferred_username"`
	}
	if err := idt.Claims(&claims); err != nil {
		return Identity{}, fmt.Errorf("%w: claims: %v", ErrToken, err)
	}
	id := Identity{Subject: idt.Subject, Email: strings.TrimSpace(claims.Email), Name: claims.Name,
		EmailVerified: truthy(claims.EmailVerified)}
	if id.Name == "" {
		id.Name = claims.Username
	}
	if id.Subject == "" {
		return Identity{}, fmt.Errorf("%w: no subject", ErrToken)
	}
	return id, nil
}

// truthy reads email_verified, which some providers send as the string "true".
func truthy(raw json.RawMessage) bool {
	var b bool
	if json.Unmarshal(raw, &b) == nil {
		return b
	}
	var s string
	return json.Unmarshal(raw, &s) == nil && strings.EqualFold(s, "true")
}

func random() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // crypto/rand.Read never fails on supported platforms
	return base64.RawURLEncoding.EncodeToString(b)
}
