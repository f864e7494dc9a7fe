package payments

import (
	"context"
	"errors"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/evm"
	"github.com/botpay/botpay/internal/settle"
	"github.com/botpay/botpay/internal/x402"
)

// refundValidity is how long the processor wallet's authorization of an
// on-chain refund stays valid: long past the resume worker's first
// re-broadcasts, short enough that a transaction lost for good ends.
const refundValidity = time.Hour

// refundConfirmWait bounds the background wait for a refund's receipt
// after the request answered; past it the resume worker finishes it.
const refundConfirmWait = 2 * time.Minute

// SaleToRefund is what is left to refund of a live x402 sale, and who paid
// it: a chain address.
type SaleToRefund struct {
	Amount   botpay.Money
	Refunded botpay.Money
	Payer    string
}

// RefundSaleOnChain pays (part of) a live x402 sale back to its payer: the
// seller's processor wallet signs a transferWithAuthorization to the
// payer, the facilitator's checks run (nothing is sent or recorded if the
// chain would refuse), the refund is stored pending with the relayer's
// signed transaction, sent, and the request answers at once; confirmation
// completes it in the background or in the resume worker.
func (s *Service) RefundSaleOnChain(ctx context.Context, bot botpay.Bot, saleID string, sale SaleToRefund, req botpay.RefundRequest) (botpay.Refund, error) {
	if !s.onChain() {
		return botpay.Refund{}, botpay.Errorf(botpay.KindConflict, botpay.CodeNotRefundable,
			"this sale was paid on chain; it can be refunded only while the service runs on the chain")
	}
	amount, err := botpay.RefundAmount(sale.Amount, sale.Refunded, req.Amount)
	if err != nil {
		return botpay.Refund{}, err
	}
	payment, err := s.refundAuthorization(ctx, bot.ID, sale.Payer, amount)
	if err != nil {
		return botpay.Refund{}, err
	}
	prepared, err := s.relay.Prepare(ctx, payment)
	if err != nil {
		return botpay.Refund{}, s.refundRefusal(ctx, err)
	}
	// Read now, not from the cache: the refund is judged against it
	// beside the signatures and refunds that promise the same tokens.
	micro, readAt, err := s.FreshChainBalance(ctx, payment.Authorization.From)
	if err != nil {
		return botpay.Refund{}, err
	}
	balance := chainBalance{Micro: micro, ReadAt: readAt}
	rf := botpay.Refund{ID: botpay.NewID("rf_"), BotID: bot.ID, SaleID: saleID, Amount: amount, Reason: req.Reason}
	relayer := RelayerAccount{ChainID: s.relay.Domain.ChainID, Address: s.relay.Relayer().Hex()}
	c, err := s.submitSaleRefund(ctx, rf, relayer, prepared.NonceFloor, balance, func(nonce uint64) (SignedSubmission, error) {
		signed, err := s.relay.Sign(prepared.Tx, nonce)
		return SignedSubmission{Nonce: nonce, TxHash: signed.HashHex(), RawTx: signed.RawHex()}, err
	})
	if err != nil {
		return botpay.Refund{}, err
	}
	raw, _ := evm.ParseHexBytes(c.RawTx)
	if err := s.relay.Broadcast(ctx, raw, c.Refund.TxHash); err != nil {
		// Stored already: the resume worker sends it again.
		s.log.WarnContext(ctx, "refund transaction not sent yet", "tx", c.Refund.TxHash, "err", err)
	}
	go s.awaitRefund(context.WithoutCancel(ctx), c)
	return c.Refund, nil
}

// refundAuthorization has the bot's processor wallet sign a transfer of
// amount to the payer, with a fresh random nonce.
func (s *Service) refundAuthorization(ctx context.Context, botID, payer string, amount botpay.Money) (x402.Payment, error) {
	to, err := x402.ParseAddress(payer)
	if err != nil {
		return x402.Payment{}, botpay.Errorf(botpay.KindConflict, botpay.CodeNotRefundable, "the sale's payer %q is not a chain address", payer)
	}
	w, err := s.ProcessorWallet(ctx, botID)
	if err != nil || w == nil {
		return x402.Payment{}, firstErr(err, ErrNoProcessorWallet)
	}
	key, from, err := s.WalletKey(*w)
	if err != nil {
		return x402.Payment{}, err
	}
	auth := x402.Authorization{From: from, To: to, Value: uint64(botpay.MicroOf(amount)),
		ValidBefore: uint64(s.clock.Now().Add(refundValidity).Unix()), Nonce: NewNonce()}
	return s.SignAuthorization(key, auth), nil
}

