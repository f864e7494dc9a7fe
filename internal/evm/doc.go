// Package evm is the little of Ethereum that botpay's relayer needs, written
// against the specifications instead of pulling in go-ethereum: RLP
// (rlp.go), EIP-1559 transactions signed with the project's secp256k1 key
// (tx.go), ABI words for the token calls (abi.go) and a JSON-RPC client for
// any hosted endpoint (rpc.go). It knows nothing of payments or databases.
package evm
