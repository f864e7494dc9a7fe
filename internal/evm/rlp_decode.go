package evm

import (
	"errors"
	"fmt"
	"math/big"

	"github.com/botpay/botpay/internal/eth"
)

// ErrRLP is a malformed RLP encoding.
var ErrRLP = errors.New("evm: malformed RLP")

// DecodeRLP reads one item that fills b exactly.
func DecodeRLP(b []byte) (RLPItem, error) {
	item, rest, err := decodeRLPItem(b)
	if err != nil {
		return nil, err
	}
	if len(rest) != 0 {
		return nil, fmt.Errorf("%w: %d bytes after the item", ErrRLP, len(rest))
	}
	return item, nil
}

// decodeRLPItem reads the item at the start of b and returns the rest.
func decodeRLPItem(b []byte) (item RLPItem, rest []byte, err error) {
	if len(b) == 0 {
		return nil, nil, fmt.Errorf("%w: empty input", ErrRLP)
	}
	switch p := b[0]; {
	case p < 0x80:
		return RLPString(b[:1]), b[1:], nil
	case p < 0xc0:
		payload, rest, err := rlpPayload(b, 0x80)
		return RLPString(payload), rest, err
	default:
		payload, rest, err := rlpPayload(b, 0xc0)
		if err != nil {
			return nil, nil, err
		}
		list := RLPList{}
		for len(payload) > 0 {
			var it RLPItem
			if it, payload, err = decodeRLPItem(payload); err != nil {
				return nil, nil, err
			}
			list = append(list, it)
		}
		return list, rest, nil
	}
}

// rlpPayload splits b, which starts with a header of the given base
// (0x80 string, 0xc0 list), into the item's payload and what follows.
func rlpPayload(b []byte, base byte) (payload, rest []byte, err error) {
	short := int(b[0] - base)
	if short <= 55 {
		return rlpSplit(b[1:], uint64(short))
	}
	lenOfLen := short - 55
	if len(b) < 1+lenOfLen || b[1] == 0 {
		return nil, nil, fmt.Errorf("%w: bad length of length", ErrRLP)
	}
	var n uint64
	for _, c := range b[1 : 1+lenOfLen] {
		if n > 1<<48 {
			return nil, nil, fmt.Errorf("%w: length too large", ErrRLP)
		}
		n = n<<8 | uint64(c)
	}
	return rlpSplit(b[1+lenOfLen:], n)
}

func rlpSplit(b []byte, n uint64) (payload, rest []byte, err error) {
	if uint64(len(b)) < n {
		return nil, nil, fmt.Errorf("%w: %d bytes announced, %d left", ErrRLP, n, len(b))
	}
	return b[:n], b[n:], nil
}

// DecodeDynamicFeeTx reads back the unsigned fields of a signed EIP-1559
// transaction (raw as SignedTx.Raw), so it can be signed again with other
// fees and the same nonce: a replacement.
func DecodeDynamicFeeTx(raw []byte) (DynamicFeeTx, error) {
	if len(raw) == 0 || raw[0] != dynamicFeeTxType {
		return DynamicFeeTx{}, fmt.Errorf("%w: not a type 2 transaction", ErrRLP)
	}
	item, err := DecodeRLP(raw[1:])
	if err != nil {
		return DynamicFeeTx{}, err
	}
	list, ok := item.(RLPList)
	if !ok || len(list) != 12 {
		return DynamicFeeTx{}, fmt.Errorf("%w: a type 2 transaction is a list of 12 fields", ErrRLP)
	}
	var s [8]RLPString // the access list (field 8) and the signature are not needed
	for i := range s {
		if s[i], ok = list[i].(RLPString); !ok {
			return DynamicFeeTx{}, fmt.Errorf("%w: field %d is a list", ErrRLP, i)
		}
	}
	for _, i := range []int{0, 1, 4} {
		if len(s[i]) > 8 {
			return DynamicFeeTx{}, fmt.Errorf("%w: field %d does not fit 64 bits", ErrRLP, i)
		}
	}
	tx := DynamicFeeTx{ChainID: rlpUint(s[0]), Nonce: rlpUint(s[1]), MaxPriorityFeePerGas: new(big.Int).SetBytes(s[2]),
		MaxFeePerGas: new(big.Int).SetBytes(s[3]), Gas: rlpUint(s[4]), Value: new(big.Int).SetBytes(s[6]), Data: append([]byte(nil), s[7]...)}
	switch len(s[5]) {
	case 0:
	case 20:
		var to eth.Address
		copy(to[:], s[5])
		tx.To = &to
	default:
		return DynamicFeeTx{}, fmt.Errorf("%w: recipient of %d bytes", ErrRLP, len(s[5]))
	}
	return tx, nil
}

func rlpUint(s RLPString) uint64 {
	var v uint64
	for _, c := range s {
		v = v<<8 | uint64(c)
	}
	return v
}
