package spending

import (
	"context"
	"database/sql"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
	"github.com/botpay/botpay/internal/ledger"
)

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

// botPurchase reads one of the bot's purchases with the sealed card details
// when it is approved. Another bot's purchase is the same 404 as a missing
// one. The caller reports StatusAt(now), so an overdue hold reads expired.
func (s *Service) botPurchase(ctx context.Context, botID, id string) (botpay.Purchase, []byte, error) {
	p, err := scanPurchase(s.db.QueryRow(ctx, `SELECT `+purchaseColumns+` FROM purchases WHERE id = $1 AND bot_id = $2`, id, botID))
	if isNoRows(err) {
		return p, nil, botpay.ErrNotFound("confirmation")
	}
	if err != nil || p.Status != botpay.PurchaseApproved {
		return p, nil, wrapErr(err, "bot purchase %s", id)
	}
	var sealed []byte
	err = s.db.QueryRow(ctx, `SELECT details_sealed FROM card_profiles WHERE card_id = $1 AND profile_index = $2`, p.CardID, p.ProfileIndex).Scan(&sealed)
	return p, sealed, wrapErr(err, "bot purchase %s", id)
}

// pendingPurchases reads a page of the held purchases of an owner's bots
// that still await a decision (overdue ones are left out even before the
// expiry worker reaches them), oldest first, with one extra row, and their
// positions.
func (s *Service) pendingPurchases(ctx context.Context, ownerID string, page botpay.PageRequest) ([]kernel.Placed[botpay.Purchase], error) {
	q, args := kernel.Keyset(`SELECT `+purchaseColumns+`, seq FROM purchases
		WHERE owner_id = $1 AND status = 'pending' AND expires_at > $2`, []any{ownerID, ms(s.clock.Now())}, "seq", kernel.OldestFirst, page)
	return kernel.ReadPlaced(ctx, s.db, q, args, scanPurchase)
}

// decidePurchase locks the purchase's wallet and reads the purchase,
// decides on it (botpay.DecidePurchase) and writes the decision: approved
// (the hold captured with a spend ledger row), denied (the hold released)
// or, when its window had passed, expired and committed before the 410
// answer.
func (s *Service) decidePurchase(ctx context.Context, ownerID, id string, approve bool) (botpay.Purchase, error) {
	now := s.clock.Now()
	var d botpay.PurchaseDecision
	err := s.db.InTx(ctx, func(tx *kernel.Tx) error {
		p, err := lockOwnedPurchase(ctx, tx, ownerID, id)
		if err != nil {
			return err
		}
		if d, err = botpay.DecidePurchase(p, approve, now); err != nil {
			return err
		}
		return s.writePurchaseDecision(ctx, tx, d, now)
	})
	if err == nil && d.Gone != nil {
		return d.Purchase, d.Gone
	}
	return d.Purchase, wrapErr(err, "decide purchase %s", id)
}

// lockOwnedPurchase locks the wallet of the owner's purchase id, then reads
// the purchase; another owner's purchase is the same 404 as a missing one.
func lockOwnedPurchase(ctx context.Context, tx *kernel.Tx, ownerID, id string) (botpay.Purchase, error) {
	var botID string
	err := tx.QueryRow(ctx, `SELECT bot_id FROM purchases WHERE id = $1 AND owner_id = $2`, id, ownerID).Scan(&botID)
	if isNoRows(err) {
		return botpay.Purchase{}, botpay.ErrNotFound("confirmation")
	}
	if err != nil {
		return botpay.Purchase{}, err
	}
	if _, _, err := ledger.LockWallet(ctx, tx, botID); err != nil {
		return botpay.Purchase{}, err
	}
	return scanPurchase(tx.QueryRow(ctx, `SELECT `+purchaseColumns+` FROM purchases WHERE id = $1`, id))
}

