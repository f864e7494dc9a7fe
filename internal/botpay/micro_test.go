package botpay

import "testing"

func TestMicroDollarsKeepsCentsAndEveryFinerDigit(t *testing.T) {
	for v, want := range map[Micro]string{0: "0.00", 2_000_000: "2.00", 1_500_000: "1.50", 10_000: "0.01", 1: "0.000001",
		1_234: "0.001234", 12_345_678: "12.345678", -250_000: "-0.25"} {
		if got := v.Dollars(); got != want {
			t.Errorf("%d: %s, want %s", v, got, want)
		}
	}
}
