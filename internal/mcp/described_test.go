package mcp

import (
	"strings"
	"testing"
	"time"
)

// A limit named in a tool's description is the running service's when the
// server knows it, and said without a number when it does not (botpay mcp,
// beside a service elsewhere); no placeholder ever reaches an agent.
func TestDescriptionsNameTheRunningLimits(t *testing.T) {
	t.Parallel()
	known := Options{CheckoutsPerHour: 40, TopupsPerHour: 7, InvoiceMailsPerBotPerDay: 12, InvoiceMailsPerOwnerPerDay: 34}
	tests := []struct {
		name string
		o    Options
		tool string
		want string
	}{
		{"checkouts known", known, "checkout", "At most 40 checkouts per hour."},
		{"checkouts unknown", Options{}, "checkout", "past the limit the refusal is rate_limited"},
		{"top-ups known", known, "request_topup", "rate_limited past 7 requests per hour"},
		{"top-ups unknown", Options{}, "request_topup", "rate_limited when asked too often"},
		{"invoice mails known", known, "send_invoice", "at most 12 invoice e-mails per bot and 34 per owner in 24 hours"},
		{"invoice mails unknown", Options{}, "send_invoice", "limits invoice e-mails per bot and per owner per day"},
		{"hold window", Options{}, "get_checkout_status", "did not decide within 15 minutes"},
		{"link lifetime", Options{}, "create_payment_link", "valid for 24 hours"},
		{"message lifetimes", Options{}, "list_messages", "(24 hours for purchase events, 7 days for the rest)"},
		{"resource cap", Options{}, "pay_x402_resource", "at most 256 KiB"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			for _, def := range definitions() {
				d := described(def.tool, tt.o).Description
				for _, placeholder := range []string{checkoutLimitText, topupLimitText, invoiceMailLimitText} {
					if strings.Contains(d, placeholder) {
						t.Errorf("%s keeps %s: %s", def.tool.Name, placeholder, d)
					}
				}
				if def.tool.Name == tt.tool && !strings.Contains(d, tt.want) {
					t.Errorf("%s says %q, want %q in it", tt.tool, d, tt.want)
				}
			}
		})
	}
}

func TestSpanNamesDurationsInTheirUnit(t *testing.T) {
	t.Parallel()
	for d, want := range map[time.Duration]string{15 * time.Minute: "15 minutes", 24 * time.Hour: "24 hours",
		7 * 24 * time.Hour: "7 days", 90 * time.Second: "1m30s"} {
		if got := span(d); got != want {
			t.Errorf("span(%v) = %q, want %q", d, got, want)
		}
	}
}
