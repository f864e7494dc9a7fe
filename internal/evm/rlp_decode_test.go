package evm

import (
	"bytes"
	"math/big"
	"testing"

	"github.com/botpay/botpay/internal/eth"
)

func TestASignedTransactionDecodesToTheFieldsItWasSignedWith(t *testing.T) {
	key, _ := eth.GenerateKey()
	to := key.Address()
	for _, tx := range []DynamicFeeTx{
		{ChainID: 84532, Nonce: 0, MaxPriorityFeePerGas: big.NewInt(0), MaxFeePerGas: big.NewInt(1), Gas: 21000, To: &to},
		{ChainID: 8453, Nonce: 1 << 40, MaxPriorityFeePerGas: big.NewInt(1_000_000_000), MaxFeePerGas: new(big.Int).Lsh(big.NewInt(1), 100),
			Gas: 3_000_000, To: &to, Value: big.NewInt(7), Data: bytes.Repeat([]byte{0xab}, 300)},
		{ChainID: 1, Nonce: 5, MaxPriorityFeePerGas: big.NewInt(2), MaxFeePerGas: big.NewInt(2), Gas: 1, Data: []byte{0x01}},
	} {
		signed, err := tx.Sign(key)
		if err != nil {
			t.Fatal(err)
		}
		got, err := DecodeDynamicFeeTx(signed.Raw)
		if err != nil {
			t.Fatalf("decode: %v", err)
		}
		again, err := got.Sign(key)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(again.Raw, signed.Raw) {
			t.Errorf("decoded %+v signs to other bytes than %+v", got, tx)
		}
	}
}

func TestMalformedTransactionsAreRefused(t *testing.T) {
	key, _ := eth.GenerateKey()
	to := key.Address()
	signed, _ := DynamicFeeTx{ChainID: 1, MaxPriorityFeePerGas: big.NewInt(1), MaxFeePerGas: big.NewInt(1), To: &to}.Sign(key)
	for name, raw := range map[string][]byte{
		"empty":          nil,
		"legacy type":    append([]byte{0x01}, signed.Raw[1:]...),
		"truncated":      signed.Raw[:len(signed.Raw)-1],
		"trailing bytes": append(append([]byte(nil), signed.Raw...), 0x00),
		"not a list":     {0x02, 0x83, 'a', 'b', 'c'},
		"short list":     {0x02, 0xc2, 0x01, 0x02},
	} {
		if _, err := DecodeDynamicFeeTx(raw); err == nil {
			t.Errorf("%s: decoded", name)
		}
	}
}

func FuzzDecodeDynamicFeeTx(f *testing.F) {
	key, _ := eth.GenerateKey()
	to := key.Address()
	signed, _ := DynamicFeeTx{ChainID: 1, MaxPriorityFeePerGas: big.NewInt(1), MaxFeePerGas: big.NewInt(1), To: &to, Data: []byte("x")}.Sign(key)
	f.Add(signed.Raw)
	f.Fuzz(func(t *testing.T, raw []byte) {
		tx, err := DecodeDynamicFeeTx(raw)
		if err != nil {
			return
		}
		if tx.MaxFeePerGas == nil || tx.MaxPriorityFeePerGas == nil || tx.Value == nil {
			t.Fatalf("decoded without fees or value: %+v", tx)
		}
	})
}
