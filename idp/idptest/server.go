// Package idptest runs a small but real OpenID Connect provider in the test
// process: discovery, a JWKS with an RSA key of its own, an authorization
// endpoint that signs the configured user in at once, and a token endpoint
// that checks the client, the redirect URI and the PKCE verifier before it
// issues an RS256 ID token carrying the nonce.
package idptest

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/golang-jwt/jwt/v5"
)

// User is who the provider signs in.
type User struct {
	Subject       string
	Email         string
	EmailVerified bool
	Name          string
}

// Server is a running provider.
type Server struct {
	*httptest.Server
	Issuer       string
	ClientID     string
	ClientSecret string

	key      *rsa.PrivateKey
	otherKey *rsa.PrivateKey

	mu    sync.Mutex
	user  User
	codes map[string]grant
	// Tampering switches for negative tests.
	wrongNonce    bool
	foreignKey    bool
	wrongAudience bool
	failDiscovery int
	// Authorizations records the query of every /authorize request.
	authorizations []url.Values
}

type grant struct {
	user      User
	redirect  string
	challenge string
	nonce     string
}

// NewServer starts a provider, closed when the test ends.
func NewServer(t testing.TB) *Server {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	other, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{ClientID: "larder-test", ClientSecret: "client-secret-for-tests", key: key, otherKey: other, codes: map[string]grant{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/openid-configuration", s.discovery)
	mux.HandleFunc("GET /jwks", s.jwks)
	mux.HandleFunc("GET /authorize", s.authorize)
	mux.HandleFunc("POST /token", s.token)
	s.Server = httptest.NewServer(mux)
	s.Issuer = s.Server.URL
	t.Cleanup(s.Close)
	return s
}

// SetUser sets who signs in next.
func (s *Server) SetUser(u User) {
	s.mu.Lock()
	s.user = u
	s.mu.Unlock()
}

// Tamper makes the next ID tokens wrong: with another nonce, signed by a
// key not in the JWKS, or for another client.
func (s *Server) Tamper(wrongNonce, foreignKey, wrongAudience bool) {
	s.mu.Lock()
	s.wrongNonce, s.foreignKey, s.wrongAudience = wrongNonce, foreignKey, wrongAudience
	s.mu.Unlock()
}

// FailDiscovery makes the next n discovery requests answer 503.
func (s *Server) FailDiscovery(n int) {
	s.mu.Lock()
	s.failDiscovery = n
	s.mu.Unlock()
}

// Authorizations returns the queries of the /authorize requests so far.
func (s *Server) Authorizations() []url.Values {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]url.Values(nil), s.authorizations...)
}

func (s *Server) discovery(w http.ResponseWriter, _ *http.Request) {
	s.mu.Lock()
	fail := s.failDiscovery > 0
	if fail {
		s.failDiscovery--
	}
	s.mu.Unlock()
	if fail {
		http.Error(w, "down for maintenance", http.StatusServiceUnavailable)
		return
	}
	writeJSON(w, 200, map[string]any{
		"issuer":                                s.Issuer,
		"authorization_endpoint":                s.Issuer + "/authorize",
		"token_endpoint":                        s.Issuer + "/token",
		"jwks_uri":                              s.Issuer + "/jwks",
		"response_types_supported":              []string{"code"},
		"subject_types_supported":               []string{"public"},
		"id_token_signing_alg_values_supported": []string{"RS256"},
		"code_challenge_methods_supported":      []string{"S256"},
		"scopes_supported":                      []string{"openid", "email", "profile"},
	})
}

func (s *Server) jwks(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, 200, jose.JSONWebKeySet{Keys: []jose.JSONWebKey{{Key: &s.key.PublicKey, KeyID: "k1", Algorithm: "RS256", Use: "sig"}}})
}

// authorize signs the configured user in at once and sends the browser back.
func (s *Server) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	s.mu.Lock()
	s.authorizations = append(s.authorizations, q)
	user := s.user
	s.mu.Unlock()
	switch {
	case q.Get("client_id") != s.ClientID:
		http.Error(w, "unknown client", 400)
		return
	case q.Get("response_type") != "code":
		http.Error(w, "unsupported response_type", 400)
		return
	case q.Get("code_challenge_method") != "S256" || q.Get("code_challenge") == "":
		http.Error(w, "PKCE with S256 is required", 400)
		return
	case q.Get("redirect_uri") == "":
		http.Error(w, "redirect_uri missing", 400)
		return
	}
	code := randomString()
	s.mu.Lock()
	s.codes[code] = grant{user: user, redirect: q.Get("redirect_uri"), challenge: q.Get("code_challenge"), nonce: q.Get("nonce")}
	s.mu.Unlock()
	back, _ := url.Parse(q.Get("redirect_uri"))
	bq := back.Query()
	bq.Set("code", code)
	bq.Set("state", q.Get("state"))
	back.RawQuery = bq.Encode()
	http.Redirect(w, r, back.String(), http.StatusFound)
}

func (s *Server) token(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		oauthError(w, "invalid_request")
		return
	}
	id, secret, ok := r.BasicAuth()
	if ok {
		id, _ = url.QueryUnescape(id)
		secret, _ = url.QueryUnescape(secret)
	} else {
		id, secret = r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
	}
	if id != s.ClientID || secret != s.ClientSecret {
		w.Header().Set("WWW-Authenticate", "Basic")
		writeJSON(w, 401, map[string]string{"error": "invalid_client"})
		return
	}
	s.mu.Lock()
	g, found := s.codes[r.PostForm.Get("code")]
	delete(s.codes, r.PostForm.Get("code")) // codes work once
	wrongNonce, foreignKey, wrongAudience := s.wrongNonce, s.foreignKey, s.wrongAudience
	s.mu.Unlock()
	if r.PostForm.Get("grant_type") != "authorization_code" || !found || r.PostForm.Get("redirect_uri") != g.redirect {
		oauthError(w, "invalid_grant")
		return
	}
	sum := sha256.Sum256([]byte(r.PostForm.Get("code_verifier")))
	if base64.RawURLEncoding.EncodeToString(sum[:]) != g.challenge {
		oauthError(w, "invalid_grant") // PKCE verifier does not match the challenge
		return
	}
	nonce, key, aud := g.nonce, s.key, s.ClientID
	if wrongNonce {
		nonce = "not-the-nonce"
	}
	if foreignKey {
		key = s.otherKey
	}
	if wrongAudience {
		aud = "someone-else"
	}
	now := time.Now()
	claims := jwt.MapClaims{
		"iss": s.Issuer, "sub": g.user.Subject, "aud": aud, "iat": now.Unix(), "exp": now.Add(5 * time.Minute).Unix(),
		"nonce": nonce, "email": g.user.Email, "email_verified": g.user.EmailVerified, "name": g.user.Name,
	}
	tok := jwt.NewWithClaims(jwt.SigningMethodRS256, claims)
	tok.Header["kid"] = "k1"
	signed, err := tok.SignedString(key)
	if err != nil {
		http.Error(w, err.Error(), 500)
		return
	}
	writeJSON(w, 200, map[string]any{"access_token": randomString(), "token_type": "Bearer", "expires_in": 300, "id_token": signed})
}

func oauthError(w http.ResponseWriter, code string) {
	writeJSON(w, 400, map[string]string{"error": code})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func randomString() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}