// writePurchaseDecision writes d: an expiry as the sweeper writes it; a
// denial releases the hold and stops it counting; an approval captures the
// hold. The decision's event is emitted before wallet.spend.authorized.
func (s *Service) writePurchaseDecision(ctx context.Context, tx *kernel.Tx, d botpay.PurchaseDecision, now time.Time) error {
	p := d.Purchase
	if d.Gone != nil {
		_, err := s.expirePurchase(ctx, tx, p.ID, now)
		return err
	}
	if _, err := tx.Exec(ctx, `UPDATE purchases SET status = $1, decided_at = $2 WHERE id = $3`, p.Status, ms(now), p.ID); err != nil {
		return err
	}
	if p.Status == botpay.PurchaseDenied {
		ledger.CountSpend(tx, ledger.PurchaseScopes(p), ms(p.CreatedAt), -p.Amount)
		if _, err := tx.Exec(ctx, `UPDATE wallets SET held_cents = held_cents - $1, updated_at = $2 WHERE bot_id = $3`,
			int64(p.Amount), ms(now), p.BotID); err != nil {
			return err
		}
		return s.outbox.Emit(tx, d.Event)
	}
	if err := s.outbox.Emit(tx, d.Event); err != nil {
		return err
	}
	ledgerID, err := s.capture(ctx, tx, p, true, now)
	if err != nil {
		return err
	}
	_, err = tx.Exec(ctx, `UPDATE purchases SET ledger_id = $1 WHERE id = $2`, ledgerID, p.ID)
	return err
}

// expirePurchase expires one overdue held purchase, releases its hold and
// writes purchase.expired. The conditional update claims the row: of two
// replicas racing on it, only one sees it still pending, so the event is
// written exactly once. The caller holds the bot's wallet lock.
func (s *Service) expirePurchase(ctx context.Context, tx *kernel.Tx, id string, now time.Time) (bool, error) {
	var created int64
	p := botpay.Purchase{ID: id}
	err := tx.QueryRow(ctx, `UPDATE purchases SET status = 'expired', decided_at = $1
		WHERE id = $2 AND status = 'pending' AND expires_at <= $1
		RETURNING bot_id, owner_id, card_id, profile_index, decoy, amount_cents, created_at, merchant_name, item_name`,
		ms(now), id).Scan(&p.BotID, &p.OwnerID, &p.CardID, &p.ProfileIndex, &p.Decoy, &p.Amount, &created, &p.MerchantName, &p.ItemName)
	if isNoRows(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if _, err := tx.Exec(ctx, `UPDATE wallets SET held_cents = held_cents - $1, updated_at = $2 WHERE bot_id = $3`,
		int64(p.Amount), ms(now), p.BotID); err != nil {
		return false, err
	}
	ledger.CountSpend(tx, ledger.PurchaseScopes(p), created, -p.Amount)
	return true, s.outbox.Emit(tx, botpay.PurchaseExpiredEvent(p, now))
}

// expireOverdueOf expires every overdue held purchase of one bot; the
// caller holds the bot's wallet lock.
func (s *Service) expireOverdueOf(ctx context.Context, tx *kernel.Tx, botID string, now time.Time) (int, error) {
	var ids []string
	err := tx.EachRow(ctx, kernel.Step{Query: `SELECT id FROM purchases WHERE bot_id = $1 AND status = 'pending' AND expires_at <= $2`,
		Args: []any{botID, ms(now)}, Each: func(row kernel.Scanner) error {
			var id string
			err := row.Scan(&id)
			ids = append(ids, id)
			return err
		}})
	if err != nil {
		return 0, err
	}
	n := 0
	for _, id := range ids {
		ok, err := s.expirePurchase(ctx, tx, id, now)
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
func (s *Service) ExpireOverdue(ctx context.Context, batch int) (int, error) {
	now := s.clock.Now()
	rows, err := s.db.Query(ctx, `SELECT DISTINCT bot_id FROM purchases WHERE status = 'pending' AND expires_at <= $1 LIMIT $2`, ms(now), batch)
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
		err := s.db.InTx(ctx, func(tx *kernel.Tx) error {
			if _, _, err := ledger.LockWallet(ctx, tx, botID); err != nil {
				return err
			}
			var err error
			n, err = s.expireOverdueOf(ctx, tx, botID, now)
			return err
		})
		if err != nil {
			return total, wrapErr(err, "expire overdue")
		}
		total += n
	}
	return total, nil
}
