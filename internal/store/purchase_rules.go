package store

import (
	"context"
	"time"

	"github.com/botpay/botpay/internal/botpay"
)

// spendingRules loads every rule of one checkout inside the transaction.
func (t *Tx) spendingRules(ctx context.Context, botID, ownerID string, card botpay.Card, profile botpay.PaymentProfile) (botpay.SpendingRules, error) {
	r := botpay.SpendingRules{Card: card.Limits, Profile: profile, Decoy: profile.Index != card.RealProfileIndex}
	var err error
	if r.Bot, err = scanGuardrails(t.queryRow(ctx, guardrailsQuery, botID)); err != nil {
		return r, err
	}
	if r.Decoy {
		return r, nil
	}
	if r.Master, err = scanMasterGuardrails(t.queryRow(ctx, masterGuardrailsQuery, ownerID)); err != nil {
		return r, err
	}
	r.Procurement, err = scanProcurement(t.queryRow(ctx, procurementQuery, botID))
	return r, err
}

// countedStatus selects purchases that count against budgets: approved, or
// held and still inside their approval window (DESIGN.md decision 4).
const countedStatus = `(status = 'approved' OR (status = 'pending' AND expires_at > $1))`

// usage sums what already counts against each limit of this checkout. With
// master guardrails it first locks the owner row, so checkouts of several
// bots of one owner cannot together pass a master budget.
func (t *Tx) usage(ctx context.Context, botID, ownerID, cardID string, p botpay.PaymentProfile, r botpay.SpendingRules, now time.Time) (botpay.Usage, error) {
	var u botpay.Usage
	day, month := ms(botpay.DayStart(now)), ms(botpay.MonthStart(now))
	err := t.queryRow(ctx, `SELECT
			COALESCE(SUM(CASE WHEN created_at >= $2 THEN amount_cents ELSE 0 END), 0),
			COALESCE(SUM(amount_cents), 0),
			COALESCE(SUM(CASE WHEN card_id = $3 AND created_at >= $2 THEN amount_cents ELSE 0 END), 0),
			COALESCE(SUM(CASE WHEN card_id = $3 THEN amount_cents ELSE 0 END), 0)
		FROM purchases WHERE bot_id = $4 AND decoy = $5 AND created_at >= $6 AND `+countedStatus,
		ms(now), day, cardID, botID, false, month).Scan(&u.BotDay, &u.BotMonth, &u.CardDay, &u.CardMonth)
	if err != nil {
		return u, err
	}
	r5Day, r5Month, err := t.rail5Usage(ctx, "bot_id", botID, day, month)
	if err != nil {
		return u, err
	}
	u.BotDay, u.BotMonth = u.BotDay+r5Day, u.BotMonth+r5Month
	if err := t.queryRow(ctx, `SELECT COALESCE(SUM(amount_cents), 0) FROM purchases
		WHERE card_id = $2 AND profile_index = $3 AND created_at >= $4 AND `+countedStatus,
		ms(now), cardID, p.Index, ms(botpay.WindowStart(p.AllowanceDuration, now))).Scan(&u.Profile); err != nil {
		return u, err
	}
	if r.Decoy || r.Master == nil || (r.Master.DailyBudget == nil && r.Master.MonthlyBudget == nil) {
		return u, nil
	}
	var locked string
	if err := t.queryRow(ctx, `SELECT id FROM owners WHERE id = $1`+t.forUpdate(), ownerID).Scan(&locked); err != nil {
		return u, err
	}
	err = t.queryRow(ctx, `SELECT
			COALESCE(SUM(CASE WHEN created_at >= $2 THEN amount_cents ELSE 0 END), 0),
			COALESCE(SUM(amount_cents), 0)
		FROM purchases WHERE owner_id = $3 AND decoy = $4 AND created_at >= $5 AND `+countedStatus,
		ms(now), day, ownerID, false, month).Scan(&u.OwnerDay, &u.OwnerMonth)
	if err != nil {
		return u, err
	}
	r5Day, r5Month, err = t.rail5Usage(ctx, "owner_id", ownerID, day, month)
	u.OwnerDay, u.OwnerMonth = u.OwnerDay+r5Day, u.OwnerMonth+r5Month
	return u, err
}

// rail5Usage sums the rail5 spends of a bot or an owner (column) today and
// this month; failed ones do not count.
func (t *Tx) rail5Usage(ctx context.Context, column, id string, day, month int64) (botpay.Money, botpay.Money, error) {
	var d, m botpay.Money
	err := t.queryRow(ctx, `SELECT COALESCE(SUM(CASE WHEN created_at >= $1 THEN amount_cents ELSE 0 END), 0), COALESCE(SUM(amount_cents), 0)
		FROM rail5_checkouts WHERE `+column+` = $2 AND created_at >= $3 AND status <> 'failed'`, day, id, month).Scan(&d, &m)
	return d, m, err
}
