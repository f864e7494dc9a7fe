package botpay

import (
	"strings"
	"testing"
)

func TestHoldReasonNamesTheGuardrailThatAsksTheOwner(t *testing.T) {
	t.Parallel()
	above := Money(5000)
	base := Guardrails{ApprovalMode: ApprovalUnderThreshold, AskApprovalAbove: &above, ApprovedCategories: []string{"office"}}
	byCategory := base
	byCategory.ApprovalMode = ApprovalByCategory
	askAll := base
	askAll.ApprovalMode = ApprovalAskForEverything
	cases := []struct {
		name    string
		amount  Money
		cat     string
		g       Guardrails
		profile PaymentProfile
		want    string // "" when nothing holds it
	}{
		{"under the threshold", 4000, "", base, PaymentProfile{}, ""},
		{"above the threshold", 6000, "", base, PaymentProfile{}, "the amount is above $50.00"},
		{"ask for everything", 100, "office", askAll, PaymentProfile{}, "ask me for everything"},
		{"profile requires permission", 100, "", base, PaymentProfile{Index: 2, HumanPermissionRequired: true}, "payment profile 2 requires your permission"},
		{"approved category", 100, "Office", byCategory, PaymentProfile{}, ""},
		{"other category", 100, "travel", byCategory, PaymentProfile{}, "travel is not an approved category"},
		{"no category", 100, "", byCategory, PaymentProfile{}, "names no category"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got := HoldReason(CheckoutRequest{Amount: c.amount, Category: c.cat}, c.g, c.profile)
			if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
				t.Errorf("HoldReason = %q, want one containing %q", got, c.want)
			}
			verdict, err := approvalMode(CheckoutRequest{Amount: c.amount, Category: c.cat}, c.g, c.profile)
			if err != nil || (verdict == Hold) != (got != "") {
				t.Errorf("approvalMode says %v (%v) but HoldReason says %q", verdict, err, got)
			}
		})
	}
}
