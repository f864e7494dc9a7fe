package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"time"

	"github.com/botpay/botpay/internal/botpay"
)

// spendingRules loads, in one round trip, every rule of one checkout and
// the sealed details its profile would hand out.
func (t *Tx) spendingRules(ctx context.Context, botID, ownerID string, card botpay.Card, profile botpay.PaymentProfile) (botpay.SpendingRules, []byte, error) {
	r := botpay.SpendingRules{Card: card.Limits, Profile: profile, Decoy: profile.Index != card.RealProfileIndex}
	g := &r.Bot
	var above, masterPer, masterDaily, masterMonthly *int64
	var approved, blocked string
	var updated int64
	var master sql.NullString
	var lists [4]sql.NullString
	var details []byte
	err := t.queryRow(ctx, `SELECT g.approval_mode, g.per_transaction_cents, g.daily_cents, g.monthly_cents,
			g.ask_approval_above_cents, g.recurring_allowed, g.notes, g.approved_categories, g.blocked_categories, g.updated_at,
			m.owner_id, m.per_transaction_cents, m.daily_budget_cents, m.monthly_budget_cents,
			p.allowed_domains, p.blocked_domains, p.allowed_merchants, p.blocked_merchants,
			(SELECT details_sealed FROM card_profiles WHERE card_id = $3 AND profile_index = $4)
		FROM guardrails g
			LEFT JOIN master_guardrails m ON m.owner_id = $2
			LEFT JOIN procurement p ON p.bot_id = g.bot_id
		WHERE g.bot_id = $1`, botID, ownerID, card.ID, profile.Index).
		Scan(&g.ApprovalMode, &g.PerTransaction, &g.Daily, &g.Monthly, &above, &g.RecurringAllowed, &g.Notes, &approved, &blocked,
			&updated, &master, &masterPer, &masterDaily, &masterMonthly, &lists[0], &lists[1], &lists[2], &lists[3], &details)
	if err != nil {
		return r, nil, err
	}
	g.AskApprovalAbove, g.UpdatedAt = moneyPtr(above), fromMS(updated)
	if err := json.Unmarshal([]byte(approved), &g.ApprovedCategories); err != nil {
		return r, nil, err
	}
	if err := json.Unmarshal([]byte(blocked), &g.BlockedCategories); err != nil {
		return r, nil, err
	}
	if r.Decoy {
		return r, details, nil
	}
	if master.Valid {
		r.Master = &botpay.MasterGuardrails{PerTransaction: moneyPtr(masterPer), DailyBudget: moneyPtr(masterDaily),
			MonthlyBudget: moneyPtr(masterMonthly)}
	}
	for i, dst := range []*[]string{&r.Procurement.AllowedDomains, &r.Procurement.BlockedDomains,
		&r.Procurement.AllowedMerchants, &r.Procurement.BlockedMerchants} {
		if lists[i].Valid {
			if err := json.Unmarshal([]byte(lists[i].String), dst); err != nil {
				return r, nil, err
			}
		}
	}
	return r, details, nil
}

// countedStatus selects purchases that count against budgets: approved, or
// held and still inside their approval window (DESIGN.md decision 4).
const countedStatus = `(status = 'approved' OR (status = 'pending' AND expires_at > $1))`

// usage sums what already counts against each limit of this checkout. With
// master guardrails it first locks the owner row, so checkouts of several
// bots of one owner cannot together pass a master budget.
func (t *Tx) usage(ctx context.Context, botID, ownerID, cardID string, p botpay.PaymentProfile, r botpay.SpendingRules, now time.Time) (botpay.Usage, error) {
	var u botpay.Usage
	var r5Day, r5Month botpay.Money
	day, month := ms(botpay.DayStart(now)), ms(botpay.MonthStart(now))
	// One round trip: the bot's and the card's day and month, the profile's
	// window, and the bot's rail5 spends.
	err := t.queryRow(ctx, `SELECT
			COALESCE(SUM(CASE WHEN created_at >= $2 THEN amount_cents ELSE 0 END), 0),
			COALESCE(SUM(amount_cents), 0),
			COALESCE(SUM(CASE WHEN card_id = $3 AND created_at >= $2 THEN amount_cents ELSE 0 END), 0),
			COALESCE(SUM(CASE WHEN card_id = $3 THEN amount_cents ELSE 0 END), 0),
			(SELECT COALESCE(SUM(amount_cents), 0) FROM purchases
				WHERE card_id = $3 AND profile_index = $7 AND created_at >= $8 AND `+countedStatus+`),
			(SELECT COALESCE(SUM(CASE WHEN created_at >= $2 THEN amount_cents ELSE 0 END), 0) FROM rail5_checkouts
				WHERE bot_id = $4 AND created_at >= $6 AND status IN ('approved', 'key_released', 'completed')),
			(SELECT COALESCE(SUM(amount_cents), 0) FROM rail5_checkouts
				WHERE bot_id = $4 AND created_at >= $6 AND status IN ('approved', 'key_released', 'completed'))
		FROM purchases WHERE bot_id = $4 AND decoy = $5 AND created_at >= $6 AND `+countedStatus,
		ms(now), day, cardID, botID, false, month, p.Index, ms(botpay.WindowStart(p.AllowanceDuration, now))).
		Scan(&u.BotDay, &u.BotMonth, &u.CardDay, &u.CardMonth, &u.Profile, &r5Day, &r5Month)
	if err != nil {
		return u, err
	}
	u.BotDay, u.BotMonth = u.BotDay+r5Day, u.BotMonth+r5Month
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
	r5Day, r5Month, err = t.rail5Usage(ctx, ownerID, day, month)
	u.OwnerDay, u.OwnerMonth = u.OwnerDay+r5Day, u.OwnerMonth+r5Month
	return u, err
}

// rail5Usage sums the rail5 spends of an owner's bots today and this month;
// failed and declined ones do not count.
func (t *Tx) rail5Usage(ctx context.Context, ownerID string, day, month int64) (botpay.Money, botpay.Money, error) {
	var d, m botpay.Money
	err := t.queryRow(ctx, `SELECT COALESCE(SUM(CASE WHEN created_at >= $1 THEN amount_cents ELSE 0 END), 0), COALESCE(SUM(amount_cents), 0)
		FROM rail5_checkouts WHERE owner_id = $2 AND created_at >= $3 AND status IN ('approved', 'key_released', 'completed')`, day, ownerID, month).Scan(&d, &m)
	return d, m, err
}
