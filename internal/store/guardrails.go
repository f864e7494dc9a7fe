package store

import (
	"context"
	"database/sql"
	"encoding/json"

	"github.com/botpay/botpay/internal/botpay"
)

func (t *Tx) putGuardrails(ctx context.Context, botID string, g botpay.Guardrails) error {
	approved, _ := json.Marshal(nonNil(g.ApprovedCategories))
	blocked, _ := json.Marshal(nonNil(g.BlockedCategories))
	_, err := t.exec(ctx, `INSERT INTO guardrails (bot_id, approval_mode, per_transaction_cents, daily_cents, monthly_cents,
			ask_approval_above_cents, recurring_allowed, notes, approved_categories, blocked_categories, updated_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
		ON CONFLICT (bot_id) DO UPDATE SET approval_mode = excluded.approval_mode,
			per_transaction_cents = excluded.per_transaction_cents, daily_cents = excluded.daily_cents,
			monthly_cents = excluded.monthly_cents, ask_approval_above_cents = excluded.ask_approval_above_cents,
			recurring_allowed = excluded.recurring_allowed, notes = excluded.notes,
			approved_categories = excluded.approved_categories, blocked_categories = excluded.blocked_categories,
			updated_at = excluded.updated_at`,
		botID, g.ApprovalMode, int64(g.PerTransaction), int64(g.Daily), int64(g.Monthly), centsPtr(g.AskApprovalAbove),
		g.RecurringAllowed, g.Notes, string(approved), string(blocked), ms(g.UpdatedAt))
	return err
}

// Guardrails reads a claimed bot's spending guardrails.
func (s *Store) Guardrails(ctx context.Context, botID string) (botpay.Guardrails, error) {
	v, err := scanGuardrails(s.queryRow(ctx, guardrailsQuery, botID))
	return v, wrapErr(err, "guardrails %s", botID)
}

const guardrailsQuery = `SELECT approval_mode, per_transaction_cents, daily_cents, monthly_cents, ask_approval_above_cents,
			recurring_allowed, notes, approved_categories, blocked_categories, updated_at
		FROM guardrails WHERE bot_id = $1`

func scanGuardrails(row interface{ Scan(...any) error }) (botpay.Guardrails, error) {
	var c guardrailColumns
	err := row.Scan(c.dest()...)
	if isNoRows(err) {
		return botpay.Guardrails{}, botpay.ErrWalletNotActive
	}
	if err != nil {
		return botpay.Guardrails{}, err
	}
	return c.guardrails()
}

// guardrailColumns receives the columns of guardrailsQuery, in its order.
// They are nullable so that a LEFT JOIN without a guardrails row (an
// unclaimed bot, see WalletCheck) scans too.
type guardrailColumns struct {
	mode, notes, approved, blocked        sql.NullString
	perTx, daily, monthly, above, updated sql.NullInt64
	recurring                             sql.NullBool
}

func (c *guardrailColumns) dest() []any {
	return []any{&c.mode, &c.perTx, &c.daily, &c.monthly, &c.above, &c.recurring, &c.notes, &c.approved, &c.blocked, &c.updated}
}

func (c *guardrailColumns) present() bool { return c.mode.Valid }

func (c *guardrailColumns) guardrails() (botpay.Guardrails, error) {
	g := botpay.Guardrails{ApprovalMode: c.mode.String, PerTransaction: botpay.Money(c.perTx.Int64),
		Daily: botpay.Money(c.daily.Int64), Monthly: botpay.Money(c.monthly.Int64),
		RecurringAllowed: c.recurring.Bool, UpdatedAt: fromMS(c.updated.Int64)}
	if c.above.Valid {
		g.AskApprovalAbove = moneyPtr(&c.above.Int64)
	}
	if c.notes.Valid {
		g.Notes = &c.notes.String
	}
	if err := json.Unmarshal([]byte(c.approved.String), &g.ApprovedCategories); err != nil {
		return g, err
	}
	err := json.Unmarshal([]byte(c.blocked.String), &g.BlockedCategories)
	return g, err
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
