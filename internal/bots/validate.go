package bots

import (
	"net/mail"
	"net/url"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/botpay/botpay/internal/botpay"
)

// problems collects field errors so one answer names every bad field; its
// checks answer as those of internal/app do, word for word.
type problems map[string]string

func (p problems) add(field, problem string) {
	if _, seen := p[field]; !seen {
		p[field] = problem
	}
}

func (p problems) err() error {
	if len(p) == 0 {
		return nil
	}
	return botpay.ValidationError(p)
}

// text checks a free-text field: trimmed length within [min, max] characters
// and no control characters other than newlines and tabs.
func (p problems) text(field, v string, min, max int, multiline bool) string {
	v = strings.TrimSpace(v)
	n := utf8.RuneCountInString(v)
	switch {
	case !utf8.ValidString(v):
		p.add(field, "must be valid UTF-8")
	case n < min && min == 1:
		p.add(field, "is required")
	case n < min:
		p.add(field, "is too short")
	case n > max:
		p.add(field, "must be at most "+strconv.Itoa(max)+" characters")
	case strings.IndexFunc(v, func(r rune) bool {
		return unicode.IsControl(r) && !(multiline && (r == '\n' || r == '\t' || r == '\r'))
	}) >= 0:
		p.add(field, "must not contain control characters")
	}
	return v
}

// email checks and normalises an e-mail address to lower case.
func (p problems) email(field, v string) string {
	v = strings.TrimSpace(v)
	if v == "" {
		p.add(field, "is required")
		return ""
	}
	addr, err := mail.ParseAddress(v)
	if err != nil || addr.Address != v || len(v) > 254 || !strings.Contains(v[strings.LastIndexByte(v, '@'):], ".") {
		p.add(field, "must be a valid e-mail address")
		return ""
	}
	return strings.ToLower(v)
}

// webhookURL checks a callback URL: absolute http or https, a host, no
// credentials, no fragment.
func (p problems) webhookURL(field, v string) string {
	v = strings.TrimSpace(v)
	u, err := url.Parse(v)
	switch {
	case v == "":
		p.add(field, "must not be empty")
	case len(v) > 2048:
		p.add(field, "must be at most 2048 characters")
	case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Hostname() == "":
		p.add(field, "must be an absolute http or https URL")
	case u.User != nil:
		p.add(field, "must not contain credentials")
	case u.Fragment != "" || strings.Contains(v, "#"):
		p.add(field, "must not contain a fragment")
	case strings.ContainsFunc(v, func(r rune) bool { return r <= ' ' || r == 0x7f }):
		p.add(field, "must not contain spaces or control characters")
	default:
		return u.String()
	}
	return ""
}

// addressBucket is a client address as a rate-limit key, as internal/app
// makes it: policy + ":" + the address, an IPv6 client by its /64.
func addressBucket(policy, clientIP string) string {
	return policy + ":" + botpay.AddressKey(clientIP)
}
