package store

import (
	"context"
	"database/sql"

	"github.com/botpay/botpay/internal/botpay"
)

// CreateTask queues a purchase task for an owned, claimed bot.
func (s *Store) CreateTask(ctx context.Context, ownerID string, t botpay.Task) error {
	return wrapErr(s.inTx(ctx, func(tx *Tx) error {
		if err := tx.ownedClaimedBot(ctx, ownerID, t.BotID); err != nil {
			return err
		}
		var profile *int64
		if t.ProfileIndex != nil {
			v := int64(*t.ProfileIndex)
			profile = &v
		}
		_, err := tx.exec(ctx, `INSERT INTO tasks (id, bot_id, merchant_name, merchant_url, item_name, amount_cents, category,
				profile_index, status, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
			t.ID, t.BotID, t.MerchantName, t.MerchantURL, t.ItemName, int64(t.Amount), t.Category, profile, botpay.TaskQueued, ms(t.CreatedAt))
		return err
	}), "create task %s", ownerID)
}

// NextTask hands out the bot's oldest queued task (by insertion, seq: two
// tasks queued in the same millisecond keep their order) and marks it delivered;
// ok is false when none is queued. Two concurrent callers never get the
// same task.
func (s *Store) NextTask(ctx context.Context, botID string) (t botpay.Task, ok bool, err error) {
	now := s.clock.Now()
	err = s.inTx(ctx, func(tx *Tx) error {
		var profile sql.NullInt64
		var created int64
		err := tx.queryRow(ctx, `SELECT id, merchant_name, merchant_url, item_name, amount_cents, category, profile_index, created_at
			FROM tasks WHERE bot_id = $1 AND status = $2 ORDER BY seq LIMIT 1`+tx.skipLocked(), botID, botpay.TaskQueued).
			Scan(&t.ID, &t.MerchantName, &t.MerchantURL, &t.ItemName, &t.Amount, &t.Category, &profile, &created)
		if isNoRows(err) {
			return nil
		}
		if err != nil {
			return err
		}
		if _, err := tx.exec(ctx, `UPDATE tasks SET status = $1, delivered_at = $2 WHERE id = $3`, botpay.TaskDelivered, ms(now), t.ID); err != nil {
			return err
		}
		if profile.Valid {
			v := int(profile.Int64)
			t.ProfileIndex = &v
		}
		t.BotID, t.Status, t.CreatedAt, ok = botID, botpay.TaskDelivered, fromMS(created), true
		return nil
	})
	return t, ok, wrapErr(err, "next task %s", botID)
}

// skipLocked locks the row read for update and, on PostgreSQL, skips rows
// another transaction holds, so concurrent callers each get the next free
// row instead of all waiting for the same one.
func (t *Tx) skipLocked() string { return t.s.driver.SkipLocked() }
