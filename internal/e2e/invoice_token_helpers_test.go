package e2e

import (
	"net/url"
	"strings"
	"testing"

	"github.com/botpay/botpay/client"
)

// payToken is the t parameter of an invoice's payment_url.
func payToken(t *testing.T, inv *client.Invoice) string {
	t.Helper()
	_, query, _ := strings.Cut(inv.PaymentURL, "?")
	v, err := url.ParseQuery(query)
	if err != nil || v.Get("t") == "" {
		t.Fatalf("payment_url %q carries no token", inv.PaymentURL)
	}
	return v.Get("t")
}
