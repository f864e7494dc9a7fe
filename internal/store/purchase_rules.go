package store

import (
	"context"
	"strconv"
	"time"

	"github.com/botpay/botpay/internal/ledger"

	"github.com/botpay/botpay/internal/botpay"
)

// checkoutUsage is what a checkout reads besides its configuration: the
// bot's, card's and profile's usage and, for the rate limit, when the bot
// made its limit-th most recent checkout.
type checkoutUsage struct {
	botDay, botMonth, cardDay, cardMonth int64 // cents
	profile                              int64 // cents
	microDay, microMonth                 int64 // x402 signatures, less overdue held ones
	maxthLatest                          *int64
}

// usageStep reads, in one statement, the usage of a checkout with card and
// profile (the card may be empty when none could be picked: the checkout
// fails before using it), from the running totals in one aggregate (x402
// signatures included, less those held past their window). It holds no
// overdue card hold of this bot: Checkout expires those first, and reads
// the usage again when there were any (a decoy is never held). It travels
// in the pipeline that takes the wallet lock, after the lock.
func usageStep(in CheckoutInput, cardID string, profile botpay.PaymentProfile, now time.Time, u *checkoutUsage) step {
	day, week, month := botpay.DayStart(now), botpay.WeekStart(now), botpay.MonthStart(now)
	since := month
	switch profile.AllowanceDuration {
	case botpay.AllowanceDay:
		since = day
	case botpay.AllowanceWeek:
		since = week
	}
	// Signing requests held past their window are summed only for a bot
	// that has x402 signatures in its totals at all.
	held := func(since string) string {
		return `CASE WHEN u.micro_month = 0 THEN 0 ELSE (SELECT COALESCE(SUM(amount_micro), 0) FROM signing_requests
			WHERE bot_id = $1 AND status = 'pending' AND reserved_until <= $9 AND created_at >= ` + since + `) END`
	}
	return step{Query: `WITH maxth AS (SELECT checkout_seq + 1 - $10 AS seq FROM wallets WHERE bot_id = $1)
		SELECT u.bot_day, u.bot_month, u.card_day, u.card_month, u.profile,
			u.micro_day - ` + held("$5") + `, u.micro_month - ` + held("$6") + `,
			(SELECT ` + maxthLatestCheckout("$1", "(SELECT seq FROM maxth)") + `)
		FROM (SELECT
				COALESCE(SUM(CASE WHEN scope = $2 AND day >= $5 THEN cents ELSE 0 END), 0) AS bot_day,
				COALESCE(SUM(CASE WHEN scope = $2 AND day >= $6 THEN cents ELSE 0 END), 0) AS bot_month,
				COALESCE(SUM(CASE WHEN scope = $2 AND day >= $5 THEN micro ELSE 0 END), 0) AS micro_day,
				COALESCE(SUM(CASE WHEN scope = $2 AND day >= $6 THEN micro ELSE 0 END), 0) AS micro_month,
				COALESCE(SUM(CASE WHEN scope = $3 AND day >= $5 THEN cents ELSE 0 END), 0) AS card_day,
				COALESCE(SUM(CASE WHEN scope = $3 AND day >= $6 THEN cents ELSE 0 END), 0) AS card_month,
				COALESCE(SUM(CASE WHEN scope = $4 AND day >= $7 THEN cents ELSE 0 END), 0) AS profile
			FROM spend_days WHERE scope IN ($2, $3, $4) AND day >= $8) u`,
		Args: []any{in.BotID, "bot:" + in.BotID, "card:" + cardID, "profile:" + cardID + ":" + strconv.Itoa(profile.Index),
			ms(day), ms(month), ms(since), min(ms(week), ms(month)), ms(now), int64(max(in.Limit.Max, 1))},
		Dest: []any{&u.botDay, &u.botMonth, &u.cardDay, &u.cardMonth, &u.profile, &u.microDay, &u.microMonth, &u.maxthLatest}}
}

// withMicro adds x402 micro-USDC to cents, rounding the micro total up to
// whole cents.
func withMicro(cents, micro int64) botpay.Money {
	return botpay.Money(cents) + botpay.Micro(micro).CentsCeil()
}

// usage is the bot's, card's and profile's usage (without the owner's
// usage and the balance).
func (u *checkoutUsage) usage() botpay.Usage {
	return botpay.Usage{BotDay: withMicro(u.botDay, u.microDay), BotMonth: withMicro(u.botMonth, u.microMonth),
		CardDay: botpay.Money(u.cardDay), CardMonth: botpay.Money(u.cardMonth), Profile: botpay.Money(u.profile)}
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
// checkout (card checkouts read theirs with usageStep; a rail5 card has
// no card or profile allowance here).
func (t *Tx) usage(ctx context.Context, botID, ownerID string, r botpay.SpendingRules, now time.Time) (botpay.Usage, error) {
	var u botpay.Usage
	err := t.queryRow(ctx, `SELECT day, month FROM `+ledger.CommittedDays("bot_id"), ledger.CommittedArgs("bot:"+botID, botID, now)...).
		Scan(&u.BotDay, &u.BotMonth)
	if err != nil {
		return u, err
	}
	if !botpay.MasterBudgetsApply(r) {
		return u, nil
	}
	return t.ownerUsage(ctx, ownerID, u, now)
}

// ownerUsage adds the owner's usage across bots (when master budgets apply:
// botpay.MasterBudgetsApply), locking the owner row first, so checkouts of several bots of one owner
// cannot together pass a master budget.
func (t *Tx) ownerUsage(ctx context.Context, ownerID string, u botpay.Usage, now time.Time) (botpay.Usage, error) {
	var locked string
	if err := t.queryRow(ctx, `SELECT id FROM owners WHERE id = $1`+t.forUpdate(), ownerID).Scan(&locked); err != nil {
		return u, err
	}
	err := t.queryRow(ctx, `SELECT day, month FROM `+ledger.CommittedDays("owner_id"), ledger.CommittedArgs("owner:"+ownerID, ownerID, now)...).
		Scan(&u.OwnerDay, &u.OwnerMonth)
	return u, err
}
