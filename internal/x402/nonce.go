package x402

import (
	"encoding/hex"
	"errors"
)

// Nonce is the bytes32 nonce of an authorization.
type Nonce [32]byte

// Hex is 0x + 64 lower-case hex digits.
func (n Nonce) Hex() string { return "0x" + hex.EncodeToString(n[:]) }

// ParseNonce reads 0x + 64 hex digits.
func ParseNonce(s string) (Nonce, error) {
	var n Nonce
	if len(s) != 66 || (s[:2] != "0x" && s[:2] != "0X") {
		return n, errors.New("x402: nonce must be 0x and 64 hex digits")
	}
	if _, err := hex.Decode(n[:], []byte(s[2:])); err != nil {
		return Nonce{}, errors.New("x402: nonce must be 0x and 64 hex digits")
	}
	return n, nil
}
