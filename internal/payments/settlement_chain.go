package payments

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/evm"
	"github.com/botpay/botpay/internal/settle"
	"github.com/botpay/botpay/internal/x402"
)

// X402ExpiryMargin is how long past now a live authorization must stay
// valid: long enough to be mined (the reference facilitator's 6 s).
const X402ExpiryMargin = 6 // seconds

// x402ConfirmWait bounds how long a buyer's request waits for its
// transaction; past it the resume worker finishes the sale.
const x402ConfirmWait = 2 * time.Minute

// paymentInProgressRetry is the Retry-After of a payment still being
// settled: a few blocks on Base.
const paymentInProgressRetry = 5 // seconds

// buyerWaitWithin is how long a buyer's request may wait for the chain
// under a server write timeout: a sixth of it is left to answer, so the
// buyer reads 409 payment_in_progress instead of a dropped connection.
func buyerWaitWithin(writeTimeout time.Duration) time.Duration {
	if writeTimeout <= 0 {
		return x402ConfirmWait
	}
	return min(x402ConfirmWait, writeTimeout-writeTimeout/6)
}

// errPaymentInProgress is a payment whose transaction was sent but is not
// final yet; the same payment again answers its sale once it is.
func errPaymentInProgress(message string) error {
	e := botpay.Errorf(botpay.KindConflict, botpay.CodePaymentInProgress, "%s", message)
	e.RetryAfterSeconds = paymentInProgressRetry
	return e
}

// Reasons a live payment is refused before any gas is spent (the error of
// the x402 402 answer), beside settle's on-chain reasons.
const (
	ReasonInvalidSignature = "invalid_signature"
	ReasonExpired          = "expired"
	ReasonNotYetValid      = "not_yet_valid"
	ReasonWrongRecipient   = "wrong_recipient"
	ReasonWrongAmount      = "wrong_amount"
	ReasonWrongNetwork     = "wrong_network"
	ReasonWrongToken       = "wrong_token"
	ReasonSettlementFailed = "settlement_failed"
	ReasonUnavailable      = "settlement_unavailable"
)

// verifyReason names a failed off-chain check with its x402 error code.
func verifyReason(err error) string {
	switch {
	case errors.Is(err, x402.ErrExpired):
		return ReasonExpired
	case errors.Is(err, x402.ErrNotYetValid):
		return ReasonNotYetValid
	case errors.Is(err, x402.ErrWrongRecipient):
		return ReasonWrongRecipient
	case errors.Is(err, x402.ErrWrongAmount):
		return ReasonWrongAmount
	case errors.Is(err, x402.ErrWrongChain):
		return ReasonWrongNetwork
	case errors.Is(err, x402.ErrWrongToken):
		return ReasonWrongToken
	}
	return ReasonInvalidSignature
}

// settleOnChain settles a claimed, verified authorization on the chain:
// the chain checks (no gas), then a signed transaction stored as
// submitted before it is sent, then its receipt, then the sale. A refusal
// before submission drops the claim; after it the payment is the chain's
// to decide and the resume worker finishes what this request does not:
// past answerBy the buyer gets 409 payment_in_progress.
func (s *Service) settleOnChain(ctx context.Context, id int64, o X402Offer, p x402.Payment, answerBy time.Time) (botpay.SaleResult, error) {
	release := func(err error) (botpay.SaleResult, error) {
		if rerr := s.releaseX402Payment(context.WithoutCancel(ctx), id); rerr != nil {
			s.log.ErrorContext(ctx, "x402 claim not released", "claim", id, "err", rerr)
		}
		return botpay.SaleResult{}, err
	}
	sub, err := s.submit(ctx, id, p)
	if err != nil {
		var refusal *settle.Refusal
		if errors.As(err, &refusal) {
			return release(&X402Rejected{Reason: refusal.Reason})
		}
		s.log.WarnContext(ctx, "x402 settlement not submitted", "payer", p.Authorization.From.Hex(), "err", err)
		if errors.Is(err, errNodeFault) {
			// Nothing was stored or sent: the buyer may send the same
			// payment again, and must not take a fault for a refusal.
			return release(botpay.ChainUnavailable("the payment's checks"))
		}
		return release(&X402Rejected{Reason: ReasonUnavailable})
	}
	raw, _ := evm.ParseHexBytes(sub.RawTx)
	if err := s.relay.Broadcast(ctx, raw, sub.TxHash); err != nil {
		// Stored already: the worker sends it again; the buyer waits here.
		s.log.WarnContext(ctx, "x402 settlement not sent yet", "tx", sub.TxHash, "err", err)
	}
	wait, cancel := context.WithDeadline(ctx, answerBy)
	defer cancel()
	sent := paymentTx(X402Payment{ID: id, TxHash: sub.TxHash, RawTx: sub.RawTx, RelayerNonce: sub.Nonce})
	outcome, mined, err := s.awaitSent(wait, sent)
	if err != nil {
		return botpay.SaleResult{}, errPaymentInProgress("transaction " + mined +
			" is not confirmed yet; the same payment again returns the sale once it is")
	}
	pay := X402Payment{ID: id, PageID: o.Page.ID, Amount: o.Micro(), Payer: p.Authorization.From.Hex(), TxHash: mined,
		BotID: o.BotID, ResourceURL: o.ResourceURL, BuyerEmail: o.BuyerEmail, BuyerName: o.BuyerName}
	if o.Invoice != nil {
		pay.InvoiceRef = o.Invoice.ReferenceNumber
	}
	if o.Link != nil {
		pay.LinkID = o.Link.ID
	}
	return s.finishOnChain(ctx, pay, outcome)
}

