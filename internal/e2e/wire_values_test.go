package e2e

import (
	"encoding/json"
	"math"

	"github.com/botpay/botpay/client"
)

// textOf is an optional text of an answer, "" when absent.
func textOf(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// optText is s as an optional member of a request, left out when empty.
func optText(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// isTrue is an optional flag of an answer, false when absent.
func isTrue(p *bool) bool { return p != nil && *p }

// usdOf reads an amount the document types as a plain number; one that is
// not an amount of dollars compares unequal to any the tests expect.
func usdOf(n json.Number) client.USD {
	u, err := client.ParseUSD(n.String())
	if err != nil {
		return math.MinInt64
	}
	return u
}

// usdOrZero is an optional amount of an answer, zero when absent.
func usdOrZero(p *client.USD) client.USD {
	if p == nil {
		return 0
	}
	return *p
}
