package store

import (
	"context"
	"database/sql"
	"time"

	"github.com/botpay/botpay/internal/ledger"

	"github.com/botpay/botpay/internal/botpay"
)

func nullTime(t time.Time) sql.NullInt64 {
	return sql.NullInt64{Int64: ms(t), Valid: !t.IsZero()}
}

const purchaseColumns = `id, bot_id, owner_id, card_id, profile_index, decoy, amount_cents, merchant_name, merchant_url,
	item_name, category, task_id, status, created_at, expires_at, decided_at, refunded_cents`

func scanPurchase(row interface{ Scan(...any) error }) (botpay.Purchase, error) {
	var p botpay.Purchase
	var task sql.NullString
	var created int64
	var expires, decided sql.NullInt64
	err := row.Scan(&p.ID, &p.BotID, &p.OwnerID, &p.CardID, &p.ProfileIndex, &p.Decoy, &p.Amount, &p.MerchantName, &p.MerchantURL,
		&p.ItemName, &p.Category, &task, &p.Status, &created, &expires, &decided, &p.Refunded)
	p.TaskID, p.CreatedAt, p.ExpiresAt, p.DecidedAt = task.String, fromMS(created), fromNullMS(expires), fromNullMS(decided)
	return p, err
}

// BotPurchase reads one of the bot's purchases with the sealed card details
// when it is approved. Another bot's purchase is the same 404 as a missing
// one. The caller reports StatusAt(now), so an overdue hold reads expired.
func (s *Store) BotPurchase(ctx context.Context, botID, id string) (botpay.Purchase, []byte, error) {
	p, err := scanPurchase(s.queryRow(ctx, `SELECT `+purchaseColumns+` FROM purchases WHERE id = $1 AND bot_id = $2`, id, botID))
	if isNoRows(err) {
		return p, nil, botpay.ErrNotFound("confirmation")
	}
	if err != nil || p.Status != botpay.PurchaseApproved {
		return p, nil, wrapErr(err, "bot purchase %s", id)
	}
	var sealed []byte
	err = s.queryRow(ctx, `SELECT details_sealed FROM card_profiles WHERE card_id = $1 AND profile_index = $2`, p.CardID, p.ProfileIndex).Scan(&sealed)
	return p, sealed, wrapErr(err, "bot purchase %s", id)
}

// pendingPurchases reads a page of the held purchases of an owner's bots
// that still await a decision (overdue ones are left out even before the
// expiry worker reaches them), oldest first, with one extra row.
func (s *Store) pendingPurchases(ctx context.Context, ownerID string, page botpay.PageRequest) ([]placed[botpay.Purchase], error) {
	q, args := keyset(`SELECT `+purchaseColumns+`, seq FROM purchases
		WHERE owner_id = $1 AND status = 'pending' AND expires_at > $2`, []any{ownerID, ms(s.clock.Now())}, "seq", oldestFirst, page)
	return readPlaced(ctx, s, q, args, scanPurchase)
}

// DecidePurchase approves (capturing the hold with a spend ledger row) or
// denies (releasing it) an owner's held purchase. A decided purchase is
// 409 already_decided; an overdue one is expired on the spot (its hold
// released, purchase.expired written, committed) and answered 410 expired.
func (s *Store) DecidePurchase(ctx context.Context, ownerID, id string, approve bool) (botpay.Purchase, error) {
	now := s.clock.Now()
	var p botpay.Purchase
	var gone bool
	err := s.inTx(ctx, func(tx *Tx) error {
		var botID string
		err := tx.queryRow(ctx, `SELECT bot_id FROM purchases WHERE id = $1 AND owner_id = $2`, id, ownerID).Scan(&botID)
		if isNoRows(err) {
			return botpay.ErrNotFound("confirmation")
		}
		if err != nil {
			return err
		}
		if _, _, err := tx.lockWallet(ctx, botID); err != nil {
			return err
		}
		if p, err = scanPurchase(tx.queryRow(ctx, `SELECT `+purchaseColumns+` FROM purchases WHERE id = $1`, id)); err != nil {
			return err
		}
		switch p.StatusAt(now) {
		case botpay.PurchaseExpired:
			gone = true
			_, err := tx.expirePurchase(ctx, id, now)
			return err
		case botpay.PurchasePending:
		default:
			return botpay.Errorf(botpay.KindConflict, botpay.CodeAlreadyDecided, "this purchase was already %s", p.Status)
		}
		status := botpay.PurchaseDenied
		if approve {
			status = botpay.PurchaseApproved
		}
		if _, err := tx.exec(ctx, `UPDATE purchases SET status = $1, decided_at = $2 WHERE id = $3`, status, ms(now), id); err != nil {
			return err
		}
		p.Status, p.DecidedAt = status, now
		if !approve {
			ledger.CountSpend(tx.k, ledger.PurchaseScopes(p), ms(p.CreatedAt), -p.Amount)
			if _, err := tx.exec(ctx, `UPDATE wallets SET held_cents = held_cents - $1, updated_at = $2 WHERE bot_id = $3`,
				int64(p.Amount), ms(now), botID); err != nil {
				return err
			}
			return tx.emit(botpay.NewEvent(botID, botpay.PurchaseRejectedData{
				CheckoutID: botpay.PurchaseCheckoutID(p.ID), Amount: p.Amount, Currency: "USD", Vendor: p.MerchantName, Reason: "denied by owner",
			}, now))
		}
		if err := tx.emit(botpay.NewEvent(botID, botpay.PurchaseApprovedData{
			CheckoutID: botpay.PurchaseCheckoutID(p.ID), Amount: p.Amount, Currency: "USD", Vendor: p.MerchantName,
			Description: purchaseDescription(p), ApprovalMode: "owner",
		}, now)); err != nil {
			return err
		}
		ledgerID, err := tx.capture(ctx, p, true, now)
		if err != nil {
			return err
		}
		_, err = tx.exec(ctx, `UPDATE purchases SET ledger_id = $1 WHERE id = $2`, ledgerID, p.ID)
		return err
	})
	if err == nil && gone {
		return p, botpay.Errorf(botpay.KindGone, botpay.CodeExpired, "the approval window of this purchase has passed")
	}
	return p, wrapErr(err, "decide purchase %s", id)
}

