package payments

import (
	"context"
	"errors"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/facilitator"
	"github.com/botpay/botpay/internal/settle"
	"github.com/botpay/botpay/internal/x402"
)

// FacilitatorCallsPerMinute is the default bound of each of a bot's
// verify and settle calls (Limits.FacilitatorPerMinute). A vendor's middleware reports a refused call as a failed
// payment, so the limit is generous: it only stops a runaway loop.
const FacilitatorCallsPerMinute = 600

// Facilitator is botpay's x402 facilitator for the bots' own paid APIs,
// settling through the same path as a paid checkout page.
func (s *Service) Facilitator() facilitator.Facilitator {
	return facilitator.Facilitator{Payee: facilitatorPayee{s: s}}
}

// facilitatorPayee is the service as the facilitator sees it
// (facilitator.Payee), kept apart from Service's own methods.
type facilitatorPayee struct{ s *Service }

func (f facilitatorPayee) Domain() x402.Domain { return f.s.domain }
func (f facilitatorPayee) Live() bool          { return f.s.live }

func (f facilitatorPayee) Relayer() (x402.Address, bool) {
	if f.s.relay == nil {
		return x402.Address{}, false
	}
	return f.s.relay.Relayer(), true
}

func (f facilitatorPayee) TakeFacilitatorCall(ctx context.Context, botID, call string) error {
	return f.s.limits.TakeCall(ctx, "facilitator-"+call+":"+botID, f.s.facilitatorPerMinute, time.Minute)
}

func (f facilitatorPayee) ProcessorAddress(ctx context.Context, botID string) (x402.Address, bool, error) {
	w, err := f.s.ProcessorWallet(ctx, botID)
	if err != nil || w == nil {
		return x402.Address{}, false, err
	}
	a, err := x402.ParseAddress(w.Address)
	return a, err == nil, err
}

// CheckX402Resource is every check of SettleX402Resource that sends
// nothing: the signature and window, the authorization unused here, and
// in live mode the chain's own checks (state, balance, simulation).
func (f facilitatorPayee) CheckX402Resource(ctx context.Context, p facilitator.Payment) (string, error) {
	if reason := f.offChainReason(p); reason != "" {
		return reason, nil
	}
	a := p.Payment.Authorization
	if _, used, err := f.s.x402PaymentByNonce(ctx, a.From.Hex(), a.Nonce.Hex()); err != nil || used {
		return "authorization_used", err
	}
	if !f.s.onChain() {
		return "", nil
	}
	if _, err := f.s.relay.Prepare(ctx, p.Payment); err != nil {
		var refusal *settle.Refusal
		if errors.As(err, &refusal) {
			return refusal.Reason, nil
		}
		f.s.log.WarnContext(ctx, "x402 facilitator check failed", "payer", a.From.Hex(), "err", err)
		return ReasonUnavailable, nil
	}
	return "", nil
}

// SettleX402Resource settles a payment of the bot's own resource along
// the one x402 path: claimed once per authorization, settled by the
// sandbox settler or the relayer, recorded as a sale of the bot with its
// ledger row and wallet.sale.completed. The same authorization again
// answers its first transaction.
func (f facilitatorPayee) SettleX402Resource(ctx context.Context, p facilitator.Payment) (string, string, error) {
	o := X402Offer{Amount: botpay.Money(p.Amount / botpay.MicroPerCent), PayTo: p.PayTo, BotID: p.BotID, ResourceURL: p.ResourceURL}
	if _, replay, err := f.s.x402Original(ctx, p.Payment.Authorization); err != nil || !replay {
		// Not settled before: judge it as verify does, so a refusal names
		// its reason by code in both modes.
		if reason := f.offChainReason(p); reason != "" {
			return "", reason, nil
		}
	}
	res, err := f.s.settleX402(ctx, o, p.Payment, "")
	var rejected *X402Rejected
	if errors.As(err, &rejected) {
		return "", rejected.Reason, nil
	}
	if e := botpay.AsError(err); e != nil && e.Code == botpay.CodeChainUnavailable {
		return "", ReasonUnavailable, nil // a facilitator names it as verify does
	}
	if err != nil {
		return "", "", err
	}
	return res.Sale.Sale.TxHash, "", nil
}

// offChainReason checks the signature, recipient, amount and validity
// window as a settlement does; "" when they hold.
func (f facilitatorPayee) offChainReason(p facilitator.Payment) string {
	expect := x402.Expect{PayTo: p.PayTo, Amount: p.Amount, Exact: true, Now: f.s.clock.Now().Unix(), Tolerance: X402Tolerance}
	if f.s.live {
		expect.Tolerance, expect.ExpiryMargin = 0, X402ExpiryMargin
	}
	if err := x402.Verify(p.Payment, f.s.domain, expect); err != nil {
		return verifyReason(err)
	}
	return ""
}
