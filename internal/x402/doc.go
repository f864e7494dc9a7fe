// Package x402 owns the cryptography and wire formats of the HTTP 402 payment
// flow: Keccak-256, EIP-55 addresses, EIP-712 hashing of the EIP-3009
// TransferWithAuthorization of USDC, secp256k1 signing (v = 27/28) and
// recovery that refuses malleable (high-s) signatures and bad v, and the
// X-PAYMENT / X-PAYMENT-RESPONSE header codec (x402 v1 nested payload and
// the flat object of the API reference (docs/api.md)).
//
// It is pure: no I/O, no clock, no storage; it must not import other
// packages of this module.
package x402
