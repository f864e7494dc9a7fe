package validate

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/botpay"
)

func TestEachFieldAnswersItsFirstProblem(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name  string
		check func(Problems)
		want  string
	}{
		{"an empty required text", func(p Problems) { p.Text("f", "  ", 1, 10, false) }, "is required"},
		{"a text over its length", func(p Problems) { p.Text("f", strings.Repeat("é", 11), 1, 10, false) }, "must be at most 10 characters"},
		{"a newline in a one-line text", func(p Problems) { p.Text("f", "a\nb", 1, 10, false) }, "must not contain control characters"},
		{"an address without a domain dot", func(p Problems) { p.Email("f", "a@b") }, "must be a valid e-mail address"},
		{"a callback with credentials", func(p Problems) { p.WebhookURL("f", "https://u:p@example.com/") }, "must not contain credentials"},
		{"a callback with a fragment", func(p Problems) { p.WebhookURL("f", "https://example.com/#x") }, "must not contain a fragment"},
		{"a link that is not http", func(p Problems) { p.OptionalURL("f", "ftp://example.com") }, "must be an absolute http or https URL"},
		{"a time in the past", func(p Problems) { p.FutureTime("f", "2026-11-26", now) }, "must be in the future"},
		{"a time that is not ISO 8601", func(p Problems) { p.Timestamp("f", "tomorrow") }, "must be an ISO 8601 date-time such as 2026-11-21T09:30:00Z"},
		{"an unknown payment method", func(p Problems) { p.Methods("f", []string{"x402", "cash"}) }, "must contain only x402, usdc_direct, processor_onramp, l2_pay"},
		{"the second problem of a field", func(p Problems) { p.Add("f", "first"); p.Add("f", "second") }, "first"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := Problems{}
			tt.check(p)
			if p["f"] != tt.want {
				t.Fatalf("problem = %q, want %q", p["f"], tt.want)
			}
			var e *botpay.Error
			if err := p.Err(); !errors.As(err, &e) || e.Code != botpay.CodeValidation {
				t.Fatalf("Err() = %v, want a validation error", err)
			}
		})
	}
}

func TestGoodFieldsComeBackNormalisedWithoutProblems(t *testing.T) {
	t.Parallel()
	p := Problems{}
	if got := p.Email("f", "Ann@Example.com"); got != "ann@example.com" {
		t.Errorf("Email = %q", got)
	}
	if got := p.Text("g", "  hi  ", 1, 10, false); got != "hi" {
		t.Errorf("Text = %q", got)
	}
	if got := p.Methods("h", []string{"x402", "x402", "l2_pay"}); strings.Join(got, ",") != "x402,l2_pay" {
		t.Errorf("Methods = %v", got)
	}
	if err := p.Err(); err != nil {
		t.Fatalf("Err() = %v, want nil", err)
	}
}
