// Package seal encrypts secrets at rest (webhook secrets, hooks tokens,
// stored idempotent responses, later card keys and wallet keys) with
// AES-256-GCM under the service's secret key. It owns the key file of the
// embedded default and nothing else.
package seal

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Sealer seals and opens byte strings.
type Sealer struct {
	aead cipher.AEAD
	// derive keys the subkeys of DeriveKey.
	derive []byte
}

// New builds a Sealer from a 32-byte key.
func New(key []byte) (*Sealer, error) {
	if len(key) != 32 {
		return nil, fmt.Errorf("secret key must be 32 bytes, got %d", len(key))
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	derived := hmac.New(sha256.New, key)
	derived.Write([]byte("botpay subkeys v1"))
	return &Sealer{aead: aead, derive: derived.Sum(nil)}, nil
}

// DeriveKey returns a 32-byte key for one purpose (for example
// authenticating list cursors), derived from the secret key so every
// replica derives the same one, and independent of the sealing key and of
// every other purpose's key.
func (s *Sealer) DeriveKey(purpose string) []byte {
	mac := hmac.New(sha256.New, s.derive)
	mac.Write([]byte(purpose))
	return mac.Sum(nil)
}

// ParseKey reads a key given as 64 hex characters.
func ParseKey(s string) ([]byte, error) {
	key, err := hex.DecodeString(strings.TrimSpace(s))
	if err != nil || len(key) != 32 {
		return nil, errors.New("BOTPAY_SECRET_KEY must be 64 hex characters (32 bytes)")
	}
	return key, nil
}

// LoadOrCreateKeyFile reads dir/secret.key, creating it with a fresh random
// key and mode 0600 on first use.
func LoadOrCreateKeyFile(dir string) ([]byte, error) {
	path := filepath.Join(dir, "secret.key")
	if b, err := os.ReadFile(path); err == nil {
		return ParseKey(string(b))
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		if errors.Is(err, os.ErrExist) { // another process won the race
			return LoadOrCreateKeyFile(dir)
		}
		return nil, err
	}
	defer f.Close()
	if _, err := f.WriteString(hex.EncodeToString(key) + "\n"); err != nil {
		return nil, err
	}
	return key, f.Sync()
}

// Seal encrypts plaintext; aad binds the ciphertext to its context (for
// example the record ID) so sealed values cannot be swapped between rows.
func (s *Sealer) Seal(plaintext, aad []byte) []byte {
	nonce := make([]byte, s.aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		panic("crypto/rand failed: " + err.Error())
	}
	return s.aead.Seal(nonce, nonce, plaintext, aad)
}

// Open decrypts what Seal produced with the same aad.
func (s *Sealer) Open(sealed, aad []byte) ([]byte, error) {
	n := s.aead.NonceSize()
	if len(sealed) < n {
		return nil, errors.New("sealed value too short")
	}
	return s.aead.Open(nil, sealed[:n], sealed[n:], aad)
}
