package app

import (
	"context"
	"strconv"
	"time"

	"github.com/botpay/botpay/internal/evm"
	"github.com/botpay/botpay/internal/settle"
	"github.com/botpay/botpay/internal/store"
)

// checkPayment looks once at every transaction a submitted payment sent:
// those its current one replaced, then the current one (sent again if
// the node forgot it). It returns the first final outcome and the hash it
// belongs to; only one of them can be mined, since they share a nonce.
func (s *Service) checkPayment(ctx context.Context, pay store.X402Payment) (settle.Outcome, string, error) {
	replaced, err := s.store.ReplacedTransactions(ctx, store.ReplacedX402Payment, strconv.FormatInt(pay.ID, 10))
	if err != nil {
		return settle.Pending, "", err
	}
	for _, hash := range replaced {
		if outcome, mined, err := s.chain.Final(ctx, hash); err == nil && mined {
			return outcome, hash, nil
		}
	}
	raw, err := evm.ParseHexBytes(pay.RawTx)
	if err != nil {
		return settle.Pending, "", err
	}
	outcome, err := s.chain.Check(ctx, raw, pay.TxHash)
	return outcome, pay.TxHash, err
}

// awaitPayment follows a submitted payment until one of its transactions
// is final, picking up a replacement another replica's resume worker
// sent. The payment it returns carries the hash that was mined.
func (s *Service) awaitPayment(ctx context.Context, pay store.X402Payment) (store.X402Payment, settle.Outcome, error) {
	for {
		outcome, hash, err := s.checkPayment(ctx, pay)
		if err == nil && outcome != settle.Pending {
			pay.TxHash = hash
			return pay, outcome, nil
		}
		select {
		case <-ctx.Done():
			return pay, settle.Pending, ctx.Err()
		case <-time.After(s.chain.PollInterval()):
		}
		if current, err := s.store.X402PaymentByID(ctx, pay.ID); err == nil && current.RawTx != "" {
			pay.TxHash, pay.RawTx = current.TxHash, current.RawTx
		}
	}
}

// replaceIfStuck sends a payment's transaction again with higher fees and
// the same nonce when it has waited too long first in the relayer's line.
// Of concurrent replicas only one replaces it.
func (s *Service) replaceIfStuck(ctx context.Context, pay store.X402Payment) {
	raw, err := evm.ParseHexBytes(pay.RawTx)
	if err != nil {
		return
	}
	stuck, err := s.chain.Stuck(ctx, raw, pay.SubmittedAt, s.clock.Now())
	if err != nil || !stuck {
		return
	}
	next, err := s.chain.Replacement(ctx, raw)
	if err != nil {
		s.log.WarnContext(ctx, "stuck x402 settlement not replaced", "tx", pay.TxHash, "err", err)
		return
	}
	sub := store.SignedSubmission{Nonce: pay.RelayerNonce, TxHash: next.HashHex(), RawTx: next.RawHex()}
	if err := s.store.ReplaceX402Transaction(ctx, pay.ID, pay.TxHash, sub); err != nil {
		return // another replica replaced it, or the payment was settled meanwhile
	}
	s.log.InfoContext(ctx, "stuck x402 settlement replaced", "tx", pay.TxHash, "replacement", sub.TxHash)
	if err := s.chain.Broadcast(ctx, next.Raw, sub.TxHash); err != nil {
		s.log.WarnContext(ctx, "replacement not sent yet", "tx", sub.TxHash, "err", err)
	}
}
