// Package livetest runs botpay in live mode against a real EVM node
// (anvil, internal/chaintest) and pays it with the stock x402 client of
// interop/: the end-to-end tests of on-chain settlement, on both database
// engines. Tests skip without node, anvil and solc unless
// CHAIN_TESTS_REQUIRED=1.
package livetest
