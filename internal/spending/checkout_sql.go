package spending

import (
	"context"
	"strconv"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
	"github.com/botpay/botpay/internal/ledger"
)

// The SQL of a card checkout: reading its facts under the wallet lock and
// writing its outcome. The decision between them is botpay.DecideCheckout.

// lockedCheckout is what a checkout's writes need of its read: the locked
// wallet and the sealed details of the profile picked.
type lockedCheckout struct {
	w      ledger.Wallet
	sealed []byte
}

// readCheckoutFacts locks the bot's wallet and reads the facts of ask,
// then the task and the owner's usage when the decision needs them
// (botpay.CheckoutNeeds).
func (s *Service) readCheckoutFacts(ctx context.Context, tx *kernel.Tx, ask botpay.CheckoutAsk, now time.Time) (botpay.CheckoutFacts, lockedCheckout, error) {
	f, locked, err := s.openCheckout(ctx, tx, ask, now)
	if err != nil {
		return f, locked, err
	}
	if task, _ := botpay.CheckoutNeeds(f, ask); task {
		err := tx.QueryRow(ctx, `SELECT status FROM tasks WHERE id = $1 AND bot_id = $2`+tx.ForUpdate(), ask.TaskID, ask.BotID).Scan(&f.TaskStatus)
		if err != nil && !isNoRows(err) {
			return f, locked, err
		}
		f.TaskRead, f.TaskFound = true, err == nil
	}
	if _, owner := botpay.CheckoutNeeds(f, ask); owner {
		// The owner row is locked first, so checkouts of several bots of
		// one owner cannot together pass a master budget.
		if f.Usage, err = ledger.OwnerUsage(ctx, tx, f.OwnerID, f.Usage, now); err != nil {
			return f, locked, err
		}
	}
	return f, locked, nil
}

// openCheckout locks the bot's wallet and reads the facts: on PostgreSQL,
// with the configuration in memory, the lock and the usage take one round
// trip. The usage read with the lock is for the card pick picks from the
// configuration in memory; when that was stale, or overdue holds of the
// bot had to be expired first (they stop counting when their window
// closes), the usage is read again.
func (s *Service) openCheckout(ctx context.Context, tx *kernel.Tx, ask botpay.CheckoutAsk, now time.Time) (botpay.CheckoutFacts, lockedCheckout, error) {
	var c lockedCheckout
	var claimed bool
	var u checkoutUsage
	cfg := s.configs.Get(ask.BotID)
	card, profile, pickErr := pickFrom(cfg, ask)
	if err := tx.Pipeline(ctx, ledger.LockWalletStep(tx, ask.BotID, &c.w, &claimed), usageStep(ask, card.ID, profile, now, &u)); err != nil {
		return botpay.CheckoutFacts{}, c, err
	}
	f := botpay.CheckoutFacts{Now: now, Claimed: claimed, Frozen: c.w.Frozen}
	if !claimed || c.w.Frozen {
		return f, c, nil
	}
	reread := false
	if cfg == nil || cfg.walletID != c.w.ID || cfg.version != c.w.ConfigVersion {
		fresh, err := s.readCheckoutConfig(ctx, tx, c.w)
		if err != nil {
			return f, c, err
		}
		s.configs.Put(ask.BotID, fresh)
		wasCard, wasProfile := card.ID, profile
		cfg = fresh
		card, profile, pickErr = pickFrom(cfg, ask)
		reread = card.ID != wasCard || profile != wasProfile
	}
	if c.w.Held > 0 { // only a bot with holds can have overdue ones
		n, err := s.expireOverdueOf(ctx, tx, ask.BotID, now)
		if err != nil {
			return f, c, err
		}
		if n > 0 { // released holds changed the wallet and the totals
			if err := tx.Pipeline(ctx, ledger.LockWalletStep(tx, ask.BotID, &c.w, &claimed)); err != nil {
				return f, c, err
			}
			reread = true
		}
	}
	if reread && pickErr == nil {
		if err := tx.Pipeline(ctx, usageStep(ask, card.ID, profile, now, &u)); err != nil {
			return f, c, err
		}
	}
	f.OwnerID, f.HasGuardrails, f.Rules = c.w.OwnerID, cfg.claimed, cfg.rules
	f.Card, f.Profile, f.PickErr = card, profile, pickErr
	f.Usage, f.QuotathLatest = u.usage(), fromNullableMS(u.maxthLatest)
	f.Usage.Available = c.w.Available()
	c.sealed = cfg.details[cardProfile{card.ID, profile.Index}]
	return f, c, nil
}

