package settle

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"strings"
	"testing"
	"time"

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

func TestJSONRPCSettlerSubmitsAndWaitsForReceipt(t *testing.T) {
	node := newFakeNode(t)
	relayer, _ := x402.ParseAddress("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed")
	s := JSONRPC{URL: node.Server.URL, Relayer: relayer, Poll: time.Millisecond}
	p := payment(t)
	r, err := s.Settle(context.Background(), p)
	if err != nil || r.TxHash != node.TxHash || r.Internal {
		t.Fatalf("settle = %+v, %v", r, err)
	}
	if tx := node.sent[0]; tx["from"] != relayer.Hex() || tx["to"] != x402.BaseUSDC.Contract.Hex() || !bytes.Equal(node.data(t, 0), CallData(p)) {
		t.Fatalf("sent %v", tx)
	}
	if node.polls != 2 {
		t.Fatalf("polls = %d", node.polls)
	}
}

func TestJSONRPCSettlerReportsRevertsAndNodeErrors(t *testing.T) {
	node := newFakeNode(t)
	node.status = "0x0"
	s := JSONRPC{URL: node.Server.URL, Poll: time.Millisecond}
	if _, err := s.Settle(context.Background(), payment(t)); !errors.Is(err, ErrReverted) {
		t.Fatalf("reverted: %v", err)
	}
	node.sendErr = true
	if _, err := s.Settle(context.Background(), payment(t)); err == nil || !strings.Contains(err.Error(), "authorization is used") {
		t.Fatalf("node error: %v", err)
	}
	s.URL = "http://127.0.0.1:1"
	if _, err := s.Settle(context.Background(), payment(t)); err == nil {
		t.Fatal("unreachable node settled")
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