// expirePurchase expires one overdue held purchase, releases its hold and
// writes purchase.expired. The conditional update claims the row: of two
// replicas racing on it, only one sees it still pending, so the event is
// written exactly once. The caller holds the bot's wallet lock.
func (t *Tx) expirePurchase(ctx context.Context, id string, now time.Time) (bool, error) {
	var merchant, item string
	var created int64
	p := botpay.Purchase{ID: id}
	err := t.queryRow(ctx, `UPDATE purchases SET status = 'expired', decided_at = $1
		WHERE id = $2 AND status = 'pending' AND expires_at <= $1
		RETURNING bot_id, owner_id, card_id, profile_index, decoy, amount_cents, created_at, merchant_name, item_name`,
		ms(now), id).Scan(&p.BotID, &p.OwnerID, &p.CardID, &p.ProfileIndex, &p.Decoy, &p.Amount, &created, &merchant, &item)
	if isNoRows(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if _, err := t.exec(ctx, `UPDATE wallets SET held_cents = held_cents - $1, updated_at = $2 WHERE bot_id = $3`,
		int64(p.Amount), ms(now), p.BotID); err != nil {
		return false, err
	}
	ledger.CountSpend(t.k, ledger.PurchaseScopes(p), created, -p.Amount)
	return true, t.emit(botpay.NewEvent(p.BotID, botpay.PurchaseExpiredData{
		CheckoutID: botpay.PurchaseCheckoutID(id), Amount: p.Amount, Currency: "USD", Vendor: merchant,
		Message: "Your owner did not decide on " + item + " within 15 minutes; the purchase expired and its hold was released.",
	}, now))
}

// expireOverdueOf expires every overdue held purchase of one bot; the
// caller holds the bot's wallet lock.
func (t *Tx) expireOverdueOf(ctx context.Context, botID string, now time.Time) (int, error) {
	rows, err := t.query(ctx, `SELECT id FROM purchases WHERE bot_id = $1 AND status = 'pending' AND expires_at <= $2`, botID, ms(now))
	if err != nil {
		return 0, err
	}
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return 0, err
		}
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, err
	}
	n := 0
	for _, id := range ids {
		ok, err := t.expirePurchase(ctx, id, now)
		if err != nil {
			return n, err
		}
		if ok {
			n++
		}
	}
	return n, nil
}

// ExpireOverdue expires up to batch overdue held purchases, one bot per
// transaction, and reports how many it expired. Safe to run on every replica
// at once: each purchase is claimed by a conditional update under its bot's
// wallet lock.
func (s *Store) ExpireOverdue(ctx context.Context, batch int) (int, error) {
	now := s.clock.Now()
	rows, err := s.query(ctx, `SELECT DISTINCT bot_id FROM purchases WHERE status = 'pending' AND expires_at <= $1 LIMIT $2`, ms(now), batch)
	if err != nil {
		return 0, wrapErr(err, "expire overdue")
	}
	var bots []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return 0, wrapErr(err, "expire overdue")
		}
		bots = append(bots, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, wrapErr(err, "expire overdue")
	}
	total := 0
	for _, botID := range bots {
		var n int
		err := s.inTx(ctx, func(tx *Tx) error {
			if _, _, err := tx.lockWallet(ctx, botID); err != nil {
				return err
			}
			var err error
			n, err = tx.expireOverdueOf(ctx, botID, now)
			return err
		})
		if err != nil {
			return total, wrapErr(err, "expire overdue")
		}
		total += n
	}
	return total, nil
}
