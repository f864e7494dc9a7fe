package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"strconv"
	"time"

	"github.com/botpay/botpay/internal/botpay"
)

// checkoutFacts are the rules, usage and rate-limit count of one checkout.
type checkoutFacts struct {
	rules   botpay.SpendingRules
	usage   botpay.Usage // without the owner's usage and the balance
	details []byte       // the profile's sealed card details
	recent  int          // checkouts of the bot in the rate-limit window, at most the limit
	oldest  *int64       // the oldest of those counted
}

// checkoutFacts loads in one round trip every rule of one checkout, the
// sealed details its profile would hand out, the bot's, card's and
// profile's usage and the bot's recent checkouts.
func (t *Tx) checkoutFacts(ctx context.Context, botID, ownerID string, card botpay.Card, profile botpay.PaymentProfile, window time.Duration, limit int, now time.Time) (checkoutFacts, error) {
	f := checkoutFacts{rules: botpay.SpendingRules{Card: card.Limits, Profile: profile, Decoy: profile.Index != card.RealProfileIndex}}
	r, u := &f.rules, &f.usage
	g := &r.Bot
	var above, masterPer, masterDaily, masterMonthly *int64
	var approved, blocked string
	var updated int64
	var master sql.NullString
	var lists [4]sql.NullString
	var n int
	botScope, cardScope, profileScope := "bot:"+botID, "card:"+card.ID, "profile:"+card.ID+":"+strconv.Itoa(profile.Index)
	// Usage is read from the running totals, x402 signatures included. They
	// hold no overdue card hold of this bot: Checkout expired those before
	// (and a decoy is never held).
	// The rate limit counts at most the limit's number of recent checkouts.
	err := t.queryRow(ctx, `SELECT g.approval_mode, g.per_transaction_cents, g.daily_cents, g.monthly_cents,
			g.ask_approval_above_cents, g.recurring_allowed, g.notes, g.approved_categories, g.blocked_categories, g.updated_at,
			m.owner_id, m.per_transaction_cents, m.daily_budget_cents, m.monthly_budget_cents,
			p.allowed_domains, p.blocked_domains, p.allowed_merchants, p.blocked_merchants,
			(SELECT details_sealed FROM card_profiles WHERE card_id = $3 AND profile_index = $4),
			`+committedSince("$9", "$5", "$13", "bot_id = $1")+`, `+committedSince("$9", "$6", "$13", "bot_id = $1")+`,
			`+spendSince("$10", "$5")+`, `+spendSince("$10", "$6")+`,
			`+spendSince("$11", "$7")+`,
			rl.n, rl.oldest
		FROM guardrails g
			LEFT JOIN master_guardrails m ON m.owner_id = $2
			LEFT JOIN procurement p ON p.bot_id = g.bot_id
			CROSS JOIN (`+recentCheckouts("$1", "$8", "$12")+`) rl
		WHERE g.bot_id = $1`,
		botID, ownerID, card.ID, profile.Index, ms(botpay.DayStart(now)), ms(botpay.MonthStart(now)),
		ms(botpay.WindowStart(profile.AllowanceDuration, now)), ms(now.Add(-window)), botScope, cardScope, profileScope,
		max(limit, 1), ms(now)).
		Scan(&g.ApprovalMode, &g.PerTransaction, &g.Daily, &g.Monthly, &above, &g.RecurringAllowed, &g.Notes, &approved, &blocked,
			&updated, &master, &masterPer, &masterDaily, &masterMonthly, &lists[0], &lists[1], &lists[2], &lists[3], &f.details,
			&u.BotDay, &u.BotMonth, &u.CardDay, &u.CardMonth, &u.Profile, &n, &f.oldest)
	if err != nil {
		return f, err
	}
	f.recent = n
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

// recentCheckouts counts, for the rate limit, the bot's most recent
// checkouts (card and rail5, decided or declined) after since, at most
// limit of them, and the oldest of those: once that one leaves the window
// the bot is under the limit again. Bounded by the limit, it costs the same
// for a bot with a long history. The arguments are placeholders.
func recentCheckouts(bot, since, limit string) string {
	return `SELECT COUNT(*) AS n, MIN(created_at) AS oldest FROM (
		SELECT created_at FROM (SELECT created_at FROM purchases WHERE bot_id = ` + bot + ` AND created_at > ` + since + `
			ORDER BY created_at DESC LIMIT ` + limit + `) recent_purchases
		UNION ALL
		SELECT created_at FROM (SELECT created_at FROM rail5_checkouts WHERE bot_id = ` + bot + ` AND created_at > ` + since + `
			ORDER BY created_at DESC LIMIT ` + limit + `) recent_rail5
		ORDER BY created_at DESC LIMIT ` + limit + `) recent`
}

// usage reads what already counts against the bot's budgets, for a rail5
// checkout (card checkouts read theirs with checkoutFacts; a rail5 card has
// no card or profile allowance here).
func (t *Tx) usage(ctx context.Context, botID, ownerID string, r botpay.SpendingRules, now time.Time) (botpay.Usage, error) {
	var u botpay.Usage
	err := t.queryRow(ctx, `SELECT
			`+committedSince("$1", "$2", "$5", "bot_id = $4")+` - `+overdueHolds("bot_id = $4 AND NOT decoy", "$5", "$2")+`,
			`+committedSince("$1", "$3", "$5", "bot_id = $4")+` - `+overdueHolds("bot_id = $4 AND NOT decoy", "$5", "$3")+``,
		"bot:"+botID, ms(botpay.DayStart(now)), ms(botpay.MonthStart(now)), botID, ms(now)).Scan(&u.BotDay, &u.BotMonth)
	if err != nil {
		return u, err
	}
	return t.ownerUsage(ctx, ownerID, r, u, now)
}

// ownerUsage adds the owner's usage across bots when master budgets apply,
// locking the owner row first, so checkouts of several bots of one owner
// cannot together pass a master budget.
func (t *Tx) ownerUsage(ctx context.Context, ownerID string, r botpay.SpendingRules, u botpay.Usage, now time.Time) (botpay.Usage, error) {
	if r.Decoy || r.Master == nil || (r.Master.DailyBudget == nil && r.Master.MonthlyBudget == nil) {
		return u, nil
	}
	var locked string
	if err := t.queryRow(ctx, `SELECT id FROM owners WHERE id = $1`+t.forUpdate(), ownerID).Scan(&locked); err != nil {
		return u, err
	}
	err := t.queryRow(ctx, `SELECT
			`+committedSince("$1", "$2", "$5", "owner_id = $4")+` - `+overdueHolds("owner_id = $4 AND NOT decoy", "$5", "$2")+`,
			`+committedSince("$1", "$3", "$5", "owner_id = $4")+` - `+overdueHolds("owner_id = $4 AND NOT decoy", "$5", "$3")+``,
		"owner:"+ownerID, ms(botpay.DayStart(now)), ms(botpay.MonthStart(now)), ownerID, ms(now)).Scan(&u.OwnerDay, &u.OwnerMonth)
	return u, err
}
