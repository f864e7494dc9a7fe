package botpay

import "testing"

func TestMoneyHasSeparatorsAndCurrency(t *testing.T) {
	for in, want := range map[Money]string{0: "$0.00", 5: "$0.05", 1_000_000: "$10,000.00", -50_000: "-$500.00", 123_456_789: "$1,234,567.89"} {
		if got := FormatUSD(in); got != want {
			t.Errorf("FormatUSD(%d) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[Micro]string{1_234: "0.001234 USDC", 2_500_000: "2.50 USDC", 1_234_567_000_000: "1,234,567.00 USDC", -10_000: "-0.01 USDC"} {
		if got := FormatUSDC(in); got != want {
			t.Errorf("FormatUSDC(%d) = %q, want %q", in, got, want)
		}
	}
}
