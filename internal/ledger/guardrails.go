package ledger

import (
	"context"
	"encoding/json"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
)

// PutGuardrails writes a bot's guardrails whole, in the caller's
// transaction: the defaults its claim sets (internal/bots) and an owner's
// change (internal/spending). Checkouts and signing read them under the
// wallet lock.
func PutGuardrails(ctx context.Context, tx *kernel.Tx, botID string, g botpay.Guardrails) error {
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

// nonNil stores an empty list as [], never null.
func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
