package botpay

import "strconv"

// HoldReason says, in the owner's words, which guardrail asks the owner to
// decide a purchase: the mirror of approvalMode, for the decision page. It
// is empty when none would hold it.
func HoldReason(req CheckoutRequest, g Guardrails, p PaymentProfile) string {
	switch {
	case p.HumanPermissionRequired:
		return "the card's payment profile " + strconv.Itoa(p.Index) + " requires your permission for every purchase"
	case g.ApprovalMode == ApprovalAskForEverything:
		return ApprovalModeReason(g.ApprovalMode, nil)
	case g.ApprovalMode == ApprovalUnderThreshold && g.AskApprovalAbove != nil && req.Amount > *g.AskApprovalAbove:
		return ApprovalModeReason(g.ApprovalMode, g.AskApprovalAbove)
	case g.ApprovalMode == ApprovalByCategory && req.Category == "":
		return "approval mode \"auto-approve approved categories\": the purchase names no category"
	case g.ApprovalMode == ApprovalByCategory && !anyName(req.Category, g.ApprovedCategories):
		return "approval mode \"auto-approve approved categories\": " + req.Category + " is not an approved category"
	}
	return ""
}

// ApprovalModeReason describes an approval mode that held a request; above
// is the threshold of auto_approve_under_threshold.
func ApprovalModeReason(mode string, above *Money) string {
	switch mode {
	case ApprovalAskForEverything:
		return "approval mode \"ask me for everything\""
	case ApprovalUnderThreshold:
		if above == nil {
			return "approval mode \"auto-approve under the threshold\""
		}
		return "approval mode \"auto-approve under the threshold\": the amount is above $" + above.USD()
	case ApprovalByCategory:
		return "approval mode \"auto-approve approved categories\": an x402 payment names no category"
	}
	return "your guardrails"
}
