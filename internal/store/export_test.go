package store

import (
	"context"
	"time"

	"github.com/botpay/botpay/internal/botpay"
)

// PurchaseTotals (tests only) adds up a bot's pending purchases (what its
// hold must equal) and today's approved and unexpired held real purchases.
func (s *Store) PurchaseTotals(ctx context.Context, botID string, now time.Time) (held, today botpay.Money, err error) {
	err = s.queryRow(ctx, `SELECT
			COALESCE(SUM(CASE WHEN status = 'pending' AND decoy = $3 THEN amount_cents ELSE 0 END), 0),
			COALESCE(SUM(CASE WHEN decoy = $3 AND created_at >= $2
				AND (status = 'approved' OR (status = 'pending' AND expires_at > $4)) THEN amount_cents ELSE 0 END), 0)
		FROM purchases WHERE bot_id = $1`, botID, ms(botpay.DayStart(now)), false, ms(now)).Scan(&held, &today)
	return held, today, err
}
