package store

import (
	"context"
	"time"

	"github.com/botpay/botpay/internal/ledger"

	"github.com/botpay/botpay/internal/botpay"
)

// usage reads what already counts against the bot's budgets, for a rail5
// checkout (card checkouts read theirs in internal/spending; a rail5 card
// has no card or profile allowance here).
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
	return ledger.OwnerUsage(ctx, t.k, ownerID, u, now)
}
