package eth

import (
	"encoding/hex"
	"errors"
	"strings"

	"golang.org/x/crypto/sha3"
)

// Keccak256 is Ethereum's hash: the original Keccak padding, not SHA3-256.
func Keccak256(parts ...[]byte) [32]byte {
	h := sha3.NewLegacyKeccak256()
	for _, p := range parts {
		h.Write(p)
	}
	var out [32]byte
	h.Sum(out[:0])
	return out
}

// Address is a 20-byte account address.
type Address [20]byte

// ErrBadAddress is returned for anything that is not a 0x-prefixed
// 40-hex-digit address, or a mixed-case one whose EIP-55 checksum is wrong.
var ErrBadAddress = errors.New("x402: not a 0x address with 40 hex digits and a valid EIP-55 checksum")

// ParseAddress reads a 0x address. All-lower and all-upper hex carry no
// checksum and are accepted; mixed case must be a correct EIP-55 checksum,
// because a wrong one means a typo.
func ParseAddress(s string) (Address, error) {
	var a Address
	if len(s) != 42 || (s[:2] != "0x" && s[:2] != "0X") {
		return a, ErrBadAddress
	}
	if _, err := hex.Decode(a[:], []byte(s[2:])); err != nil {
		return Address{}, ErrBadAddress
	}
	body := s[2:]
	if body != strings.ToLower(body) && body != strings.ToUpper(body) && a.Hex() != "0x"+body {
		return Address{}, ErrBadAddress
	}
	return a, nil
}

// Hex is the EIP-55 checksummed form.
func (a Address) Hex() string {
	// Fixed arrays: addresses are written several times per signature, and
	// the strings and slices of a plainer spelling were most of its
	// allocations.
	var out [42]byte
	out[0], out[1] = '0', 'x'
	hex.Encode(out[2:], a[:])
	hash := Keccak256(out[2:])
	for i := range 40 {
		c := out[i+2]
		nibble := hash[i/2] >> 4
		if i%2 == 1 {
			nibble = hash[i/2] & 0x0f
		}
		if c >= 'a' && c <= 'f' && nibble >= 8 {
			out[i+2] = c - 'a' + 'A'
		}
	}
	return string(out[:])
}

// String is the checksummed form.
func (a Address) String() string { return a.Hex() }

// IsZero reports the zero address.
func (a Address) IsZero() bool { return a == Address{} }
