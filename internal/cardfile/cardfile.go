// Package cardfile owns the encrypted card file of rail5 cards: the only
// place where a full card number exists. The service encrypts the owner's
// card details into the file with a fresh key per card (AES-256-GCM), hands
// the file to the bot, keeps only the key (sealed by the caller) and releases
// the key to the bot once per approved rail5 checkout. It must not log,
// store or return the plaintext anywhere.
package cardfile

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
)

// Format and Version name the file format (docs/decisions.md, rail5).
const (
	Format  = "botpay.rail5.card"
	Version = 1
	Alg     = "AES-256-GCM"
)

// Details are the card details inside the file.
type Details struct {
	Number      string `json:"number"`
	CVV         string `json:"cvv"`
	ExpiryMonth string `json:"expiry_month"`
	ExpiryYear  string `json:"expiry_year"`
	HolderName  string `json:"holder_name"`
}

// File is the JSON envelope written to the bot's disk.
type File struct {
	Format     string `json:"format"`
	Version    int    `json:"version"`
	CardID     string `json:"card_id"`
	Alg        string `json:"alg"`
	Nonce      string `json:"nonce"`      // base64, 12 bytes
	Ciphertext string `json:"ciphertext"` // base64, ciphertext and GCM tag
}

// aad binds the ciphertext to its card: a file renamed to another card id
// does not open.
func aad(cardID string) []byte { return []byte(fmt.Sprintf("%s:v%d:%s", Format, Version, cardID)) }

// NewKey draws a fresh 256-bit card key.
func NewKey() []byte {
	k := make([]byte, 32)
	if _, err := rand.Read(k); err != nil {
		panic(err) // crypto/rand does not fail on supported platforms
	}
	return k
}

// Encrypt seals d for cardID under key and returns the file's text.
func Encrypt(key []byte, cardID string, d Details) (string, error) {
	gcm, err := newGCM(key)
	if err != nil {
		return "", err
	}
	plain, err := json.Marshal(d)
	if err != nil {
		return "", err
	}
	nonce := make([]byte, gcm.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return "", err
	}
	f := File{Format: Format, Version: Version, CardID: cardID, Alg: Alg,
		Nonce:      base64.StdEncoding.EncodeToString(nonce),
		Ciphertext: base64.StdEncoding.EncodeToString(gcm.Seal(nil, nonce, plain, aad(cardID)))}
	out, err := json.MarshalIndent(f, "", "  ")
	return string(out), err
}

// Decrypt opens a card file with its key (tests; bots use the Go client's
// copy of this function).
func Decrypt(key []byte, fileContent string) (Details, error) {
	var f File
	var d Details
	if err := json.Unmarshal([]byte(fileContent), &f); err != nil || f.Format != Format || f.Version != Version {
		return d, errors.New("cardfile: not a botpay rail5 card file")
	}
	gcm, err := newGCM(key)
	if err != nil {
		return d, err
	}
	nonce, err1 := base64.StdEncoding.DecodeString(f.Nonce)
	sealed, err2 := base64.StdEncoding.DecodeString(f.Ciphertext)
	if err1 != nil || err2 != nil || len(nonce) != gcm.NonceSize() {
		return d, errors.New("cardfile: malformed card file")
	}
	plain, err := gcm.Open(nil, nonce, sealed, aad(f.CardID))
	if err != nil {
		return d, errors.New("cardfile: wrong key or damaged file")
	}
	err = json.Unmarshal(plain, &d)
	return d, err
}

func newGCM(key []byte) (cipher.AEAD, error) {
	if len(key) != 32 {
		return nil, errors.New("cardfile: key must be 32 bytes")
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(block)
}

// Luhn reports whether number (digits only) passes the Luhn checksum.
func Luhn(number string) bool {
	sum, double := 0, false
	for i := len(number) - 1; i >= 0; i-- {
		c := number[i]
		if c < '0' || c > '9' {
			return false
		}
		d := int(c - '0')
		if double {
			if d *= 2; d > 9 {
				d -= 9
			}
		}
		sum += d
		double = !double
	}
	return len(number) > 0 && sum%10 == 0
}
