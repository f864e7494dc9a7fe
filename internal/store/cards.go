package store

import (
	"context"
	"database/sql"

	"github.com/botpay/botpay/internal/botpay"
)

// ownedClaimedBot fails with 404 unless ownerID owns the bot (which is then
// claimed: only claims set owner_id).
func (t *Tx) ownedClaimedBot(ctx context.Context, ownerID, botID string) error {
	var n int
	if err := t.queryRow(ctx, `SELECT COUNT(*) FROM bots WHERE id = $1 AND owner_id = $2`, botID, ownerID).Scan(&n); err != nil {
		return err
	}
	if n == 0 {
		return botpay.ErrNotFound("bot")
	}
	return nil
}

type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// cardsQuery selects cards matching where (over alias c) with their
// profiles, one row per profile; cardCollector reads the rows.
func cardsQuery(where string) string {
	return `SELECT c.id, c.bot_id, c.name, c.status, c.real_profile_index, c.per_transaction_cents,
			c.daily_cents, c.monthly_cents, c.created_at, p.profile_index, p.allowance_duration, p.allowance_cents,
			p.human_permission_required
		FROM cards c JOIN card_profiles p ON p.card_id = c.id WHERE ` + where + ` ORDER BY c.seq, p.profile_index`
}

// cardCollector returns a row reader for cardsQuery that appends to *out.
func cardCollector(out *[]botpay.Card) func(scanner) error {
	return func(row scanner) error {
		var c botpay.Card
		var per, daily, monthly *int64
		var created int64
		var p botpay.PaymentProfile
		if err := row.Scan(&c.ID, &c.BotID, &c.Name, &c.Status, &c.RealProfileIndex, &per, &daily, &monthly, &created,
			&p.Index, &p.AllowanceDuration, &p.Allowance, &p.HumanPermissionRequired); err != nil {
			return err
		}
		if n := len(*out); n > 0 && (*out)[n-1].ID == c.ID {
			(*out)[n-1].Profiles = append((*out)[n-1].Profiles, p)
			return nil
		}
		c.Limits = botpay.CardLimits{PerTransaction: moneyPtr(per), Daily: moneyPtr(daily), Monthly: moneyPtr(monthly)}
		c.CreatedAt = fromMS(created)
		c.Profiles = []botpay.PaymentProfile{p}
		*out = append(*out, c)
		return nil
	}
}

// cards loads cards matching where (over alias c) with their profiles.
func (s *Store) cards(ctx context.Context, q querier, where string, args ...any) ([]botpay.Card, error) {
	rows, err := q.QueryContext(ctx, s.rebind(cardsQuery(where)), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []botpay.Card
	collect := cardCollector(&out)
	for rows.Next() {
		if err := collect(rows); err != nil {
			return nil, err
		}
	}
	return out, rows.Err()
}
