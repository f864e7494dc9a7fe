package spending

import (
	"context"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
	"github.com/botpay/botpay/internal/ledger"
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
		if err := ledger.PutGuardrails(ctx, tx, botID, g); err != nil {
			return err
		}
		return s.outbox.Emit(tx, railsUpdated(botID, botpay.ActionLimitsUpdated, "Your owner changed your spending guardrails.", g.UpdatedAt))
	}), "set guardrails %s", botID)
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

// guardrails reads a claimed bot's spending guardrails as they are now
// (wallet_not_active before the claim: the claim writes the row).
func (s *Service) guardrails(ctx context.Context, botID string) (botpay.Guardrails, error) {
	v, err := scanGuardrails(s.db.QueryRow(ctx, guardrailsQuery, botID))
	return v, wrapErr(err, "guardrails %s", botID)
}

var guardrailsQuery = `SELECT ` + ledger.GuardrailColumnList("") + ` FROM guardrails WHERE bot_id = $1`

func scanGuardrails(row kernel.Scanner) (botpay.Guardrails, error) {
	var c ledger.GuardrailColumns
	err := row.Scan(c.Dest()...)
	if isNoRows(err) {
		return botpay.Guardrails{}, botpay.ErrWalletNotActive
	}
	if err != nil {
		return botpay.Guardrails{}, err
	}
	return c.Guardrails()
}

// masterGuardrails reads the owner's master guardrails as they are now, or
// nil when the owner never set them.
func (s *Service) masterGuardrails(ctx context.Context, ownerID string) (*botpay.MasterGuardrails, error) {
	v, err := scanMasterGuardrails(s.db.QueryRow(ctx, masterGuardrailsQuery, ownerID))
	return v, wrapErr(err, "master guardrails %s", ownerID)
}

const masterGuardrailsQuery = `SELECT per_transaction_cents, daily_budget_cents, monthly_budget_cents, updated_at
		FROM master_guardrails WHERE owner_id = $1`

func scanMasterGuardrails(row kernel.Scanner) (*botpay.MasterGuardrails, error) {
	var m botpay.MasterGuardrails
	var per, daily, monthly *int64
	var updated int64
	err := row.Scan(&per, &daily, &monthly, &updated)
	if isNoRows(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	m.PerTransaction, m.DailyBudget, m.MonthlyBudget = moneyPtr(per), moneyPtr(daily), moneyPtr(monthly)
	m.UpdatedAt = fromMS(updated)
	return &m, nil
}

// holdRules reads, outside any transaction, the bot's guardrails and every
// card of the bot as they are now, which name the guardrail holding a
// purchase.
func (s *Service) holdRules(ctx context.Context, botID string) (botpay.Guardrails, []botpay.Card, error) {
	g, err := s.guardrails(ctx, botID)
	if err != nil {
		return g, nil, err
	}
	cards, err := s.readCards(ctx, `c.bot_id = $1`, botID)
	return g, cards, wrapErr(err, "cards %s", botID)
}
