package payments

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
	"github.com/botpay/botpay/internal/x402"
)

// The tests of the SQL judge requests themselves, to drive the wallet
// through verdicts the guardrails would not give, and decide held
// requests with decisions they make up.

type ChainBalance = chainBalance

type SigningDecision = signingDecision

// ReserveJudged is a signing request's unit of work with judge in place
// of botpay.DecideSigning and no signature made: judge sees the facts read
// under the lock.
func (s *Service) ReserveJudged(ctx context.Context, r botpay.SigningRequest, chain *ChainBalance,
	judge func(botpay.SigningFacts) (botpay.SigningVerdict, error)) (botpay.SigningRequest, botpay.SigningVerdict, error) {
	now := s.clock.Now()
	r.CreatedAt = now
	var verdict botpay.SigningVerdict
	err := s.db.InTx(ctx, func(tx *kernel.Tx) error {
		f, err := s.signingFacts(ctx, tx, r, chain, now)
		if err != nil {
			return err
		}
		if verdict, err = judge(f.SigningFacts); err != nil || verdict.Blocked {
			return err
		}
		s.writeSigning(tx, f, &r, verdict, now)
		return nil
	})
	return r, verdict, wrapErr(err, "reserve signing %s", r.BotID)
}

func (s *Service) DecideHeld(ctx context.Context, ownerID string, id int64, d SigningDecision) (botpay.SigningRequest, error) {
	return s.decideHeld(ctx, ownerID, id, d)
}

// LiveReservations (tests only) sums a bot's reservations the plain way:
// every signed or held signing request whose reservation runs past now.
func (s *Service) LiveReservations(ctx context.Context, botID string, now time.Time) (botpay.Micro, error) {
	var sum botpay.Micro
	// Worked out from each request's own terms, not from reserved_until: a
	// signature counts while settlement accepts it, a held request while
	// its approval window is open.
	err := s.db.QueryRow(ctx, `SELECT COALESCE(SUM(amount_micro), 0) FROM signing_requests
		WHERE bot_id = $1 AND ((status = 'signed' AND valid_before * 1000 + $3 > $2) OR (status = 'pending' AND expires_at > $2))`,
		botID, ms(now), botpay.SettlementTolerance.Milliseconds()).Scan(&sum)
	return sum, err
}

// RerunReservedBackfill (tests only) forgets every processor wallet's
// running reserved total, then runs migration 0010's backfill again, as it
// ran on a database whose wallets had signing requests before the total
// existed.
func (s *Service) RerunReservedBackfill(ctx context.Context) error {
	body, err := kernel.MigrationFile(s.db.Engine(), "0010_reserved_total.sql")
	if err != nil {
		return err
	}
	return s.db.InTx(ctx, func(tx *kernel.Tx) error {
		if _, err := tx.Exec(ctx, `UPDATE processor_wallets SET reserved_micro = 0, reserved_as_of = 0`); err != nil {
			return err
		}
		ran := 0
		for _, q := range strings.Split(string(body), ";\n") {
			if q = strings.TrimSpace(q); strings.HasPrefix(q, "UPDATE") {
				if _, err := tx.Exec(ctx, q); err != nil {
					return err
				}
				ran++
			}
		}
		if ran != 1 {
			return fmt.Errorf("migration 0010 has %d backfill statements, want 1", ran)
		}
		return nil
	})
}

// CreateProcessorWalletAt gives the bot a processor wallet at address with
// a made-up sealed key: the tests sign nothing with it.
func (s *Service) CreateProcessorWalletAt(ctx context.Context, ownerID, botID, address string, sealedKey []byte) error {
	return s.createProcessorWallet(ctx, ownerID, botID, address, sealedKey)
}

func (s *Service) FundProcessorWalletMicro(ctx context.Context, ownerID, botID string, amount botpay.Micro, description string) error {
	_, err := s.fundProcessorWallet(ctx, ownerID, botID, amount, description)
	return err
}

func (s *Service) ReadProcessorWallet(ctx context.Context, botID string) (botpay.ProcessorWallet, bool, error) {
	return s.readProcessorWallet(ctx, botID)
}

// The SQL of settlement, the relayer and on-chain refunds, as the tests
// drive it without a settler or a chain.

type InternalDebit = internalDebit

func (s *Service) ClaimX402Payment(ctx context.Context, p X402Payment) (int64, error) {
	return s.claimX402Payment(ctx, p)
}

func (s *Service) ReleaseX402Payment(ctx context.Context, id int64) error {
	return s.releaseX402Payment(ctx, id)
}

func (s *Service) CompleteX402Payment(ctx context.Context, id int64, in botpay.SaleInput, debit *InternalDebit) (botpay.SaleResult, error) {
	return s.completeX402Payment(ctx, id, in, debit)
}

func (s *Service) X402PaymentByNonce(ctx context.Context, payer, nonce string) (X402Payment, bool, error) {
	return s.x402PaymentByNonce(ctx, payer, nonce)
}

func (s *Service) X402PaymentByIdentifier(ctx context.Context, route, paymentID string) (X402Payment, bool, error) {
	return s.x402PaymentByIdentifier(ctx, route, paymentID)
}

func (s *Service) SubmitX402Payment(ctx context.Context, id int64, r RelayerAccount, chainNonce uint64,
	sign func(nonce uint64) (SignedSubmission, error)) (SignedSubmission, error) {
	return s.submitX402Payment(ctx, id, r, chainNonce, sign)
}

func (s *Service) ConfirmX402Payment(ctx context.Context, id int64, in botpay.SaleInput) (botpay.SaleResult, error) {
	return s.confirmX402Payment(ctx, id, in)
}

func (s *Service) FailX402Payment(ctx context.Context, id int64, reason string) error {
	return s.failX402Payment(ctx, id, reason)
}

func (s *Service) ReplaceX402Transaction(ctx context.Context, id int64, old string, next SignedSubmission) error {
	return s.replaceX402Transaction(ctx, id, old, next)
}

func (s *Service) ReplaceRefundTransaction(ctx context.Context, id, old string, next SignedSubmission) error {
	return s.replaceRefundTransaction(ctx, id, old, next)
}

func (s *Service) ReplacedHashes(ctx context.Context, kind, ownerID string) ([]string, error) {
	return s.replacedTransactions(ctx, kind, ownerID)
}

func (s *Service) SubmitSaleRefund(ctx context.Context, rf botpay.Refund, r RelayerAccount, chainNonce uint64, balance ChainBalance,
	sign func(nonce uint64) (SignedSubmission, error)) (ChainRefund, error) {
	return s.submitSaleRefund(ctx, rf, r, chainNonce, balance, sign)
}

func (s *Service) PendingChainRefunds(ctx context.Context, cutoff time.Time, limit int) ([]ChainRefund, error) {
	return s.pendingChainRefunds(ctx, cutoff, limit)
}

// ChainBalanceAt is chainBalanceAt: a processor wallet's balance, cached.
func (s *Service) ChainBalanceAt(ctx context.Context, a x402.Address) (botpay.Micro, time.Time, error) {
	return s.chainBalanceAt(ctx, a)
}
