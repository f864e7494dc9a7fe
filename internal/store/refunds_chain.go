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

// ChainRefund is a refund of a live x402 sale paid back on chain, with the
// relayer transaction that carries it.
type ChainRefund struct {
	Refund      botpay.Refund
	RawTx       string
	Relayer     string
	Nonce       uint64
	Failure     string
	SubmittedAt time.Time // when its newest transaction was stored
}

// SubmitSaleRefund records an on-chain refund of a sale as pending, in one
// transaction: the bot's wallet locks, the remainder check, the check that
// balance (the processor wallet's tokens on chain) still covers it beside
// the outstanding signatures and the other refunds not yet final, the
// sale's refunded total raised (so racing refunds never exceed the sale),
// the relayer's next nonce taken, the transaction signed with it, and the
// refund stored with the signed bytes before anything is sent.
func (s *Store) SubmitSaleRefund(ctx context.Context, rf botpay.Refund, r RelayerAccount, chainNonce uint64, balance ChainBalance,
	sign func(nonce uint64) (SignedSubmission, error)) (ChainRefund, error) {
	out := ChainRefund{Refund: rf, Relayer: strings.ToLower(r.Address)}
	err := s.inTx(ctx, func(tx *Tx) error {
		_, o, err := tx.lockSaleForRefund(ctx, rf.BotID, rf.SaleID)
		if err != nil {
			return err
		}
		if _, err := botpay.RefundAmount(o.amount, o.refunded, &rf.Amount); err != nil {
			return err
		}
		available, err := tx.lockChainAvailable(ctx, rf.BotID, balance, s.clock.Now())
		if err != nil {
			return err
		}
		if botpay.MicroOf(rf.Amount) > available {
			return botpay.Errorf(botpay.KindPaymentRequired, botpay.CodeInsufficientFunds,
				"the processor wallet's tokens on chain are promised to signatures or refunds already; %s USDC is free", max(available, 0).USD())
		}
		if err := tx.raiseRefunded(ctx, "sales", rf.SaleID, rf.Amount); err != nil {
			return err
		}
		if out.Nonce, err = tx.takeRelayerNonce(ctx, r, chainNonce); err != nil {
			return err
		}
		signed, err := sign(out.Nonce)
		if err != nil {
			return fmt.Errorf("sign refund transaction: %w", err)
		}
		now := s.clock.Now()
		out.Refund.Status, out.Refund.TxHash, out.Refund.CreatedAt, out.RawTx = botpay.RefundPending, strings.ToLower(signed.TxHash), now, signed.RawTx
		if err := tx.insertRefund(ctx, out.Refund, 0); err != nil {
			return err
		}
		_, err = tx.exec(ctx, `UPDATE refunds SET raw_tx = $1, relayer = $2, relayer_nonce = $3, submitted_at = $4 WHERE id = $5`,
			out.RawTx, out.Relayer, int64(out.Nonce), ms(now), rf.ID)
		if err != nil {
			return fmt.Errorf("record refund transaction: %w", err)
		}
		return nil
	})
	if err != nil {
		return out, fmt.Errorf("submit refund of sale %s: %w", rf.SaleID, err)
	}
	return out, nil
}

// ErrRefundSettled is a completion another request or replica recorded
// first: the refund completes once.
var ErrRefundSettled = errors.New("store: the refund is no longer pending")

// CompleteSaleRefund records that the chain confirmed a pending refund
// (minedTx, its transaction that was mined):
// succeeded, the invoice marked, and wallet.refund.completed written with
// newBalance (the processor wallet's token balance after it, in cents) —
// one transaction, and only for the first caller.
func (s *Store) CompleteSaleRefund(ctx context.Context, id, minedTx string, newBalance botpay.Money) (botpay.Refund, error) {
	var rf botpay.Refund
	err := s.inTx(ctx, func(tx *Tx) error {
		now := s.clock.Now()
		var err error
		// The hash mined may be one the current transaction replaced.
		rf, err = scanRefund(tx.queryRow(ctx, `UPDATE refunds SET status = $1, completed_at = $2, tx_hash = $5
			WHERE id = $3 AND status = $4 RETURNING `+refundColumns, botpay.RefundSucceeded, ms(now), id, botpay.RefundPending,
			strings.ToLower(minedTx)))
		if isNoRows(err) {
			return ErrRefundSettled
		}
		if err != nil {
			return fmt.Errorf("mark refund succeeded: %w", err)
		}
		if err := tx.markInvoiceRefunded(ctx, rf.SaleID, rf.Amount); err != nil {
			return err
		}
		return tx.emit(refundEvent(rf, newBalance, now))
	})
	if err != nil {
		return rf, fmt.Errorf("complete refund %s: %w", id, err)
	}
	return rf, nil
}

