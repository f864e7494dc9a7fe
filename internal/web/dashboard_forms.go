package web

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/botpay/botpay/internal/botpay"
)

// form decodes dashboard form fields into the typed inputs of the use
// cases, collecting problems by field the way the API's decoder does.
type form struct {
	r *http.Request
	p map[string]string
}

func newForm(r *http.Request) form { return form{r: r, p: map[string]string{}} }

func (f form) str(name string) string { return strings.TrimSpace(f.r.PostFormValue(name)) }

// usd reads a required dollar amount such as "12.50".
func (f form) usd(name string) botpay.Money {
	m, err := botpay.ParseUSD(f.str(name))
	if err != nil {
		f.p[name] = "must be an amount in dollars, such as 12.50"
	}
	return m
}

// optionalUSD reads an amount; an empty field means "no limit" (nil).
func (f form) optionalUSD(name string) *botpay.Money {
	if f.str(name) == "" {
		return nil
	}
	m := f.usd(name)
	return &m
}

// list reads one entry per line (or comma separated).
func (f form) list(name string) []string {
	out := []string{}
	for _, s := range strings.FieldsFunc(f.r.PostFormValue(name), func(r rune) bool { return r == '\n' || r == ',' || r == '\r' }) {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

func (f form) checked(name string) bool { return f.r.PostFormValue(name) != "" }

func (f form) optionalInt(name string) *int {
	if f.str(name) == "" {
		return nil
	}
	n, err := strconv.Atoi(f.str(name))
	if err != nil {
		f.p[name] = "must be a whole number"
		return nil
	}
	return &n
}

func (f form) err() error {
	if len(f.p) == 0 {
		return nil
	}
	return botpay.ValidationError(f.p)
}
