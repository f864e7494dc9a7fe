package evm

import (
	"encoding/hex"
	"errors"
	"math/big"

	"github.com/botpay/botpay/internal/eth"
)

// DynamicFeeTx is an EIP-1559 transaction (EIP-2718 type 2) with an empty
// access list. To nil creates a contract.
type DynamicFeeTx struct {
	ChainID              uint64
	Nonce                uint64
	MaxPriorityFeePerGas *big.Int // wei
	MaxFeePerGas         *big.Int // wei
	Gas                  uint64
	To                   *eth.Address
	Value                *big.Int // wei; nil is zero
	Data                 []byte
}

// SignedTx is a signed transaction ready for eth_sendRawTransaction.
type SignedTx struct {
	Raw  []byte   // 0x02 ‖ rlp([fields…, yParity, r, s])
	Hash [32]byte // keccak256(Raw): the transaction hash
}

// RawHex is 0x + the raw transaction in hex.
func (s SignedTx) RawHex() string { return "0x" + hex.EncodeToString(s.Raw) }

// HashHex is 0x + 64 lower-case hex digits.
func (s SignedTx) HashHex() string { return "0x" + hex.EncodeToString(s.Hash[:]) }

const dynamicFeeTxType = 0x02

// fields are the eight signed fields, in the order of EIP-1559.
func (t DynamicFeeTx) fields() RLPList {
	to := RLPString{}
	if t.To != nil {
		to = RLPString(t.To[:])
	}
	return RLPList{RLPUint(t.ChainID), RLPUint(t.Nonce), RLPBig(t.MaxPriorityFeePerGas), RLPBig(t.MaxFeePerGas),
		RLPUint(t.Gas), to, RLPBig(t.Value), RLPString(t.Data), RLPList{}}
}

// SigningHash is keccak256(0x02 ‖ rlp(fields)): what the sender signs.
func (t DynamicFeeTx) SigningHash() [32]byte {
	return eth.Keccak256([]byte{dynamicFeeTxType}, EncodeRLP(t.fields()))
}

// ErrFees refuses a transaction whose priority fee exceeds its fee cap or
// whose fees are missing: nodes reject it anyway, after it cost a nonce.
var ErrFees = errors.New("evm: maxPriorityFeePerGas must be set and at most maxFeePerGas")

// Sign signs the transaction with key (RFC 6979, low s).
func (t DynamicFeeTx) Sign(key eth.Key) (SignedTx, error) {
	if t.MaxFeePerGas == nil || t.MaxPriorityFeePerGas == nil || t.MaxPriorityFeePerGas.Cmp(t.MaxFeePerGas) > 0 {
		return SignedTx{}, ErrFees
	}
	sig := key.Sign(t.SigningHash()) // r ‖ s ‖ 27+yParity
	yParity := uint64(sig[64] - 27)
	r, s := new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:64])
	list := append(t.fields(), RLPUint(yParity), RLPBig(r), RLPBig(s))
	raw := append([]byte{dynamicFeeTxType}, EncodeRLP(list)...)
	return SignedTx{Raw: raw, Hash: eth.Keccak256(raw)}, nil
}
