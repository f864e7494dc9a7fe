package interop

import (
	"encoding/hex"
	"encoding/json"
	"math/big"
	"strings"
	"testing"

	"github.com/botpay/botpay/internal/evm"
	"github.com/botpay/botpay/internal/x402"
)

// TestViemSerializesTransactionsAsTheRelayerDoes: EIP-1559 transactions
// signed by internal/evm are byte for byte the ones viem signs from the
// same fields — small and large numbers, a call, a contract creation with
// more than 55 bytes of code, zero nonces and fees.
func TestViemSerializesTransactionsAsTheRelayerDoes(t *testing.T) {
	dir := interopDir(t)
	to, _ := x402.ParseAddress("0x036CbD53842c5426634e7929541eC2318f3dCF7e")
	long := make([]byte, 300)
	for i := range long {
		long[i] = byte(i)
	}
	cases := []evm.DynamicFeeTx{
		{ChainID: 84532, Nonce: 0, MaxPriorityFeePerGas: big.NewInt(0), MaxFeePerGas: big.NewInt(0), Gas: 21000, To: &to},
		{ChainID: 8453, Nonce: 127, MaxPriorityFeePerGas: big.NewInt(1_000_000), MaxFeePerGas: big.NewInt(2_000_000_000), Gas: 120_000, To: &to, Data: []byte{0xe3, 0xee, 0x16, 0x0e}},
		{ChainID: 1, Nonce: 1 << 40, MaxPriorityFeePerGas: big.NewInt(128), MaxFeePerGas: new(big.Int).Lsh(big.NewInt(1), 70), Gas: 30_000_000, To: &to, Value: big.NewInt(1), Data: long[:56]},
		{ChainID: 31337, Nonce: 3, MaxPriorityFeePerGas: big.NewInt(5), MaxFeePerGas: big.NewInt(5), Gas: 1_000_000, Data: long},
	}
	type viemTx struct {
		Key                  string  `json:"key"`
		ChainID              uint64  `json:"chainId"`
		Nonce                uint64  `json:"nonce"`
		MaxPriorityFeePerGas string  `json:"maxPriorityFeePerGas"`
		MaxFeePerGas         string  `json:"maxFeePerGas"`
		Gas                  string  `json:"gas"`
		To                   *string `json:"to"`
		Value                string  `json:"value"`
		Data                 string  `json:"data"`
	}
	var in []viemTx
	var ours []evm.SignedTx
	for i, tx := range cases {
		key, _ := x402.GenerateKey()
		signed, err := tx.Sign(key)
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		ours = append(ours, signed)
		v := viemTx{Key: "0x" + hex.EncodeToString(key.Bytes()), ChainID: tx.ChainID, Nonce: tx.Nonce,
			MaxPriorityFeePerGas: tx.MaxPriorityFeePerGas.String(), MaxFeePerGas: tx.MaxFeePerGas.String(),
			Gas: big.NewInt(int64(tx.Gas)).String(), Value: "0", Data: evm.HexBytes(tx.Data)}
		if tx.Value != nil {
			v.Value = tx.Value.String()
		}
		if tx.To != nil {
			s := tx.To.Hex()
			v.To = &s
		}
		in = append(in, v)
	}
	body, _ := json.Marshal(in)
	var theirs []struct{ Raw, Hash string }
	if out := node(t, dir, body, "sign-tx.mjs"); json.Unmarshal(out, &theirs) != nil || len(theirs) != len(cases) {
		t.Fatalf("viem answered %s", out)
	}
	for i := range cases {
		if ours[i].RawHex() != strings.ToLower(theirs[i].Raw) || ours[i].HashHex() != theirs[i].Hash {
			t.Errorf("case %d:\n ours %s %s\nviem  %s %s", i, ours[i].RawHex(), ours[i].HashHex(), theirs[i].Raw, theirs[i].Hash)
		}
	}
}
