package e2e

import (
	"testing"

	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
	"github.com/botpay/botpay/internal/testserver"
)

// TestSignRefusesWhatProcurementControlsForbid: the domain of resource_url
// and the recipient are checked against the controls, after the limits.
func TestSignRefusesWhatProcurementControlsForbid(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		r := raw{t: t, srv: testserver.Start(t, d, x402Opts)}
		b := r.walletBot("proc", 1)
		r.must(200, "PUT", "/api/v1/owner/bots/"+b.ID+"/procurement", b.OwnerToken, map[string]any{
			"blocked_domains": []string{"blocked.example"}, "blocked_merchants": []string{"0x0000000000000000000000000000000000000bad"}})
		for name, c := range map[string]struct {
			url, to, reason string
		}{
			"blocked subdomain": {"https://api.blocked.example/x", vendor, "domain api.blocked.example is blocked by procurement controls"},
			"blocked recipient": {"https://fine.example/x", "0x0000000000000000000000000000000000000BAD", "merchant is blocked by procurement controls"},
		} {
			a := r.sign(b, map[string]any{"resource_url": c.url, "amount_usdc": 1000, "recipient_address": c.to})
			if a.Status != 403 || a.json(t)["error"] != "guardrail_blocked" || a.json(t)["reason"] != c.reason {
				t.Errorf("%s: %d %s", name, a.Status, a.Body)
			}
		}
		// Block-lists bind the recipient as allow-lists do: a resource that
		// cannot be asked whom it wants paid is not signed for (the signed
		// path is TestSigningIsBoundToTheRecipientTheResourceAsksFor).
		a := r.sign(b, map[string]any{"resource_url": "https://fine.example/x", "amount_usdc": 1000, "recipient_address": vendor})
		if a.Status != 403 || a.json(t)["reason"] != "the resource could not be reached to confirm whom it asks to be paid" {
			t.Errorf("an unreachable resource under a block-list: %d %s", a.Status, a.Body)
		}
	})
}
