package e2e

import (
	"context"
	"testing"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/store/storetest"
	"github.com/botpay/botpay/internal/testserver"
)

// fixedProcurement stands in for the spending issue's procurement
// storage: the same controls for every bot.
type fixedProcurement botpay.Procurement

func (f fixedProcurement) Procurement(context.Context, string) (botpay.Procurement, error) {
	return botpay.Procurement(f), nil
}

// TestSignRefusesWhatProcurementControlsForbid: the domain of resource_url
// and the recipient are checked against the controls, after the limits.
func TestSignRefusesWhatProcurementControlsForbid(t *testing.T) {
	t.Parallel()
	for _, d := range storetest.Dialects {
		t.Run(string(d), func(t *testing.T) {
			t.Parallel()
			opts := x402Opts
			opts.Procurement = fixedProcurement{BlockedDomains: []string{"blocked.example"}, BlockedMerchants: []string{"0x0000000000000000000000000000000000000bad"}}
			r := raw{t: t, srv: testserver.Start(t, d, opts)}
			b := r.walletBot("proc", 1)
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
			checkSigned(t, r.sign(b, map[string]any{"resource_url": "https://fine.example/x", "amount_usdc": 1000, "recipient_address": vendor}), b.Address, 1000)
		})
	}
}
