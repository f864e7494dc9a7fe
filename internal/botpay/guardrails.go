package botpay

import "time"

// Approval modes (docs/api.md).
const (
	ApprovalAskForEverything = "ask_for_everything"
	ApprovalUnderThreshold   = "auto_approve_under_threshold"
	ApprovalByCategory       = "auto_approve_by_category"
)

// ValidApprovalMode reports whether m is one of the three modes.
func ValidApprovalMode(m string) bool {
	return m == ApprovalAskForEverything || m == ApprovalUnderThreshold || m == ApprovalByCategory
}

// Guardrails are a bot's spending rules (docs/api.md).
type Guardrails struct {
	ApprovalMode       string
	PerTransaction     Money
	Daily              Money
	Monthly            Money
	AskApprovalAbove   *Money
	RecurringAllowed   bool
	Notes              *string
	ApprovedCategories []string
	BlockedCategories  []string
	UpdatedAt          time.Time
}

// DefaultGuardrails are conservative: small limits, and anything above $25
// waits for the owner. Owners loosen them deliberately.
func DefaultGuardrails(now time.Time) Guardrails {
	above := Money(2500)
	return Guardrails{
		ApprovalMode:       ApprovalUnderThreshold,
		PerTransaction:     10000,
		Daily:              25000,
		Monthly:            100000,
		AskApprovalAbove:   &above,
		ApprovedCategories: []string{},
		BlockedCategories:  []string{},
		UpdatedAt:          now,
	}
}

// MasterGuardrails are an owner's limits across all of their bots; a nil
// field means no limit.
type MasterGuardrails struct {
	PerTransaction *Money
	DailyBudget    *Money
	MonthlyBudget  *Money
	UpdatedAt      time.Time
}
