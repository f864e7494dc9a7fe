package wallets

import (
	"context"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
)

// createTopupRequest records a bot's request for money.
func (s *Service) createTopupRequest(ctx context.Context, r botpay.TopupRequest) (int64, error) {
	var id int64
	err := s.db.InTx(ctx, func(tx *kernel.Tx) error {
		return tx.QueryRow(ctx, `INSERT INTO topup_requests (bot_id, amount_cents, reason, status, owner_notified, created_at)
			VALUES ($1, $2, $3, 'sent', $4, $5) RETURNING id`, r.BotID, int64(r.Amount), r.Reason, false, ms(r.CreatedAt)).Scan(&id)
	})
	return id, wrapErr(err, "create topup request")
}

// markTopupNotified records that the owner's e-mail went out.
func (s *Service) markTopupNotified(ctx context.Context, id int64) error {
	return wrapErr(s.db.InTx(ctx, func(tx *kernel.Tx) error {
		_, err := tx.Exec(ctx, `UPDATE topup_requests SET owner_notified = $1 WHERE id = $2`, true, id)
		return err
	}), "mark topup notified")
}

const topupQueueColumns = `t.id, t.bot_id, t.amount_cents, t.reason, t.status, t.owner_notified, t.created_at`

// openTopupRequests lists the top-up requests of ownerID's bots that no
// funding has covered and the owner has not dismissed, oldest first: they
// wait in the owner's approvals queue.
func (s *Service) openTopupRequests(ctx context.Context, ownerID string, limit int) ([]botpay.TopupRequest, error) {
	rows, err := s.db.Query(ctx, `SELECT `+topupQueueColumns+` FROM topup_requests t JOIN bots b ON b.id = t.bot_id
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

// openTopupRequest reads one open top-up request of ownerID's bots;
// another owner's, a covered or a dismissed one is not found.
func (s *Service) openTopupRequest(ctx context.Context, ownerID string, id int64) (botpay.TopupRequest, error) {
	r, err := scanTopupRequest(s.db.QueryRow(ctx, `SELECT `+topupQueueColumns+` FROM topup_requests t JOIN bots b ON b.id = t.bot_id
		WHERE t.id = $1 AND b.owner_id = $2 AND t.status = 'sent'`, id, ownerID))
	if isNoRows(err) {
		return botpay.TopupRequest{}, botpay.ErrNotFound("top-up request")
	}
	return r, wrapErr(err, "topup request %d", id)
}

// dismissTopupRequest closes an open top-up request of ownerID's bots
// without funding it. It changes no balance.
func (s *Service) dismissTopupRequest(ctx context.Context, ownerID string, id int64) error {
	var n int64
	err := s.db.InTx(ctx, func(tx *kernel.Tx) error {
		res, err := tx.Exec(ctx, `UPDATE topup_requests SET status = $1 WHERE id = $2 AND status = 'sent'
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
