package store

import (
	"context"
	"database/sql"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
)

// The approvals list merges held signing requests with held purchases on
// their one insertion sequence, so it reads them here beside the
// purchases; everything else about signing requests is internal/payments.

const signingColumns = `id, bot_id, owner_id, status, resource_url, resource_host, recipient, amount_micro, nonce, valid_before,
	reserved_until, COALESCE(signature, ''), COALESCE(header, ''), approval_mode, expires_at, decided_at, created_at,
	COALESCE(payment_required, '')`

func scanSigning(row scanner) (botpay.SigningRequest, error) {
	var r botpay.SigningRequest
	var reserved, created int64
	var expires, decided sql.NullInt64
	err := row.Scan(&r.ID, &r.BotID, &r.OwnerID, &r.Status, &r.ResourceURL, &r.ResourceHost, &r.Recipient, &r.Amount, &r.Nonce,
		&r.ValidBefore, &reserved, &r.Signature, &r.Header, &r.ApprovalMode, &expires, &decided, &created,
		&r.PaymentRequired)
	r.ReservedUntil, r.CreatedAt = fromMS(reserved), fromMS(created)
	if expires.Valid {
		t := fromMS(expires.Int64)
		r.ExpiresAt = &t
	}
	if decided.Valid {
		t := fromMS(decided.Int64)
		r.DecidedAt = &t
	}
	return r, err
}

func (s *Store) pendingSigning(ctx context.Context, ownerID string, page botpay.PageRequest) ([]kernel.Placed[botpay.SigningRequest], error) {
	q, args := kernel.Keyset(`SELECT `+signingColumns+`, seq FROM signing_requests
		WHERE owner_id = $1 AND status = 'pending' AND expires_at > $2`, []any{ownerID, ms(s.clock.Now())}, "seq", kernel.OldestFirst, page)
	return kernel.ReadPlaced(ctx, s.db, q, args, scanSigning)
}
