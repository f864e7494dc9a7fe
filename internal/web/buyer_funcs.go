package web

import (
	"html/template"
	"regexp"
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
	"codeSpans": codeSpans,
}

var backtickSpan = regexp.MustCompile("`([^`]+)`")

// codeSpans escapes a text of the API reference and shows its `code`
// spans (the document's Markdown) as code.
func codeSpans(s string) template.HTML {
	escaped := template.HTMLEscapeString(s)
	return template.HTML(backtickSpan.ReplaceAllString(escaped, "<code>$1</code>"))
}
