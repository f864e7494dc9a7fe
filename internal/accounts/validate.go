package accounts

import (
	"net/mail"
	"strings"

	"github.com/botpay/botpay/internal/botpay"
)

// problems collects field errors so one answer names every bad field.
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
