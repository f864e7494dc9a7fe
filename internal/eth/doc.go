// Package eth holds the Ethereum identity primitives that both the payment
// protocol (x402) and the transaction layer (evm) stand on: Keccak-256,
// 20-byte addresses with their EIP-55 checksum, and secp256k1 keys that
// sign deterministically and recover only the one canonical encoding of a
// signature (v = 27/28, low s).
//
// It is pure (no I/O, no clock, no storage) and imports nothing of this
// module, so the low layer (evm) no longer has to depend on the protocol
// layer (x402) for them. Its error messages keep the words they had when
// they lived in x402, because API clients see them verbatim.
package eth
