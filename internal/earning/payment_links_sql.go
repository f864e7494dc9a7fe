package earning

import (
	"context"
	"database/sql"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
)

const linkColumns = `id, bot_id, amount_cents, description, payer_email, completed, sale_id, created_at, expires_at, paid_at`

func scanLink(row kernel.Scanner) (botpay.PaymentLink, error) {
	var l botpay.PaymentLink
	var email, sale sql.NullString
	var created, expires int64
	var paid sql.NullInt64
	err := row.Scan(&l.ID, &l.BotID, &l.Amount, &l.Description, &email, &l.Completed, &sale, &created, &expires, &paid)
	l.PayerEmail, l.SaleID = email.String, sale.String
	l.CreatedAt, l.ExpiresAt, l.PaidAt = fromMS(created), fromMS(expires), fromNullMS(paid)
	return l, err
}

// insertLink stores a new pending link.
func (s *Service) insertLink(ctx context.Context, l botpay.PaymentLink) error {
	return wrapErr(s.db.InTx(ctx, func(tx *kernel.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO payment_links (id, bot_id, amount_cents, description, payer_email, completed, created_at, expires_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
			l.ID, l.BotID, int64(l.Amount), l.Description, nullString(l.PayerEmail), false, ms(l.CreatedAt), ms(l.ExpiresAt))
		return err
	}), "create payment link")
}

// linksOf pages through a bot's links, newest first. status filters by
// the derived status ("" for all), so expiry needs no background job.
func (s *Service) linksOf(ctx context.Context, botID, status string, page botpay.PageRequest) (botpay.Page[botpay.PaymentLink], error) {
	now := ms(s.clock.Now())
	q := `SELECT ` + linkColumns + `, seq FROM payment_links WHERE bot_id = $1`
	args := []any{botID}
	switch status {
	case botpay.LinkCompleted:
		q += ` AND completed = $2`
		args = append(args, true)
	case botpay.LinkPending:
		q += ` AND completed = $2 AND expires_at > $3`
		args = append(args, false, now)
	case botpay.LinkExpired:
		q += ` AND completed = $2 AND expires_at <= $3`
		args = append(args, false, now)
	}
	q, args = kernel.Keyset(q, args, "seq", kernel.NewestFirst, page)
	v, err := kernel.ReadPage(ctx, s.db, q, args, page.Limit, scanLink)
	return v, wrapErr(err, "payment links %s", botID)
}

// PaymentLink reads any link by ID (the buyer side).
func (s *Service) PaymentLink(ctx context.Context, id string) (botpay.PaymentLink, error) {
	l, err := scanLink(s.db.QueryRow(ctx, `SELECT `+linkColumns+` FROM payment_links WHERE id = $1`, id))
	if isNoRows(err) {
		return l, botpay.ErrNotFound("payment link")
	}
	return l, wrapErr(err, "payment link %s", id)
}

// LockLink locks a payment link inside the caller's transaction: an x402
// payer's claim holds the link it locks (internal/payments).
func (s *Service) LockLink(ctx context.Context, tx *kernel.Tx, id string) (botpay.PaymentLink, error) {
	return lockLink(ctx, tx, id)
}

func lockLink(ctx context.Context, tx *kernel.Tx, id string) (botpay.PaymentLink, error) {
	l, err := scanLink(tx.QueryRow(ctx, `SELECT `+linkColumns+` FROM payment_links WHERE id = $1`+tx.ForUpdate(), id))
	if isNoRows(err) {
		return l, botpay.ErrNotFound("payment link")
	}
	return l, err
}

func completeLink(ctx context.Context, tx *kernel.Tx, id, saleID string, now time.Time) error {
	_, err := tx.Exec(ctx, `UPDATE payment_links SET completed = $1, sale_id = $2, paid_at = $3 WHERE id = $4`, true, saleID, ms(now), id)
	return err
}
