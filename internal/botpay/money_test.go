package botpay_test

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/botpay/botpay/internal/botpay"
)

// TestParseUSDRoundsToTheNearestCent: rounding, never truncation, half away
// from zero (docs/decisions.md).
func TestParseUSDRoundsToTheNearestCent(t *testing.T) {
	for _, c := range []struct {
		in   string
		want botpay.Money
	}{
		{"2.01", 201},
		{"2.005", 201},
		{"2.0049999", 200},
		{"2.004", 200},
		{"-2.005", -201},
		{"-2.004", -200},
		{"1e2", 10000},
		{"1E2", 10000},
		{"0.1", 10},
		{"0.29", 29}, // 0.29 is not exact in binary floating point
		{"19.99", 1999},
		{"0", 0},
		{"-0", 0},
		{"0.004", 0},
		{"0.005", 1},
		{"-0.005", -1},
		{"12.5e-1", 125},
		{"1000000000", botpay.MaxMoney},
		{"-1000000000", -botpay.MaxMoney},
		{"999999999.994", botpay.MaxMoney - 1},
		{"999999999.995", botpay.MaxMoney},
		{"  3.50 ", 350},
	} {
		got, err := botpay.ParseUSD(c.in)
		if err != nil || got != c.want {
			t.Errorf("ParseUSD(%q) = %d, %v; want %d", c.in, got, err, c.want)
		}
	}
}

func TestParseUSDRejects(t *testing.T) {
	for _, in := range []string{
		"",
		"   ",
		"abc",
		"1.2.3",
		"$5",
		"5 USD",
		"NaN",
		"Inf",
		"1000000000.01",  // over MaxMoney
		"1000000000.005", // rounds over MaxMoney
		"-1000000000.01", // under -MaxMoney
		"1e12",
		"1e1000001",
		"99999999999999999999999999999999",
		"1" + strings.Repeat("0", 70),
		"1/2",   // a fraction
		"0x10",  // hexadecimal
		"1p4",   // binary exponent
		"1_000", // digit separator
		"0b101",
		"0B11",
		"0o17",
	} {
		t.Run(in, func(t *testing.T) {
			if m, err := botpay.ParseUSD(in); err == nil {
				t.Errorf("ParseUSD(%q) = %d, want an error", in, m)
			}
		})
	}
}

func TestMoneyUSD(t *testing.T) {
	for _, c := range []struct {
		in   botpay.Money
		want string
	}{
		{0, "0.00"},
		{1, "0.01"},
		{10, "0.10"},
		{99, "0.99"},
		{100, "1.00"},
		{1250, "12.50"},
		{-1, "-0.01"},
		{-201, "-2.01"},
		{botpay.MaxMoney, "1000000000.00"},
		{-botpay.MaxMoney, "-1000000000.00"},
	} {
		if got := c.in.USD(); got != c.want {
			t.Errorf("Money(%d).USD() = %q, want %q", c.in, got, c.want)
		}
		if b, err := c.in.MarshalJSON(); err != nil || string(b) != c.want {
			t.Errorf("Money(%d).MarshalJSON() = %s, %v", c.in, b, err)
		}
	}
}

var plainDecimal = regexp.MustCompile(`^(-?)([0-9]{1,15})(?:\.([0-9]{1,30}))?$`)

// referenceCents rounds a plain decimal half away from zero with string
// arithmetic only, as an oracle independent of math/big.
func referenceCents(s string) (botpay.Money, bool) {
	m := plainDecimal.FindStringSubmatch(s)
	if m == nil {
		return 0, false
	}
	frac := m[3] + "000"
	whole, _ := strconv.ParseInt(m[2], 10, 64)
	cents, _ := strconv.ParseInt(frac[:2], 10, 64)
	v := whole*100 + cents
	if frac[2] >= '5' {
		v++
	}
	if m[1] == "-" {
		v = -v
	}
	return botpay.Money(v), true
}

// FuzzParseUSD: never panics; every accepted amount is within ±MaxMoney and
// survives a round trip through USD(); plain decimals match the oracle.
func FuzzParseUSD(f *testing.F) {
	for _, s := range []string{"2.01", "2.005", "-2.005", "1e2", "0.1", "", "abc", "1/2", "0x1p-2", "1e400",
		"-0.000001", "999999999.995", "1000000000", "12345678901234.56789", "1_0", " 7 ", "+3", ".5", "5."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := botpay.ParseUSD(s)
		if want, ok := referenceCents(s); ok {
			inRange := want <= botpay.MaxMoney && want >= -botpay.MaxMoney
			if inRange && (err != nil || m != want) {
				t.Fatalf("ParseUSD(%q) = %d, %v; want %d", s, m, err, want)
			}
			if !inRange && err == nil {
				t.Fatalf("ParseUSD(%q) = %d, want an error beyond MaxMoney", s, m)
			}
		}
		if err != nil {
			if err.Error() == "" {
				t.Fatalf("empty error for %q", s)
			}
			return
		}
		if m > botpay.MaxMoney || m < -botpay.MaxMoney {
			t.Fatalf("ParseUSD(%q) = %d, beyond MaxMoney", s, m)
		}
		back, err := botpay.ParseUSD(m.USD())
		if err != nil || back != m {
			t.Fatalf("round trip of %q: %d → %q → %d, %v", s, m, m.USD(), back, err)
		}
	})
}
