package payments

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/botpay/botpay/internal/evm"
	"github.com/botpay/botpay/internal/settle"
)

// sentTx is a relayer transaction the service follows to its outcome: a
// settlement's or an on-chain refund's, named by the kind and id of its
// row, with the hashes it replaced (replaceIfStuck), any of which may be
// the one mined.
type sentTx struct {
	kind, owner string // Replaced…, and the payment's or refund's id
	hash, raw   string
	replaced    []string
	nonce       uint64
	sentAt      time.Time
}

func paymentTx(p X402Payment) sentTx {
	return sentTx{kind: ReplacedX402Payment, owner: strconv.FormatInt(p.ID, 10), hash: p.TxHash, raw: p.RawTx,
		nonce: p.RelayerNonce, sentAt: p.SubmittedAt}
}

func refundTx(c ChainRefund) sentTx {
	return sentTx{kind: ReplacedRefund, owner: c.Refund.ID, hash: c.Refund.TxHash, raw: c.RawTx,
		nonce: c.Nonce, sentAt: c.SubmittedAt}
}

// withReplaced reads the hashes t's current transaction replaced.
func (s *Service) withReplaced(ctx context.Context, t sentTx) (sentTx, error) {
	var err error
	t.replaced, err = s.replacedTransactions(ctx, t.kind, t.owner)
	return t, err
}

// checkSent looks once at every transaction sent for t's row: those its
// current one replaced, then the current one (sent again if the node
// forgot it). It returns the first final outcome and the hash it belongs
// to; only one of them can be mined, since they share a nonce.
func (s *Service) checkSent(ctx context.Context, t sentTx) (settle.Outcome, string, error) {
	for _, hash := range t.replaced {
		if outcome, mined, err := s.relay.Final(ctx, hash); err == nil && mined {
			return outcome, hash, nil
		}
	}
	raw, err := evm.ParseHexBytes(t.raw)
	if err != nil {
		return settle.Pending, "", fmt.Errorf("%s %s: stored raw transaction: %w", t.kind, t.owner, err)
	}
	outcome, err := s.relay.Check(ctx, raw, t.hash)
	return outcome, t.hash, err
}

// awaitSent follows a just-sent t until one of its row's transactions is
// final and returns the outcome and the hash mined. Once a replacement is
// possible (ReplaceWait after sending) it re-reads the row each poll, so
// it follows a replacement another replica's resume worker sent; before,
// waiting costs no database read.
func (s *Service) awaitSent(ctx context.Context, t sentTx) (settle.Outcome, string, error) {
	replaceable := s.clock.Now().Add(s.relay.ReplaceWait())
	for {
		outcome, hash, err := s.checkSent(ctx, t)
		if err == nil && outcome != settle.Pending {
			return outcome, hash, nil
		}
		select {
		case <-ctx.Done():
			return settle.Pending, t.hash, ctx.Err()
		case <-time.After(s.relay.PollInterval()):
		}
		if !s.clock.Now().Before(replaceable) {
			t = s.followReplacement(ctx, t)
		}
	}
}

// followReplacement re-reads t's row and, when its transaction changed,
// the hashes it replaced; on any error t stays as it was.
func (s *Service) followReplacement(ctx context.Context, t sentTx) sentTx {
	current, err := s.reloadSent(ctx, t)
	if err != nil || current.raw == "" || current.hash == t.hash {
		return t
	}
	if current, err = s.withReplaced(ctx, current); err != nil {
		return t
	}
	return current
}

// reloadSent reads t's row again.
func (s *Service) reloadSent(ctx context.Context, t sentTx) (sentTx, error) {
	if t.kind == ReplacedRefund {
		c, err := s.ChainRefundByID(ctx, t.owner)
		return refundTx(c), err
	}
	id, err := strconv.ParseInt(t.owner, 10, 64)
	if err != nil {
		return t, err
	}
	p, err := s.X402PaymentByID(ctx, id)
	return paymentTx(p), err
}

// resumeSent is the resume worker's look at one pending row: the outcome
// and hash once final; Pending after replacing t if it is stuck.
func (s *Service) resumeSent(ctx context.Context, t sentTx) (settle.Outcome, string, error) {
	t, err := s.withReplaced(ctx, t)
	if err != nil {
		return settle.Pending, "", err
	}
	outcome, hash, err := s.checkSent(ctx, t)
	if err == nil && outcome == settle.Pending {
		s.replaceIfStuck(ctx, t)
	}
	return outcome, hash, err
}

// replaceIfStuck sends t again with higher fees and the same nonce when
// it has waited too long first in the relayer's line. Of concurrent
// replicas only one replaces it.
func (s *Service) replaceIfStuck(ctx context.Context, t sentTx) {
	raw, err := evm.ParseHexBytes(t.raw)
	if err != nil {
		return
	}
	stuck, err := s.relay.Stuck(ctx, raw, t.sentAt, s.clock.Now())
	if err != nil || !stuck {
		return
	}
	next, err := s.relay.Replacement(ctx, raw)
	if err != nil {
		s.log.WarnContext(ctx, "stuck relayer transaction not replaced", "kind", t.kind, "tx", t.hash, "err", err)
		return
	}
	sub := SignedSubmission{Nonce: t.nonce, TxHash: next.HashHex(), RawTx: next.RawHex()}
	if err := s.storeReplacement(ctx, t, sub); err != nil {
		return // another replica replaced it, or the chain decided meanwhile
	}
	s.replacements.Add(1)
	s.log.InfoContext(ctx, "stuck relayer transaction replaced", "kind", t.kind, "tx", t.hash, "replacement", sub.TxHash)
	if err := s.relay.Broadcast(ctx, next.Raw, sub.TxHash); err != nil {
		s.log.WarnContext(ctx, "replacement not sent yet", "tx", sub.TxHash, "err", err)
	}
}

func (s *Service) storeReplacement(ctx context.Context, t sentTx, next SignedSubmission) error {
	if t.kind == ReplacedRefund {
		return s.replaceRefundTransaction(ctx, t.owner, t.hash, next)
	}
	id, err := strconv.ParseInt(t.owner, 10, 64)
	if err != nil {
		return err
	}
	return s.replaceX402Transaction(ctx, id, t.hash, next)
}
