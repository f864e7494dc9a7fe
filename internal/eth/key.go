package eth

import (
	"encoding/hex"
	"errors"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
	"github.com/decred/dcrd/dcrec/secp256k1/v4/ecdsa"
)

// Key is a secp256k1 private key.
type Key struct{ k *secp256k1.PrivateKey }

// GenerateKey draws a key from crypto/rand.
func GenerateKey() (Key, error) {
	k, err := secp256k1.GeneratePrivateKey()
	return Key{k}, err
}

// KeyFromBytes reads a 32-byte private key; zero and values ≥ n are refused.
func KeyFromBytes(b []byte) (Key, error) {
	var s secp256k1.ModNScalar
	if len(b) != 32 || s.SetByteSlice(b) || s.IsZero() {
		return Key{}, errors.New("x402: a private key is 32 bytes in 1..n-1")
	}
	return Key{secp256k1.NewPrivateKey(&s)}, nil
}

// KeyFromHex reads a private key written as (0x) + 64 hex digits.
func KeyFromHex(s string) (Key, error) {
	if len(s) > 2 && (s[:2] == "0x" || s[:2] == "0X") {
		s = s[2:]
	}
	b, err := hex.DecodeString(s)
	if err != nil {
		return Key{}, errors.New("x402: private key is not hex")
	}
	return KeyFromBytes(b)
}

// Bytes is the 32-byte private key (to be sealed, never shown).
func (k Key) Bytes() []byte { return k.k.Serialize() }

// Address is keccak256(uncompressed public key without its 0x04 prefix)[12:].
func (k Key) Address() Address { return pubAddress(k.k.PubKey()) }

func pubAddress(p *secp256k1.PublicKey) Address {
	h := Keccak256(p.SerializeUncompressed()[1:])
	var a Address
	copy(a[:], h[12:])
	return a
}

// Signature is r ‖ s ‖ v with v = 27 or 28, Ethereum's layout.
type Signature [65]byte

// Hex is 0x + 130 hex digits.
func (s Signature) Hex() string { return "0x" + hex.EncodeToString(s[:]) }

// ParseSignature reads 0x + 130 hex digits (it does not judge s or v;
// Recover does).
func ParseSignature(str string) (Signature, error) {
	var s Signature
	if len(str) != 132 || (str[:2] != "0x" && str[:2] != "0X") {
		return s, errors.New("x402: signature must be 0x and 130 hex digits")
	}
	if _, err := hex.Decode(s[:], []byte(str[2:])); err != nil {
		return Signature{}, errors.New("x402: signature must be 0x and 130 hex digits")
	}
	return s, nil
}

// Sign signs a digest deterministically (RFC 6979); s is always low.
func (k Key) Sign(digest [32]byte) Signature {
	compact := ecdsa.SignCompact(k.k, digest[:], false) // [27+recid] ‖ r ‖ s
	var sig Signature
	copy(sig[:64], compact[1:])
	sig[64] = compact[0]
	return sig
}

// Recovery errors.
var (
	ErrBadV      = errors.New("x402: signature v must be 27 or 28")
	ErrHighS     = errors.New("x402: signature s is in the upper half of the curve order (malleable)")
	ErrSignature = errors.New("x402: signature does not recover to a public key")
)

// Recover returns the address that signed digest. Only v = 27/28 and
// low s (EIP-2) are accepted, so each authorization has exactly one valid
// signature encoding.
func Recover(digest [32]byte, sig Signature) (Address, error) {
	v := sig[64]
	if v != 27 && v != 28 {
		return Address{}, ErrBadV
	}
	var r, s secp256k1.ModNScalar
	if r.SetByteSlice(sig[:32]) || s.SetByteSlice(sig[32:64]) || r.IsZero() || s.IsZero() {
		return Address{}, ErrSignature
	}
	if s.IsOverHalfOrder() {
		return Address{}, ErrHighS
	}
	compact := make([]byte, 65)
	compact[0] = v
	copy(compact[1:], sig[:64])
	pub, _, err := ecdsa.RecoverCompact(compact, digest[:])
	if err != nil {
		return Address{}, ErrSignature
	}
	return pubAddress(pub), nil
}

// Malleate returns the other valid-looking encoding of the same signature
// (n - s, flipped v). Recover refuses it; tests use it to prove replays in
// that form are caught.
func Malleate(sig Signature) Signature {
	var s secp256k1.ModNScalar
	s.SetByteSlice(sig[32:64])
	s.Negate()
	out := sig
	b := s.Bytes()
	copy(out[32:64], b[:])
	out[64] = 55 - sig[64]
	return out
}