// pickFrom picks with cfg's cards (nothing without a configuration).
func pickFrom(cfg *checkoutConfig, ask botpay.CheckoutAsk) (botpay.Card, botpay.PaymentProfile, error) {
	if cfg == nil {
		return botpay.Card{}, botpay.PaymentProfile{}, nil
	}
	return botpay.PickCheckoutCard(cfg.cards, ask.CardID, ask.ProfileIndex)
}

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
// overdue card hold of this bot: openCheckout expires those first, and
// reads the usage again when there were any (a decoy is never held). It
// travels in the pipeline that takes the wallet lock, after the lock.
func usageStep(ask botpay.CheckoutAsk, cardID string, profile botpay.PaymentProfile, now time.Time, u *checkoutUsage) kernel.Step {
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
	// CAST: PostgreSQL sums BIGINT as NUMERIC, which pgx scans into int64
	// through big.Int (about forty allocations per checkout); a BIGINT
	// scans as it is. The sums cannot overflow: they are cents and
	// micro-USDC of one month.
	return kernel.Step{Query: `WITH maxth AS (SELECT checkout_seq + 1 - $10 AS seq FROM wallets WHERE bot_id = $1)
		SELECT CAST(u.bot_day AS BIGINT), CAST(u.bot_month AS BIGINT), CAST(u.card_day AS BIGINT),
			CAST(u.card_month AS BIGINT), CAST(u.profile AS BIGINT),
			CAST(u.micro_day - ` + held("$5") + ` AS BIGINT), CAST(u.micro_month - ` + held("$6") + ` AS BIGINT),
			(SELECT ` + ledger.MaxthLatestCheckout("$1", "(SELECT seq FROM maxth)") + `)
		FROM (SELECT
				COALESCE(SUM(CASE WHEN scope = $2 AND day >= $5 THEN cents ELSE 0 END), 0) AS bot_day,
				COALESCE(SUM(CASE WHEN scope = $2 AND day >= $6 THEN cents ELSE 0 END), 0) AS bot_month,
				COALESCE(SUM(CASE WHEN scope = $2 AND day >= $5 THEN micro ELSE 0 END), 0) AS micro_day,
				COALESCE(SUM(CASE WHEN scope = $2 AND day >= $6 THEN micro ELSE 0 END), 0) AS micro_month,
				COALESCE(SUM(CASE WHEN scope = $3 AND day >= $5 THEN cents ELSE 0 END), 0) AS card_day,
				COALESCE(SUM(CASE WHEN scope = $3 AND day >= $6 THEN cents ELSE 0 END), 0) AS card_month,
				COALESCE(SUM(CASE WHEN scope = $4 AND day >= $7 THEN cents ELSE 0 END), 0) AS profile
			FROM spend_days WHERE scope IN ($2, $3, $4) AND day >= $8) u`,
		Args: []any{ask.BotID, "bot:" + ask.BotID, "card:" + cardID, "profile:" + cardID + ":" + strconv.Itoa(profile.Index),
			ms(day), ms(month), ms(since), min(ms(week), ms(month)), ms(now), int64(max(ask.PerWindow, 1))},
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

// writeCheckout writes a decided checkout: a declined one as its record
// and wallet.spend.declined; an admitted one with its money, count and
// task (recordAdmitted).
func (s *Service) writeCheckout(ctx context.Context, tx *kernel.Tx, ask botpay.CheckoutAsk, c lockedCheckout, d botpay.CheckoutDecision, now time.Time) (CheckoutResult, error) {
	p := d.Purchase
	if d.Refusal != nil {
		return CheckoutResult{}, s.recordDeclined(ctx, tx, c.w, p, d.Refusal.Message, now)
	}
	res := CheckoutResult{Purchase: p}
	var err error
	if s.inOne && !p.Decoy && p.Status == botpay.PurchaseApproved {
		res.LowBalance, err = s.recordApprovedInOne(tx, c.w, p, now)
	} else {
		res.LowBalance, err = s.recordAdmitted(ctx, tx, c.w, &p, now)
	}
	if err != nil {
		return CheckoutResult{}, err
	}
	if ask.TaskID != "" {
		if _, err := tx.Exec(ctx, `UPDATE tasks SET status = $1, purchase_id = $2, completed_at = $3 WHERE id = $4`,
			botpay.TaskCompleted, p.ID, ms(now), ask.TaskID); err != nil {
			return CheckoutResult{}, err
		}
	}
	if p.Status == botpay.PurchaseApproved {
		res.SealedDetails = c.sealed
	}
	return res, nil
}

// recordDeclined keeps a declined checkout (it counts against the rate
// limit, never against budgets) with its wallet.spend.declined event.
func (s *Service) recordDeclined(ctx context.Context, tx *kernel.Tx, w ledger.Wallet, p botpay.Purchase, reason string, now time.Time) error {
	if err := insertPurchase(ctx, tx, p, w.Seq+1); err != nil {
		return err
	}
	ledger.NumberCheckout(tx, p.BotID, w.Seq+1)
	return s.outbox.Emit(tx, botpay.NewEvent(p.BotID, botpay.SpendDeclinedData{
		Amount: p.Amount, Currency: "USD", Vendor: p.MerchantName, Reason: reason,
	}, now))
}
