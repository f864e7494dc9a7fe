package spending

import (
	"context"
	"encoding/json"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
)

// ReplaceGuardrails replaces an owned bot's guardrails with g, as given
// (SetGuardrails checks a change before), and emits rails.updated
// (limits_updated). The guardrails row exists from the claim on, so a bot
// without one is the same 404 as another owner's.
func (s *Service) ReplaceGuardrails(ctx context.Context, ownerID, botID string, g botpay.Guardrails) error {
	return wrapErr(s.db.InTx(ctx, func(tx *kernel.Tx) error {
		var n int
		if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM guardrails g JOIN bots b ON b.id = g.bot_id
			WHERE g.bot_id = $1 AND b.owner_id = $2`, botID, ownerID).Scan(&n); err != nil {
			return err
		}
		if n == 0 {
			return botpay.ErrNotFound("bot")
		}
		approved, _ := json.Marshal(nonNil(g.ApprovedCategories))
		blocked, _ := json.Marshal(nonNil(g.BlockedCategories))
		if _, err := tx.Exec(ctx, `INSERT INTO guardrails (bot_id, approval_mode, per_transaction_cents, daily_cents, monthly_cents,
				ask_approval_above_cents, recurring_allowed, notes, approved_categories, blocked_categories, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
			ON CONFLICT (bot_id) DO UPDATE SET approval_mode = excluded.approval_mode,
				per_transaction_cents = excluded.per_transaction_cents, daily_cents = excluded.daily_cents,
				monthly_cents = excluded.monthly_cents, ask_approval_above_cents = excluded.ask_approval_above_cents,
				recurring_allowed = excluded.recurring_allowed, notes = excluded.notes,
				approved_categories = excluded.approved_categories, blocked_categories = excluded.blocked_categories,
				updated_at = excluded.updated_at`,
			botID, g.ApprovalMode, int64(g.PerTransaction), int64(g.Daily), int64(g.Monthly), centsPtr(g.AskApprovalAbove),
			g.RecurringAllowed, g.Notes, string(approved), string(blocked), ms(g.UpdatedAt)); err != nil {
			return err
		}
		return s.outbox.Emit(tx, railsUpdated(botID, botpay.ActionLimitsUpdated, "Your owner changed your spending guardrails.", g.UpdatedAt))
	}), "set guardrails %s", botID)
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// ReplaceMasterGuardrails replaces the owner's master guardrails with m,
// as given (SetMasterGuardrails checks them before), and tells every
// claimed bot of the owner with rails.updated (limits_updated).
func (s *Service) ReplaceMasterGuardrails(ctx context.Context, ownerID string, m botpay.MasterGuardrails) error {
	return wrapErr(s.db.InTx(ctx, func(tx *kernel.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO master_guardrails (owner_id, per_transaction_cents, daily_budget_cents, monthly_budget_cents, updated_at)
			VALUES ($1, $2, $3, $4, $5)
			ON CONFLICT (owner_id) DO UPDATE SET per_transaction_cents = excluded.per_transaction_cents,
				daily_budget_cents = excluded.daily_budget_cents, monthly_budget_cents = excluded.monthly_budget_cents,
				updated_at = excluded.updated_at`,
			ownerID, centsPtr(m.PerTransaction), centsPtr(m.DailyBudget), centsPtr(m.MonthlyBudget), ms(m.UpdatedAt))
		if err != nil {
			return err
		}
		var ids []string
		err = tx.EachRow(ctx, kernel.Step{Query: `SELECT id FROM bots WHERE owner_id = $1 ORDER BY seq`, Args: []any{ownerID},
			Each: func(row kernel.Scanner) error {
				var id string
				err := row.Scan(&id)
				ids = append(ids, id)
				return err
			}})
		if err != nil {
			return err
		}
		for _, id := range ids {
			if err := s.outbox.Emit(tx, railsUpdated(id, botpay.ActionLimitsUpdated, "master guardrails changed", m.UpdatedAt)); err != nil {
				return err
			}
		}
		return nil
	}), "set master guardrails %s", ownerID)
}
