package main

import (
	"testing"
	"time"

	"github.com/google/uuid"

	"larder/config"
)

// The specification's token lifetimes (access 15 minutes, refresh 7 days)
// are what the API process signs with, and each kind is signed with its own
// secret, so that one kind is never accepted as the other.
func TestTokenIssuerFollowsTheConfiguration(t *testing.T) {
	t.Parallel()
	env := map[string]string{
		"JWT_SECRET":         "access-secret-access-secret-access-secret",
		"JWT_REFRESH_SECRET": "refresh-secret-refresh-secret-refresh-secret",
	}
	cfg, err := config.Load(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	iss := tokenIssuer(cfg)
	iss.Now = func() time.Time { return now }
	user := uuid.New()

	access, err := iss.Access(user, "USER", 1)
	if err != nil {
		t.Fatal(err)
	}
	claims, err := iss.ParseAccess(access)
	if err != nil {
		t.Fatal(err)
	}
	if got := claims.ExpiresAt.Sub(now); got != 15*time.Minute {
		t.Errorf("access token lives %s, want 15m", got)
	}
	refresh, err := iss.Refresh(user, 1, uuid.Nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := refresh.ExpiresAt.Sub(now); got != 7*24*time.Hour {
		t.Errorf("refresh token lives %s, want 168h", got)
	}
	if _, err := iss.ParseAccess(refresh.Token); err == nil {
		t.Error("a refresh token was accepted as an access token")
	}
	if _, err := iss.ParseRefresh(access); err == nil {
		t.Error("an access token was accepted as a refresh token")
	}

	// A configured lifetime is the one used.
	env["JWT_EXPIRES_IN"] = "5m"
	if cfg, err = config.Load(func(k string) string { return env[k] }); err != nil {
		t.Fatal(err)
	}
	if got := tokenIssuer(cfg).AccessTTL; got != 5*time.Minute {
		t.Errorf("JWT_EXPIRES_IN=5m gave %s", got)
	}
}
