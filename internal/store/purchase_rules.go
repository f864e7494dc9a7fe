package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"time"

	"github.com/botpay/botpay/internal/botpay"
)

// checkoutFacts are the rules, usage and rate-limit count of one checkout.
type checkoutFacts struct {
	rules   botpay.SpendingRules
	usage   botpay.Usage // without the owner's usage and the balance
	details []byte       // the profile's sealed card details
	recent  int          // checkouts of the bot in the rate-limit window
	oldest  *int64       // the oldest of them
}

// checkoutFacts loads in one round trip every rule of one checkout, the
// sealed details its profile would hand out, the bot's, card's and
// profile's usage and the bot's recent checkouts.
func (t *Tx) checkoutFacts(ctx context.Context, botID, ownerID string, card botpay.Card, profile botpay.PaymentProfile, window time.Duration, now time.Time) (checkoutFacts, error) {
	f := checkoutFacts{rules: botpay.SpendingRules{Card: card.Limits, Profile: profile, Decoy: profile.Index != card.RealProfileIndex}}
	r, u := &f.rules, &f.usage
	g := &r.Bot
	var above, masterPer, masterDaily, masterMonthly, oldest1, oldest2 *int64
	var approved, blocked string
	var updated int64
	var master sql.NullString
	var lists [4]sql.NullString
	var r5Day, r5Month botpay.Money
	var n1, n2 int
	err := t.queryRow(ctx, `SELECT g.approval_mode, g.per_transaction_cents, g.daily_cents, g.monthly_cents,
			g.ask_approval_above_cents, g.recurring_allowed, g.notes, g.approved_categories, g.blocked_categories, g.updated_at,
			m.owner_id, m.per_transaction_cents, m.daily_budget_cents, m.monthly_budget_cents,
			p.allowed_domains, p.blocked_domains, p.allowed_merchants, p.blocked_merchants,
			(SELECT details_sealed FROM card_profiles WHERE card_id = $3 AND profile_index = $4),
			u.bot_day, u.bot_month, u.card_day, u.card_month,
			(SELECT COALESCE(SUM(amount_cents), 0) FROM purchases WHERE card_id = $3 AND profile_index = $4 AND created_at >= $8
				AND (status = 'approved' OR (status = 'pending' AND expires_at > $5))),
			r5.day, r5.month, rl1.n, rl1.oldest, rl2.n, rl2.oldest
		FROM guardrails g
			LEFT JOIN master_guardrails m ON m.owner_id = $2
			LEFT JOIN procurement p ON p.bot_id = g.bot_id
			CROSS JOIN (SELECT COALESCE(SUM(CASE WHEN created_at >= $6 THEN amount_cents ELSE 0 END), 0) AS bot_day,
					COALESCE(SUM(amount_cents), 0) AS bot_month,
					COALESCE(SUM(CASE WHEN card_id = $3 AND created_at >= $6 THEN amount_cents ELSE 0 END), 0) AS card_day,
					COALESCE(SUM(CASE WHEN card_id = $3 THEN amount_cents ELSE 0 END), 0) AS card_month
				FROM purchases WHERE bot_id = $1 AND decoy = $10 AND created_at >= $7
					AND (status = 'approved' OR (status = 'pending' AND expires_at > $5))) u
			CROSS JOIN (SELECT COALESCE(SUM(CASE WHEN created_at >= $6 THEN amount_cents ELSE 0 END), 0) AS day,
					COALESCE(SUM(amount_cents), 0) AS month
				FROM rail5_checkouts WHERE bot_id = $1 AND created_at >= $7 AND status IN ('approved', 'key_released', 'completed')) r5
			CROSS JOIN (SELECT COUNT(*) AS n, MIN(created_at) AS oldest FROM purchases WHERE bot_id = $1 AND created_at > $9) rl1
			CROSS JOIN (SELECT COUNT(*) AS n, MIN(created_at) AS oldest FROM rail5_checkouts WHERE bot_id = $1 AND created_at > $9) rl2
		WHERE g.bot_id = $1`,
		botID, ownerID, card.ID, profile.Index, ms(now), ms(botpay.DayStart(now)), ms(botpay.MonthStart(now)),
		ms(botpay.WindowStart(profile.AllowanceDuration, now)), ms(now.Add(-window)), false).
		Scan(&g.ApprovalMode, &g.PerTransaction, &g.Daily, &g.Monthly, &above, &g.RecurringAllowed, &g.Notes, &approved, &blocked,
			&updated, &master, &masterPer, &masterDaily, &masterMonthly, &lists[0], &lists[1], &lists[2], &lists[3], &f.details,
			&u.BotDay, &u.BotMonth, &u.CardDay, &u.CardMonth, &u.Profile, &r5Day, &r5Month, &n1, &oldest1, &n2, &oldest2)
	if err != nil {
		return f, err
	}
	u.BotDay, u.BotMonth = u.BotDay+r5Day, u.BotMonth+r5Month
	f.recent, f.oldest = n1+n2, oldest1
	if f.oldest == nil || (oldest2 != nil && *oldest2 < *f.oldest) {
		f.oldest = oldest2
	}
	g.AskApprovalAbove, g.UpdatedAt = moneyPtr(above), fromMS(updated)
	if err := json.Unmarshal([]byte(approved), &g.ApprovedCategories); err != nil {
		return f, err
	}
	if err := json.Unmarshal([]byte(blocked), &g.BlockedCategories); err != nil {
		return f, err
	}
	if r.Decoy {
		return f, nil
	}
	if master.Valid {
		r.Master = &botpay.MasterGuardrails{PerTransaction: moneyPtr(masterPer), DailyBudget: moneyPtr(masterDaily),
			MonthlyBudget: moneyPtr(masterMonthly)}
	}
	for i, dst := range []*[]string{&r.Procurement.AllowedDomains, &r.Procurement.BlockedDomains,
		&r.Procurement.AllowedMerchants, &r.Procurement.BlockedMerchants} {
		if lists[i].Valid {
			if err := json.Unmarshal([]byte(lists[i].String), dst); err != nil {
				return f, err
			}
		}
	}
	return f, nil
}

