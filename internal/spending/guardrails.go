package spending

import (
	"context"
	"strings"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/validate"
)

// BotGuardrails returns a claimed bot's guardrails (GET
// /api/v1/bot/wallet/spending, docs/api.md).
func (s *Service) BotGuardrails(ctx context.Context, bot botpay.Bot) (botpay.Guardrails, error) {
	if !bot.Claimed() {
		return botpay.Guardrails{}, botpay.ErrWalletNotActive
	}
	return s.guardrails(ctx, bot.ID)
}

// OwnedGuardrails reads an owned bot's guardrails.
func (s *Service) OwnedGuardrails(ctx context.Context, owner botpay.Owner, botID string) (botpay.Guardrails, error) {
	if err := s.ownedBot(ctx, owner.ID, botID); err != nil {
		return botpay.Guardrails{}, wrapErr(err, "owned bot %s", botID)
	}
	return s.guardrails(ctx, botID)
}

// GuardrailsChange is a PUT of the guardrails object (docs/api.md); nil
// fields keep their value.
type GuardrailsChange struct {
	ApprovalMode       *string
	PerTransaction     *botpay.Money
	Daily              *botpay.Money
	Monthly            *botpay.Money
	AskApprovalAbove   **botpay.Money // set to a nil pointer to clear
	RecurringAllowed   *bool
	Notes              **string
	ApprovedCategories *[]string
	BlockedCategories  *[]string
}

// SetGuardrails applies a change to an owned bot's guardrails.
func (s *Service) SetGuardrails(ctx context.Context, owner botpay.Owner, botID string, c GuardrailsChange) (botpay.Guardrails, error) {
	g, err := s.OwnedGuardrails(ctx, owner, botID)
	if err != nil {
		return g, err
	}
	p := validate.Problems{}
	if c.ApprovalMode != nil {
		if !botpay.ValidApprovalMode(*c.ApprovalMode) {
			p.Add("approval_mode", "must be ask_for_everything, auto_approve_under_threshold or auto_approve_by_category")
		}
		g.ApprovalMode = *c.ApprovalMode
	}
	limit := func(field string, v *botpay.Money, dst *botpay.Money) {
		if v == nil {
			return
		}
		if *v < 0 || *v > botpay.MaxMoney {
			p.Add(field, "must be between 0 and "+botpay.MaxMoney.USD())
		}
		*dst = *v
	}
	limit("limits.per_transaction_usd", c.PerTransaction, &g.PerTransaction)
	limit("limits.daily_usd", c.Daily, &g.Daily)
	limit("limits.monthly_usd", c.Monthly, &g.Monthly)
	if c.AskApprovalAbove != nil {
		g.AskApprovalAbove = *c.AskApprovalAbove
		if g.AskApprovalAbove != nil {
			limit("limits.ask_approval_above_usd", g.AskApprovalAbove, g.AskApprovalAbove)
		}
	}
	if c.RecurringAllowed != nil {
		g.RecurringAllowed = *c.RecurringAllowed
	}
	if c.Notes != nil {
		g.Notes = *c.Notes
		if g.Notes != nil {
			n := p.Text("notes", *g.Notes, 0, 2000, true)
			g.Notes = &n
		}
	}
	if c.ApprovedCategories != nil {
		g.ApprovedCategories = categories(p, "approved_categories", *c.ApprovedCategories)
	}
	if c.BlockedCategories != nil {
		g.BlockedCategories = categories(p, "blocked_categories", *c.BlockedCategories)
	}
	if err := p.Err(); err != nil {
		return g, err
	}
	g.UpdatedAt = s.clock.Now()
	return g, s.ReplaceGuardrails(ctx, owner.ID, botID, g)
}

func categories(p validate.Problems, field string, in []string) []string {
	if len(in) > 100 {
		p.Add(field, "must have at most 100 entries")
	}
	out := make([]string, 0, len(in))
	seen := map[string]bool{}
	for _, c := range in {
		c = strings.ToLower(strings.TrimSpace(c))
		if c == "" || len(c) > 50 {
			p.Add(field, "entries must be 1-50 characters")
			continue
		}
		if !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	return out
}

// MasterGuardrails reads the owner's master guardrails (nil when unset).
func (s *Service) MasterGuardrails(ctx context.Context, owner botpay.Owner) (*botpay.MasterGuardrails, error) {
	return s.masterGuardrails(ctx, owner.ID)
}

// SetMasterGuardrails replaces the owner's master guardrails; nil means no
// limit.
func (s *Service) SetMasterGuardrails(ctx context.Context, owner botpay.Owner, m botpay.MasterGuardrails) (botpay.MasterGuardrails, error) {
	p := validate.Problems{}
	for field, v := range map[string]*botpay.Money{"per_transaction_usd": m.PerTransaction,
		"daily_budget_usd": m.DailyBudget, "monthly_budget_usd": m.MonthlyBudget} {
		if v != nil && (*v < 0 || *v > botpay.MaxMoney) {
			p.Add(field, "must be between 0 and "+botpay.MaxMoney.USD()+", or null")
		}
	}
	if err := p.Err(); err != nil {
		return m, err
	}
	m.UpdatedAt = s.clock.Now()
	return m, s.ReplaceMasterGuardrails(ctx, owner.ID, m)
}
