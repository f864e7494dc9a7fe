// Package settle owns how a verified x402 authorization becomes money:
// the Settler interface, the sandbox settler of the embedded default and
// the live-mode Chain that checks, signs and submits transferWithAuthorization
// on an EVM chain through any JSON-RPC endpoint. It must not know about the database, HTTP routes or checkout pages;
// the app records the sale around it.
package settle

import (
	"context"
	"encoding/hex"

	"github.com/botpay/botpay/internal/x402"
)

// Result is a settled authorization.
type Result struct {
	TxHash string // 0x + 64 hex
	// Internal means no chain was involved: the payer is one of this
	// service's processor wallets and the app moves the money inside the
	// ledger, in the transaction that records the sale.
	Internal bool
}

// Settler executes a verified authorization. It is called at most once
// per (payer, nonce) at a time: the app claims the authorization in the
// database first.
type Settler interface {
	Settle(ctx context.Context, p x402.Payment) (Result, error)
}

// Sandbox settles without a chain. Payments from our own processor
// wallets move inside the ledger; any other payer is recorded as an
// external payment with a deterministic transaction hash, so the same
// authorization always names the same hash.
type Sandbox struct {
	// IsOurs reports whether an address is one of our processor wallets.
	IsOurs func(ctx context.Context, a x402.Address) (bool, error)
}

// Settle implements Settler.
func (s Sandbox) Settle(ctx context.Context, p x402.Payment) (Result, error) {
	ours := false
	if s.IsOurs != nil {
		var err error
		if ours, err = s.IsOurs(ctx, p.Authorization.From); err != nil {
			return Result{}, err
		}
	}
	return Result{TxHash: SandboxTxHash(p.Authorization), Internal: ours}, nil
}

// SandboxTxHash derives the sandbox's transaction hash from the signed
// digest (not the signature), so a malleated copy of a signature names
// the same transaction.
func SandboxTxHash(a x402.Authorization) string {
	d := x402.BaseUSDC.Digest(a)
	h := x402.Keccak256([]byte("botpay-sandbox-settlement"), d[:])
	return "0x" + hex.EncodeToString(h[:])
}