// countedStatus selects purchases that count against budgets: approved, or
// held and still inside their approval window (DESIGN.md decision 4).
const countedStatus = `(status = 'approved' OR (status = 'pending' AND expires_at > $1))`

// usage sums what already counts against each limit of a rail5 checkout
// (card checkouts read theirs with checkoutFacts).
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
	return t.ownerUsage(ctx, ownerID, r, u, now)
}

// ownerUsage adds the owner's usage across bots when master budgets apply,
// locking the owner row first, so checkouts of several bots of one owner
// cannot together pass a master budget.
func (t *Tx) ownerUsage(ctx context.Context, ownerID string, r botpay.SpendingRules, u botpay.Usage, now time.Time) (botpay.Usage, error) {
	if r.Decoy || r.Master == nil || (r.Master.DailyBudget == nil && r.Master.MonthlyBudget == nil) {
		return u, nil
	}
	day, month := ms(botpay.DayStart(now)), ms(botpay.MonthStart(now))
	var locked string
	if err := t.queryRow(ctx, `SELECT id FROM owners WHERE id = $1`+t.forUpdate(), ownerID).Scan(&locked); err != nil {
		return u, err
	}
	err := t.queryRow(ctx, `SELECT
			COALESCE(SUM(CASE WHEN created_at >= $2 THEN amount_cents ELSE 0 END), 0),
			COALESCE(SUM(amount_cents), 0)
		FROM purchases WHERE owner_id = $3 AND decoy = $4 AND created_at >= $5 AND `+countedStatus,
		ms(now), day, ownerID, false, month).Scan(&u.OwnerDay, &u.OwnerMonth)
	if err != nil {
		return u, err
	}
	r5Day, r5Month, err := t.rail5Usage(ctx, ownerID, day, month)
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
