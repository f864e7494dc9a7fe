package botpay

import (
	"errors"
	"math/big"
	"regexp"
	"strconv"
	"strings"
)

// Money is an amount in US cents. Dollars appear only at the JSON boundary.
type Money int64

// MaxMoney bounds every amount the service accepts (one billion dollars), so
// sums of many amounts stay far from int64 overflow.
const MaxMoney Money = 100_000_000_000

var errNotAmount = errors.New("must be a decimal number of US dollars")

// ParseUSD parses a decimal dollar amount exactly (no floating point),
// rounding half away from zero to the nearest cent: "2.01" is 201 cents,
// "2.005" is 201, "1e2" is 10000.
func ParseUSD(s string) (Money, error) {
	r, err := ParseDecimal(strings.TrimSpace(s))
	if err != nil {
		return 0, errNotAmount
	}
	r.Mul(r, big.NewRat(100, 1))
	num, den := r.Num(), r.Denom()
	q, m := new(big.Int).QuoRem(num, den, new(big.Int))
	// Round half away from zero: compare 2*|remainder| with the denominator.
	m.Abs(m).Lsh(m, 1)
	if m.Cmp(den) >= 0 {
		if num.Sign() < 0 {
			q.Sub(q, big.NewInt(1))
		} else {
			q.Add(q, big.NewInt(1))
		}
	}
	limit := big.NewInt(int64(MaxMoney))
	if q.CmpAbs(limit) > 0 {
		return 0, errors.New("amount is too large")
	}
	return Money(q.Int64()), nil
}

// decimalPattern is the JSON number grammar; big.Rat alone would also take
// fractions and binary, octal or hex literals.
var decimalPattern = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)

// ParseDecimal parses a JSON-style decimal number exactly. Exponents are
// bounded so that hostile input such as "1e-1000000" cannot make big.Rat
// spend milliseconds per field.
func ParseDecimal(s string) (*big.Rat, error) {
	if len(s) > 64 || !decimalPattern.MatchString(s) {
		return nil, errNotAmount
	}
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		exp, err := strconv.Atoi(s[i+1:])
		if err != nil || exp > 30 || exp < -30 {
			return nil, errNotAmount
		}
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return nil, errNotAmount
	}
	return r, nil
}

// USD renders the amount as a decimal number of dollars with two decimals,
// suitable both for JSON numbers and for people: 1250 → "12.50".
func (m Money) USD() string {
	neg := m < 0
	if neg {
		m = -m
	}
	whole := strconv.FormatInt(int64(m/100), 10)
	cents := strconv.FormatInt(int64(m%100), 10)
	if len(cents) == 1 {
		cents = "0" + cents
	}
	if neg {
		return "-" + whole + "." + cents
	}
	return whole + "." + cents
}

// MarshalJSON writes the amount as a JSON number of dollars.
func (m Money) MarshalJSON() ([]byte, error) {
	return []byte(m.USD()), nil
}
