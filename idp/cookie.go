package idp

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
)

// Sealer encrypts and authenticates a Flow for its cookie (AES-256-GCM), so
// the browser can carry it without reading or changing it.
type Sealer struct {
	aead cipher.AEAD
}

// NewSealer derives the cookie key from secret (the service's signing
// secret), under a label of its own so the key is used for nothing else.
func NewSealer(secret []byte) (*Sealer, error) {
	if len(secret) == 0 {
		return nil, errors.New("idp: empty cookie secret")
	}
	key, err := hkdf.Key(sha256.New, secret, nil, "larder idp flow cookie v1", 32)
	if err != nil {
		return nil, err
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	return &Sealer{aead: aead}, nil
}

// Seal returns the cookie value of f for provider name. The name is bound
// in, so a flow started for one provider cannot finish at another.
func (s *Sealer) Seal(name string, f Flow) (string, error) {
	plain, err := json.Marshal(f)
	if err != nil {
		return "", err
	}
	nonce := make([]byte, s.aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return "", err
	}
	out := s.aead.Seal(nonce, nonce, plain, []byte(name))
	return base64.RawURLEncoding.EncodeToString(out), nil
}

// ErrCookie means the flow cookie is missing, tampered with or not ours.
var ErrCookie = errors.New("the sign-in cookie is missing or invalid")

// Open returns the flow sealed in value for provider name.
func (s *Sealer) Open(name, value string) (Flow, error) {
	raw, err := base64.RawURLEncoding.DecodeString(value)
	if err != nil || len(raw) < s.aead.NonceSize() {
		return Flow{}, ErrCookie
	}
	n := s.aead.NonceSize()
	plain, err := s.aead.Open(nil, raw[:n], raw[n:], []byte(name))
	if err != nil {
		return Flow{}, ErrCookie
	}
	var f Flow
	if err := json.Unmarshal(plain, &f); err != nil {
		return Flow{}, fmt.Errorf("%w: %v", ErrCookie, err)
	}
	return f, nil
}
