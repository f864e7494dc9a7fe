package ledger

import (
	"context"
	"database/sql"
	"encoding/json"
	"strings"

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

// GuardrailColumns receives a guardrails row's columns in the order of
// GuardrailColumnList, as every read of them scans it; they are nullable
// so that a LEFT JOIN of an unclaimed bot, which has no row, scans too.
type GuardrailColumns struct {
	mode, notes, approved, blocked        sql.NullString
	perTx, daily, monthly, above, updated sql.NullInt64
	recurring                             sql.NullBool
}

// GuardrailColumnList names the guardrails columns GuardrailColumns
// receives, qualified with alias when it is not empty.
func GuardrailColumnList(alias string) string {
	if alias != "" {
		alias += "."
	}
	var cols []string
	for _, c := range []string{"approval_mode", "per_transaction_cents", "daily_cents", "monthly_cents", "ask_approval_above_cents",
		"recurring_allowed", "notes", "approved_categories", "blocked_categories", "updated_at"} {
		cols = append(cols, alias+c)
	}
	return strings.Join(cols, ", ")
}

// Dest is what to scan the columns into.
func (c *GuardrailColumns) Dest() []any {
	return []any{&c.mode, &c.perTx, &c.daily, &c.monthly, &c.above, &c.recurring, &c.notes, &c.approved, &c.blocked, &c.updated}
}

// Present reports whether the row existed (the claim writes it).
func (c *GuardrailColumns) Present() bool { return c.mode.Valid }

// Guardrails is the row read.
func (c *GuardrailColumns) Guardrails() (botpay.Guardrails, error) {
	g := botpay.Guardrails{ApprovalMode: c.mode.String, PerTransaction: botpay.Money(c.perTx.Int64),
		Daily: botpay.Money(c.daily.Int64), Monthly: botpay.Money(c.monthly.Int64),
		RecurringAllowed: c.recurring.Bool, UpdatedAt: kernel.FromMS(c.updated.Int64)}
	if c.above.Valid {
		above := botpay.Money(c.above.Int64)
		g.AskApprovalAbove = &above
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
