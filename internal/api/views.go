package api

import (
	"encoding/json"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/wallets"
	"github.com/botpay/botpay/wire"
)

// The answers are the generated types of package wire; the view functions
// below only convert the service's values into them.

// usd is an amount of cents on the wire. botpay.Money and wire.USD both
// write dollars with exactly two decimals, so the bytes are unchanged.
func usd(m botpay.Money) wire.USD { return wire.USD(m) }

// optUSD is usd of an optional amount (nil stays nil).
func optUSD(m *botpay.Money) *wire.USD {
	if m == nil {
		return nil
	}
	return wire.Ptr(usd(*m))
}

// dollars is an amount for a member the document types as a plain number
// (json.Number): the text botpay.Money and botpay.Micro marshal to.
func dollars(m interface{ USD() string }) json.Number { return json.Number(m.USD()) }

// at is a time on the wire (UTC, milliseconds).
func at(t time.Time) wire.Timestamp { return wire.At(t) }

// optTime is an optional time: the zero time is absent (or null).
func optTime(t time.Time) *wire.Timestamp {
	if t.IsZero() {
		return nil
	}
	return wire.Ptr(wire.At(t))
}

// optText is an optional text: "" is absent (or null).
func optText(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func viewTransaction(t botpay.Transaction) wire.Transaction {
	v := wire.Transaction{ID: t.ID, Type: t.Type, AmountUSD: dollars(t.Amount), Description: t.Description,
		CreatedAt: at(t.CreatedAt)}
	if t.BalanceAfter != nil {
		v.BalanceAfterUSD = wire.Ptr(dollars(*t.BalanceAfter))
	}
	return v
}

func viewSpendingLimits(o wallets.BotOverview) *wire.SpendingLimits {
	if o.Wallet == nil || o.Guardrails == nil {
		return nil
	}
	g := o.Guardrails
	remaining := max(g.Monthly-o.Wallet.MonthlySpent, 0)
	return &wire.SpendingLimits{PerTransactionUSD: usd(g.PerTransaction), MonthlyUSD: usd(g.Monthly),
		MonthlySpentUSD: usd(o.Wallet.MonthlySpent), MonthlyRemainingUSD: usd(remaining)}
}

func viewGuardrails(g botpay.Guardrails) wire.Guardrails {
	return wire.Guardrails{
		ApprovalMode: g.ApprovalMode,
		Limits: wire.GuardrailsLimits{PerTransactionUSD: usd(g.PerTransaction), DailyUSD: usd(g.Daily),
			MonthlyUSD: usd(g.Monthly), AskApprovalAboveUSD: optUSD(g.AskApprovalAbove)},
		RecurringAllowed: g.RecurringAllowed, Notes: g.Notes, UpdatedAt: at(g.UpdatedAt),
		ApprovedCategories: nonNilList(g.ApprovedCategories), BlockedCategories: nonNilList(g.BlockedCategories),
	}
}

func viewMaster(m *botpay.MasterGuardrails) *wire.MasterGuardrails {
	if m == nil {
		return nil
	}
	return &wire.MasterGuardrails{PerTransactionUSD: optUSD(m.PerTransaction), DailyBudgetUSD: optUSD(m.DailyBudget),
		MonthlyBudgetUSD: optUSD(m.MonthlyBudget), UpdatedAt: wire.Ptr(at(m.UpdatedAt))}
}

// viewStatus is the bot's status; livemode is the service's mode.
func viewStatus(o wallets.BotOverview, live bool) wire.BotStatus {
	b := o.Bot
	active := o.ActiveRails()
	v := wire.BotStatus{BotID: b.ID, BotName: b.Name, Status: b.Status(len(active)), Livemode: &live, ActiveRails: active,
		PendingMessages: o.PendingMessages, WebhookStatus: b.WebhookStatus, WebhookFailCount: b.WebhookFailCount,
		CallbackURL: optText(b.CallbackURL), WalletStatus: botpay.WalletPending}
	if o.Wallet == nil {
		v.Message = wire.Ptr("Waiting for your owner to claim you. Share the owner verification URL (or ask for a pairing code) with your owner.")
		return v
	}
	v.DefaultRail = wire.Ptr(botpay.RailCardWallet)
	railStatus := botpay.WalletActive
	if b.Frozen {
		railStatus = botpay.BotFrozen
	}
	v.Rails.CardWallet = &wire.CardWallet{Status: railStatus, BalanceUSD: usd(o.Wallet.Wallet.Available()),
		HeldUSD: usd(o.Wallet.Wallet.Held), SpendingLimits: viewSpendingLimits(o)}
	if p := o.Processor; p != nil {
		v.Rails.ProcessorWallet = viewProcessorWallet(railStatus, p)
	}
	v.MasterGuardrails = viewMaster(o.Master)
	v.WalletStatus = botpay.WalletStatus(&b, o.Wallet.Wallet)
	return v
}

func viewWalletCheck(o wallets.BotOverview) wire.WalletCheck {
	if o.Wallet == nil {
		return wire.WalletCheck{WalletStatus: botpay.WalletPending, CardStatus: "inactive",
			Message: wire.Ptr("Your owner has not claimed you yet, so the wallet is not active.")}
	}
	card := "active"
	if o.Bot.Frozen {
		card = "inactive"
	}
	return wire.WalletCheck{WalletStatus: botpay.WalletStatus(&o.Bot, o.Wallet.Wallet), BalanceUSD: usd(o.Wallet.Wallet.Available()),
		HeldUSD: usd(o.Wallet.Wallet.Held), CardStatus: card, SpendingLimits: viewSpendingLimits(o),
		PendingTopups: o.Wallet.PendingTopups, Frozen: o.Bot.Frozen}
}
