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
