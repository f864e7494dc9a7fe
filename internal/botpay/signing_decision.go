package botpay

import (
	"errors"
	"time"
)

// SpentTotals is what is committed in the current UTC day and month, in
// cents: card spends and holds, plus signed, held and settled signing
// requests, for the bot and across its owner's bots.
type SpentTotals struct {
	BotDay, BotMonth, OwnerDay, OwnerMonth Money
}

// SigningFacts are what a signing request is judged on, read under its
// processor wallet's lock, which nothing can change until the transaction
// ends.
type SigningFacts struct {
	// Frozen: the owner has frozen the bot; read under the lock, so a
	// freeze that commits first is seen.
	Frozen      bool
	Guardrails  Guardrails
	Master      *MasterGuardrails // nil when the owner set none
	Procurement Procurement
	Spent       SpentTotals
	// Available is what the wallet can still promise: its balance (on
	// chain in live mode) less what live signatures and pending on-chain
	// refunds already promise.
	Available Micro
}

// SigningAsk is the request being judged.
type SigningAsk struct {
	Amount    Micro
	Host      string // the resource's domain
	Recipient string
	// Bound: the recipient was checked against what the resource itself
	// asks to be paid.
	Bound bool
}

// Errors of deciding a signing request.
var (
	// ErrNoProcessorWallet is the 404 of the signing endpoint and of
	// funding the processor_wallet rail (docs/decisions.md).
	ErrNoProcessorWallet  = Errorf(KindNotFound, CodeNoProcessorWallet, "the bot has no processor wallet")
	ErrInsufficientTokens = Errorf(KindForbidden, CodeInsufficientTokens,
		"the processor wallet's available balance does not cover the amount")
	// ErrBindRecipientFirst: the owner has procurement lists, so the
	// request must first be bound to the resource's own requirements and
	// then decided again.
	ErrBindRecipientFirst = errors.New("signing: bind the recipient to the resource first")
)

// DecideSigning judges a signing request on the facts: blocked (the
// verdict's reason), held for the owner, or signed at once. A wallet that
// cannot cover the amount is ErrInsufficientTokens; an unbound request
// under procurement lists that is not blocked is ErrBindRecipientFirst.
func DecideSigning(f SigningFacts, ask SigningAsk) (SigningVerdict, error) {
	if f.Frozen {
		return SigningVerdict{Blocked: true, Reason: "the owner has frozen this bot's wallet"}, nil
	}
	if ask.Amount > f.Available {
		return SigningVerdict{}, ErrInsufficientTokens
	}
	v := EvaluateSigning(SigningCheck{Amount: ask.Amount, Guardrails: f.Guardrails, Master: f.Master,
		BotSpentDay: f.Spent.BotDay, BotSpentMonth: f.Spent.BotMonth, OwnerSpentDay: f.Spent.OwnerDay, OwnerSpentMonth: f.Spent.OwnerMonth,
		Host: ask.Host, Recipient: ask.Recipient, Procurement: f.Procurement})
	if !v.Blocked && f.Procurement.BindsRecipient() && !ask.Bound {
		return v, ErrBindRecipientFirst
	}
	return v, nil
}

// Errors of an owner's decision on a held signing request (as for held
// purchases, docs/decisions.md).
var (
	ErrSigningAlreadyDecided = Errorf(KindConflict, CodeAlreadyDecided, "the request has already been decided")
	ErrSigningExpired        = Errorf(KindGone, CodeExpired, "the approval window of the request has closed")
)

// DecideHeldSigning says whether the owner may still decide r at now: only
// a pending request inside its approval window can be.
func DecideHeldSigning(r SigningRequest, now time.Time) error {
	switch {
	case r.Status == SigningExpired:
		return ErrSigningExpired
	case r.Status != SigningPending:
		return ErrSigningAlreadyDecided
	case r.ExpiresAt != nil && !now.Before(*r.ExpiresAt):
		return ErrSigningExpired
	}
	return nil
}

// SignatureReservedUntil is when a signature's funds stop being promised:
// not at its validBefore but as long as settlement still accepts it
// (SettlementTolerance later), or a second signature made in between could
// promise the same funds.
func SignatureReservedUntil(validBefore int64) time.Time {
	return time.Unix(validBefore, 0).Add(SettlementTolerance)
}
