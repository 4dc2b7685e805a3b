package idp_test

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"larder/idp"
	"larder/idp/idptest"
)

const redirect = "http://api.test/api/auth/acme/callback"

func newProvider(srv *idptest.Server) *idp.Provider {
	return idp.New(idp.Config{Name: "acme", Issuer: srv.Issuer, ClientID: srv.ClientID, ClientSecret: srv.ClientSecret, RedirectURL: redirect})
}

// authorize plays the browser at the provider: it follows the authorization
// URL and returns the code and state the provider sends back.
func authorize(t *testing.T, authURL string) (code, state string) {
	t.Helper()
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Get(authURL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusFound {
		t.Fatalf("authorize: %d", resp.StatusCode)
	}
	loc, err := url.Parse(resp.Header.Get("Location"))
	if err != nil || !strings.HasPrefix(loc.String(), redirect+"?") {
		t.Fatalf("authorize redirected to %s", resp.Header.Get("Location"))
	}
	return loc.Query().Get("code"), loc.Query().Get("state")
}

func TestFlow(t *testing.T) {
	t.Parallel()
	srv := idptest.NewServer(t)
	srv.SetUser(idptest.User{Subject: "sub-1", Email: "ada@example.test", EmailVerified: true, Name: "Ada"})
	p := newProvider(srv)
	if p.Label != "Acme" {
		t.Errorf("label %q", p.Label)
	}
	ctx := context.Background()
	authURL, flow, err := p.Start(ctx, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	code, state := authorize(t, authURL)
	q := srv.Authorizations()
	if len(q) != 1 || q[0].Get("state") != flow.State || q[0].Get("nonce") != flow.Nonce ||
		q[0].Get("code_challenge_method") != "S256" || q[0].Get("redirect_uri") != redirect ||
		!strings.Contains(q[0].Get("scope"), "openid") || !strings.Contains(q[0].Get("scope"), "email") {
		t.Fatalf("authorization request: %v", q)
	}
	if strings.Contains(authURL, flow.Verifier) {
		t.Fatal("the PKCE verifier left the server")
	}
	if err := flow.CheckState(state, time.Now()); err != nil {
		t.Fatal(err)
	}
	id, err := p.Finish(ctx, flow, code)
	if err != nil {
		t.Fatal(err)
	}
	if id != (idp.Identity{Subject: "sub-1", Email: "ada@example.test", EmailVerified: true, Name: "Ada"}) {
		t.Fatalf("identity %+v", id)
	}
	// A code works once.
	if _, err := p.Finish(ctx, flow, code); !errors.Is(err, idp.ErrToken) {
		t.Fatalf("second use of the code: %v", err)
	}
}

func TestFinishRefusesBadAnswers(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name                                  string
		wrongNonce, foreignKey, wrongAudience bool
		wrongVerifier                         bool
	}{
		{name: "nonce", wrongNonce: true},
		{name: "signature", foreignKey: true},
		{name: "audience", wrongAudience: true},
		{name: "pkce verifier", wrongVerifier: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := idptest.NewServer(t)
			srv.SetUser(idptest.User{Subject: "sub-1", Email: "ada@example.test", EmailVerified: true})
			srv.Tamper(tt.wrongNonce, tt.foreignKey, tt.wrongAudience)
			p := newProvider(srv)
			authURL, flow, err := p.Start(context.Background(), time.Now())
			if err != nil {
				t.Fatal(err)
			}
			code, _ := authorize(t, authURL)
			if tt.wrongVerifier {
				flow.Verifier = strings.Repeat("x", 43)
			}
			if _, err := p.Finish(context.Background(), flow, code); !errors.Is(err, idp.ErrToken) {
				t.Fatalf("err = %v, want ErrToken", err)
			}
		})
	}
}

func TestCheckState(t *testing.T) {
	t.Parallel()
	now := time.Now()
	f := idp.Flow{State: "abc", Expires: now.Add(time.Minute)}
	tests := []struct {
		flow  idp.Flow
		state string
		at    time.Time
		ok    bool
	}{
		{f, "abc", now, true},
		{f, "abd", now, false},
		{f, "", now, false},
		{idp.Flow{}, "", now, false},
		{f, "abc", now.Add(2 * time.Minute), false},
	}
	for i, tt := range tests {
		err := tt.flow.CheckState(tt.state, tt.at)
		if (err == nil) != tt.ok || (err != nil && !errors.Is(err, idp.ErrState)) {
			t.Errorf("case %d: %v", i, err)
		}
	}
}

func TestSealer(t *testing.T) {
	t.Parallel()
	s, err := idp.NewSealer([]byte("secret one"))
	if err != nil {
		t.Fatal(err)
	}
	f := idp.Flow{State: "st", Verifier: "ver", Nonce: "no", Expires: time.Now().Add(time.Minute).UTC().Truncate(time.Second)}
	v, err := s.Seal("acme", f)
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.Open("acme", v)
	if err != nil || !got.Expires.Equal(f.Expires) || got.State != f.State || got.Verifier != f.Verifier || got.Nonce != f.Nonce {
		t.Fatalf("open: %+v %v", got, err)
	}
	other, _ := idp.NewSealer([]byte("secret two"))
	flipped := []byte(v)
	flipped[len(flipped)/2] ^= 1
	for name, tc := range map[string]struct {
		s            *idp.Sealer
		provider, in string
	}{
		"other key":      {other, "acme", v},
		"other provider": {s, "globex", v},
		"tampered":       {s, "acme", string(flipped)},
		"garbage":        {s, "acme", "%%%"},
		"empty":          {s, "acme", ""},
	} {
		if _, err := tc.s.Open(tc.provider, tc.in); !errors.Is(err, idp.ErrCookie) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := idp.NewSealer(nil); err == nil {
		t.Error("empty secret accepted")
	}
}

func TestDiscoveryFailureIsRetried(t *testing.T) {
	t.Parallel()
	srv := idptest.NewServer(t)
	srv.FailDiscovery(1)
	// The provider is down at first: Start reports it, and the same
	// provider works once the issuer answers again.
	p := newProvider(srv)
	if _, _, err := p.Start(context.Background(), time.Now()); !errors.Is(err, idp.ErrUnavailable) {
		t.Fatalf("err = %v", err)
	}
	if _, _, err := p.Start(context.Background(), time.Now()); err != nil {
		t.Fatal(err)
	}
}
