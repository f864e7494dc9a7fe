package evm

import (
	"encoding/binary"
	"math/big"
)

// RLP items: a byte string or a list of items (Ethereum's yellow paper,
// appendix B). Integers are byte strings holding their big-endian form
// without leading zeros, so zero is the empty string.
type (
	// RLPString is a byte string.
	RLPString []byte
	// RLPList is a list of items.
	RLPList []RLPItem
)

// RLPItem is an RLPString or an RLPList.
type RLPItem interface{ appendRLP(dst []byte) []byte }

func (s RLPString) appendRLP(dst []byte) []byte {
	if len(s) == 1 && s[0] < 0x80 {
		return append(dst, s[0]) // a single low byte is its own encoding
	}
	dst = appendRLPHeader(dst, 0x80, len(s))
	return append(dst, s...)
}

func (l RLPList) appendRLP(dst []byte) []byte {
	var payload []byte
	for _, item := range l {
		payload = item.appendRLP(payload)
	}
	dst = appendRLPHeader(dst, 0xc0, len(payload))
	return append(dst, payload...)
}

// appendRLPHeader writes the prefix of a string (base 0x80) or list (base
// 0xc0) of n payload bytes: one byte up to 55, else the length of the
// length followed by the big-endian length.
func appendRLPHeader(dst []byte, base byte, n int) []byte {
	if n <= 55 {
		return append(dst, base+byte(n))
	}
	length := trimmed(uint64(n))
	dst = append(dst, base+55+byte(len(length)))
	return append(dst, length...)
}

// EncodeRLP returns the encoding of an item.
func EncodeRLP(item RLPItem) []byte { return item.appendRLP(nil) }

// RLPUint is the item of an unsigned integer.
func RLPUint(v uint64) RLPString { return RLPString(trimmed(v)) }

// RLPBig is the item of a non-negative big integer (nil is zero).
func RLPBig(v *big.Int) RLPString {
	if v == nil {
		return RLPString{}
	}
	return RLPString(v.Bytes())
}

// trimmed is v big-endian without leading zero bytes.
func trimmed(v uint64) []byte {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], v)
	i := 0
	for i < 8 && b[i] == 0 {
		i++
	}
	return b[i:]
}
