package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"time"

	"github.com/botpay/botpay/internal/botpay"
)

// The reads below are copies of reads internal/bots, internal/spending and
// internal/notifications own. The wallet use cases still here (wallets.go,
// wallet_check.go, SetFrozen, and app's wallet view over Guardrails,
// MasterGuardrails and PendingMessageCount) read them from the store until
// they move into a capability of their own; then these go.

const botColumns = `id, name, owner_email, description, bot_type, owner_id, claimed_at, callback_url,
	webhook_status, webhook_fail_count, local_port, webhook_path, frozen, created_at`

func scanBot(row interface{ Scan(...any) error }) (botpay.Bot, error) {
	var b botpay.Bot
	var owner, callback, path sql.NullString
	var claimed, port sql.NullInt64
	var created int64
	err := row.Scan(&b.ID, &b.Name, &b.OwnerEmail, &b.Description, &b.BotType, &owner, &claimed, &callback,
		&b.WebhookStatus, &b.WebhookFailCount, &port, &path, &b.Frozen, &created)
	b.OwnerID, b.CallbackURL, b.WebhookPath = owner.String, callback.String, path.String
	b.ClaimedAt, b.LocalPort, b.CreatedAt = fromNullMS(claimed), int(port.Int64), fromMS(created)
	return b, err
}

// apiKeyMatch selects the bot (alias b) whose current key is $1, or whose
// previous key is $1 and still inside its grace period at $2.
const apiKeyMatch = `(b.api_key_hash = $1 OR (b.previous_api_key_hash = $1 AND b.previous_api_key_expires_at > $2))`

// Bot loads a bot by ID (internal/bots' Bot).
func (s *Store) Bot(ctx context.Context, id string) (botpay.Bot, error) {
	b, err := scanBot(s.queryRow(ctx, `SELECT `+botColumns+` FROM bots WHERE id = $1`, id))
	if isNoRows(err) {
		return b, botpay.ErrNotFound("bot")
	}
	return b, wrapErr(err, "bot %s", id)
}

// Guardrails reads a claimed bot's spending guardrails (internal/spending's
// BotGuardrails).
func (s *Store) Guardrails(ctx context.Context, botID string) (botpay.Guardrails, error) {
	var c guardrailColumns
	err := s.queryRow(ctx, `SELECT approval_mode, per_transaction_cents, daily_cents, monthly_cents, ask_approval_above_cents,
			recurring_allowed, notes, approved_categories, blocked_categories, updated_at
		FROM guardrails WHERE bot_id = $1`, botID).Scan(c.dest()...)
	if isNoRows(err) {
		return botpay.Guardrails{}, botpay.ErrWalletNotActive
	}
	if err != nil {
		return botpay.Guardrails{}, wrapErr(err, "guardrails %s", botID)
	}
	g, err := c.guardrails()
	return g, wrapErr(err, "guardrails %s", botID)
}

// guardrailColumns receives the columns of a guardrails row, in the order
// Guardrails and walletCheckQuery select them. They are nullable so that a
// LEFT JOIN without a guardrails row (an unclaimed bot, see WalletCheck)
// scans too.
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

// MasterGuardrails returns the owner's master guardrails, or nil when the
// owner never set them (internal/spending's MasterGuardrails).
func (s *Store) MasterGuardrails(ctx context.Context, ownerID string) (*botpay.MasterGuardrails, error) {
	var m botpay.MasterGuardrails
	var per, daily, monthly *int64
	var updated int64
	err := s.queryRow(ctx, `SELECT per_transaction_cents, daily_budget_cents, monthly_budget_cents, updated_at
		FROM master_guardrails WHERE owner_id = $1`, ownerID).Scan(&per, &daily, &monthly, &updated)
	if isNoRows(err) {
		return nil, nil
	}
	if err != nil {
		return nil, wrapErr(err, "master guardrails %s", ownerID)
	}
	m.PerTransaction, m.DailyBudget, m.MonthlyBudget = moneyPtr(per), moneyPtr(daily), moneyPtr(monthly)
	m.UpdatedAt = fromMS(updated)
	return &m, nil
}

// PendingMessageCount counts staged, unacknowledged, unexpired messages
// (internal/notifications' PendingMessageCount).
func (s *Store) PendingMessageCount(ctx context.Context, botID string) (int, error) {
	var n int
	err := s.queryRow(ctx, `SELECT COUNT(*) FROM pending_messages WHERE bot_id = $1 AND acked_at IS NULL AND expires_at > $2`,
		botID, ms(s.clock.Now())).Scan(&n)
	return n, wrapErr(err, "pending message count %s", botID)
}

// railsUpdated is the rails.updated event of an owner's change to the
// bot's card wallet (SetFrozen).
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
