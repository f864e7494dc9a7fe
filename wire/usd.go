package wire

import (
	"errors"
	"fmt"
	"math/big"
	"regexp"
	"strconv"
	"strings"
)

// USD is an amount of US dollars kept as integer cents, so sums and
// comparisons are exact. On the wire it is a JSON number of dollars with two
// decimals (fields named *_usd). USD(1250) is $12.50.
type USD int64

// Dollars builds an amount from whole dollars and cents: Dollars(12, 50) is
// $12.50. For negative amounts pass both parts negative or use USD(-1250).
func Dollars(dollars, cents int64) USD { return USD(dollars*100 + cents) }

// Cents is the amount in cents.
func (u USD) Cents() int64 { return int64(u) }

// String renders the amount as dollars with exactly two decimals: "12.50",
// "-0.05". This is also its JSON form.
func (u USD) String() string {
	// Work on the magnitude as uint64 so the most negative int64 renders too.
	mag := uint64(u)
	sign := ""
	if u < 0 {
		mag, sign = -mag, "-"
	}
	return fmt.Sprintf("%s%d.%02d", sign, mag/100, mag%100)
}

// MarshalJSON writes the amount as a JSON number of dollars: 12.50.
func (u USD) MarshalJSON() ([]byte, error) { return []byte(u.String()), nil }

// UnmarshalJSON reads a JSON number of dollars exactly (no float64), rounding
// half away from zero to the nearest cent, as the service does. JSON null
// leaves the value unchanged, like the standard library does for numbers.
func (u *USD) UnmarshalJSON(data []byte) error {
	if string(data) == "null" {
		return nil
	}
	v, err := ParseUSD(string(data))
	if err != nil {
		return err
	}
	*u = v
	return nil
}

// jsonNumber is the JSON number grammar (RFC 8259 section 6). math/big alone
// would also accept fractions, hex and underscores, which are not amounts.
var jsonNumber = regexp.MustCompile(`^-?(?:0|[1-9][0-9]*)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?$`)

const (
	maxAmountText = 400 // longer number texts are not money
	// With at most maxAmountText digits, an exponent beyond ±maxExponent
	// either overflows int64 cents or rounds to zero, so math/big never has to
	// build a huge power of ten for a hostile "1e999999".
	maxExponent = maxAmountText + 20
)

var (
	errNotAmount   = errors.New("botpay: amount must be a JSON number of US dollars")
	errAmountRange = errors.New("botpay: amount out of range")
)

// ParseUSD parses a decimal number of dollars ("12.5", "2.005", "1e2")
// exactly, rounding half away from zero to the nearest cent: "2.005" is 201
// cents, "-2.005" is -201.
func ParseUSD(s string) (USD, error) {
	u, err := parseUSD(s)
	if err != nil {
		// Name the offending text: the error often surfaces far from the answer.
		return 0, fmt.Errorf("%w: %q", err, prefix(s, 40))
	}
	return u, nil
}

func parseUSD(s string) (USD, error) {
	if len(s) > maxAmountText {
		return 0, errAmountRange
	}
	m := jsonNumber.FindStringSubmatch(s)
	if m == nil {
		return 0, errNotAmount
	}
	if exp := m[2]; exp != "" {
		e, err := strconv.Atoi(exp)
		tooSmall := (err != nil && exp[0] == '-') || (err == nil && e < -maxExponent)
		tooLarge := (err != nil && exp[0] != '-') || (err == nil && e > maxExponent)
		mantissaZero := isZeroMantissa(s)
		switch {
		case tooSmall || (tooLarge && mantissaZero):
			return 0, nil
		case tooLarge:
			return 0, errAmountRange
		}
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return 0, errNotAmount
	}
	return roundCents(r)
}

// isZeroMantissa reports whether the digits before the exponent are all zero.
func isZeroMantissa(s string) bool {
	for _, c := range s {
		switch {
		case c == 'e' || c == 'E':
			return true
		case c >= '1' && c <= '9':
			return false
		}
	}
	return true
}

// roundCents converts dollars to cents, rounding half away from zero.
func roundCents(dollars *big.Rat) (USD, error) {
	cents := new(big.Rat).Mul(dollars, big.NewRat(100, 1))
	num, den := cents.Num(), cents.Denom()
	q, rem := new(big.Int).QuoRem(num, den, new(big.Int))
	// Half or more of a cent left over: compare 2*|remainder| with the denominator.
	if rem.Abs(rem).Lsh(rem, 1).Cmp(den) >= 0 {
		q.Add(q, big.NewInt(int64(num.Sign())))
	}
	if !q.IsInt64() {
		return 0, errAmountRange
	}
	return USD(q.Int64()), nil
}

// prefix is at most the first n bytes of s, cut on a rune boundary, with
// "..." when something was cut.
func prefix(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "") + "..."
}
