// Package x402 owns the cryptography and wire formats of the HTTP 402 payment
// flow: EIP-712 hashing of the EIP-3009 TransferWithAuthorization of USDC,
// the X-PAYMENT / X-PAYMENT-RESPONSE header codec (x402 v1 nested payload and
// the flat object of the API reference (docs/api.md)), and the x402 v2
// codec: PAYMENT-REQUIRED, PAYMENT-SIGNATURE and PAYMENT-RESPONSE, CAIP-2
// networks, matching a payment's accepted offer against the seller's, and
// the payment-identifier extension. A v2 payment decodes to the same
// Payment a v1 one does, so both versions pass through one Verify.
//
// Keccak-256, EIP-55 addresses and secp256k1 keys (signing with v = 27/28,
// recovery that refuses malleable high-s signatures and bad v) live in
// package eth, below both x402 and evm; x402 re-exports their names.
//
// It is pure: no I/O, no clock, no storage; of this module it imports only
// package eth.
package x402
