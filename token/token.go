// Package token issues and verifies the service's JWTs. Access and refresh
// tokens use different secrets and carry their type, so neither can stand in
// for the other, and the algorithm is pinned to HS256.
package token

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/google/uuid"
)

// Token types, carried in the "typ" claim.
const (
	TypeAccess  = "access"
	TypeRefresh = "refresh"
)

// Algorithm is the only signing algorithm accepted.
const Algorithm = "HS256"

// Claims are the claims of both token types.
type Claims struct {
	jwt.RegisteredClaims
	Type           string `json:"typ"`
	Role           string `json:"role,omitempty"`
	SessionVersion int    `json:"sv"`
	// Family ties the refresh tokens of one sign-in together.
	Family string `json:"fam,omitempty"`
}

// UserID returns the subject as a UUID.
func (c *Claims) UserID() (uuid.UUID, error) { return uuid.Parse(c.Subject) }

// Issuer signs and verifies tokens.
type Issuer struct {
	AccessSecret  []byte
	RefreshSecret []byte
	AccessTTL     time.Duration
	RefreshTTL    time.Duration
	// Now is the clock; nil means time.Now. Tests move it.
	Now func() time.Time
}

func (i *Issuer) now() time.Time {
	if i.Now != nil {
		return i.Now()
	}
	return time.Now()
}

// Access returns a signed access token for the user.
func (i *Issuer) Access(userID uuid.UUID, role string, sessionVersion int) (string, error) {
	now := i.now()
	c := Claims{
		RegisteredClaims: jwt.RegisteredClaims{
			Subject:   userID.String(),
			IssuedAt:  jwt.NewNumericDate(now),
			ExpiresAt: jwt.NewNumericDate(now.Add(i.AccessTTL)),
			ID:        uuid.NewString(),
		},
		Type: TypeAccess, Role: role, SessionVersion: sessionVersion,
	}
	return jwt.NewWithClaims(jwt.SigningMethodHS256, c).SignedString(i.AccessSecret)
}

// Refresh is a newly issued refresh token and what must be stored of it.
type Refresh struct {
	Token     string
	ID        uuid.UUID // the jti, the stored row's key
	Family    uuid.UUID
	ExpiresAt time.Time
}

// Refresh returns a signed refresh token in the given family (uuid.Nil starts a new one).
func (i *Issuer) Refresh(userID uuid.UUID, sessionVersion int, family uuid.UUID) (Refresh, error) {
	if family == uuid.Nil {
		family = uuid.New()
	}
	now := i.now()
	r := Refresh{ID: uuid.New(), Family: family, ExpiresAt: now.Add(i.RefreshTTL)}
	c := Claims{
		RegisteredClaims: jwt.RegisteredClaims{
			Subject:   userID.String(),
			IssuedAt:  jwt.NewNumericDate(now),
			ExpiresAt: jwt.NewNumericDate(r.ExpiresAt),
			ID:        r.ID.String(),
		},
		Type: TypeRefresh, SessionVersion: sessionVersion, Family: family.String(),
	}
	var err error
	r.Token, err = jwt.NewWithClaims(jwt.SigningMethodHS256, c).SignedString(i.RefreshSecret)
	return r, err
}

// ErrInvalid is returned for any token that must not be accepted.
var ErrInvalid = errors.New("invalid token")

// ParseAccess verifies an access token.
func (i *Issuer) ParseAccess(raw string) (*Claims, error) {
	return i.parse(raw, i.AccessSecret, TypeAccess)
}

// ParseRefresh verifies a refresh token.
func (i *Issuer) ParseRefresh(raw string) (*Claims, error) {
	return i.parse(raw, i.RefreshSecret, TypeRefresh)
}

func (i *Issuer) parse(raw string, secret []byte, typ string) (*Claims, error) {
	var c Claims
	_, err := jwt.ParseWithClaims(raw, &c, func(*jwt.Token) (any, error) { return secret, nil },
		jwt.WithValidMethods([]string{Algorithm}), jwt.WithTimeFunc(i.now), jwt.WithExpirationRequired())
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	if c.Type != typ {
		return nil, fmt.Errorf("%w: a %q token where a %q token is needed", ErrInvalid, c.Type, typ)
	}
	if _, err := c.UserID(); err != nil {
		return nil, fmt.Errorf("%w: bad subject", ErrInvalid)
	}
	return &c, nil
}

// Hash is how tokens are stored: only their SHA-256, so a database leak does
// not leak usable tokens.
func Hash(raw string) []byte {
	h := sha256.Sum256([]byte(raw))
	return h[:]
}
