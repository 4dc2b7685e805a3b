package token

import (
	"bytes"
	"encoding/base64"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/google/uuid"
)

func issuer() *Issuer {
	return &Issuer{AccessSecret: []byte("access-secret"), RefreshSecret: []byte("refresh-secret"),
		AccessTTL: 15 * time.Minute, RefreshTTL: 7 * 24 * time.Hour}
}

func TestAccessRoundTrip(t *testing.T) {
	t.Parallel()
	i := issuer()
	id := uuid.New()
	raw, err := i.Access(id, "ADMIN", 3)
	if err != nil {
		t.Fatal(err)
	}
	c, err := i.ParseAccess(raw)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := c.UserID(); got != id || c.Role != "ADMIN" || c.SessionVersion != 3 {
		t.Fatalf("claims: %+v", c)
	}
	if d := c.ExpiresAt.Sub(c.IssuedAt.Time); d != 15*time.Minute {
		t.Fatalf("lifetime %s", d)
	}
}

func TestRefusals(t *testing.T) {
	t.Parallel()
	i := issuer()
	id := uuid.New()
	access, _ := i.Access(id, "USER", 0)
	refresh, _ := i.Refresh(id, 0, uuid.Nil)

	other := issuer()
	other.AccessSecret = []byte("another-secret")
	forged, _ := other.Access(id, "ADMIN", 0)

	past := issuer()
	past.Now = func() time.Time { return time.Now().Add(-time.Hour) }
	expired, _ := past.Access(id, "USER", 0)

	// alg "none": the classic downgrade.
	header := base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"none","typ":"JWT"}`))
	parts := strings.Split(access, ".")
	none := header + "." + parts[1] + "."

	// HS512 with the right secret is still refused: the algorithm is pinned.
	hs512, _ := jwt.NewWithClaims(jwt.SigningMethodHS512, Claims{
		RegisteredClaims: jwt.RegisteredClaims{Subject: id.String(), ExpiresAt: jwt.NewNumericDate(time.Now().Add(time.Minute))},
		Type:             TypeAccess,
	}).SignedString(i.AccessSecret)

	// A refresh token signed with the access secret (same secrets configured
	// by mistake) is still not an access token.
	same := issuer()
	same.RefreshSecret = same.AccessSecret
	refreshAsAccess, _ := same.Refresh(id, 0, uuid.Nil)

	tests := map[string]string{
		"wrong signature":           forged,
		"expired":                   expired,
		"alg none":                  none,
		"other algorithm":           hs512,
		"refresh token as access":   refresh.Token,
		"refresh typ, same secrets": refreshAsAccess.Token,
		"garbage":                   "not.a.jwt",
		"tampered payload":          parts[0] + "." + parts[1] + "x." + parts[2],
	}
	for name, raw := range tests {
		if _, err := i.ParseAccess(raw); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: accepted (err %v)", name, err)
		}
	}
	if _, err := i.ParseRefresh(access); !errors.Is(err, ErrInvalid) {
		t.Error("access token accepted as refresh token")
	}
	if c, err := i.ParseRefresh(refresh.Token); err != nil || c.Family != refresh.Family.String() || c.ID != refresh.ID.String() {
		t.Errorf("refresh round trip: %v %+v", err, c)
	}
}

// A successor sealed under one refresh token opens only with that token,
// and not with what the database keeps of it (its SHA-256).
func TestSealSuccessor(t *testing.T) {
	t.Parallel()
	pair := []byte(`{"accessToken":"a","refreshToken":"r"}`)
	sealed, err := SealSuccessor("old-token", pair)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(sealed, []byte("accessToken")) {
		t.Fatal("the pair is stored in the clear")
	}
	got, err := OpenSuccessor("old-token", sealed)
	if err != nil || !bytes.Equal(got, pair) {
		t.Fatalf("open: %q %v", got, err)
	}
	for _, key := range []string{"other-token", string(Hash("old-token"))} {
		if _, err := OpenSuccessor(key, sealed); !errors.Is(err, ErrNotSealed) {
			t.Errorf("opened with %q: %v", key, err)
		}
	}
	if _, err := OpenSuccessor("old-token", sealed[:5]); !errors.Is(err, ErrNotSealed) {
		t.Errorf("truncated: %v", err)
	}
}
