package api

import (
	"github.com/botpay/botpay/internal/app"
	"github.com/botpay/botpay/internal/botpay"
)

// JSON shapes of the answers, named as in the API reference (docs/api.md).

type transactionView struct {
	ID              int64            `json:"id"`
	Type            string           `json:"type"`
	AmountUSD       botpay.Money     `json:"amount_usd"`
	BalanceAfterUSD *botpay.Money    `json:"balance_after_usd"`
	Description     string           `json:"description"`
	CreatedAt       botpay.Timestamp `json:"created_at"`
}

func viewTransaction(t botpay.Transaction) transactionView {
	return transactionView{ID: t.ID, Type: t.Type, AmountUSD: t.Amount, BalanceAfterUSD: t.BalanceAfter,
		Description: t.Description, CreatedAt: botpay.Timestamp(t.CreatedAt)}
}

type spendingLimitsView struct {
	PerTransactionUSD   botpay.Money `json:"per_transaction_usd"`
	MonthlyUSD          botpay.Money `json:"monthly_usd"`
	MonthlySpentUSD     botpay.Money `json:"monthly_spent_usd"`
	MonthlyRemainingUSD botpay.Money `json:"monthly_remaining_usd"`
}

func viewSpendingLimits(o app.BotOverview) *spendingLimitsView {
	if o.Wallet == nil || o.Guardrails == nil {
		return nil
	}
	g := o.Guardrails
	remaining := g.Monthly - o.Wallet.MonthlySpent
	if remaining < 0 {
		remaining = 0
	}
	return &spendingLimitsView{PerTransactionUSD: g.PerTransaction, MonthlyUSD: g.Monthly,
		MonthlySpentUSD: o.Wallet.MonthlySpent, MonthlyRemainingUSD: remaining}
}

type guardrailLimitsView struct {
	PerTransactionUSD   botpay.Money  `json:"per_transaction_usd"`
	DailyUSD            botpay.Money  `json:"daily_usd"`
	MonthlyUSD          botpay.Money  `json:"monthly_usd"`
	AskApprovalAboveUSD *botpay.Money `json:"ask_approval_above_usd"`
}

type guardrailsView struct {
	ApprovalMode       string              `json:"approval_mode"`
	Limits             guardrailLimitsView `json:"limits"`
	RecurringAllowed   bool                `json:"recurring_allowed"`
	Notes              *string             `json:"notes"`
	UpdatedAt          botpay.Timestamp    `json:"updated_at"`
	ApprovedCategories []string            `json:"approved_categories"`
	BlockedCategories  []string            `json:"blocked_categories"`
}

func viewGuardrails(g botpay.Guardrails) guardrailsView {
	nonNil := func(s []string) []string {
		if s == nil {
			return []string{}
		}
		return s
	}
	return guardrailsView{
		ApprovalMode: g.ApprovalMode,
		Limits: guardrailLimitsView{PerTransactionUSD: g.PerTransaction, DailyUSD: g.Daily, MonthlyUSD: g.Monthly,
			AskApprovalAboveUSD: g.AskApprovalAbove},
		RecurringAllowed: g.RecurringAllowed, Notes: g.Notes, UpdatedAt: botpay.Timestamp(g.UpdatedAt),
		ApprovedCategories: nonNil(g.ApprovedCategories), BlockedCategories: nonNil(g.BlockedCategories),
	}
}

type masterGuardrailsView struct {
	PerTransactionUSD *botpay.Money     `json:"per_transaction_usd"`
	DailyBudgetUSD    *botpay.Money     `json:"daily_budget_usd"`
	MonthlyBudgetUSD  *botpay.Money     `json:"monthly_budget_usd"`
	UpdatedAt         *botpay.Timestamp `json:"updated_at,omitempty"`
}

func viewMaster(m *botpay.MasterGuardrails) *masterGuardrailsView {
	if m == nil {
		return nil
	}
	at := botpay.Timestamp(m.UpdatedAt)
	return &masterGuardrailsView{PerTransactionUSD: m.PerTransaction, DailyBudgetUSD: m.DailyBudget,
		MonthlyBudgetUSD: m.MonthlyBudget, UpdatedAt: &at}
}

