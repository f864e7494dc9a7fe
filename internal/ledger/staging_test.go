package ledger

import (
	"strings"
	"testing"

	"github.com/botpay/botpay/internal/botpay"
)

// The staging SQL follows whatever the rule says, status by status.
func TestStagingConditionIsWrittenOutFromTheRule(t *testing.T) {
	never := stagingCondition(func(botpay.DeliveryTarget) bool { return false })
	if strings.Contains(never, "FALSE") || strings.Contains(never, "callback_url") {
		t.Errorf("a rule that never attempts stages under conditions: %s", never)
	}
	always := stagingCondition(func(botpay.DeliveryTarget) bool { return true })
	if strings.Contains(always, "TRUE") || strings.Contains(always, "callback_url") {
		t.Errorf("a rule that always attempts stages sometimes: %s", always)
	}
	for _, status := range []string{botpay.WebhookUnreachable, botpay.WebhookNone} {
		if !strings.Contains(stagedWhen, "WHEN '"+status+"' THEN TRUE") {
			t.Errorf("events of a bot whose webhook is %s are not always staged: %s", status, stagedWhen)
		}
	}
	want := "WHEN 'active' THEN ((COALESCE(callback_url, '') = '' AND tunnel_token_hash IS NULL))"
	if !strings.Contains(stagedWhen, want) {
		t.Errorf("an active webhook stages other than without callback and tunnel: %s", stagedWhen)
	}
}
