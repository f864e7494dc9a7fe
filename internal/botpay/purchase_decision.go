package botpay

import "time"

// PurchaseDecision is what an owner's decision on a held purchase changes:
// the purchase with its new status and the event that tells the bot.
// Gone is set when the hold had already ended: the purchase is expired
// (its hold released, purchase.expired written and committed) and Gone is
// the answer.
type PurchaseDecision struct {
	Purchase Purchase
	Event    Event
	Gone     *Error
}

// ErrPurchaseGone answers a decision on a hold whose window has passed.
var ErrPurchaseGone = Errorf(KindGone, CodeExpired, "the approval window of this purchase has passed")

// DecidePurchase decides an owner's approval or denial of p, read under its
// bot's wallet lock at now: a pending hold is approved or denied, an
// overdue one expires, and a decided purchase is 409 already_decided.
func DecidePurchase(p Purchase, approve bool, now time.Time) (PurchaseDecision, error) {
	switch p.StatusAt(now) {
	case PurchaseExpired:
		p.Status, p.DecidedAt = PurchaseExpired, now
		return PurchaseDecision{Purchase: p, Event: PurchaseExpiredEvent(p, now), Gone: ErrPurchaseGone}, nil
	case PurchasePending:
	default:
		return PurchaseDecision{}, Errorf(KindConflict, CodeAlreadyDecided, "this purchase was already %s", p.Status)
	}
	p.DecidedAt = now
	if !approve {
		p.Status = PurchaseDenied
		return PurchaseDecision{Purchase: p, Event: NewEvent(p.BotID, PurchaseRejectedData{
			CheckoutID: PurchaseCheckoutID(p.ID), Amount: p.Amount, Currency: "USD", Vendor: p.MerchantName, Reason: "denied by owner",
		}, now)}, nil
	}
	p.Status = PurchaseApproved
	return PurchaseDecision{Purchase: p, Event: NewEvent(p.BotID, PurchaseApprovedData{
		CheckoutID: PurchaseCheckoutID(p.ID), Amount: p.Amount, Currency: "USD", Vendor: p.MerchantName,
		Description: PurchaseDescription(p), ApprovalMode: "owner",
	}, now)}, nil
}

// PurchaseExpiredEvent is purchase.expired of a hold whose window passed
// without a decision.
func PurchaseExpiredEvent(p Purchase, now time.Time) Event {
	return NewEvent(p.BotID, PurchaseExpiredData{
		CheckoutID: PurchaseCheckoutID(p.ID), Amount: p.Amount, Currency: "USD", Vendor: p.MerchantName,
		Message: "Your owner did not decide on " + p.ItemName + " within 15 minutes; the purchase expired and its hold was released.",
	}, now)
}

// PurchaseDescription is how a purchase reads in the ledger and in its
// events.
func PurchaseDescription(p Purchase) string {
	return p.ItemName + " at " + p.MerchantName + " (" + p.ID + ")"
}
