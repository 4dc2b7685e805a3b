package token

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"fmt"
)

// Two tabs of one browser that refresh at the same moment both present the
// same refresh token; only one can rotate it. So that the other is not
// taken for a thief (which would sign the user out everywhere), the
// rotation keeps the new pair it issued, sealed under a key only the
// holder of the old token can derive, and hands the same pair to a second
// presentation of the old token within a short grace period.
//
// The key is an HMAC of the old token, not its SHA-256 (which the database
// stores): a copy of the database alone opens nothing.

// SealSuccessor encrypts the pair issued in exchange for the refresh token
// raw (AES-256-GCM, random nonce first).
func SealSuccessor(raw string, pair []byte) ([]byte, error) {
	aead, err := graceAEAD(raw)
	if err != nil {
		return nil, err
	}
	nonce := make([]byte, aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return nil, fmt.Errorf("seal successor: %w", err)
	}
	return aead.Seal(nonce, nonce, pair, nil), nil
}

// ErrNotSealed is returned when a sealed successor does not open with the
// presented token.
var ErrNotSealed = errors.New("the sealed successor does not open with this token")

// OpenSuccessor decrypts what SealSuccessor sealed with the same raw token.
func OpenSuccessor(raw string, sealed []byte) ([]byte, error) {
	aead, err := graceAEAD(raw)
	if err != nil {
		return nil, err
	}
	if len(sealed) < aead.NonceSize() {
		return nil, ErrNotSealed
	}
	pair, err := aead.Open(nil, sealed[:aead.NonceSize()], sealed[aead.NonceSize():], nil)
	if err != nil {
		return nil, ErrNotSealed
	}
	return pair, nil
}

func graceAEAD(raw string) (cipher.AEAD, error) {
	mac := hmac.New(sha256.New, []byte("larder refresh grace v1"))
	mac.Write([]byte(raw))
	block, err := aes.NewCipher(mac.Sum(nil))
	if err != nil {
		return nil, fmt.Errorf("refresh grace key: %w", err)
	}
	return cipher.NewGCM(block)
}
