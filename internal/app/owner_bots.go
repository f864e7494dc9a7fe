package app

import (
	"context"
	"strings"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/validate"
)

// OwnedBot is one row of GET /api/v1/bots/mine.
type OwnedBot struct {
	Bot          botpay.Bot
	WalletStatus string
	ActiveRails  int
}

// BotsOf pages through an owner's bots with their wallet status, oldest
// first.
func (s *Service) BotsOf(ctx context.Context, owner botpay.Owner, page botpay.PageRequest) (botpay.Page[OwnedBot], error) {
	bots, err := s.store.OwnerBots(ctx, owner.ID, page)
	if err != nil {
		return botpay.Page[OwnedBot]{}, err
	}
	out := botpay.Page[OwnedBot]{Items: make([]OwnedBot, 0, len(bots.Items)), Next: bots.Next}
	for _, b := range bots.Items {
		ov, err := s.Overview(ctx, b, false)
		if err != nil {
			return botpay.Page[OwnedBot]{}, err
		}
		ob := OwnedBot{Bot: b, WalletStatus: botpay.WalletPending, ActiveRails: len(ov.ActiveRails())}
		if ov.Wallet != nil {
			ob.WalletStatus = botpay.WalletStatus(&b, ov.Wallet.Wallet)
		}
		out.Items = append(out.Items, ob)
	}
	return out, nil
}

// Fund adds money to an owned bot's wallet on the given rail.
func (s *Service) Fund(ctx context.Context, owner botpay.Owner, botID string, amount botpay.Money, rail string) (botpay.Funding, error) {
	p := validate.Problems{}
	validAmount(p, "amount_usd", amount, MaxFunding)
	switch rail {
	case "", botpay.RailCardWallet:
	case botpay.RailProcessorWallet:
		if err := p.Err(); err != nil {
			return botpay.Funding{}, err
		}
		return s.fundProcessorWallet(ctx, owner, botID, amount)
	default:
		p.Add("rail", "must be card_wallet or processor_wallet")
	}
	if err := p.Err(); err != nil {
		return botpay.Funding{}, err
	}
	return s.store.Fund(ctx, owner.ID, botID, amount, "Funded by owner")
}

// Freeze freezes or unfreezes an owned bot's wallet.
func (s *Service) Freeze(ctx context.Context, owner botpay.Owner, botID string, frozen bool) (botpay.Bot, error) {
	return s.store.SetFrozen(ctx, owner.ID, botID, frozen)
}

// OwnedGuardrails reads an owned bot's guardrails.
func (s *Service) OwnedGuardrails(ctx context.Context, owner botpay.Owner, botID string) (botpay.Guardrails, error) {
	b, err := s.store.OwnedBot(ctx, owner.ID, botID)
	if err != nil {
		return botpay.Guardrails{}, err
	}
	return s.store.Guardrails(ctx, b.ID)
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
	return g, s.store.SetGuardrails(ctx, owner.ID, botID, g)
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
	return s.store.MasterGuardrails(ctx, owner.ID)
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
	return m, s.store.SetMasterGuardrails(ctx, owner.ID, m)
}
