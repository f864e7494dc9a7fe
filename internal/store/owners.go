package store

import (
	"context"
	"time"

	"github.com/botpay/botpay/internal/botpay"
)

// MasterGuardrails returns the owner's master guardrails, or nil when the
// owner never set them.
func (s *Store) MasterGuardrails(ctx context.Context, ownerID string) (*botpay.MasterGuardrails, error) {
	v, err := scanMasterGuardrails(s.queryRow(ctx, masterGuardrailsQuery, ownerID))
	return v, wrapErr(err, "master guardrails %s", ownerID)
}

const masterGuardrailsQuery = `SELECT per_transaction_cents, daily_budget_cents, monthly_budget_cents, updated_at
		FROM master_guardrails WHERE owner_id = $1`

func scanMasterGuardrails(row interface{ Scan(...any) error }) (*botpay.MasterGuardrails, error) {
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

// SetMasterGuardrails replaces the owner's master guardrails and tells every
// claimed bot of the owner with rails.updated (limits_updated).
func (s *Store) SetMasterGuardrails(ctx context.Context, ownerID string, m botpay.MasterGuardrails) error {
	return wrapErr(s.inTx(ctx, func(tx *Tx) error {
		_, err := tx.exec(ctx, `INSERT INTO master_guardrails (owner_id, per_transaction_cents, daily_budget_cents, monthly_budget_cents, updated_at)
			VALUES ($1, $2, $3, $4, $5)
			ON CONFLICT (owner_id) DO UPDATE SET per_transaction_cents = excluded.per_transaction_cents,
				daily_budget_cents = excluded.daily_budget_cents, monthly_budget_cents = excluded.monthly_budget_cents,
				updated_at = excluded.updated_at`,
			ownerID, centsPtr(m.PerTransaction), centsPtr(m.DailyBudget), centsPtr(m.MonthlyBudget), ms(m.UpdatedAt))
		if err != nil {
			return err
		}
		ids, err := tx.ownerBotIDs(ctx, ownerID)
		if err != nil {
			return err
		}
		for _, id := range ids {
			if err := tx.emit(railsUpdated(id, botpay.ActionLimitsUpdated, "master guardrails changed", m.UpdatedAt)); err != nil {
				return err
			}
		}
		return nil
	}), "set master guardrails %s", ownerID)
}

func (t *Tx) ownerBotIDs(ctx context.Context, ownerID string) ([]string, error) {
	rows, err := t.query(ctx, `SELECT id FROM bots WHERE owner_id = $1 ORDER BY seq`, ownerID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

func railsUpdated(botID, action, message string, now time.Time) botpay.Event {
	rail := botpay.RailCardWallet
	return botpay.NewEvent(botID, botpay.RailsUpdatedData{
		Action: action, Rail: &rail, BotID: botID, Message: message,
	}, now)
}

func moneyPtr(v *int64) *botpay.Money {
	if v == nil {
		return nil
	}
	m := botpay.Money(*v)
	return &m
}

func centsPtr(m *botpay.Money) *int64 {
	if m == nil {
		return nil
	}
	v := int64(*m)
	return &v
}
