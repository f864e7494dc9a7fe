package store

import (
	"context"

	"github.com/botpay/botpay/internal/botpay"
)

// LowBalanceThresholds maps each claimed bot of the owner to its
// low-balance threshold.
func (s *Store) LowBalanceThresholds(ctx context.Context, ownerID string) (map[string]botpay.Money, error) {
	rows, err := s.query(ctx, `SELECT w.bot_id, w.low_balance_cents FROM wallets w JOIN bots b ON b.id = w.bot_id
		WHERE b.owner_id = $1`, ownerID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]botpay.Money{}
	for rows.Next() {
		var id string
		var low botpay.Money
		if err := rows.Scan(&id, &low); err != nil {
			return nil, err
		}
		out[id] = low
	}
	return out, rows.Err()
}
