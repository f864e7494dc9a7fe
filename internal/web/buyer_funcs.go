package web

import (
	"html/template"
	"time"

	"github.com/botpay/botpay/internal/botpay"
)

// buyerFuncs are the template functions of the buyer, claim and landing
// pages: money as people read it, and dates in words.
var buyerFuncs = template.FuncMap{
	"usd": formatUSD,
	"usdp": func(m *botpay.Money) string {
		if m == nil {
			return ""
		}
		return formatUSD(*m)
	},
	"day": func(t time.Time) string { return t.UTC().Format("2 January 2006") },
	"moment": func(t time.Time) string {
		return t.UTC().Format("2 January 2006, 15:04 UTC")
	},
}
