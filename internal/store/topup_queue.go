package store

import (
	"context"

	"github.com/botpay/botpay/internal/botpay"
)

const topupQueueColumns = `t.id, t.bot_id, t.amount_cents, t.reason, t.status, t.owner_notified, t.created_at`

// OpenTopupRequests lists the top-up requests of ownerID's bots that no
// funding has covered and the owner has not dismissed, oldest first: they
// wait in the owner's approvals queue.
func (s *Store) OpenTopupRequests(ctx context.Context, ownerID string, limit int) ([]botpay.TopupRequest, error) {
	rows, err := s.query(ctx, `SELECT `+topupQueueColumns+` FROM topup_requests t JOIN bots b ON b.id = t.bot_id
		WHERE b.owner_id = $1 AND t.status = 'sent' ORDER BY t.id LIMIT $2`, ownerID, limit)
	if err != nil {
		return nil, wrapErr(err, "open topup requests of %s", ownerID)
	}
	defer rows.Close()
	var out []botpay.TopupRequest
	for rows.Next() {
		r, err := scanTopupRequest(rows)
		if err != nil {
			return nil, wrapErr(err, "open topup requests of %s", ownerID)
		}
		out = append(out, r)
	}
	return out, wrapErr(rows.Err(), "open topup requests of %s", ownerID)
}

// OpenTopupRequest reads one open top-up request of ownerID's bots;
// another owner's, a covered or a dismissed one is not found.
func (s *Store) OpenTopupRequest(ctx context.Context, ownerID string, id int64) (botpay.TopupRequest, error) {
	r, err := scanTopupRequest(s.queryRow(ctx, `SELECT `+topupQueueColumns+` FROM topup_requests t JOIN bots b ON b.id = t.bot_id
		WHERE t.id = $1 AND b.owner_id = $2 AND t.status = 'sent'`, id, ownerID))
	if isNoRows(err) {
		return botpay.TopupRequest{}, botpay.ErrNotFound("top-up request")
	}
	return r, wrapErr(err, "topup request %d", id)
}

// DismissTopupRequest closes an open top-up request of ownerID's bots
// without funding it. It changes no balance.
func (s *Store) DismissTopupRequest(ctx context.Context, ownerID string, id int64) error {
	var n int64
	err := s.inTx(ctx, func(tx *Tx) error {
		res, err := tx.exec(ctx, `UPDATE topup_requests SET status = $1 WHERE id = $2 AND status = 'sent'
			AND bot_id IN (SELECT id FROM bots WHERE owner_id = $3)`, botpay.TopupDismissed, id, ownerID)
		if err == nil {
			n, err = res.RowsAffected()
		}
		return err
	})
	if err == nil && n == 0 {
		return botpay.ErrNotFound("top-up request")
	}
	return wrapErr(err, "dismiss topup request %d", id)
}

func scanTopupRequest(row interface{ Scan(...any) error }) (botpay.TopupRequest, error) {
	var r botpay.TopupRequest
	var created int64
	err := row.Scan(&r.ID, &r.BotID, &r.Amount, &r.Reason, &r.Status, &r.OwnerNotified, &created)
	r.CreatedAt = fromMS(created)
	return r, err
}
