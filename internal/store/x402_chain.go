package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/botpay/botpay/internal/botpay"
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
var ErrNotSubmittable = errors.New("store: the x402 payment is not in the settling state")

// SubmitX402Payment takes the relayer's next transaction nonce, has sign
// build and sign the transaction with it, and records the payment as
// submitted with its hash and raw bytes — all in one transaction, so a
// nonce is never handed out without the transaction that uses it being
// stored, and no replica can take the same nonce. chainNonce is the
// node's pending count for the relayer: the stored counter never goes
// below it (the account may also have been used by hand).
func (s *Store) SubmitX402Payment(ctx context.Context, id int64, r RelayerAccount, chainNonce uint64,
	sign func(nonce uint64) (SignedSubmission, error)) (SignedSubmission, error) {
	var out SignedSubmission
	err := s.inTx(ctx, func(tx *Tx) error {
		nonce, err := tx.takeRelayerNonce(ctx, r, chainNonce)
		if err != nil {
			return err
		}
		next := int64(nonce) + 1
		if out, err = sign(nonce); err != nil {
			return err
		}
		res, err := tx.exec(ctx, `UPDATE x402_payments SET status = 'submitted', tx_hash = $1, raw_tx = $2, relayer = $3,
			relayer_nonce = $4, submitted_at = $5 WHERE id = $6 AND status = 'settling'`,
			strings.ToLower(out.TxHash), out.RawTx, strings.ToLower(r.Address), next-1, ms(s.clock.Now()), id)
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
func (tx *Tx) takeRelayerNonce(ctx context.Context, r RelayerAccount, chainNonce uint64) (uint64, error) {
	var next int64
	err := tx.queryRow(ctx, `INSERT INTO relayer_nonces (chain_id, address, next_nonce) VALUES ($1, $2, $3 + 1)
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
var ErrSettledElsewhere = errors.New("store: the x402 payment was already confirmed or failed")

// ConfirmX402Payment records the sale of a submitted payment whose
// transaction the chain confirmed, in one transaction with the state
// change; only the first of concurrent confirmations records it.
func (s *Store) ConfirmX402Payment(ctx context.Context, id int64, in botpay.SaleInput, record SaleRecorder) (botpay.SaleResult, error) {
	var res botpay.SaleResult
	err := s.inTx(ctx, func(tx *Tx) error {
		var nonce string
		// The hash mined may be one the current transaction replaced.
		err := tx.queryRow(ctx, `UPDATE x402_payments SET status = 'confirmed', tx_hash = $2 WHERE id = $1 AND status = 'submitted'
			RETURNING nonce`, id, strings.ToLower(in.TxHash)).Scan(&nonce)
		if isNoRows(err) {
			return ErrSettledElsewhere
		}
		if err != nil {
			return fmt.Errorf("confirm x402 payment: %w", err)
		}
		if err := tx.settleOwnSignature(ctx, in.BuyerIdentifier, nonce); err != nil {
			return err
		}
		if res, err = record(ctx, tx.k, in); err != nil {
			return err
		}
		_, err = tx.exec(ctx, `UPDATE x402_payments SET sale_id = $1 WHERE id = $2`, res.Sale.ID, id)
		return err
	})
	return res, wrapErr(err, "confirm x402 payment")
}

// settleOwnSignature ends the reservation of a signature one of our
// processor wallets made, once the chain has paid it: the wallet's chain
// balance already shows the payment. The wallet row is locked first, the
// order every signing path keeps.
func (tx *Tx) settleOwnSignature(ctx context.Context, payer, nonce string) error {
	var botID string
	err := tx.queryRow(ctx, `SELECT bot_id FROM processor_wallets WHERE address = $1`+tx.forUpdate(), strings.ToLower(payer)).Scan(&botID)
	if isNoRows(err) {
		return nil // an outside payer
	}
	if err != nil {
		return fmt.Errorf("lock paying processor wallet: %w", err)
	}
	var until int64
	var amount botpay.Micro
	err = tx.queryRow(ctx, `UPDATE signing_requests SET status = 'settled' WHERE bot_id = $1 AND nonce = $2 AND status = 'signed'
		RETURNING reserved_until, amount_micro`, botID, strings.ToLower(nonce)).Scan(&until, &amount)
	if isNoRows(err) {
		return nil
	}
	if err != nil {
		return err
	}
	return tx.releaseReservation(ctx, botID, amount, until, 0)
}

// FailX402Payment records that the chain refused a submitted payment's
// transaction (it reverted). The authorization stays used in the
// database: the payer signs a new one.
func (s *Store) FailX402Payment(ctx context.Context, id int64, reason string) error {
	return wrapErr(s.inTx(ctx, func(tx *Tx) error {
		_, err := tx.exec(ctx, `UPDATE x402_payments SET status = 'failed', failure = $1 WHERE id = $2 AND status = 'submitted'`, reason, id)
		return err
	}), "fail x402 payment")
}

// SubmittedX402Payments lists payments submitted before cutoff that the
// chain has not decided yet, oldest first: the resume worker's queue.
func (s *Store) SubmittedX402Payments(ctx context.Context, cutoff time.Time, limit int) ([]X402Payment, error) {
	rows, err := s.query(ctx, `SELECT `+x402PaymentColumns+` FROM x402_payments
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

// X402PaymentByID reads one payment.
func (s *Store) X402PaymentByID(ctx context.Context, id int64) (X402Payment, error) {
	p, err := scanX402Payment(s.queryRow(ctx, `SELECT `+x402PaymentColumns+` FROM x402_payments WHERE id = $1`, id))
	if isNoRows(err) {
		return p, botpay.ErrNotFound("x402 payment")
	}
	return p, wrapErr(err, "x402 payment by id")
}

// RelayerNextNonce is the stored next nonce of a relayer (0 when none was
// ever allocated); tests and operators read it.
func (s *Store) RelayerNextNonce(ctx context.Context, r RelayerAccount) (uint64, error) {
	var next int64
	err := s.queryRow(ctx, `SELECT next_nonce FROM relayer_nonces WHERE chain_id = $1 AND address = $2`,
		int64(r.ChainID), strings.ToLower(r.Address)).Scan(&next)
	if isNoRows(err) {
		return 0, nil
	}
	return uint64(next), wrapErr(err, "relayer next nonce")
}

const x402PaymentColumns = `id, payer, nonce, page_id, invoice_ref, amount_micro, status, sale_id, tx_hash, created_at,
	token, raw_tx, relayer_nonce, failure, submitted_at, bot_id, resource_url, link_id, buyer_email, buyer_name`

func scanX402Payment(row interface{ Scan(...any) error }) (X402Payment, error) {
	var p X402Payment
	var page, sale, tx, raw, failure, bot, resource, link, email, name sql.NullString
	var relayerNonce, submitted sql.NullInt64
	var created int64
	err := row.Scan(&p.ID, &p.Payer, &p.Nonce, &page, &p.InvoiceRef, &p.Amount, &p.Status, &sale, &tx, &created,
		&p.Token, &raw, &relayerNonce, &failure, &submitted, &bot, &resource, &link, &email, &name)
	p.PageID, p.BotID, p.ResourceURL, p.LinkID = page.String, bot.String, resource.String, link.String
	p.BuyerEmail, p.BuyerName = email.String, name.String
	p.SaleID, p.TxHash, p.RawTx, p.Failure, p.CreatedAt = sale.String, tx.String, raw.String, failure.String, fromMS(created)
	if submitted.Valid {
		p.SubmittedAt = fromMS(submitted.Int64)
	}
	p.RelayerNonce = uint64(relayerNonce.Int64)
	return p, err
}
