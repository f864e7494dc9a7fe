package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"strconv"
	"time"

	"github.com/botpay/botpay/internal/botpay"
)

// checkoutFacts are the rules, usage and rate-limit count of one checkout.
type checkoutFacts struct {
	rules       botpay.SpendingRules
	usage       botpay.Usage // without the owner's usage and the balance
	details     []byte       // the profile's sealed card details
	maxthLatest *int64       // when the bot made its limit-th most recent checkout (rateLimited)
}

// factsRow is what factsStep reads, before the card it was read for is
// known in Go.
type factsRow struct {
	g                                        botpay.Guardrails
	above, masterPer, masterDaily, masterMax *int64
	approved, blocked                        string
	updated                                  int64
	master                                   sql.NullString
	lists                                    [4]sql.NullString
	details                                  []byte
	botDay, botMonth, cardDay, cardMonth     int64 // cents
	profile                                  int64 // cents
	microDay, microMonth                     int64 // x402 signatures, less overdue held ones
	maxthLatest                              *int64
	found                                    bool // a bot before its claim has no guardrails
}

// factsStep reads, in one statement, every rule of a checkout, the sealed
// details its profile would hand out, the bot's, card's and profile's
// usage and the bot's recent checkouts. It needs nothing read before it: it
// picks the card as checkoutCard does (the named one, or else the bot's
// active one; when those disagree Checkout fails before using the facts),
// so it travels in the pipeline that takes the wallet lock, after the lock.
//
// Usage comes from the running totals in one aggregate (x402 signatures
// included, less those held past their window). It holds no overdue card
// hold of this bot: Checkout expires those first, and reads the facts again
// when there were any (a decoy is never held). For the rate limit it reads
// when the bot made its limit-th most recent checkout.
func factsStep(in CheckoutInput, now time.Time, f *factsRow) step {
	day, week, month := botpay.DayStart(now), botpay.WeekStart(now), botpay.MonthStart(now)
	g := &f.g
	return step{query: `WITH card AS (
			SELECT c.id FROM cards c WHERE c.bot_id = $1 AND (c.id = $2 OR ($2 = '' AND c.status = 'active'))
			ORDER BY c.created_at, c.id LIMIT 1
		), profile AS (
			SELECT p.details_sealed, 'profile:' || p.card_id || $3 AS scope,
				CASE p.allowance_duration WHEN 'day' THEN CAST($4 AS BIGINT) WHEN 'week' THEN CAST($5 AS BIGINT) ELSE CAST($6 AS BIGINT) END AS since
			FROM card_profiles p JOIN card ON p.card_id = card.id WHERE p.profile_index = $7
		)
		SELECT g.approval_mode, g.per_transaction_cents, g.daily_cents, g.monthly_cents,
			g.ask_approval_above_cents, g.recurring_allowed, g.notes, g.approved_categories, g.blocked_categories, g.updated_at,
			m.owner_id, m.per_transaction_cents, m.daily_budget_cents, m.monthly_budget_cents,
			` + procurementLists + `,
			(SELECT details_sealed FROM profile),
			u.bot_day, u.bot_month, u.card_day, u.card_month, u.profile,
			u.micro_day - h.micro_day, u.micro_month - h.micro_month,
			(SELECT ` + maxthLatestCheckout("$1", "(SELECT checkout_seq FROM wallets WHERE bot_id = $1) + 1 - $11") + `)
		FROM guardrails g
			JOIN bots b ON b.id = g.bot_id
			LEFT JOIN master_guardrails m ON m.owner_id = b.owner_id
			LEFT JOIN procurement p ON p.bot_id = g.bot_id
			CROSS JOIN (SELECT
					COALESCE(SUM(CASE WHEN scope = $8 AND day >= $4 THEN cents ELSE 0 END), 0) AS bot_day,
					COALESCE(SUM(CASE WHEN scope = $8 AND day >= $6 THEN cents ELSE 0 END), 0) AS bot_month,
					COALESCE(SUM(CASE WHEN scope = $8 AND day >= $4 THEN micro ELSE 0 END), 0) AS micro_day,
					COALESCE(SUM(CASE WHEN scope = $8 AND day >= $6 THEN micro ELSE 0 END), 0) AS micro_month,
					COALESCE(SUM(CASE WHEN scope = 'card:' || (SELECT id FROM card) AND day >= $4 THEN cents ELSE 0 END), 0) AS card_day,
					COALESCE(SUM(CASE WHEN scope = 'card:' || (SELECT id FROM card) AND day >= $6 THEN cents ELSE 0 END), 0) AS card_month,
					COALESCE(SUM(CASE WHEN scope = (SELECT scope FROM profile) AND day >= (SELECT since FROM profile) THEN cents ELSE 0 END), 0) AS profile
				FROM spend_days WHERE scope IN ($8, 'card:' || (SELECT id FROM card), (SELECT scope FROM profile)) AND day >= $9) u
			CROSS JOIN (SELECT
					COALESCE(SUM(CASE WHEN created_at >= $4 THEN amount_micro ELSE 0 END), 0) AS micro_day,
					COALESCE(SUM(amount_micro), 0) AS micro_month
				FROM signing_requests WHERE bot_id = $1 AND status = 'pending' AND reserved_until <= $10 AND created_at >= $6) h
		WHERE g.bot_id = $1`,
		args: []any{in.BotID, in.CardID, ":" + strconv.Itoa(in.ProfileIndex), ms(day), ms(week), ms(month), in.ProfileIndex,
			"bot:" + in.BotID, min(ms(week), ms(month)), ms(now), int64(max(in.Limit.Max, 1))},
		dest: []any{&g.ApprovalMode, &g.PerTransaction, &g.Daily, &g.Monthly, &f.above, &g.RecurringAllowed, &g.Notes,
			&f.approved, &f.blocked, &f.updated, &f.master, &f.masterPer, &f.masterDaily, &f.masterMax,
			&f.lists[0], &f.lists[1], &f.lists[2], &f.lists[3], &f.details,
			&f.botDay, &f.botMonth, &f.cardDay, &f.cardMonth, &f.profile, &f.microDay, &f.microMonth, &f.maxthLatest},
		found: &f.found}
}

