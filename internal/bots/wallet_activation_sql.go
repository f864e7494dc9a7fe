package bots

import (
	"context"
	"encoding/json"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
	"github.com/botpay/botpay/internal/ledger"
)

// activateWallet creates the card wallet and default guardrails of a newly
// claimed bot and emits wallet.activated, in the claim's transaction
// (registration with a pairing code, or the claim): a claimed bot always
// has both rows, which the checkout and the wallet reads rely on.
func activateWallet(ctx context.Context, outbox *ledger.Outbox, tx *kernel.Tx, botID string, now time.Time) error {
	walletID := botpay.NewID("wal_")
	if _, err := tx.Exec(ctx, `INSERT INTO wallets (bot_id, id, balance_cents, held_cents, created_at, updated_at) VALUES ($1, $2, 0, 0, $3, $3)`,
		botID, walletID, kernel.MS(now)); err != nil {
		return err
	}
	if err := insertGuardrails(ctx, tx, botID, botpay.DefaultGuardrails(now)); err != nil {
		return err
	}
	return outbox.Emit(tx, botpay.NewEvent(botID, botpay.WalletActivatedData{
		WalletID: walletID, Rail: botpay.RailCardWallet,
		Message: "Your owner claimed you; the card wallet is active.",
	}, now))
}

// insertGuardrails writes the bot's first guardrails (the owner changes
// them through internal/spending afterwards).
func insertGuardrails(ctx context.Context, tx *kernel.Tx, botID string, g botpay.Guardrails) error {
	approved, err := json.Marshal(nonNil(g.ApprovedCategories))
	if err != nil {
		return err
	}
	blocked, err := json.Marshal(nonNil(g.BlockedCategories))
	if err != nil {
		return err
	}
	var above *int64
	if g.AskApprovalAbove != nil {
		v := int64(*g.AskApprovalAbove)
		above = &v
	}
	_, err = tx.Exec(ctx, `INSERT INTO guardrails (bot_id, approval_mode, per_transaction_cents, daily_cents, monthly_cents,
			ask_approval_above_cents, recurring_allowed, notes, approved_categories, blocked_categories, updated_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
		ON CONFLICT (bot_id) DO UPDATE SET approval_mode = excluded.approval_mode,
			per_transaction_cents = excluded.per_transaction_cents, daily_cents = excluded.daily_cents,
			monthly_cents = excluded.monthly_cents, ask_approval_above_cents = excluded.ask_approval_above_cents,
			recurring_allowed = excluded.recurring_allowed, notes = excluded.notes,
			approved_categories = excluded.approved_categories, blocked_categories = excluded.blocked_categories,
			updated_at = excluded.updated_at`,
		botID, g.ApprovalMode, int64(g.PerTransaction), int64(g.Daily), int64(g.Monthly), above,
		g.RecurringAllowed, g.Notes, string(approved), string(blocked), kernel.MS(g.UpdatedAt))
	return err
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
