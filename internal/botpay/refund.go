package botpay

import (
	"strings"
	"time"
)

// Refund states. A refund that moves money inside the ledger succeeds in
// the transaction that records it; an on-chain refund is pending until its
// transfer is confirmed, and failed if the chain refused it.
const (
	RefundSucceeded = "succeeded"
	RefundPending   = "pending"
	RefundFailed    = "failed"
)

// EventRefundCompleted is written with every refund that moved money.
const EventRefundCompleted = "wallet.refund.completed"

// Refund error codes.
const (
	CodeRefundExceedsAmount = "refund_exceeds_amount"
	CodeNotRefundable       = "not_refundable"
	// CodeRefundRefused: the chain would refuse an on-chain refund's
	// transfer (its simulation fails); nothing was sent.
	CodeRefundRefused = "refund_refused"
)

// MaxRefundReason bounds the free-text reason kept with a refund.
const MaxRefundReason = 500

// Refund gives money back for a purchase (the merchant returned it to the
// bot) or for a sale (the selling bot returned it to its buyer). Exactly one
// of PurchaseID and SaleID is set.
type Refund struct {
	ID          string // rf_…
	BotID       string
	PurchaseID  string
	SaleID      string
	Amount      Money
	Reason      string
	Status      string
	TxHash      string // on-chain refunds of x402 sales
	CreatedAt   time.Time
	CompletedAt time.Time
}

// RefundRequest is what the caller asked for: Amount nil means everything
// not yet refunded.
type RefundRequest struct {
	Amount *Money
	Reason string
}

// Validate checks the request's own fields; what may still be refunded is
// decided by RefundAmount under the origin's lock.
func (r RefundRequest) Validate() error {
	details := map[string]string{}
	if r.Amount != nil && *r.Amount <= 0 {
		details["amount_usd"] = "must be greater than 0"
	}
	if len(r.Reason) > MaxRefundReason {
		details["reason"] = "must be at most 500 characters"
	}
	if strings.ContainsRune(r.Reason, 0) {
		details["reason"] = "must not contain NUL characters"
	}
	if len(details) > 0 {
		return ValidationError(details)
	}
	return nil
}

// RefundAmount decides how much a refund moves, given the origin's amount
// and what earlier refunds of it already gave back: the whole remainder by
// default, and never more than the remainder.
func RefundAmount(origin, refunded Money, requested *Money) (Money, error) {
	remaining := origin - refunded
	amount := remaining
	if requested != nil {
		amount = *requested
	}
	if remaining <= 0 || amount > remaining {
		return 0, Errorf(KindConflict, CodeRefundExceedsAmount,
			"$%s of $%s is left to refund; $%s was asked", remaining.USD(), origin.USD(), amount.USD())
	}
	return amount, nil
}
