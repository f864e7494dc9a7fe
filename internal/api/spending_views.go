package api

import (
	"time"

	"github.com/botpay/botpay/internal/app"
	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/spending"
	"github.com/botpay/botpay/wire"
)

// viewPurchase is a checkout answer and a checkout status answer: card
// details only when approved, expires_at only while held.
func viewPurchase(o spending.CheckoutOutcome) wire.Purchase {
	p := o.Purchase
	v := wire.Purchase{ConfirmationID: p.ID, Status: p.Status, ProfileIndex: p.ProfileIndex, MerchantName: p.MerchantName,
		ItemName: p.ItemName, AmountUSD: usd(p.Amount)}
	if d := o.Details; d != nil && p.Status == botpay.PurchaseApproved {
		v.MissingDigits, v.ExpiryMonth, v.ExpiryYear = &d.MissingDigits, &d.ExpiryMonth, &d.ExpiryYear
	}
	switch p.Status {
	case botpay.PurchasePending:
		v.ExpiresAt = optTime(p.ExpiresAt)
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
func viewCheckout(o spending.CheckoutOutcome) (int, wire.Purchase) {
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

// viewApproval is a held purchase or signing request; a purchase's id is
// its chk_… text, a signing request's its integer, and the amount is
// cents for one and micro-USDC for the other, so it is written as the
// number each marshals to.
func viewApproval(a app.Approval) wire.Approval {
	if a.Kind == "signing" {
		return viewSigningApproval(a.Signing)
	}
	p := a.Purchase
	return wire.Approval{Kind: a.Kind, ID: p.ID, BotID: p.BotID, AmountUSD: dollars(p.Amount), MerchantName: p.MerchantName,
		ItemName: p.ItemName, Status: p.Status, ExpiresAt: optTime(p.ExpiresAt), CreatedAt: at(p.CreatedAt)}
}

// viewSigningApproval is a held signing request: its id is an integer and
// its amount micro-USDC, written with up to six decimals.
func viewSigningApproval(g app.SigningApproval) wire.Approval {
	return wire.Approval{Kind: g.Kind, ID: g.ID, BotID: g.BotID, AmountUSD: dollars(g.AmountUSD), MerchantName: g.MerchantName,
		ItemName: g.ItemName, Status: g.Status, ExpiresAt: wire.Ptr(wire.At(time.Time(g.ExpiresAt))),
		CreatedAt: wire.At(time.Time(g.CreatedAt))}
}

// viewCard never carries digits: the owner entered them, the bot receives
// them only through an approved checkout.
func viewCard(c botpay.Card) wire.Card {
	v := wire.Card{CardID: c.ID, BotID: c.BotID, CardName: c.Name, Status: c.Status, RealProfileIndex: c.RealProfileIndex,
		Profiles: make([]wire.CardProfile, len(c.Profiles)), CreatedAt: at(c.CreatedAt),
		Limits: wire.CardLimits{PerTransactionUSD: optUSD(c.Limits.PerTransaction), DailyUSD: optUSD(c.Limits.Daily),
			MonthlyUSD: optUSD(c.Limits.Monthly)}}
	for i, p := range c.Profiles {
		v.Profiles[i] = wire.CardProfile{ProfileIndex: p.Index, AllowanceDuration: p.AllowanceDuration,
			AllowanceUSD: usd(p.Allowance), HumanPermissionRequired: p.HumanPermissionRequired}
	}
	return v
}

// viewProcurement writes the recipient lists as [] when empty (they are
// EIP-55 checksummed); the other lists as they are stored.
func viewProcurement(p botpay.Procurement) wire.Procurement {
	return wire.Procurement{AllowedDomains: p.AllowedDomains, BlockedDomains: p.BlockedDomains,
		AllowedMerchants: p.AllowedMerchants, BlockedMerchants: p.BlockedMerchants,
		AllowedRecipients: nonNilList(p.AllowedRecipients), BlockedRecipients: nonNilList(p.BlockedRecipients),
		UpdatedAt: optTime(p.UpdatedAt)}
}

func nonNilList(l []string) []string {
	if l == nil {
		return []string{}
	}
	return l
}

func viewTask(t botpay.Task, ok bool) wire.Task {
	if !ok {
		return wire.Task{Message: "No task is waiting. Your owner queues purchase tasks from the dashboard."}
	}
	return wire.Task{HasTask: true, TaskType: wire.Ptr("purchase"), TaskID: wire.Ptr(t.ID),
		Instructions: &wire.TaskInstructions{ProfileIndex: t.ProfileIndex, MerchantName: t.MerchantName, MerchantURL: t.MerchantURL,
			ItemName: t.ItemName, AmountCents: int64(t.Amount), Category: t.Category},
		Message: "Buy " + t.ItemName + " at " + t.MerchantName + ": call POST /api/v1/bot/merchant/checkout with these instructions and task_id " + t.ID + "."}
}
