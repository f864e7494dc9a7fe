package settle

import (
	"bytes"
	"context"
	"encoding/hex"
	"testing"

	"github.com/botpay/botpay/internal/x402"
)

func payment(t *testing.T) x402.Payment {
	key, _ := x402.KeyFromHex("0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318")
	to, _ := x402.ParseAddress("0x209693Bc6afc0C5328bA36FaF03C514EF312287C")
	nonce, _ := x402.ParseNonce("0xf3746613c2d920b5fdabc0856f2aeb2d4f88ee6037b8cc5d04a71a4462f13480")
	a := x402.Authorization{From: key.Address(), To: to, Value: 1000000, ValidBefore: 1900000000, Nonce: nonce}
	return x402.Payment{Authorization: a, Signature: key.Sign(x402.BaseUSDC.Digest(a))}
}

func TestCallDataEncodesTransferWithAuthorization(t *testing.T) {
	p := payment(t)
	d := CallData(p)
	if got := hex.EncodeToString(d[:4]); got != "e3ee160e" {
		t.Fatalf("selector = %s", got)
	}
	if len(d) != 4+9*32 {
		t.Fatalf("len = %d", len(d))
	}
	word := func(i int) []byte { return d[4+32*i : 4+32*(i+1)] }
	if !bytes.Equal(word(0)[12:], p.Authorization.From[:]) || !bytes.Equal(word(1)[12:], p.Authorization.To[:]) ||
		word(2)[31] != 0x40 || word(2)[30] != 0x42 || word(2)[29] != 0x0f || // 1000000 = 0x0f4240
		!bytes.Equal(word(5), p.Authorization.Nonce[:]) || word(6)[31] != p.Signature[64] ||
		!bytes.Equal(word(7), p.Signature[:32]) || !bytes.Equal(word(8), p.Signature[32:64]) {
		t.Fatalf("call data = %x", d)
	}
}

func TestSandboxHashIsDeterministicAndSignatureFree(t *testing.T) {
	p := payment(t)
	q := p
	q.Signature = x402.Malleate(p.Signature)
	ours := Sandbox{IsOurs: func(context.Context, x402.Address) (bool, error) { return true, nil }}
	a, _ := ours.Settle(context.Background(), p)
	b, _ := Sandbox{}.Settle(context.Background(), q)
	if a.TxHash != b.TxHash || !a.Internal || b.Internal || len(a.TxHash) != 66 {
		t.Fatalf("%+v %+v", a, b)
	}
}
