// Package validate checks the fields of a request and collects every
// problem, so that one answer names each bad field with a useful message.
// Every capability validates with it, so one field answers alike wherever
// it is taken.
package validate

import (
	"net/mail"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/botpay/botpay/internal/botpay"
)

// Problems collects field errors so one answer names every bad field.
type Problems map[string]string

// Add records a field's first problem.
func (p Problems) Add(field, problem string) {
	if _, seen := p[field]; !seen {
		p[field] = problem
	}
}

// Err is the validation error naming every problem, nil when none.
func (p Problems) Err() error {
	if len(p) == 0 {
		return nil
	}
	return botpay.ValidationError(p)
}

// Text checks a free-text field: trimmed length within [min, max] characters
// and no control characters other than newlines and tabs.
func (p Problems) Text(field, v string, min, max int, multiline bool) string {
	v = strings.TrimSpace(v)
	n := utf8.RuneCountInString(v)
	switch {
	case !utf8.ValidString(v):
		p.Add(field, "must be valid UTF-8")
	case n < min && min == 1:
		p.Add(field, "is required")
	case n < min:
		p.Add(field, "is too short")
	case n > max:
		p.Add(field, "must be at most "+strconv.Itoa(max)+" characters")
	case strings.IndexFunc(v, func(r rune) bool {
		return unicode.IsControl(r) && !(multiline && (r == '\n' || r == '\t' || r == '\r'))
	}) >= 0:
		p.Add(field, "must not contain control characters")
	}
	return v
}

// Email checks and normalises an e-mail address to lower case.
func (p Problems) Email(field, v string) string {
	v = strings.TrimSpace(v)
	if v == "" {
		p.Add(field, "is required")
		return ""
	}
	addr, err := mail.ParseAddress(v)
	if err != nil || addr.Address != v || len(v) > 254 || !strings.Contains(v[strings.LastIndexByte(v, '@'):], ".") {
		p.Add(field, "must be a valid e-mail address")
		return ""
	}
	return strings.ToLower(v)
}

// WebhookURL checks a callback URL: absolute http or https, a host, no
// credentials, no fragment.
func (p Problems) WebhookURL(field, v string) string {
	v = strings.TrimSpace(v)
	u, err := url.Parse(v)
	switch {
	case v == "":
		p.Add(field, "must not be empty")
	case len(v) > 2048:
		p.Add(field, "must be at most 2048 characters")
	case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Hostname() == "":
		p.Add(field, "must be an absolute http or https URL")
	case u.User != nil:
		p.Add(field, "must not contain credentials")
	case u.Fragment != "" || strings.Contains(v, "#"):
		p.Add(field, "must not contain a fragment")
	case strings.ContainsFunc(v, func(r rune) bool { return r <= ' ' || r == 0x7f }):
		p.Add(field, "must not contain spaces or control characters")
	default:
		return u.String()
	}
	return ""
}

// Methods checks a list of payment methods: at least one, each known, no
// repeats (repeats are dropped).
func (p Problems) Methods(field string, list []string) []string {
	if len(list) == 0 {
		p.Add(field, "must name at least one of x402, usdc_direct, processor_onramp, l2_pay")
		return nil
	}
	var out []string
	for _, m := range list {
		if !slices.Contains(botpay.CheckoutMethods, m) {
			p.Add(field, "must contain only x402, usdc_direct, processor_onramp, l2_pay")
			return nil
		}
		if !slices.Contains(out, m) {
			out = append(out, m)
		}
	}
	return out
}

// OptionalURL checks a link shown to buyers: empty, or an absolute http or
// https URL without credentials, spaces or control characters.
func (p Problems) OptionalURL(field, v string) string {
	v = strings.TrimSpace(v)
	if v == "" {
		return ""
	}
	u, err := url.Parse(v)
	switch {
	case len(v) > 2048:
		p.Add(field, "must be at most 2048 characters")
	case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "":
		p.Add(field, "must be an absolute http or https URL")
	case u.User != nil:
		p.Add(field, "must not contain credentials")
	case strings.ContainsFunc(v, func(r rune) bool { return r <= ' ' || r == 0x7f }):
		p.Add(field, "must not contain spaces or control characters")
	default:
		return v
	}
	return ""
}

// Timestamp parses an ISO 8601 date-time (RFC 3339) or a bare date
// (midnight UTC).
func (p Problems) Timestamp(field, v string) time.Time {
	v = strings.TrimSpace(v)
	if t, err := time.Parse(time.RFC3339Nano, v); err == nil {
		return t.UTC()
	}
	if t, err := time.Parse(time.DateOnly, v); err == nil {
		return t
	}
	p.Add(field, "must be an ISO 8601 date-time such as 2026-11-21T09:30:00Z")
	return time.Time{}
}

// FutureTime is Timestamp that must also be after now.
func (p Problems) FutureTime(field, v string, now time.Time) time.Time {
	t := p.Timestamp(field, v)
	if !t.IsZero() && !t.After(now) {
		p.Add(field, "must be in the future")
		return time.Time{}
	}
	return t
}
