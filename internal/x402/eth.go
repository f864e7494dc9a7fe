package x402

import "github.com/botpay/botpay/internal/eth"

// The hash, address and key primitives live in package eth so that evm can
// use them without importing the payment protocol; these names keep every
// caller of x402 unchanged.

// Keccak256 is Ethereum's hash (see eth.Keccak256).
func Keccak256(parts ...[]byte) [32]byte { return eth.Keccak256(parts...) }

type (
	// Address is a 20-byte account address (see eth.Address).
	Address = eth.Address
	// Key is a secp256k1 private key (see eth.Key).
	Key = eth.Key
	// Signature is r ‖ s ‖ v with v = 27 or 28 (see eth.Signature).
	Signature = eth.Signature
)

// Address, key and recovery errors (see package eth).
var (
	ErrBadAddress = eth.ErrBadAddress
	ErrBadV       = eth.ErrBadV
	ErrHighS      = eth.ErrHighS
	ErrSignature  = eth.ErrSignature
)

// ParseAddress reads a 0x address, checking a mixed-case EIP-55 checksum.
func ParseAddress(s string) (Address, error) { return eth.ParseAddress(s) }

// GenerateKey draws a key from crypto/rand.
func GenerateKey() (Key, error) { return eth.GenerateKey() }

// KeyFromBytes reads a 32-byte private key; zero and values ≥ n are refused.
func KeyFromBytes(b []byte) (Key, error) { return eth.KeyFromBytes(b) }

// KeyFromHex reads a private key written as (0x) + 64 hex digits.
func KeyFromHex(s string) (Key, error) { return eth.KeyFromHex(s) }

// ParseSignature reads 0x + 130 hex digits.
func ParseSignature(s string) (Signature, error) { return eth.ParseSignature(s) }

// Recover returns the address that signed digest; only v = 27/28 and low s.
func Recover(digest [32]byte, sig Signature) (Address, error) { return eth.Recover(digest, sig) }

// Malleate returns the other, refused encoding of the same signature.
func Malleate(sig Signature) Signature { return eth.Malleate(sig) }
