package evm

import (
	"encoding/binary"
	"math/big"

	"github.com/botpay/botpay/internal/eth"
)

// Selector is the first four bytes of keccak256 of a function signature,
// e.g. "balanceOf(address)".
func Selector(signature string) []byte {
	h := eth.Keccak256([]byte(signature))
	return h[:4]
}

// WordUint is a uint256 ABI word.
func WordUint(v uint64) []byte {
	var w [32]byte
	binary.BigEndian.PutUint64(w[24:], v)
	return w[:]
}

// WordAddress is an address ABI word (left-padded).
func WordAddress(a eth.Address) []byte {
	var w [32]byte
	copy(w[12:], a[:])
	return w[:]
}

// Call is an ABI call: selector followed by static words.
func Call(signature string, words ...[]byte) []byte {
	out := Selector(signature)
	for _, w := range words {
		out = append(out, w...)
	}
	return out
}

// WordBig reads a uint256 answer (the first word).
func WordBig(b []byte) *big.Int {
	if len(b) < 32 {
		return new(big.Int).SetBytes(b)
	}
	return new(big.Int).SetBytes(b[:32])
}
