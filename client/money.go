package client

import "github.com/botpay/botpay/wire"

// USD is an amount of US dollars kept as integer cents, so sums and
// comparisons are exact; on the wire a JSON number of dollars. USD(1250)
// is $12.50. It is wire.USD, named here for the client's users.
type USD = wire.USD

// Dollars builds an amount from whole dollars and cents: Dollars(12, 50) is
// $12.50.
func Dollars(dollars, cents int64) USD { return wire.Dollars(dollars, cents) }

// ParseUSD parses a decimal number of dollars exactly, rounding half away
// from zero to the nearest cent.
func ParseUSD(s string) (USD, error) { return wire.ParseUSD(s) }

// optional is s as an optional member: nil (left out) when empty.
func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// text is the optional member p, "" when it is nil.
func text(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
