// Package x402 owns the cryptography and wire formats of the HTTP 402 payment
// flow: Keccak-256, EIP-55 addresses, EIP-712 hashing of the EIP-3009
// TransferWithAuthorization of USDC, secp256k1 signing (v = 27/28) and
// recovery that refuses malleable (high-s) signatures and bad v, and the
// X-PAYMENT / X-PAYMENT-RESPONSE header codec (x402 v1 nested payload and
// the flat object of the API reference (docs/api.md)), and the x402 v2
// codec: PAYMENT-REQUIRED, PAYMENT-SIGNATURE and PAYMENT-RESPONSE, CAIP-2
// networks, matching a payment's accepted offer against the seller's, and
// the payment-identifier extension. A v2 payment decodes to the same
// Payment a v1 one does, so both versions pass through one Verify.
//
// It is pure: no I/O, no clock, no storage; it must not import other
// packages of this module.
package x402