// refundRefusal answers a refund the chain checks refused before anything
// was sent: the processor wallet short of tokens is 402 insufficient_funds;
// a node that did not answer is chain_unavailable.
func (s *Service) refundRefusal(ctx context.Context, err error) error {
	var refusal *settle.Refusal
	switch {
	case errors.As(err, &refusal) && refusal.Reason == settle.ReasonInsufficientFunds:
		return botpay.Errorf(botpay.KindPaymentRequired, botpay.CodeInsufficientFunds,
			"the processor wallet does not hold the refund on chain: %s", refusal.Detail)
	case errors.As(err, &refusal):
		return botpay.Errorf(botpay.KindConflict, botpay.CodeRefundRefused, "the chain would refuse the refund (%s): %s", refusal.Reason, refusal.Detail)
	}
	s.log.WarnContext(ctx, "refund checks could not reach the chain", "err", err)
	return botpay.ChainUnavailable("the refund's checks")
}

// awaitRefund waits a while for a just-sent refund and records its outcome.
func (s *Service) awaitRefund(ctx context.Context, c ChainRefund) {
	wait, cancel := context.WithTimeout(ctx, refundConfirmWait)
	defer cancel()
	outcome, mined, err := s.awaitSent(wait, refundTx(c))
	if err != nil {
		return // the resume worker finishes it
	}
	if err := s.finishRefund(ctx, c, outcome, mined); err != nil {
		s.log.WarnContext(ctx, "refund not recorded", "refund", c.Refund.ID, "err", err)
	}
}

// finishRefund records what the chain decided of a refund (minedTx, the
// transaction it decided), once across requests and replicas: succeeded
// with its event, or failed with the sale's refunded total lowered again.
func (s *Service) finishRefund(ctx context.Context, c ChainRefund, outcome settle.Outcome, minedTx string) error {
	var err error
	switch outcome {
	case settle.Reverted:
		_, err = s.refunds.FailChainRefund(ctx, c.Refund.ID, "the refund transaction reverted")
	case settle.Confirmed:
		err = s.completeRefund(ctx, c, minedTx)
	}
	return err
}

// completeRefund marks a confirmed refund succeeded; its event's
// new_balance is the processor wallet's token balance, in cents.
func (s *Service) completeRefund(ctx context.Context, c ChainRefund, minedTx string) error {
	w, err := s.ProcessorWallet(ctx, c.Refund.BotID)
	if err != nil || w == nil {
		return firstErr(err, ErrNoProcessorWallet)
	}
	addr, err := x402.ParseAddress(w.Address)
	if err != nil {
		return err
	}
	s.ForgetChainBalance(addr)
	balance, err := s.relay.TokenBalance(ctx, addr)
	if err != nil {
		return err
	}
	if payer, err := s.refunds.SalePayer(ctx, c.Refund.BotID, c.Refund.SaleID); err == nil {
		if a, err := x402.ParseAddress(payer); err == nil {
			s.ForgetChainBalance(a)
		}
	}
	_, err = s.refunds.CompleteChainRefund(ctx, c.Refund.ID, minedTx, botpay.Money(balance.Int64()/botpay.MicroPerCent))
	// A balance read while the refund was being recorded already shows the
	// refund, yet its read time is before completed_at, so signing would
	// count the refund twice against it; forget it once the record is in
	// (a read still in flight then is answered but not cached).
	s.ForgetChainBalance(addr)
	return err
}

// ResumeRefunds finishes the on-chain refunds submitted before cutoff that
// no request finished: each stored transaction is checked, sent again if
// the node does not know it, and recorded once final. Every replica may
// run it; recording is conditional.
func (s *Service) ResumeRefunds(ctx context.Context, cutoff time.Time) error {
	pending, err := s.pendingChainRefunds(ctx, cutoff, 100)
	if err != nil {
		return err
	}
	for _, c := range pending {
		outcome, mined, err := s.resumeSent(ctx, refundTx(c))
		if err != nil {
			s.log.WarnContext(ctx, "refund check failed", "refund", c.Refund.ID, "err", err)
			continue
		}
		if outcome == settle.Pending {
			continue
		}
		if err := s.finishRefund(ctx, c, outcome, mined); err != nil {
			s.log.WarnContext(ctx, "refund not recorded", "refund", c.Refund.ID, "err", err)
		}
	}
	return nil
}
