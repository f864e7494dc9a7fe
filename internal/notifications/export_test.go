package notifications

import (
	"context"

	"github.com/botpay/botpay/internal/kernel"
)

// StoredMessageCount counts every pending-message row of a bot, expired and
// acknowledged ones included (to see what the purge removed).
func StoredMessageCount(db *kernel.DB, botID string) (int, error) {
	var n int
	err := db.QueryRow(context.Background(), `SELECT COUNT(*) FROM pending_messages WHERE bot_id = $1`, botID).Scan(&n)
	return n, err
}

// PurgeWith purges what r lets go, as the purge job does with its own
// retention.
func PurgeWith(ctx context.Context, db *kernel.DB, r Retention) (int64, error) {
	return purge(ctx, db, r)
}
