package api

import (
	"time"

	"github.com/botpay/botpay/internal/app"
	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/spending"
)

// purchaseView is a checkout answer and a checkout status answer
// (docs/api.md): card details only when approved, expires_at only while held.
type purchaseView struct {
	Approved       *bool             `json:"approved,omitempty"`
	ConfirmationID string            `json:"confirmation_id"`
	Status         string            `json:"status"`
	ProfileIndex   int               `json:"profile_index"`
	MerchantName   string            `json:"merchant_name"`
	ItemName       string            `json:"item_name"`
	AmountUSD      botpay.Money      `json:"amount_usd"`
	MissingDigits  *string           `json:"missing_digits,omitempty"`
	ExpiryMonth    *string           `json:"expiry_month,omitempty"`
	ExpiryYear     *string           `json:"expiry_year,omitempty"`
	ExpiresAt      *botpay.Timestamp `json:"expires_at,omitempty"`
	Message        string            `json:"message"`
}

func viewPurchase(o spending.CheckoutOutcome) purchaseView {
	p := o.Purchase
	v := purchaseView{ConfirmationID: p.ID, Status: p.Status, ProfileIndex: p.ProfileIndex, MerchantName: p.MerchantName,
		ItemName: p.ItemName, AmountUSD: p.Amount}
	if d := o.Details; d != nil && p.Status == botpay.PurchaseApproved {
		v.MissingDigits, v.ExpiryMonth, v.ExpiryYear = &d.MissingDigits, &d.ExpiryMonth, &d.ExpiryYear
	}
	switch p.Status {
	case botpay.PurchasePending:
		v.ExpiresAt = timestamp(p.ExpiresAt)
		v.Message = "Waiting for your owner's decision until " + botpay.FormatTime(p.ExpiresAt) +
			". Poll every 5 seconds for the first minute, then every 15 seconds."
	case botpay.PurchaseApproved:
		v.Message = "Approved. Complete the purchase with these card details."
	case botpay.PurchaseDenied:
		v.Message = "Your owner denied this purchase."
	case botpay.PurchaseExpired:
		v.Message = "Your owner did not decide within 15 minutes; the purchase expired."
	}
	return v
}

// viewCheckout is the answer of a new checkout: 200 approved or 202 held.
func viewCheckout(o spending.CheckoutOutcome) (int, purchaseView) {
	v := viewPurchase(o)
	approved := o.Purchase.Status == botpay.PurchaseApproved
	v.Approved = &approved
	if approved {
		return 200, v
	}
	v.Status = botpay.PurchasePendingConfirmation
	v.Message = "Your owner must approve this purchase. Poll GET /api/v1/bot/merchant/checkout/status?confirmation_id=" +
		o.Purchase.ID + " every 5 seconds for the first minute, then every 15 seconds, until " + botpay.FormatTime(o.Purchase.ExpiresAt) + "."
	return 202, v
}

func timestamp(t time.Time) *botpay.Timestamp {
	if t.IsZero() {
		return nil
	}
	ts := botpay.Timestamp(t)
	return &ts
}

type approvalView struct {
	Kind         string            `json:"kind"`
	ID           any               `json:"id"` // chk_… for purchases, an integer for signing requests
	BotID        string            `json:"bot_id"`
	AmountUSD    any               `json:"amount_usd"` // botpay.Money or botpay.Micro
	MerchantName string            `json:"merchant_name"`
	ItemName     string            `json:"item_name"`
	Status       string            `json:"status"`
	ExpiresAt    *botpay.Timestamp `json:"expires_at"`
	CreatedAt    botpay.Timestamp  `json:"created_at"`
}

func viewApproval(a app.Approval) approvalView {
	if a.Kind == "signing" {
		g := a.Signing
		at := g.ExpiresAt
		return approvalView{Kind: g.Kind, ID: g.ID, BotID: g.BotID, AmountUSD: g.AmountUSD, MerchantName: g.MerchantName,
			ItemName: g.ItemName, Status: g.Status, ExpiresAt: &at, CreatedAt: g.CreatedAt}
	}
	p := a.Purchase
	return approvalView{Kind: a.Kind, ID: p.ID, BotID: p.BotID, AmountUSD: p.Amount, MerchantName: p.MerchantName,
		ItemName: p.ItemName, Status: p.Status, ExpiresAt: timestamp(p.ExpiresAt), CreatedAt: botpay.Timestamp(p.CreatedAt)}
}