// withMicro adds x402 micro-USDC to cents, rounding the micro total up to
// whole cents.
func withMicro(cents, micro int64) botpay.Money {
	return botpay.Money(cents) + botpay.Micro(micro).CentsCeil()
}

// facts turns what factsStep read into the rules and usage of a checkout
// with card and profile.
func (row *factsRow) facts(card botpay.Card, profile botpay.PaymentProfile) (checkoutFacts, error) {
	if !row.found {
		return checkoutFacts{}, errors.New("checkout facts: the bot has no guardrails")
	}
	f := checkoutFacts{rules: botpay.SpendingRules{Card: card.Limits, Profile: profile, Decoy: profile.Index != card.RealProfileIndex},
		details: row.details, maxthLatest: row.maxthLatest,
		usage: botpay.Usage{BotDay: withMicro(row.botDay, row.microDay), BotMonth: withMicro(row.botMonth, row.microMonth),
			CardDay: botpay.Money(row.cardDay), CardMonth: botpay.Money(row.cardMonth), Profile: botpay.Money(row.profile)}}
	r := &f.rules
	r.Bot = row.g
	g := &r.Bot
	g.AskApprovalAbove, g.UpdatedAt = moneyPtr(row.above), fromMS(row.updated)
	if err := json.Unmarshal([]byte(row.approved), &g.ApprovedCategories); err != nil {
		return f, err
	}
	if err := json.Unmarshal([]byte(row.blocked), &g.BlockedCategories); err != nil {
		return f, err
	}
	if r.Decoy {
		return f, nil
	}
	if row.master.Valid {
		r.Master = &botpay.MasterGuardrails{PerTransaction: moneyPtr(row.masterPer), DailyBudget: moneyPtr(row.masterDaily),
			MonthlyBudget: moneyPtr(row.masterMax)}
	}
	return f, parseProcurement(row.lists, &r.Procurement)
}

// maxthLatestCheckout is the time of the bot's checkout (card or rail5)
// number seq, or NULL: with seq the latest number + 1 - the limit, it is
// the limit-th most recent one, and a single probe of each table's
// (bot_id, bot_seq) index answers the rate limit whatever the limit is.
// The arguments are SQL expressions.
func maxthLatestCheckout(bot, seq string) string {
	return `MAX(created_at) FROM (
		SELECT created_at FROM purchases WHERE bot_id = ` + bot + ` AND bot_seq = ` + seq + `
		UNION ALL
		SELECT created_at FROM rail5_checkouts WHERE bot_id = ` + bot + ` AND bot_seq = ` + seq + `) maxth`
}

// usage reads what already counts against the bot's budgets, for a rail5
// checkout (card checkouts read theirs with factsStep; a rail5 card has
// no card or profile allowance here).
func (t *Tx) usage(ctx context.Context, botID, ownerID string, r botpay.SpendingRules, now time.Time) (botpay.Usage, error) {
	var u botpay.Usage
	err := t.queryRow(ctx, `SELECT day, month FROM `+committedDays("bot_id"), committedArgs("bot:"+botID, botID, now)...).
		Scan(&u.BotDay, &u.BotMonth)
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
	err := t.queryRow(ctx, `SELECT day, month FROM `+committedDays("owner_id"), committedArgs("owner:"+ownerID, ownerID, now)...).
		Scan(&u.OwnerDay, &u.OwnerMonth)
	return u, err
}
