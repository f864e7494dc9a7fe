package spending

import (
	"context"
	"database/sql"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
)

// queueTask queues a purchase task for an owned, claimed bot.
func (s *Service) queueTask(ctx context.Context, ownerID string, t botpay.Task) error {
	return wrapErr(s.db.InTx(ctx, func(tx *kernel.Tx) error {
		if err := ownedClaimedBot(ctx, tx, ownerID, t.BotID); err != nil {
			return err
		}
		var profile *int64
		if t.ProfileIndex != nil {
			v := int64(*t.ProfileIndex)
			profile = &v
		}
		_, err := tx.Exec(ctx, `INSERT INTO tasks (id, bot_id, merchant_name, merchant_url, item_name, amount_cents, category,
				profile_index, status, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
			t.ID, t.BotID, t.MerchantName, t.MerchantURL, t.ItemName, int64(t.Amount), t.Category, profile, botpay.TaskQueued, ms(t.CreatedAt))
		return err
	}), "create task %s", ownerID)
}

// nextTask hands out the bot's oldest queued task (by insertion, seq: two
// tasks queued in the same millisecond keep their order) and marks it
// delivered; ok is false when none is queued. The row is read with
// SKIP LOCKED on PostgreSQL, so two concurrent callers never get the same
// task and neither waits for the other's.
func (s *Service) nextTask(ctx context.Context, botID string) (t botpay.Task, ok bool, err error) {
	now := s.clock.Now()
	err = s.db.InTx(ctx, func(tx *kernel.Tx) error {
		var profile sql.NullInt64
		var created int64
		err := tx.QueryRow(ctx, `SELECT id, merchant_name, merchant_url, item_name, amount_cents, category, profile_index, created_at
			FROM tasks WHERE bot_id = $1 AND status = $2 ORDER BY seq LIMIT 1`+tx.Driver().SkipLocked(), botID, botpay.TaskQueued).
			Scan(&t.ID, &t.MerchantName, &t.MerchantURL, &t.ItemName, &t.Amount, &t.Category, &profile, &created)
		if isNoRows(err) {
			return nil
		}
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE tasks SET status = $1, delivered_at = $2 WHERE id = $3`, botpay.TaskDelivered, ms(now), t.ID); err != nil {
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
