package botpay

import (
	"strconv"
	"strings"
)

// Micro is an amount of USDC in micro-units (1 USDC = 1,000,000), the unit
// of processor wallets and signed authorizations. One USDC is taken as one
// US dollar, so funding in USD converts exactly: 1 cent = 10,000 micro.
type Micro int64

// MicroPerCent converts cents to micro-USDC.
const MicroPerCent = 10_000

// MicroOf converts cents to micro-USDC exactly.
func MicroOf(m Money) Micro { return Micro(m) * MicroPerCent }

// CentsCeil is the amount in cents, rounded up: limits in cents are never
// exceeded by a fraction of a cent.
func (m Micro) CentsCeil() Money {
	if m <= 0 {
		return Money(m / MicroPerCent)
	}
	return Money((m + MicroPerCent - 1) / MicroPerCent)
}

// WholeCents reports whether m is a whole number of cents.
func (m Micro) WholeCents() bool { return m%MicroPerCent == 0 }

// USD renders the amount in dollars with up to six decimals, no trailing
// zeros: 1500000 → "1.5".
func (m Micro) USD() string {
	neg := m < 0
	v := int64(m)
	if neg {
		v = -v
	}
	s := strconv.FormatInt(v/1_000_000, 10)
	if frac := v % 1_000_000; frac != 0 {
		s += "." + strings.TrimRight(strconv.FormatInt(1_000_000+frac, 10)[1:], "0")
	}
	if neg {
		s = "-" + s
	}
	return s
}

// MarshalJSON writes the dollar amount as a JSON number (for *_usd fields).
func (m Micro) MarshalJSON() ([]byte, error) { return []byte(m.USD()), nil }

// Dollars renders the amount for people: whole cents with two decimals like
// Money (2000000 → "2.00"), finer amounts with every digit they need
// (1234 → "0.001234"), so nothing is rounded away.
func (m Micro) Dollars() string {
	if m.WholeCents() {
		return Money(m / MicroPerCent).USD()
	}
	return m.USD()
}
