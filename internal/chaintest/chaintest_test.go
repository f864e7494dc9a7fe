package chaintest

import (
	"context"
	"errors"
	"math/big"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/settle"
	"github.com/botpay/botpay/internal/x402"
)

// TestTokenSettlesAnAuthorizationThroughTheRelayer: the deployed token
// takes an authorization signed with the x402 package's EIP-712 digest,
// submitted by the relayer's own signed transaction, and refuses it the
// second time.
func TestTokenSettlesAnAuthorizationThroughTheRelayer(t *testing.T) {
	t.Parallel()
	n := Start(t)
	payer, _ := x402.GenerateKey()
	relayer, _ := x402.GenerateKey()
	seller, _ := x402.GenerateKey()
	n.Mint(t, payer.Address(), 5_000_000)
	n.FundGas(t, relayer.Address())
	now := uint64(time.Now().Unix())
	var nonce x402.Nonce
	nonce[0] = 7
	a := x402.Authorization{From: payer.Address(), To: seller.Address(), Value: 1_250_000, ValidBefore: now + 300, Nonce: nonce}
	p := x402.Payment{Authorization: a, Signature: payer.Sign(n.Domain().Digest(a))}
	c := &settle.Chain{RPC: n.RPC, Key: relayer, Domain: n.Domain(), Confirmations: 1, Poll: 10 * time.Millisecond}
	ctx := context.Background()
	prepared, err := c.Prepare(ctx, p)
	if err != nil || prepared.NonceFloor != 0 || prepared.Tx.Gas == 0 || prepared.Tx.MaxFeePerGas.Sign() <= 0 {
		t.Fatalf("prepare: %+v, %v", prepared, err)
	}
	capped := *c
	capped.MaxFeePerGas = big.NewInt(1)
	if _, err := capped.Prepare(ctx, p); !errors.Is(err, settle.ErrFeeAboveCap) {
		t.Fatalf("a fee cap below the base fee: %v", err)
	}
	signed, err := c.Sign(prepared.Tx, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Broadcast(ctx, signed.Raw, signed.HashHex()); err != nil {
		t.Fatal(err)
	}
	if err := c.Broadcast(ctx, signed.Raw, signed.HashHex()); err != nil {
		t.Fatalf("a second broadcast of the same transaction: %v", err)
	}
	// Two confirmations: the including block alone is not enough.
	twice := *c
	twice.Confirmations = 2
	if out, err := twice.Check(ctx, signed.Raw, signed.HashHex()); err != nil || out != settle.Pending {
		t.Fatalf("one block of two: %v, %v", out, err)
	}
	n.Mine(t)
	if out, err := twice.Check(ctx, signed.Raw, signed.HashHex()); err != nil || out != settle.Confirmed {
		t.Fatalf("two blocks of two: %v, %v", out, err)
	}
	if out, err := c.Check(ctx, signed.Raw, signed.HashHex()); err != nil || out != settle.Confirmed {
		t.Fatalf("one block of one: %v, %v", out, err)
	}
	if n.Balance(t, seller.Address()) != 1_250_000 || n.Balance(t, payer.Address()) != 3_750_000 {
		t.Fatalf("balances seller %d payer %d", n.Balance(t, seller.Address()), n.Balance(t, payer.Address()))
	}
	var refusal *settle.Refusal
	if _, err := c.Prepare(ctx, p); !asRefusal(err, &refusal) || refusal.Reason != settle.ReasonAuthorizationUsed {
		t.Fatalf("replayed prepare: %v", err)
	}
	rich := x402.Authorization{From: payer.Address(), To: seller.Address(), Value: 4_000_000, ValidBefore: now + 300, Nonce: x402.Nonce{8}}
	if _, err := c.Prepare(ctx, x402.Payment{Authorization: rich, Signature: payer.Sign(n.Domain().Digest(rich))}); !asRefusal(err, &refusal) || refusal.Reason != settle.ReasonInsufficientFunds {
		t.Fatalf("more than the balance: %v", err)
	}
	forged := x402.Authorization{From: payer.Address(), To: seller.Address(), Value: 1, ValidBefore: now + 300, Nonce: x402.Nonce{9}}
	if _, err := c.Prepare(ctx, x402.Payment{Authorization: forged, Signature: seller.Sign(n.Domain().Digest(forged))}); !asRefusal(err, &refusal) || refusal.Reason != settle.ReasonSimulationFailed {
		t.Fatalf("a signature the token rejects: %v", err)
	}
}

func asRefusal(err error, out **settle.Refusal) bool {
	r, ok := err.(*settle.Refusal)
	*out = r
	return ok
}
