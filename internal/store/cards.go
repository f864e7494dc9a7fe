package store

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
)

// CreateCard registers a card with its payment profiles on an owned,
// claimed bot and emits rails.updated (card_created). sealedDetails holds,
// per profile index, the sealed {missing_digits, expiry} the profile hands
// out: the real card's for the real profile, decoy values for the others.
func (s *Store) CreateCard(ctx context.Context, ownerID string, c botpay.Card, sealedDetails map[int][]byte) error {
	return wrapErr(s.inTx(ctx, func(tx *Tx) error {
		if err := tx.ownedClaimedBot(ctx, ownerID, c.BotID); err != nil {
			return err
		}
		l := c.Limits
		if _, err := tx.exec(ctx, `INSERT INTO cards (id, bot_id, name, status, real_profile_index, per_transaction_cents,
				daily_cents, monthly_cents, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)`,
			c.ID, c.BotID, c.Name, c.Status, c.RealProfileIndex, centsPtr(l.PerTransaction), centsPtr(l.Daily),
			centsPtr(l.Monthly), ms(c.CreatedAt)); err != nil {
			return err
		}
		for _, p := range c.Profiles {
			if _, err := tx.exec(ctx, `INSERT INTO card_profiles (card_id, profile_index, allowance_duration, allowance_cents,
					human_permission_required, details_sealed) VALUES ($1, $2, $3, $4, $5, $6)`,
				c.ID, p.Index, p.AllowanceDuration, int64(p.Allowance), p.HumanPermissionRequired, sealedDetails[p.Index]); err != nil {
				return err
			}
		}
		return tx.emit(railsUpdated(c.BotID, botpay.ActionCardCreated, "Your owner added the card "+c.Name+".", c.CreatedAt))
	}), "create card %s", ownerID)
}

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

// SetCardStatus activates or deactivates an owned bot's card and emits
// rails.updated (card_unfrozen / card_frozen) when the status changes.
func (s *Store) SetCardStatus(ctx context.Context, ownerID, botID, cardID, status string) (botpay.Card, error) {
	now := s.clock.Now()
	err := s.inTx(ctx, func(tx *Tx) error {
		if err := tx.ownedClaimedBot(ctx, ownerID, botID); err != nil {
			return err
		}
		var current string
		err := tx.queryRow(ctx, `SELECT status FROM cards WHERE id = $1 AND bot_id = $2`+tx.forUpdate(), cardID, botID).Scan(&current)
		if isNoRows(err) {
			return botpay.ErrCardNotFound
		}
		if err != nil || current == status {
			return err
		}
		if _, err := tx.exec(ctx, `UPDATE cards SET status = $1, updated_at = $2 WHERE id = $3`, status, ms(now), cardID); err != nil {
			return err
		}
		action, msg := botpay.ActionCardUnfrozen, "Your owner reactivated a card."
		if status == botpay.CardInactive {
			action, msg = botpay.ActionCardFrozen, "Your owner deactivated a card."
		}
		return tx.emit(railsUpdated(botID, action, msg, now))
	})
	if err != nil {
		return botpay.Card{}, wrapErr(err, "set card status %s", cardID)
	}
	cards, err := s.cards(ctx, s.read, `c.id = $1`, cardID)
	if err != nil || len(cards) == 0 {
		return botpay.Card{}, wrapErr(err, "set card status %s", cardID)
	}
	return cards[0], nil
}

// Cards pages through an owned bot's cards, oldest first. The page is
// chosen on the cards alone (a card has several profile rows), then its
// cards are read with their profiles between its first and last position.
func (s *Store) Cards(ctx context.Context, ownerID, botID string, page botpay.PageRequest) (botpay.Page[botpay.Card], error) {
	empty := botpay.Page[botpay.Card]{Items: []botpay.Card{}}
	if _, err := s.OwnedBot(ctx, ownerID, botID); err != nil {
		return empty, wrapErr(err, "cards %s", botID)
	}
	q, args := kernel.Keyset(`SELECT seq FROM cards WHERE bot_id = $1`, []any{botID}, "seq", kernel.OldestFirst, page)
	placedCards, err := kernel.ReadPlaced(ctx, s.db, q, args, func(row scanner) (struct{}, error) { return struct{}{}, row.Scan() })
	if err != nil || len(placedCards) == 0 {
		return empty, wrapErr(err, "cards %s", botID)
	}
	positions := kernel.CutPage(placedCards, page.Limit)
	last := placedCards[len(positions.Items)-1].Position
	cards, err := s.cards(ctx, s.read, `c.bot_id = $1 AND c.seq BETWEEN $2 AND $3`, botID, placedCards[0].Position, last)
	if err != nil {
		return empty, fmt.Errorf("cards of bot %s: %w", botID, err)
	}
	return botpay.Page[botpay.Card]{Items: cards, Next: positions.Next}, nil
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
