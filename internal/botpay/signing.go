package botpay

import (
	"slices"
	"strings"
	"time"
)

// Signing request states (docs/api.md). A request is signed at once or
// held pending the owner; a held one is then signed (approved) or denied;
// a signature later paid inside this service is settled. A pending request
// past its expiry is reported as expired.
const (
	SigningSigned   = "signed"
	SigningPending  = "pending"
	SigningDenied   = "denied"
	SigningSettled  = "settled"
	SigningExpired  = "expired"
	SigningApproved = "approved"
)

// Signing limits (docs/api.md): a signature lives 5 minutes unless the
// request asks otherwise and never more than an hour, so a leaked one lapses
// soon; an owner has 15 minutes to decide a held request.
const (
	SignatureDefaultValidity = 5 * time.Minute
	SignatureMaxValidity     = time.Hour
	SigningApprovalWindow    = 15 * time.Minute
	// MaxSigningAmount bounds one authorization: one million USDC.
	MaxSigningAmount Micro = 1_000_000 * 1_000_000
)

// ProcurementAllows checks a payment to host (the resource's domain) and
// recipient (a chain address) against p. A domain entry matches the host
// itself and its subdomains; a merchant entry matches the host or the
// recipient address, case-insensitively. Blocks win over allows.
func ProcurementAllows(host, recipient string, p Procurement) (bool, string) {
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	recipient = strings.ToLower(recipient)
	if slices.ContainsFunc(p.BlockedDomains, func(d string) bool { return domainMatches(host, d) }) {
		return false, "domain " + host + " is blocked by procurement controls"
	}
	if len(p.AllowedDomains) > 0 && !slices.ContainsFunc(p.AllowedDomains, func(d string) bool { return domainMatches(host, d) }) {
		return false, "domain " + host + " is not in the allowed domains of procurement controls"
	}
	merchant := func(m string) bool {
		m = strings.ToLower(strings.TrimSpace(m))
		return m != "" && (m == recipient || domainMatches(host, m))
	}
	if slices.ContainsFunc(p.BlockedRecipients, func(a string) bool { return strings.EqualFold(a, recipient) }) {
		return false, "recipient " + recipient + " is blocked by procurement controls"
	}
	if slices.ContainsFunc(p.BlockedMerchants, merchant) {
		return false, "merchant is blocked by procurement controls"
	}
	if len(p.AllowedMerchants) > 0 && !slices.ContainsFunc(p.AllowedMerchants, merchant) {
		return false, "merchant is not in the allowed merchants of procurement controls"
	}
	if len(p.AllowedRecipients) > 0 && !slices.ContainsFunc(p.AllowedRecipients, func(a string) bool { return strings.EqualFold(a, recipient) }) {
		return false, "recipient " + recipient + " is not in the allowed recipients of procurement controls"
	}
	return true, ""
}

// SigningCheck is everything the guardrail chain of a signing request
// looks at. Spent amounts are what is already committed in the window
// (card spends and holds, signatures and held signing requests), without
// this request.
type SigningCheck struct {
	Amount          Micro
	Guardrails      Guardrails
	Master          *MasterGuardrails
	BotSpentDay     Money
	BotSpentMonth   Money
	OwnerSpentDay   Money
	OwnerSpentMonth Money
	Host            string
	Recipient       string
	Procurement     Procurement
}

// SigningVerdict is the outcome: blocked with a reason, held for the
// owner, or signed at once.
type SigningVerdict struct {
	Blocked       bool
	Reason        string
	NeedsApproval bool
}

// EvaluateSigning runs the API reference's chain in its order: master
// guardrails, approval mode, threshold, the bot's per-transaction, daily
// and monthly limits, procurement controls. Approval mode and threshold
// only mark the request as needing the owner; the chain goes on, so a
// request that a limit or a control refuses is refused, not held.
func EvaluateSigning(c SigningCheck) SigningVerdict {
	amount := c.Amount.CentsCeil()
	block := func(reason string) SigningVerdict { return SigningVerdict{Blocked: true, Reason: reason} }
	if m := c.Master; m != nil {
		switch {
		case m.PerTransaction != nil && amount > *m.PerTransaction:
			return block("amount exceeds the owner's master per-transaction limit of $" + m.PerTransaction.USD())
		case m.DailyBudget != nil && c.OwnerSpentDay+amount > *m.DailyBudget:
			return block("amount exceeds the owner's master daily budget of $" + m.DailyBudget.USD())
		case m.MonthlyBudget != nil && c.OwnerSpentMonth+amount > *m.MonthlyBudget:
			return block("amount exceeds the owner's master monthly budget of $" + m.MonthlyBudget.USD())
		}
	}
	var v SigningVerdict
	g := c.Guardrails
	switch g.ApprovalMode {
	case ApprovalAskForEverything:
		v.NeedsApproval = true
	case ApprovalUnderThreshold:
		v.NeedsApproval = g.AskApprovalAbove != nil && amount > *g.AskApprovalAbove
	default:
		// auto_approve_by_category: a signing request names no category, so
		// none of the approved categories can vouch for it.
		v.NeedsApproval = true
	}
	switch {
	case amount > g.PerTransaction:
		return block("amount exceeds the per-transaction limit of $" + g.PerTransaction.USD())
	case c.BotSpentDay+amount > g.Daily:
		return block("amount exceeds the daily limit of $" + g.Daily.USD())
	case c.BotSpentMonth+amount > g.Monthly:
		return block("amount exceeds the monthly limit of $" + g.Monthly.USD())
	}
	if ok, reason := ProcurementAllows(c.Host, c.Recipient, c.Procurement); !ok {
		return block(reason)
	}
	return v
}

// SettlementTolerance is the clock skew settlement allows at both ends of
// an authorization's validity window: an authorization is still accepted
// until this long after its validBefore, so its reservation lasts as long.
const SettlementTolerance = 5 * time.Second
