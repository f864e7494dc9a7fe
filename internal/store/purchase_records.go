package store

import (
	"database/sql"
	"time"

	"github.com/botpay/botpay/internal/botpay"
)

// The purchase rows as the owner's pages and the dashboard read them; a
// purchase is decided and written in internal/spending.

func nullTime(t time.Time) sql.NullInt64 {
	return sql.NullInt64{Int64: ms(t), Valid: !t.IsZero()}
}

const purchaseColumns = `id, bot_id, owner_id, card_id, profile_index, decoy, amount_cents, merchant_name, merchant_url,
	item_name, category, task_id, status, created_at, expires_at, decided_at, refunded_cents`

func scanPurchase(row interface{ Scan(...any) error }) (botpay.Purchase, error) {
	var p botpay.Purchase
	var task sql.NullString
	var created int64
	var expires, decided sql.NullInt64
	err := row.Scan(&p.ID, &p.BotID, &p.OwnerID, &p.CardID, &p.ProfileIndex, &p.Decoy, &p.Amount, &p.MerchantName, &p.MerchantURL,
		&p.ItemName, &p.Category, &task, &p.Status, &created, &expires, &decided, &p.Refunded)
	p.TaskID, p.CreatedAt, p.ExpiresAt, p.DecidedAt = task.String, fromMS(created), fromNullMS(expires), fromNullMS(decided)
	return p, err
}
