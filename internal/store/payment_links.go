package store

import (
	"context"
	"database/sql"
	"time"

	"github.com/botpay/botpay/internal/botpay"
)

const linkColumns = `id, bot_id, amount_cents, description, payer_email, completed, sale_id, created_at, expires_at, paid_at`

func scanLink(row interface{ Scan(...any) error }) (botpay.PaymentLink, error) {
	var l botpay.PaymentLink
	var email, sale sql.NullString
	var created, expires int64
	var paid sql.NullInt64
	err := row.Scan(&l.ID, &l.BotID, &l.Amount, &l.Description, &email, &l.Completed, &sale, &created, &expires, &paid)
	l.PayerEmail, l.SaleID = email.String, sale.String
	l.CreatedAt, l.ExpiresAt, l.PaidAt = fromMS(created), fromMS(expires), fromNullMS(paid)
	return l, err
}

// CreatePaymentLink stores a new pending link.
func (s *Store) CreatePaymentLink(ctx context.Context, l botpay.PaymentLink) error {
	return wrapErr(s.inTx(ctx, func(tx *Tx) error {
		_, err := tx.exec(ctx, `INSERT INTO payment_links (id, bot_id, amount_cents, description, payer_email, completed, created_at, expires_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
			l.ID, l.BotID, int64(l.Amount), l.Description, nullString(l.PayerEmail), false, ms(l.CreatedAt), ms(l.ExpiresAt))
		return err
	}), "create payment link")
}

// PaymentLinks pages through a bot's links, newest first. status filters
// by the derived status ("" for all), so expiry needs no background job.
func (s *Store) PaymentLinks(ctx context.Context, botID, status string, page botpay.PageRequest) (botpay.Page[botpay.PaymentLink], error) {
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
	q, args = keyset(q, args, "seq", newestFirst, page)
	v, err := readPage(ctx, s, q, args, page.Limit, scanLink)
	return v, wrapErr(err, "payment links %s", botID)
}

// PaymentLink reads any link by ID (the buyer side).
func (s *Store) PaymentLink(ctx context.Context, id string) (botpay.PaymentLink, error) {
	l, err := scanLink(s.queryRow(ctx, `SELECT `+linkColumns+` FROM payment_links WHERE id = $1`, id))
	if isNoRows(err) {
		return l, botpay.ErrNotFound("payment link")
	}
	return l, wrapErr(err, "payment link %s", id)
}

func (t *Tx) lockLink(ctx context.Context, id string) (botpay.PaymentLink, error) {
	l, err := scanLink(t.queryRow(ctx, `SELECT `+linkColumns+` FROM payment_links WHERE id = $1`+t.forUpdate(), id))
	if isNoRows(err) {
		return l, botpay.ErrNotFound("payment link")
	}
	return l, err
}

func (t *Tx) completeLink(ctx context.Context, id, saleID string, now time.Time) error {
	_, err := t.exec(ctx, `UPDATE payment_links SET completed = $1, sale_id = $2, paid_at = $3 WHERE id = $4`, true, saleID, ms(now), id)
	return err
}
