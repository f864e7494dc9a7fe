package ledger

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
)

// Running spend totals (table spend_days, migration 0006): every change that
// makes a spend start or stop counting against budgets adds or subtracts
// its amount on the spend's UTC day, for each scope it counts in, in the
// transaction of the change. Budgets then read at most 31 rows per scope
// instead of summing every purchase of the month.
//
// A held purchase stops counting when its approval window closes, which
// may be before anything marks it expired; readers subtract such overdue
// holds (CommittedDays), so the totals are exact at every instant.

const dayMS = int64(24 * time.Hour / time.Millisecond)

// SpendDay is the UTC day start of a spend created at createdMS.
func SpendDay(createdMS int64) int64 { return createdMS - createdMS%dayMS }

// PurchaseScopes are the scopes a card purchase counts in: a decoy counts
// only against its own profile's allowance.
func PurchaseScopes(p botpay.Purchase) []string {
	profile := "profile:" + p.CardID + ":" + strconv.Itoa(p.ProfileIndex)
	if p.Decoy {
		return []string{profile}
	}
	return []string{"bot:" + p.BotID, "card:" + p.CardID, profile, "owner:" + p.OwnerID}
}

// Rail5Scopes are the scopes a rail5 spend counts in.
func Rail5Scopes(botID, ownerID string) []string {
	return []string{"bot:" + botID, "owner:" + ownerID}
}

// CountSpend adds delta cents (negative to stop counting) to scopes on the
// day of createdMS.
func CountSpend(tx *kernel.Tx, scopes []string, createdMS int64, delta botpay.Money) {
	countDelta(tx, "cents", scopes, createdMS, int64(delta))
}

// CountSigning adds delta micro-USDC of x402 signing requests to the bot's
// and owner's scopes.
func CountSigning(tx *kernel.Tx, botID, ownerID string, createdMS int64, delta botpay.Micro) {
	countDelta(tx, "micro", []string{"bot:" + botID, "owner:" + ownerID}, createdMS, int64(delta))
}

// countDelta adds delta to column (cents or micro) of scopes' rows. It runs
// with COMMIT; rows are always written in the same scope order (bot, card,
// profile, owner), so two transactions that share a row take its lock in
// the same order.
func countDelta(tx *kernel.Tx, column string, scopes []string, createdMS, delta int64) {
	if delta == 0 || len(scopes) == 0 {
		return
	}
	q, args := CountDeltaSQL(column, scopes, 1, createdMS, delta)
	tx.AtCommit(kernel.Step{Query: q, Args: args})
}

// CountDeltaSQL is countDelta's statement, its placeholders numbered from
// first, so that a caller can put it in a statement of its own
// (the one-statement checkout).
func CountDeltaSQL(column string, scopes []string, first int, createdMS, delta int64) (string, []any) {
	p := func(i int) string { return "$" + strconv.Itoa(first+i) }
	var b strings.Builder
	b.WriteString(`INSERT INTO spend_days (scope, day, ` + column + `) VALUES `)
	args := make([]any, 0, len(scopes)+2)
	args = append(args, SpendDay(createdMS), delta)
	for i, s := range scopes {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("(" + p(i+2) + ", " + p(0) + ", " + p(1) + ")")
		args = append(args, s)
	}
	b.WriteString(` ON CONFLICT (scope, day) DO UPDATE SET ` + column + ` = spend_days.` + column + ` + excluded.` + column)
	return b.String(), args
}

// CommittedDays is a one-row subquery (columns day and month) of what a
// bot: or owner: scope ($1) has committed in cents since the UTC day start
// ($2) and the month start ($3): card and rail5 cents, plus x402
// micro-USDC rounded up to whole cents, less the holds — card purchases
// and signing requests of the bot or owner whose id ($5) is in column who —
// whose approval window closed by now ($4) without anything marking them
// (they stop counting then). Three aggregates, each one index range.
func CommittedDays(who string) string {
	// CAST: PostgreSQL sums BIGINT as NUMERIC, whose division is not the
	// integer division that rounds up here.
	return `(SELECT CAST(t.cents_day - h.day + CAST(t.micro_day - x.day + 9999 AS BIGINT) / 10000 AS BIGINT) AS day,
			CAST(t.cents_month - h.month + CAST(t.micro_month - x.month + 9999 AS BIGINT) / 10000 AS BIGINT) AS month
		FROM (SELECT COALESCE(SUM(CASE WHEN day >= $2 THEN cents ELSE 0 END), 0) AS cents_day, COALESCE(SUM(cents), 0) AS cents_month,
				COALESCE(SUM(CASE WHEN day >= $2 THEN micro ELSE 0 END), 0) AS micro_day, COALESCE(SUM(micro), 0) AS micro_month
			FROM spend_days WHERE scope = $1 AND day >= $3) t,
			(SELECT COALESCE(SUM(CASE WHEN created_at >= $2 THEN amount_cents ELSE 0 END), 0) AS day, COALESCE(SUM(amount_cents), 0) AS month
			FROM purchases WHERE ` + who + ` = $5 AND NOT decoy AND status = 'pending' AND expires_at <= $4 AND created_at >= $3) h,
			(SELECT COALESCE(SUM(CASE WHEN created_at >= $2 THEN amount_micro ELSE 0 END), 0) AS day, COALESCE(SUM(amount_micro), 0) AS month
			FROM signing_requests WHERE ` + who + ` = $5 AND status = 'pending' AND reserved_until <= $4 AND created_at >= $3) x) committed`
}

// CommittedArgs are CommittedDays' arguments for scope and id at now.
func CommittedArgs(scope, id string, now time.Time) []any {
	return []any{scope, kernel.MS(botpay.DayStart(now)), kernel.MS(botpay.MonthStart(now)), kernel.MS(now), id}
}

// OwnerUsage adds the owner's usage across bots to u (when master budgets
// apply: botpay.MasterBudgetsApply), locking the owner row first, so
// checkouts of several bots of one owner cannot together pass a master
// budget.
func OwnerUsage(ctx context.Context, tx *kernel.Tx, ownerID string, u botpay.Usage, now time.Time) (botpay.Usage, error) {
	var locked string
	if err := tx.QueryRow(ctx, `SELECT id FROM owners WHERE id = $1`+tx.ForUpdate(), ownerID).Scan(&locked); err != nil {
		return u, err
	}
	err := tx.QueryRow(ctx, `SELECT day, month FROM `+CommittedDays("owner_id"), CommittedArgs("owner:"+ownerID, ownerID, now)...).
		Scan(&u.OwnerDay, &u.OwnerMonth)
	return u, err
}
