package earning

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
	"github.com/botpay/botpay/internal/ledger"
)

// RefundResult is a recorded refund with the wallet it changed.
type RefundResult struct {
	Refund botpay.Refund
	Wallet botpay.Wallet
}

// refundOrigin is what a refund gives back: a purchase or a sale, read
// under the wallet lock of its bot.
type refundOrigin struct {
	BotID    string
	Amount   botpay.Money
	Refunded botpay.Money
	Label    string
}

// refundPurchase records that the merchant gave back (part of) an owner's
// approved purchase: in one transaction the purchase's refunded total
// rises, the bot's card wallet is credited with a ledger row of type
// refund, and wallet.refund.completed is written. Refunds of one purchase
// never sum above it: every refund takes the bot's wallet lock first and
// the refunded total rises by a conditional update.
func (s *Service) refundPurchase(ctx context.Context, ownerID, purchaseID string, req botpay.RefundRequest) (RefundResult, error) {
	var res RefundResult
	err := s.db.InTx(ctx, func(tx *kernel.Tx) error {
		o, err := lockPurchaseForRefund(ctx, tx, ownerID, purchaseID)
		if err != nil {
			return err
		}
		amount, err := botpay.RefundAmount(o.Amount, o.Refunded, req.Amount)
		if err != nil {
			return err
		}
		if err := raiseRefunded(ctx, tx, "purchases", purchaseID, amount); err != nil {
			return err
		}
		rf := botpay.Refund{ID: botpay.NewID("rf_"), BotID: o.BotID, PurchaseID: purchaseID, Amount: amount, Reason: req.Reason}
		res, err = s.moveRefund(ctx, tx, rf, amount, "Refund: "+o.Label)
		return err
	})
	if err != nil {
		return res, fmt.Errorf("refund purchase %s: %w", purchaseID, err)
	}
	return res, nil
}

// refundSaleFromWallet records that a selling bot gave (part of) a card or
// sandbox sale back to its buyer: the card wallet is debited with a ledger
// row of type refund, never below zero (402 insufficient_funds), and
// wallet.refund.completed is written, all in one transaction. A frozen
// wallet moves no money out.
func (s *Service) refundSaleFromWallet(ctx context.Context, botID, saleID string, req botpay.RefundRequest) (RefundResult, error) {
	var res RefundResult
	err := s.db.InTx(ctx, func(tx *kernel.Tx) error {
		w, o, err := lockSaleForRefund(ctx, tx, botID, saleID)
		if err != nil {
			return err
		}
		amount, err := botpay.RefundAmount(o.Amount, o.Refunded, req.Amount)
		if err != nil {
			return err
		}
		if w.Available() < amount {
			return botpay.Errorf(botpay.KindPaymentRequired, botpay.CodeInsufficientFunds,
				"the available balance of $%s does not cover a refund of $%s", w.Available().USD(), amount.USD())
		}
		if err := raiseRefunded(ctx, tx, "sales", saleID, amount); err != nil {
			return err
		}
		if err := markInvoiceRefunded(ctx, tx, saleID, amount, s.clock.Now()); err != nil {
			return err
		}
		rf := botpay.Refund{ID: botpay.NewID("rf_"), BotID: botID, SaleID: saleID, Amount: amount, Reason: req.Reason}
		res, err = s.moveRefund(ctx, tx, rf, -amount, "Refund of sale: "+o.Label)
		return err
	})
	if err != nil {
		return res, fmt.Errorf("refund sale %s: %w", saleID, err)
	}
	return res, nil
}

// lockPurchaseForRefund finds the owner's purchase, takes its bot's wallet
// lock, and reads the purchase again under it. Only an approved purchase
// that moved money (not a decoy) can be refunded.
func lockPurchaseForRefund(ctx context.Context, tx *kernel.Tx, ownerID, id string) (refundOrigin, error) {
	var o refundOrigin
	err := tx.QueryRow(ctx, `SELECT bot_id FROM purchases WHERE id = $1 AND owner_id = $2`, id, ownerID).Scan(&o.BotID)
	if isNoRows(err) {
		return o, botpay.ErrNotFound("confirmation")
	}
	if err != nil {
		return o, fmt.Errorf("find purchase: %w", err)
	}
	if _, _, err := ledger.LockWallet(ctx, tx, o.BotID); err != nil {
		return o, fmt.Errorf("lock wallet: %w", err)
	}
	var status, merchant, item string
	var decoy bool
	err = tx.QueryRow(ctx, `SELECT status, decoy, amount_cents, refunded_cents, merchant_name, item_name FROM purchases WHERE id = $1`, id).
		Scan(&status, &decoy, &o.Amount, &o.Refunded, &merchant, &item)
	if err != nil {
		return o, fmt.Errorf("read purchase: %w", err)
	}
	if status != botpay.PurchaseApproved || decoy {
		return o, botpay.Errorf(botpay.KindConflict, botpay.CodeNotRefundable,
			"only an approved purchase that moved money can be refunded; this one is %s", publicPurchaseStatus(status, decoy))
	}
	o.Label = merchant + " — " + item
	return o, nil
}

