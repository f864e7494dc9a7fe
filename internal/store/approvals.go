package store

import (
	"context"
	"errors"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
)

// SpendingReads gives internal/spending what it reads of rows the store
// still keeps: the owner-set rules of a card or rail5 checkout, inside its
// transaction, and the held signing requests that share the owner's
// approvals list.
type SpendingReads struct{ s *Store }

// ForSpending is the store's side of internal/spending (spending.Rules and
// spending.HeldSigning).
func (s *Store) ForSpending() SpendingReads { return SpendingReads{s: s} }

// CheckoutRules reads the bot's guardrails (claimed false when it has
// none: never claimed), its owner's master guardrails and procurement
// controls, and every card of the bot. The caller holds the bot's wallet
// lock, under which no configuration change can commit (its trigger waits
// for the lock), so the statements agree with each other.
func (r SpendingReads) CheckoutRules(ctx context.Context, k *kernel.Tx, botID, ownerID string) (botpay.SpendingRules, []botpay.Card, bool, error) {
	t := &Tx{k: k, s: r.s}
	var rules botpay.SpendingRules
	g, err := scanGuardrails(t.queryRow(ctx, guardrailsQuery, botID))
	if errors.Is(err, botpay.ErrWalletNotActive) {
		return rules, nil, false, nil
	}
	if err != nil {
		return rules, nil, false, err
	}
	rules.Bot = g
	if rules.Master, err = scanMasterGuardrails(t.queryRow(ctx, masterGuardrailsQuery, ownerID)); err != nil {
		return rules, nil, false, err
	}
	if rules.Procurement, err = scanProcurement(t.queryRow(ctx, procurementQuery, botID)); err != nil {
		return rules, nil, false, err
	}
	var cards []botpay.Card
	err = t.eachRow(ctx, step{Query: cardsQuery(`c.bot_id = $1`), Args: []any{botID}, Each: cardCollector(&cards)})
	return rules, cards, true, err
}

// Rail5Rules reads the bot's guardrails, its owner's master guardrails and
// the bot's procurement controls, under the wallet lock the caller holds.
func (r SpendingReads) Rail5Rules(ctx context.Context, k *kernel.Tx, botID, ownerID string) (botpay.SpendingRules, error) {
	t := &Tx{k: k, s: r.s}
	var rules botpay.SpendingRules
	var err error
	if rules.Bot, err = scanGuardrails(t.queryRow(ctx, guardrailsQuery, botID)); err != nil {
		return rules, err
	}
	if rules.Master, err = scanMasterGuardrails(t.queryRow(ctx, masterGuardrailsQuery, ownerID)); err != nil {
		return rules, err
	}
	rules.Procurement, err = scanProcurement(t.queryRow(ctx, procurementQuery, botID))
	return rules, err
}

// Guardrails reads the bot's guardrails.
func (r SpendingReads) Guardrails(ctx context.Context, botID string) (botpay.Guardrails, error) {
	return r.s.Guardrails(ctx, botID)
}

// MasterGuardrails reads the owner's master guardrails (nil when unset).
func (r SpendingReads) MasterGuardrails(ctx context.Context, ownerID string) (*botpay.MasterGuardrails, error) {
	return r.s.MasterGuardrails(ctx, ownerID)
}

// HoldRules reads the bot's guardrails and every card of the bot, as they
// are now.
func (r SpendingReads) HoldRules(ctx context.Context, botID string) (botpay.Guardrails, []botpay.Card, error) {
	g, err := r.s.Guardrails(ctx, botID)
	if err != nil {
		return g, nil, err
	}
	cards, err := r.s.cards(ctx, r.s.read, `c.bot_id = $1`, botID)
	return g, cards, wrapErr(err, "cards %s", botID)
}

// PendingSigning pages through the owner's held signing requests, oldest
// first, with one extra row and each one's position.
func (r SpendingReads) PendingSigning(ctx context.Context, ownerID string, page botpay.PageRequest) ([]kernel.Placed[botpay.SigningRequest], error) {
	return r.s.pendingSigning(ctx, ownerID, page)
}