// submit runs the chain checks and drafts the transaction (one batch),
// then stores it signed with the relayer's next nonce.
func (s *Service) submit(ctx context.Context, id int64, p x402.Payment) (SignedSubmission, error) {
	prepared, err := s.relay.Prepare(ctx, p)
	if err != nil {
		var refusal *settle.Refusal
		if !errors.As(err, &refusal) && !errors.Is(err, settle.ErrFeeAboveCap) && !errors.Is(err, settle.ErrRelayerUnfunded) {
			err = fmt.Errorf("%w: %w", errNodeFault, err)
		}
		return SignedSubmission{}, err
	}
	relayer := RelayerAccount{ChainID: s.relay.Domain.ChainID, Address: s.relay.Relayer().Hex()}
	return s.submitX402Payment(ctx, id, relayer, prepared.NonceFloor, func(nonce uint64) (SignedSubmission, error) {
		signed, err := s.relay.Sign(prepared.Tx, nonce)
		return SignedSubmission{Nonce: nonce, TxHash: signed.HashHex(), RawTx: signed.RawHex()}, err
	})
}

// errNodeFault is a node that did not answer a settlement's checks
// usefully (down, slow, an error page, a JSON-RPC error, a malformed
// result), as opposed to a refusal or a relayer that cannot pay the gas.
var errNodeFault = errors.New("payments: the node did not answer the payment's checks")

// finishOnChain records what the chain decided of a submitted payment:
// the sale once confirmed (exactly once across requests and replicas), or
// the failure of a reverted transaction.
func (s *Service) finishOnChain(ctx context.Context, pay X402Payment, outcome settle.Outcome) (botpay.SaleResult, error) {
	ctx = context.WithoutCancel(ctx)
	if outcome == settle.Reverted {
		if err := s.failX402Payment(ctx, pay.ID, "transaction reverted"); err != nil {
			return botpay.SaleResult{}, err
		}
		return botpay.SaleResult{}, &X402Rejected{Reason: ReasonSettlementFailed}
	}
	amount := botpay.Money(pay.Amount / botpay.MicroPerCent)
	method, err := s.walletMethod(ctx, pay.PageID)
	if err != nil {
		return botpay.SaleResult{}, err
	}
	in := botpay.SaleInput{PageID: pay.PageID, InvoiceRef: pay.InvoiceRef, Method: method, BuyerType: botpay.BuyerWallet,
		BuyerIdentifier: Checksummed(pay.Payer), TxHash: strings.ToLower(pay.TxHash), Amount: &amount, OnChain: true,
		BotID: pay.BotID, ResourceURL: pay.ResourceURL, LinkID: pay.LinkID, LinkHeld: pay.LinkID != "",
		BuyerEmail: pay.BuyerEmail, BuyerName: pay.BuyerName}
	res, err := s.confirmX402Payment(ctx, pay.ID, in)
	if payer, perr := x402.ParseAddress(pay.Payer); perr == nil {
		s.ForgetChainBalance(payer)
	}
	if err == nil {
		s.receipts.MailReceipt(ctx, res)
	}
	if errors.Is(err, ErrSettledElsewhere) {
		a := x402.Authorization{}
		a.From, _ = x402.ParseAddress(pay.Payer)
		if pay.Nonce == "" {
			return s.originalByID(ctx, pay.ID)
		}
		a.Nonce, _ = x402.ParseNonce(pay.Nonce)
		res, _, err = s.x402Original(ctx, a)
	}
	return res, err
}

// walletMethod is the method a confirmed payment is recorded as: that of
// its page (botpay.CheckoutPage.WalletMethod), x402 without one.
func (s *Service) walletMethod(ctx context.Context, pageID string) (string, error) {
	if pageID == "" {
		return botpay.MethodX402, nil
	}
	page, err := s.offers.CheckoutPage(ctx, pageID)
	if err != nil {
		return "", err
	}
	return page.WalletMethod(), nil
}

// originalByID is the recorded result of a payment known by its id.
func (s *Service) originalByID(ctx context.Context, id int64) (botpay.SaleResult, error) {
	pay, err := s.X402PaymentByID(ctx, id)
	if err != nil {
		return botpay.SaleResult{}, err
	}
	var a x402.Authorization
	a.From, _ = x402.ParseAddress(pay.Payer)
	a.Nonce, _ = x402.ParseNonce(pay.Nonce)
	res, ok, err := s.x402Original(ctx, a)
	if err == nil && !ok {
		err = &X402Rejected{Reason: ReasonSettlementFailed}
	}
	return res, err
}

// ResumePass checks once every settlement submitted before cutoff, and
// replaces those stuck first in the relayer's line.
func (s *Service) ResumePass(ctx context.Context, cutoff time.Time) error {
	pending, err := s.SubmittedX402Payments(ctx, cutoff, 100)
	if err != nil {
		return err
	}
	for _, pay := range pending {
		s.resumeSettlement(ctx, pay)
	}
	return nil
}

// resumeSettlement checks one submitted payment: recorded once final,
// replaced when stuck, left for the next pass otherwise.
func (s *Service) resumeSettlement(ctx context.Context, pay X402Payment) {
	outcome, hash, err := s.resumeSent(ctx, paymentTx(pay))
	if err != nil {
		s.log.WarnContext(ctx, "x402 settlement check failed", "tx", pay.TxHash, "err", err)
		return
	}
	if outcome == settle.Pending {
		return
	}
	pay.TxHash = hash
	var rejected *X402Rejected
	if _, err := s.finishOnChain(ctx, pay, outcome); err != nil && !errors.As(err, &rejected) {
		s.log.WarnContext(ctx, "x402 settlement not recorded", "tx", pay.TxHash, "err", err)
	}
}

// onChain reports whether x402 payments settle on a real chain (live
// mode with its relayer).
func (s *Service) onChain() bool { return s.relay != nil }