// publicPurchaseStatus names a purchase's state to its owner; a decoy is
// approved to the bot but moved no money.
func publicPurchaseStatus(status string, decoy bool) string {
	if decoy {
		return "a decoy"
	}
	return status
}

// lockSaleForRefund takes the bot's wallet lock and reads the bot's sale
// under it. Another bot's sale is the same 404 as a missing one.
func lockSaleForRefund(ctx context.Context, tx *kernel.Tx, botID, id string) (ledger.Wallet, refundOrigin, error) {
	o := refundOrigin{BotID: botID}
	w, found, err := ledger.LockWallet(ctx, tx, botID)
	if err != nil {
		return w, o, fmt.Errorf("lock wallet: %w", err)
	}
	if !found {
		return w, o, botpay.ErrNotFound("sale")
	}
	err = tx.QueryRow(ctx, `SELECT amount_cents, refunded_cents, checkout_title FROM sales WHERE id = $1 AND bot_id = $2`, id, botID).
		Scan(&o.Amount, &o.Refunded, &o.Label)
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
func raiseRefunded(ctx context.Context, tx *kernel.Tx, table, id string, amount botpay.Money) error {
	r, err := tx.Exec(ctx, `UPDATE `+table+` SET refunded_cents = refunded_cents + $1
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
func markInvoiceRefunded(ctx context.Context, tx *kernel.Tx, saleID string, amount botpay.Money, now time.Time) error {
	_, err := tx.Exec(ctx, `UPDATE invoices SET refunded_cents = refunded_cents + $1, updated_at = $2 WHERE sale_id = $3`,
		int64(amount), ms(now), saleID)
	if err != nil {
		return fmt.Errorf("mark invoice refunded: %w", err)
	}
	return nil
}

// moveRefund changes the card wallet by delta, appends the ledger row,
// inserts the succeeded refund and writes wallet.refund.completed.
func (s *Service) moveRefund(ctx context.Context, tx *kernel.Tx, rf botpay.Refund, delta botpay.Money, description string) (RefundResult, error) {
	now := s.clock.Now()
	res := RefundResult{Wallet: botpay.Wallet{BotID: rf.BotID}}
	err := tx.QueryRow(ctx, `UPDATE wallets SET balance_cents = balance_cents + $1, updated_at = $2 WHERE bot_id = $3
		RETURNING balance_cents, held_cents`, int64(delta), ms(now), rf.BotID).Scan(&res.Wallet.Balance, &res.Wallet.Held)
	if err != nil {
		return res, fmt.Errorf("move wallet balance: %w", err)
	}
	tr, err := ledger.Append(ctx, tx, rf.BotID, botpay.TxRefund, delta, &res.Wallet.Balance, description, now)
	if err != nil {
		return res, fmt.Errorf("append refund ledger row: %w", err)
	}
	rf.Status, rf.CreatedAt, rf.CompletedAt = botpay.RefundSucceeded, now, now
	if err := insertRefund(ctx, tx, rf, tr.ID); err != nil {
		return res, err
	}
	res.Refund = rf
	return res, s.outbox.Emit(tx, refundEvent(rf, res.Wallet.Available(), now))
}

func insertRefund(ctx context.Context, tx *kernel.Tx, rf botpay.Refund, ledgerID int64) error {
	_, err := tx.Exec(ctx, `INSERT INTO refunds (id, bot_id, purchase_id, sale_id, amount_cents, reason, status, tx_hash, ledger_id,
		created_at, completed_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
		rf.ID, rf.BotID, nullString(rf.PurchaseID), nullString(rf.SaleID), int64(rf.Amount), rf.Reason, rf.Status,
		nullString(rf.TxHash), sql.NullInt64{Int64: ledgerID, Valid: ledgerID != 0}, ms(rf.CreatedAt), nullMS(rf.CompletedAt))
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

// RefundsOf lists the refunds of one purchase or sale of a bot, oldest
// first (the dashboard shows them beside their origin).
func (s *Service) RefundsOf(ctx context.Context, botID, originID string) ([]botpay.Refund, error) {
	rows, err := s.db.Query(ctx, `SELECT `+refundColumns+` FROM refunds
		WHERE bot_id = $1 AND (purchase_id = $2 OR sale_id = $2) ORDER BY seq`, botID, originID)
	if err != nil {
		return nil, fmt.Errorf("list refunds of %s: %w", originID, err)
	}
	defer rows.Close()
	out := []botpay.Refund{}
	for rows.Next() {
		rf, err := scanRefund(rows)
		if err != nil {
			return nil, fmt.Errorf("scan refund: %w", err)
		}
		out = append(out, rf)
	}
	return out, wrapErr(rows.Err(), "refunds of %s", originID)
}
