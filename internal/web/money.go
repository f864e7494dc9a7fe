package web

import "github.com/botpay/botpay/internal/botpay"

// formatUSD and formatUSDC are how the dashboard shows money, grouped so
// large amounts read at a glance:
// "$10,000.00", "1,234.50 USDC".
func formatUSD(m botpay.Money) string { return botpay.FormatUSD(m) }

func formatUSDC(m botpay.Micro) string { return botpay.FormatUSDC(m) }