type cardWalletView struct {
	Status         string              `json:"status"`
	BalanceUSD     botpay.Money        `json:"balance_usd"`
	HeldUSD        botpay.Money        `json:"held_usd"`
	SpendingLimits *spendingLimitsView `json:"spending_limits"`
}

type statusView struct {
	BotID            string                `json:"bot_id"`
	BotName          string                `json:"bot_name"`
	Status           string                `json:"status"`
	DefaultRail      *string               `json:"default_rail"`
	ActiveRails      []string              `json:"active_rails"`
	Rails            map[string]any        `json:"rails"`
	MasterGuardrails *masterGuardrailsView `json:"master_guardrails"`
	PendingMessages  int                   `json:"pending_messages"`
	WebhookStatus    string                `json:"webhook_status"`
	WebhookFailCount int                   `json:"webhook_fail_count"`
	CallbackURL      *string               `json:"callback_url"`
	WalletStatus     string                `json:"wallet_status"`
	Message          string                `json:"message,omitempty"`
	LiveMode         bool                  `json:"livemode"`
}

func viewStatus(o app.BotOverview) statusView {
	b := o.Bot
	active := o.ActiveRails()
	v := statusView{BotID: b.ID, BotName: b.Name, Status: b.Status(len(active)), ActiveRails: active,
		Rails: map[string]any{}, PendingMessages: o.PendingMessages, WebhookStatus: b.WebhookStatus,
		WebhookFailCount: b.WebhookFailCount, WalletStatus: botpay.WalletPending}
	if b.CallbackURL != "" {
		v.CallbackURL = &b.CallbackURL
	}
	if o.Wallet == nil {
		v.Message = "Waiting for your owner to claim you. Share the owner verification URL (or ask for a pairing code) with your owner."
		return v
	}
	rail := botpay.RailCardWallet
	v.DefaultRail = &rail
	railStatus := botpay.WalletActive
	if b.Frozen {
		railStatus = botpay.BotFrozen
	}
	v.Rails[botpay.RailCardWallet] = cardWalletView{Status: railStatus, BalanceUSD: o.Wallet.Wallet.Available(),
		HeldUSD: o.Wallet.Wallet.Held, SpendingLimits: viewSpendingLimits(o)}
	if p := o.Processor; p != nil {
		v.Rails[botpay.RailProcessorWallet] = viewProcessorWallet(railStatus, p)
	}
	v.MasterGuardrails = viewMaster(o.Master)
	v.WalletStatus = botpay.WalletStatus(&b, o.Wallet.Wallet)
	return v
}

type walletCheckView struct {
	WalletStatus   string              `json:"wallet_status"`
	BalanceUSD     botpay.Money        `json:"balance_usd"`
	HeldUSD        botpay.Money        `json:"held_usd"`
	CardStatus     string              `json:"card_status"`
	SpendingLimits *spendingLimitsView `json:"spending_limits,omitempty"`
	PendingTopups  int                 `json:"pending_topups"`
	Frozen         bool                `json:"frozen"`
	Message        string              `json:"message,omitempty"`
}

func viewWalletCheck(o app.BotOverview) walletCheckView {
	if o.Wallet == nil {
		return walletCheckView{WalletStatus: botpay.WalletPending, CardStatus: "inactive",
			Message: "Your owner has not claimed you yet, so the wallet is not active."}
	}
	card := "active"
	if o.Bot.Frozen {
		card = "inactive"
	}
	return walletCheckView{WalletStatus: botpay.WalletStatus(&o.Bot, o.Wallet.Wallet), BalanceUSD: o.Wallet.Wallet.Available(),
		HeldUSD: o.Wallet.Wallet.Held, CardStatus: card, SpendingLimits: viewSpendingLimits(o),
		PendingTopups: o.Wallet.PendingTopups, Frozen: o.Bot.Frozen}
}
