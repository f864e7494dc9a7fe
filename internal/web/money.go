package web

import (
	"strings"

	"github.com/botpay/botpay/internal/botpay"
)

// formatUSD shows cents as the owner reads money: a currency sign and
// thousands separators, "$10,000.00" and "-$5.00".
func formatUSD(m botpay.Money) string {
	sign := ""
	if m < 0 {
		sign, m = "-", -m
	}
	whole, cents, _ := strings.Cut(m.USD(), ".")
	return sign + "$" + groupThousands(whole) + "." + cents
}

// formatUSDC shows micro-USDC without rounding, with separators and the
// token's name: "1,234.50 USDC", "0.001234 USDC".
func formatUSDC(m botpay.Micro) string {
	sign := ""
	if m < 0 {
		sign, m = "-", -m
	}
	whole, frac, _ := strings.Cut(m.Dollars(), ".")
	if len(frac) < 2 {
		frac += strings.Repeat("0", 2-len(frac))
	}
	return sign + groupThousands(whole) + "." + frac + " USDC"
}

// groupThousands puts a comma between each group of three digits.
func groupThousands(digits string) string {
	var b strings.Builder
	for i, d := range digits {
		if i > 0 && (len(digits)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(d)
	}
	return b.String()
}
