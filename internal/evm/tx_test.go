package evm

import (
	"bytes"
	"errors"
	"math/big"
	"testing"

	"github.com/botpay/botpay/internal/eth"
)

func testTx() DynamicFeeTx {
	to, _ := eth.ParseAddress("0x036CbD53842c5426634e7929541eC2318f3dCF7e")
	return DynamicFeeTx{ChainID: 84532, Nonce: 7, MaxPriorityFeePerGas: big.NewInt(1_000_000),
		MaxFeePerGas: big.NewInt(2_000_000_000), Gas: 120_000, To: &to, Data: []byte{0xe3, 0xee, 0x16, 0x0e}}
}

func TestSignedTransactionRecoversToTheRelayer(t *testing.T) {
	t.Parallel()
	key, _ := eth.KeyFromHex("4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318")
	tx := testTx()
	signed, err := tx.Sign(key)
	if err != nil {
		t.Fatal(err)
	}
	if signed.Raw[0] != 0x02 || signed.Hash != eth.Keccak256(signed.Raw) {
		t.Fatalf("raw %x hash %x", signed.Raw, signed.Hash)
	}
	// The last three list items are yParity, r, s: re-encode the unsigned
	// fields and check they open the signed list, then recover the sender.
	body := EncodeRLP(tx.fields())
	if !bytes.Contains(signed.Raw, body[2:]) { // list header lengths differ
		t.Fatalf("signed fields are not the unsigned fields")
	}
	sigStart := len(signed.Raw) - (1 + 33 + 33)
	yParity, r, s := signed.Raw[sigStart], signed.Raw[sigStart+2:sigStart+34], signed.Raw[sigStart+35:]
	var sig eth.Signature
	copy(sig[:32], r)
	copy(sig[32:64], s)
	sig[64] = 27 + yParity
	if yParity == 0x80 {
		sig[64] = 27
	}
	from, err := eth.Recover(tx.SigningHash(), sig)
	if err != nil || from != key.Address() {
		t.Fatalf("recovered %s, %v; want %s", from, err, key.Address())
	}
}

func TestSignRefusesFeesNodesWouldReject(t *testing.T) {
	t.Parallel()
	key, _ := eth.GenerateKey()
	for name, mutate := range map[string]func(*DynamicFeeTx){
		"priority above the cap": func(tx *DynamicFeeTx) { tx.MaxPriorityFeePerGas = big.NewInt(3_000_000_000) },
		"no fee cap":             func(tx *DynamicFeeTx) { tx.MaxFeePerGas = nil },
	} {
		tx := testTx()
		mutate(&tx)
		if _, err := tx.Sign(key); !errors.Is(err, ErrFees) {
			t.Errorf("%s: %v", name, err)
		}
	}
}
