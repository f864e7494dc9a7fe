package payments

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
)

// States of a live-mode x402 payment after its claim (X402Settling): the
// signed transaction is stored before it is sent (submitted), then the
// chain decides (confirmed with its sale, or failed).
const (
	X402Submitted = "submitted"
	X402Failed    = "failed"
)

// RelayerAccount names the account that pays gas on one chain.
type RelayerAccount struct {
	ChainID uint64
	Address string // any case
}

// SignedSubmission is a transaction signed for a claimed payment.
type SignedSubmission struct {
	Nonce  uint64
	TxHash string // 0x + 64 lower-case hex
	RawTx  string // 0x + hex, what eth_sendRawTransaction takes
}

// ErrNotSubmittable is a payment that is no longer a fresh claim (another
// request or replica moved it on).
var ErrNotSubmittable = errors.New("payments: the x402 payment is not in the settling state")

// submitX402Payment takes the relayer's next transaction nonce, has sign
// build and sign the transaction with it, and records the payment as
// submitted with its hash and raw bytes — all in one transaction, so a
// nonce is never handed out without the transaction that uses it being
// stored, and no replica can take the same nonce. chainNonce is the
// node's pending count for the relayer: the stored counter never goes
// below it (the account may also have been used by hand).
func (s *Service) submitX402Payment(ctx context.Context, id int64, r RelayerAccount, chainNonce uint64,
	sign func(nonce uint64) (SignedSubmission, error)) (SignedSubmission, error) {
	var out SignedSubmission
	err := s.db.InTx(ctx, func(tx *kernel.Tx) error {
		nonce, err := takeRelayerNonce(ctx, tx, r, chainNonce)
		if err != nil {
			return err
		}
		if out, err = sign(nonce); err != nil {
			return err
		}
		res, err := tx.Exec(ctx, `UPDATE x402_payments SET status = 'submitted', tx_hash = $1, raw_tx = $2, relayer = $3,
			relayer_nonce = $4, submitted_at = $5 WHERE id = $6 AND status = 'settling'`,
			strings.ToLower(out.TxHash), out.RawTx, strings.ToLower(r.Address), int64(nonce), ms(s.clock.Now()), id)
		if err != nil {
			return fmt.Errorf("record submitted x402 payment: %w", err)
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return ErrNotSubmittable
		}
		return nil
	})
	return out, wrapErr(err, "submit x402 payment")
}

// takeRelayerNonce hands out the relayer's next transaction nonce inside
// the caller's transaction, never below the node's pending count.
func takeRelayerNonce(ctx context.Context, tx *kernel.Tx, r RelayerAccount, chainNonce uint64) (uint64, error) {
	var next int64
	err := tx.QueryRow(ctx, `INSERT INTO relayer_nonces (chain_id, address, next_nonce) VALUES ($1, $2, $3 + 1)
		ON CONFLICT (chain_id, address) DO UPDATE SET next_nonce =
			CASE WHEN relayer_nonces.next_nonce > $3 THEN relayer_nonces.next_nonce + 1 ELSE $3 + 1 END
		RETURNING next_nonce`, int64(r.ChainID), strings.ToLower(r.Address), int64(chainNonce)).Scan(&next)
	if err != nil {
		return 0, fmt.Errorf("allocate relayer nonce: %w", err)
	}
	return uint64(next - 1), nil
}

// ErrSettledElsewhere is a confirmation that another request or replica
// already recorded: the sale exists once.
var ErrSettledElsewhere = errors.New("payments: the x402 payment was already confirmed or failed")

// confirmX402Payment records the sale of a submitted payment whose
// transaction the chain confirmed, in one transaction with the state
// change; only the first of concurrent confirmations records it.
func (s *Service) confirmX402Payment(ctx context.Context, id int64, in botpay.SaleInput) (botpay.SaleResult, error) {
	var res botpay.SaleResult
	err := s.db.InTx(ctx, func(tx *kernel.Tx) error {
		var nonce string
		// The hash mined may be one the current transaction replaced.
		err := tx.QueryRow(ctx, `UPDATE x402_payments SET status = 'confirmed', tx_hash = $2 WHERE id = $1 AND status = 'submitted'
			RETURNING nonce`, id, strings.ToLower(in.TxHash)).Scan(&nonce)
		if isNoRows(err) {
			return ErrSettledElsewhere
		}
		if err != nil {
			return fmt.Errorf("confirm x402 payment: %w", err)
		}
		if err := settleOwnSignature(ctx, tx, in.BuyerIdentifier, nonce); err != nil {
			return err
		}
		if res, err = s.sales.RecordSaleIn(ctx, tx, in); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `UPDATE x402_payments SET sale_id = $1 WHERE id = $2`, res.Sale.ID, id)
		return err
	})
	return res, wrapErr(err, "confirm x402 payment")
}

// settleOwnSignature ends the reservation of a signature one of our
// processor wallets made, once the chain has paid it: the wallet's chain
// balance already shows the payment. The wallet row is locked first, the
// order every signing path keeps.
func settleOwnSignature(ctx context.Context, tx *kernel.Tx, payer, nonce string) error {
	var botID string
	err := tx.QueryRow(ctx, `SELECT bot_id FROM processor_wallets WHERE address = $1`+tx.ForUpdate(), strings.ToLower(payer)).Scan(&botID)
	if isNoRows(err) {
		return nil // an outside payer
	}
	if err != nil {
		return fmt.Errorf("lock paying processor wallet: %w", err)
	}
	return settleSignature(ctx, tx, botID, nonce)
}

// failX402Payment records that the chain refused a submitted payment's
// transaction (it reverted). The authorization stays used in the
// database: the payer signs a new one.
func (s *Service) failX402Payment(ctx context.Context, id int64, reason string) error {
	return wrapErr(s.db.InTx(ctx, func(tx *kernel.Tx) error {
		_, err := tx.Exec(ctx, `UPDATE x402_payments SET status = 'failed', failure = $1 WHERE id = $2 AND status = 'submitted'`, reason, id)
		return err
	}), "fail x402 payment")
}

// SubmittedX402Payments lists payments submitted before cutoff that the
// chain has not decided yet, oldest first: the resume worker's queue.
func (s *Service) SubmittedX402Payments(ctx context.Context, cutoff time.Time, limit int) ([]X402Payment, error) {
	rows, err := s.db.Query(ctx, `SELECT `+x402PaymentColumns+` FROM x402_payments
		WHERE status = 'submitted' AND submitted_at < $1 ORDER BY submitted_at LIMIT $2`, ms(cutoff), limit)
	if err != nil {
		return nil, fmt.Errorf("list submitted x402 payments: %w", err)
	}
	defer rows.Close()
	var out []X402Payment
	for rows.Next() {
		p, err := scanX402Payment(rows)
		if err != nil {
			return nil, wrapErr(err, "submitted x402 payments")
		}
		out = append(out, p)
	}
	return out, wrapErr(rows.Err(), "submitted x402 payments")
}

// RelayerNextNonce is the stored next nonce of a relayer (0 when none was
// ever allocated); tests and operators read it.
func (s *Service) RelayerNextNonce(ctx context.Context, r RelayerAccount) (uint64, error) {
	var next int64
	err := s.db.QueryRow(ctx, `SELECT next_nonce FROM relayer_nonces WHERE chain_id = $1 AND address = $2`,
		int64(r.ChainID), strings.ToLower(r.Address)).Scan(&next)
	if isNoRows(err) {
		return 0, nil
	}
	return uint64(next), wrapErr(err, "relayer next nonce")
}
