package payments

import (
	"errors"
	"strings"
	"testing"

	"github.com/botpay/botpay/internal/x402"
)

func TestRequirementsBindTheRecipientAndTheAmount(t *testing.T) {
	t.Parallel()
	const payTo = "0x209693Bc6afc0C5328bA36FaF03C514EF312287C"
	to, _ := x402.ParseAddress(payTo)
	cases := []struct {
		name   string
		body   string
		amount int64
		reason string // "" when the request may be signed
	}{
		{"same payTo, same amount", `{"accepts":[{"payTo":"` + payTo + `","maxAmountRequired":"50000"}]}`, 50_000, ""},
		{"payTo in lower case", `{"accepts":[{"payTo":"` + strings.ToLower(payTo) + `","maxAmountRequired":"50000"}]}`, 1, ""},
		{"amount as a bare number", `{"accepts":[{"payTo":"` + payTo + `","maxAmountRequired":50000}]}`, 50_000, ""},
		{"the second requirement matches", `{"accepts":[{"payTo":"0x0000000000000000000000000000000000000001","maxAmountRequired":"9"},` +
			`{"payTo":"` + payTo + `","maxAmountRequired":"10"}]}`, 10, ""},
		{"more than asked", `{"accepts":[{"payTo":"` + payTo + `","maxAmountRequired":"50000"}]}`, 50_001, "asks less"},
		{"another payTo", `{"accepts":[{"payTo":"0x0000000000000000000000000000000000000001","maxAmountRequired":"50000"}]}`, 1, "payTo"},
		{"payTo that is no address", `{"accepts":[{"payTo":"vendor.example","maxAmountRequired":"50000"}]}`, 1, "payTo"},
		{"amount that is no number", `{"accepts":[{"payTo":"` + payTo + `","maxAmountRequired":"lots"}]}`, 1, "asks less"},
		{"negative amount", `{"accepts":[{"payTo":"` + payTo + `","maxAmountRequired":"-5"}]}`, 1, "asks less"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			accepts, err := readRequirements(strings.NewReader(tc.body))
			if err != nil {
				t.Fatal(err)
			}
			err = matchRequirements(accepts, to, tc.amount)
			var blocked *GuardrailBlocked
			switch {
			case tc.reason == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.reason != "" && (!errors.As(err, &blocked) || !strings.Contains(blocked.Reason, tc.reason)):
				t.Fatalf("err = %v, want guardrail_blocked naming %q", err, tc.reason)
			}
		})
	}
	for _, body := range []string{``, `{}`, `{"accepts":[]}`, `not json`, `{"accepts":"x"}`} {
		if _, err := readRequirements(strings.NewReader(body)); err == nil {
			t.Errorf("requirements read from %q", body)
		}
	}
}