// FailSaleRefund records that the chain refused a pending refund's
// transaction: failed with the reason, and the sale's refunded total
// lowered again so the amount can be refunded anew. Only the first caller
// changes anything.
func (s *Store) FailSaleRefund(ctx context.Context, id, reason string) error {
	err := s.inTx(ctx, func(tx *Tx) error {
		var saleID string
		var amount botpay.Money
		err := tx.queryRow(ctx, `UPDATE refunds SET status = $1, failure = $2, completed_at = $3
			WHERE id = $4 AND status = $5 RETURNING sale_id, amount_cents`,
			botpay.RefundFailed, reason, ms(s.clock.Now()), id, botpay.RefundPending).Scan(&saleID, &amount)
		if isNoRows(err) {
			return ErrRefundSettled
		}
		if err != nil {
			return fmt.Errorf("mark refund failed: %w", err)
		}
		_, err = tx.exec(ctx, `UPDATE sales SET refunded_cents = refunded_cents - $1 WHERE id = $2`, int64(amount), saleID)
		if err != nil {
			return fmt.Errorf("give back the refunded total: %w", err)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("fail refund %s: %w", id, err)
	}
	return nil
}

// PendingChainRefunds lists on-chain refunds submitted before cutoff that
// the chain has not decided yet, oldest first: the resume worker's queue.
func (s *Store) PendingChainRefunds(ctx context.Context, cutoff time.Time, limit int) ([]ChainRefund, error) {
	rows, err := s.query(ctx, `SELECT `+refundColumns+`, raw_tx, relayer, relayer_nonce, failure, submitted_at FROM refunds
		WHERE status = $1 AND submitted_at < $2 ORDER BY submitted_at LIMIT $3`, botpay.RefundPending, ms(cutoff), limit)
	if err != nil {
		return nil, fmt.Errorf("list pending refunds: %w", err)
	}
	defer rows.Close()
	var out []ChainRefund
	for rows.Next() {
		c, err := scanChainRefund(rows)
		if err != nil {
			return nil, fmt.Errorf("scan pending refund: %w", err)
		}
		out = append(out, c)
	}
	return out, wrapErr(rows.Err(), "pending chain refunds")
}

// ChainRefundByID reads one refund with its transaction.
func (s *Store) ChainRefundByID(ctx context.Context, id string) (ChainRefund, error) {
	c, err := scanChainRefund(s.queryRow(ctx, `SELECT `+refundColumns+`, raw_tx, relayer, relayer_nonce, failure, submitted_at FROM refunds WHERE id = $1`, id))
	if isNoRows(err) {
		return c, botpay.ErrNotFound("refund")
	}
	if err != nil {
		return c, fmt.Errorf("read refund %s: %w", id, err)
	}
	return c, nil
}

func scanChainRefund(row interface{ Scan(...any) error }) (ChainRefund, error) {
	var c ChainRefund
	var raw, relayer, failure sql.NullString
	var nonce, submitted sql.NullInt64
	wrapped := scanFunc(func(dest ...any) error {
		n := len(dest)
		return row.Scan(append(dest[:n:n], &raw, &relayer, &nonce, &failure, &submitted)...)
	})
	rf, err := scanRefund(wrapped)
	c.Refund, c.RawTx, c.Relayer, c.Nonce, c.Failure = rf, raw.String, relayer.String, uint64(nonce.Int64), failure.String
	if submitted.Valid {
		c.SubmittedAt = fromMS(submitted.Int64)
	}
	return c, err
}

// scanFunc adapts a function to the Scan interface.
type scanFunc func(dest ...any) error

func (f scanFunc) Scan(dest ...any) error { return f(dest...) }

// The on-chain refund path shares these rows with internal/earning's card
// wallet refunds; the store keeps its own copy until that path leaves it.

// refundOrigin is what a refund gives back: a purchase or a sale, read
// under the wallet lock of its bot.
type refundOrigin struct {
	botID    string
	amount   botpay.Money
	refunded botpay.Money
	label    string
}

// lockSaleForRefund takes the bot's wallet lock and reads the bot's sale
// under it. Another bot's sale is the same 404 as a missing one.
func (t *Tx) lockSaleForRefund(ctx context.Context, botID, id string) (lockedWallet, refundOrigin, error) {
	o := refundOrigin{botID: botID}
	w, found, err := t.lockWallet(ctx, botID)
	if err != nil {
		return w, o, fmt.Errorf("lock wallet: %w", err)
	}
	if !found {
		return w, o, botpay.ErrNotFound("sale")
	}
	err = t.queryRow(ctx, `SELECT amount_cents, refunded_cents, checkout_title FROM sales WHERE id = $1 AND bot_id = $2`, id, botID).
		Scan(&o.amount, &o.refunded, &o.label)
	if isNoRows(err) {
		return w, o, botpay.ErrNotFound("sale")
	}
	if err != nil {
		return w, o, fmt.Errorf("read sale: %w", err)
	}
	if w.Frozen {
		return w, o, botpay.Errorf(botpay.KindForbidden, botpay.CodeWalletFrozen, "the owner has frozen this wallet; no money can leave it")
	}
	return w, o, nil
}

// raiseRefunded adds amount to an origin's refunded total. The condition
// is the last line of defence: callers have checked the remainder under
// the wallet lock already.
func (t *Tx) raiseRefunded(ctx context.Context, table, id string, amount botpay.Money) error {
	r, err := t.exec(ctx, `UPDATE `+table+` SET refunded_cents = refunded_cents + $1
		WHERE id = $2 AND refunded_cents + $1 <= amount_cents`, int64(amount), id)
	if err != nil {
		return fmt.Errorf("raise refunded total: %w", err)
	}
	if n, err := r.RowsAffected(); err != nil || n != 1 {
		return botpay.Errorf(botpay.KindConflict, botpay.CodeRefundExceedsAmount, "refunds may not sum above the original amount")
	}
	return nil
}

// markInvoiceRefunded shows the refund on the invoice the sale paid, if any.
func (t *Tx) markInvoiceRefunded(ctx context.Context, saleID string, amount botpay.Money) error {
	_, err := t.exec(ctx, `UPDATE invoices SET refunded_cents = refunded_cents + $1, updated_at = $2 WHERE sale_id = $3`,
		int64(amount), ms(t.s.clock.Now()), saleID)
	if err != nil {
		return fmt.Errorf("mark invoice refunded: %w", err)
	}
	return nil
}

func (t *Tx) insertRefund(ctx context.Context, rf botpay.Refund, ledgerID int64) error {
	_, err := t.exec(ctx, `INSERT INTO refunds (id, bot_id, purchase_id, sale_id, amount_cents, reason, status, tx_hash, ledger_id,
		created_at, completed_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
		rf.ID, rf.BotID, nullString(rf.PurchaseID), nullString(rf.SaleID), int64(rf.Amount), rf.Reason, rf.Status,
		nullString(rf.TxHash), sql.NullInt64{Int64: ledgerID, Valid: ledgerID != 0}, ms(rf.CreatedAt), nullTime(rf.CompletedAt))
	if err != nil {
		return fmt.Errorf("insert refund: %w", err)
	}
	return nil
}

func refundEvent(rf botpay.Refund, newBalance botpay.Money, now time.Time) botpay.Event {
	data := botpay.RefundCompletedData{RefundID: rf.ID, Amount: rf.Amount, Currency: "USD", NewBalance: newBalance, Reason: rf.Reason}
	if rf.PurchaseID != "" {
		data.CheckoutID = rf.PurchaseID
	} else {
		data.SaleID = rf.SaleID
	}
	return botpay.NewEvent(rf.BotID, data, now)
}

const refundColumns = `id, bot_id, purchase_id, sale_id, amount_cents, reason, status, tx_hash, created_at, completed_at`

func scanRefund(row interface{ Scan(...any) error }) (botpay.Refund, error) {
	var rf botpay.Refund
	var purchase, sale, hash sql.NullString
	var created int64
	var completed sql.NullInt64
	err := row.Scan(&rf.ID, &rf.BotID, &purchase, &sale, &rf.Amount, &rf.Reason, &rf.Status, &hash, &created, &completed)
	rf.PurchaseID, rf.SaleID, rf.TxHash = purchase.String, sale.String, hash.String
	rf.CreatedAt, rf.CompletedAt = fromMS(created), fromNullMS(completed)
	return rf, err
}