type profileView struct {
	ProfileIndex            int          `json:"profile_index"`
	AllowanceDuration       string       `json:"allowance_duration"`
	AllowanceUSD            botpay.Money `json:"allowance_usd"`
	HumanPermissionRequired bool         `json:"human_permission_required"`
}

type cardLimitsView struct {
	PerTransactionUSD *botpay.Money `json:"per_transaction_usd"`
	DailyUSD          *botpay.Money `json:"daily_usd"`
	MonthlyUSD        *botpay.Money `json:"monthly_usd"`
}

// cardView never carries digits: the owner entered them, the bot receives
// them only through an approved checkout.
type cardView struct {
	CardID           string           `json:"card_id"`
	BotID            string           `json:"bot_id"`
	CardName         string           `json:"card_name"`
	Status           string           `json:"status"`
	RealProfileIndex int              `json:"real_profile_index"`
	Profiles         []profileView    `json:"profiles"`
	Limits           cardLimitsView   `json:"limits"`
	CreatedAt        botpay.Timestamp `json:"created_at"`
}

func viewCard(c botpay.Card) cardView {
	v := cardView{CardID: c.ID, BotID: c.BotID, CardName: c.Name, Status: c.Status, RealProfileIndex: c.RealProfileIndex,
		Profiles: make([]profileView, len(c.Profiles)), CreatedAt: botpay.Timestamp(c.CreatedAt),
		Limits: cardLimitsView{PerTransactionUSD: c.Limits.PerTransaction, DailyUSD: c.Limits.Daily, MonthlyUSD: c.Limits.Monthly}}
	for i, p := range c.Profiles {
		v.Profiles[i] = profileView{ProfileIndex: p.Index, AllowanceDuration: p.AllowanceDuration, AllowanceUSD: p.Allowance,
			HumanPermissionRequired: p.HumanPermissionRequired}
	}
	return v
}

type procurementView struct {
	AllowedDomains   []string `json:"allowed_domains"`
	BlockedDomains   []string `json:"blocked_domains"`
	AllowedMerchants []string `json:"allowed_merchants"`
	BlockedMerchants []string `json:"blocked_merchants"`
	// AllowedRecipients are EIP-55 checksummed.
	AllowedRecipients []string          `json:"allowed_recipients"`
	BlockedRecipients []string          `json:"blocked_recipients"`
	UpdatedAt         *botpay.Timestamp `json:"updated_at"`
}

func viewProcurement(p botpay.Procurement) procurementView {
	return procurementView{AllowedDomains: p.AllowedDomains, BlockedDomains: p.BlockedDomains,
		AllowedMerchants: p.AllowedMerchants, BlockedMerchants: p.BlockedMerchants, AllowedRecipients: nonNilList(p.AllowedRecipients),
		BlockedRecipients: nonNilList(p.BlockedRecipients),
		UpdatedAt:         timestamp(p.UpdatedAt)}
}

func nonNilList(l []string) []string {
	if l == nil {
		return []string{}
	}
	return l
}

type taskInstructionsView struct {
	ProfileIndex *int   `json:"profile_index"`
	MerchantName string `json:"merchant_name"`
	MerchantURL  string `json:"merchant_url"`
	ItemName     string `json:"item_name"`
	AmountCents  int64  `json:"amount_cents"`
	Category     string `json:"category"`
}

type taskView struct {
	HasTask      bool                  `json:"has_task"`
	TaskType     string                `json:"task_type,omitempty"`
	TaskID       string                `json:"task_id,omitempty"`
	Instructions *taskInstructionsView `json:"instructions,omitempty"`
	Message      string                `json:"message"`
}

func viewTask(t botpay.Task, ok bool) taskView {
	if !ok {
		return taskView{Message: "No task is waiting. Your owner queues purchase tasks from the dashboard."}
	}
	return taskView{HasTask: true, TaskType: "purchase", TaskID: t.ID,
		Instructions: &taskInstructionsView{ProfileIndex: t.ProfileIndex, MerchantName: t.MerchantName, MerchantURL: t.MerchantURL,
			ItemName: t.ItemName, AmountCents: int64(t.Amount), Category: t.Category},
		Message: "Buy " + t.ItemName + " at " + t.MerchantName + ": call POST /api/v1/bot/merchant/checkout with these instructions and task_id " + t.ID + "."}
}
