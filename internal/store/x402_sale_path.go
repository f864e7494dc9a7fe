package store

import (
	"context"
	"database/sql"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
)

// What x402 settlement still reads here of what internal/earning keeps:
// the sale path it records through, and the payment link a claim locks.

// SaleRecorder records a sale along the one sale path inside the caller's
// transaction (earning.Service.RecordSaleIn): x402 settlement records it
// together with its claim on the authorization.
type SaleRecorder func(ctx context.Context, tx *kernel.Tx, in botpay.SaleInput) (botpay.SaleResult, error)

// LinkBeingPaid reports, inside the caller's transaction, whether an x402
// claim holds the link (earning.LinkClaims).
func (s *Store) LinkBeingPaid(ctx context.Context, k *kernel.Tx, id string) (bool, error) {
	return (&Tx{k: k, s: s}).linkBeingPaid(ctx, id)
}

// lockLink locks the payment link an x402 payer claims.
func (t *Tx) lockLink(ctx context.Context, id string) (botpay.PaymentLink, error) {
	var l botpay.PaymentLink
	var email, sale sql.NullString
	var created, expires int64
	var paid sql.NullInt64
	err := t.queryRow(ctx, `SELECT id, bot_id, amount_cents, description, payer_email, completed, sale_id, created_at,
		expires_at, paid_at FROM payment_links WHERE id = $1`+t.forUpdate(), id).
		Scan(&l.ID, &l.BotID, &l.Amount, &l.Description, &email, &l.Completed, &sale, &created, &expires, &paid)
	if isNoRows(err) {
		return l, botpay.ErrNotFound("payment link")
	}
	l.PayerEmail, l.SaleID = email.String, sale.String
	l.CreatedAt, l.ExpiresAt, l.PaidAt = fromMS(created), fromMS(expires), fromNullMS(paid)
	return l, err
}
