package web

import (
	"fmt"
	"html/template"
	"strings"

	"github.com/botpay/botpay/internal/botpay"
)

// spendingChart draws the last days of spending as an inline SVG bar chart:
// approved (blue) and declined (red) side by side per day. It contains only
// numbers and fixed text, so it is safe to insert as HTML.
func spendingChart(days []botpay.DaySpending) template.HTML {
	const width, height, top, bottom, left = 720, 220, 16, 28, 56
	plotH := float64(height - top - bottom)
	var peak int64 = 1
	var sumA, sumD int64
	for _, d := range days {
		peak = max(peak, int64(d.Approved), int64(d.Declined))
		sumA += int64(d.Approved)
		sumD += int64(d.Declined)
	}
	peak = niceCeil(peak)
	slot := float64(width-left-8) / float64(max(len(days), 1))
	bar := slot * 0.38
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" width="100%%" role="img" aria-labelledby="chart-title">`, width, height)
	fmt.Fprintf(&b, `<title id="chart-title">Spending over the last %d days: $%s approved, $%s declined</title>`, len(days), dollars(sumA), dollars(sumD))
	for i := 0; i <= 4; i++ {
		y := float64(top) + plotH*float64(i)/4
		fmt.Fprintf(&b, `<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#e3e6ee"/>`, left, y, width-8, y)
		fmt.Fprintf(&b, `<text x="%d" y="%.1f" font-size="11" text-anchor="end" fill="#5b6475">$%s</text>`, left-6, y+4, dollars(peak*int64(4-i)/4))
	}
	for i, d := range days {
		x := float64(left) + slot*float64(i) + slot*0.1
		for j, v := range []int64{int64(d.Approved), int64(d.Declined)} {
			h := plotH * float64(v) / float64(peak)
			color := "#1f5eff"
			if j == 1 {
				color = "#d64545"
			}
			fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"><title>%s: $%s %s</title></rect>`,
				x+float64(j)*bar, float64(top)+plotH-h, bar, h, color, d.Day.Format("Jan 2"), dollars(v), [2]string{"approved", "declined"}[j])
		}
		if i%5 == 0 || i == len(days)-1 {
			fmt.Fprintf(&b, `<text x="%.1f" y="%d" font-size="11" text-anchor="middle" fill="#5b6475">%s</text>`, x+bar, height-8, d.Day.Format("Jan 2"))
		}
	}
	if sumA == 0 && sumD == 0 {
		fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="14" text-anchor="middle" fill="#5b6475">No spending in these days</text>`, (width+left)/2, top+int(plotH)/2)
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

func dollars(cents int64) string { return fmt.Sprintf("%d.%02d", cents/100, cents%100) }

// niceCeil rounds a peak in cents up to 1, 2 or 5 times a power of ten
// dollars (at least $10), so the axis reads in round figures.
func niceCeil(cents int64) int64 {
	for step := int64(1000); ; step *= 10 {
		for _, m := range []int64{1, 2, 5} {
			if cents <= step*m {
				return step * m
			}
		}
	}
}
