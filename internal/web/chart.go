package web

import (
	"fmt"
	"html/template"
	"strings"
	"time"

	"github.com/botpay/botpay/internal/app"
	"github.com/botpay/botpay/internal/botpay"
)

// The bot pages' charts: inline SVG drawn on the server (no script). They
// contain only numbers and text escaped here, so they are safe to insert as
// HTML. Each chart has its own scale: declined attempts are drawn in a
// chart of their own, so one refused $9,999 attempt never shrinks the
// approved purchases to slivers.

// bar is one bar of a chart.
type bar struct {
	Label string // the x-axis label (a day) or the row label (a category)
	Cents int64
}

// chart is what a bar chart needs: an id unique on its page (for the
// accessible title), the title read by screen readers, the fill colour and
// the text shown when every bar is zero.
type chart struct {
	ID, Title, Color, Empty string
	Bars                    []bar
}

// The drawing is 480 units wide and shown at most 640 px wide (the
// layout's max-width), so its 13-unit text reads at 9 to 17 px from a
// phone to a desktop.
const (
	chartWidth, chartHeight = 480, 220
	chartTop, chartBottom   = 12, 28
	chartRight              = 22 // room for the last day's label
	minBarHeight            = 2  // a non-zero bar is never thinner than this
	charWidth               = 8  // an estimate of one 13-unit label character, for the axis margin
	fontSize                = 13
)

// columnChart draws c as vertical bars, one per entry, with a y axis in
// round dollar figures.
func columnChart(c chart) template.HTML {
	peak, total := int64(0), int64(0)
	for _, b := range c.Bars {
		peak, total = max(peak, b.Cents), total+b.Cents
	}
	peak = niceCeil(peak)
	ticks := make([]string, 5)
	longest := 0
	for i := range ticks {
		ticks[i] = axisLabel(peak * int64(4-i) / 4)
		longest = max(longest, len(ticks[i]))
	}
	left := longest*charWidth + 12 // room for the widest label: never clipped
	plotH := float64(chartHeight - chartTop - chartBottom)
	var b strings.Builder
	svgOpen(&b, c, chartHeight, formatUSD(botpay.Money(total)))
	for i, t := range ticks {
		y := float64(chartTop) + plotH*float64(i)/4
		fmt.Fprintf(&b, `<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#e3e6ee"/>`, left, y, chartWidth-chartRight, y)
		fmt.Fprintf(&b, `<text x="%d" y="%.1f" font-size="%d" text-anchor="end" fill="#4a5263">%s</text>`, left-6, y+4, fontSize, t)
	}
	slot := float64(chartWidth-left-chartRight) / float64(max(len(c.Bars), 1))
	width := slot * 0.7
	for i, v := range c.Bars {
		x := float64(left) + slot*float64(i) + (slot-width)/2
		h := barLength(v.Cents, peak, plotH)
		fmt.Fprintf(&b, `<rect class="bar" x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"><title>%s: %s</title></rect>`,
			x, float64(chartTop)+plotH-h, width, h, c.Color, template.HTMLEscapeString(v.Label), formatUSD(botpay.Money(v.Cents)))
		// Every seventh day, counted back from the last, is labelled.
		if (len(c.Bars)-1-i)%7 == 0 {
			fmt.Fprintf(&b, `<text x="%.1f" y="%d" font-size="%d" text-anchor="middle" fill="#4a5263">%s</text>`,
				x+width/2, chartHeight-8, fontSize, template.HTMLEscapeString(v.Label))
		}
	}
	emptyNote(&b, c, total, chartWidth/2, chartTop+int(plotH)/2)
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// rowChart draws c as horizontal bars, one row per entry, labelled on the
// left with the category and on the right with the amount.
func rowChart(c chart) template.HTML {
	const rowH, labelW, valueW = 28, 130, 90
	height := max(len(c.Bars), 1)*rowH + 8
	peak, total := int64(0), int64(0)
	for _, b := range c.Bars {
		peak, total = max(peak, b.Cents), total+b.Cents
	}
	plotW := float64(chartWidth - labelW - valueW)
	var b strings.Builder
	svgOpen(&b, c, height, formatUSD(botpay.Money(total)))
	for i, v := range c.Bars {
		y := 4 + i*rowH
		w := barLength(v.Cents, max(peak, 1), plotW)
		fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="%d" text-anchor="end" fill="#1d2330">%s</text>`, labelW-8, y+17, fontSize, template.HTMLEscapeString(shorten(v.Label, 16)))
		fmt.Fprintf(&b, `<rect class="bar" x="%d" y="%d" width="%.1f" height="%d" fill="%s"><title>%s: %s</title></rect>`,
			labelW, y+4, w, rowH-10, c.Color, template.HTMLEscapeString(v.Label), formatUSD(botpay.Money(v.Cents)))
		fmt.Fprintf(&b, `<text x="%.1f" y="%d" font-size="%d" fill="#1d2330">%s</text>`, float64(labelW)+w+6, y+17, fontSize, formatUSD(botpay.Money(v.Cents)))
	}
	emptyNote(&b, c, total, chartWidth/2, height/2+4)
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

func svgOpen(b *strings.Builder, c chart, height int, total string) {
	fmt.Fprintf(b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" width="100%%" class="chart" role="img" aria-labelledby="%s" data-chart="%s">`,
		chartWidth, height, c.ID, c.ID)
	fmt.Fprintf(b, `<title id="%s">%s: %s in all</title>`, c.ID, template.HTMLEscapeString(c.Title), total)
}

func emptyNote(b *strings.Builder, c chart, total int64, x, y int) {
	if total == 0 {
		fmt.Fprintf(b, `<text x="%d" y="%d" font-size="%d" text-anchor="middle" fill="#4a5263">%s</text>`, x, y, fontSize+1, template.HTMLEscapeString(c.Empty))
	}
}

// barLength scales cents to the plot, never below minBarHeight for a
// non-zero amount.
func barLength(cents, peak int64, plot float64) float64 {
	if cents <= 0 {
		return 0
	}
	return max(plot*float64(cents)/float64(peak), minBarHeight)
}

// axisLabel shows a round dollar figure: "$0", "$2.50", "$10,000".
func axisLabel(cents int64) string {
	s := formatUSD(botpay.Money(cents))
	return strings.TrimSuffix(s, ".00")
}

func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

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

func dayLabel(d time.Time) string { return d.Format("Jan 2") }

// dayBars is one bar per day, labelled with the day, of the amount each
// day's figures hold.
func dayBars[T any](days []T, amountOf func(T) (time.Time, botpay.Money)) []bar {
	bars := make([]bar, len(days))
	for i, d := range days {
		day, amount := amountOf(d)
		bars[i] = bar{Label: dayLabel(day), Cents: int64(amount)}
	}
	return bars
}

// approvedChart, declinedChart, categoryChart and earningChart are the bot
// pages' four charts.
func approvedChart(days []app.DaySpending) template.HTML {
	bars := dayBars(days, func(d app.DaySpending) (time.Time, botpay.Money) { return d.Day, d.Approved })
	return columnChart(chart{ID: "chart-approved", Title: fmt.Sprintf("Approved spending by day, last %d days", len(days)),
		Color: "#1f5eff", Empty: "No approved spending in these days", Bars: bars})
}

func declinedChart(days []app.DaySpending) template.HTML {
	bars := dayBars(days, func(d app.DaySpending) (time.Time, botpay.Money) { return d.Day, d.Declined })
	return columnChart(chart{ID: "chart-declined", Title: fmt.Sprintf("Declined or denied attempts by day, last %d days (no money moved)", len(days)),
		Color: "#c62828", Empty: "No declined attempts in these days", Bars: bars})
}

func categoryChart(cats []app.CategorySpending) template.HTML {
	bars := make([]bar, len(cats))
	for i, c := range cats {
		label := c.Category
		if label == "" {
			label = "(no category)"
		}
		bars[i] = bar{Label: label, Cents: int64(c.Approved)}
	}
	return rowChart(chart{ID: "chart-categories", Title: "Approved spending by category, last 30 days",
		Color: "#1f5eff", Empty: "No approved spending in these days", Bars: bars})
}

func earningChart(days []app.DayAmount) template.HTML {
	bars := dayBars(days, func(d app.DayAmount) (time.Time, botpay.Money) { return d.Day, d.Amount })
	return columnChart(chart{ID: "chart-earning", Title: fmt.Sprintf("Sales received by day, last %d days", len(days)),
		Color: "#2e7d32", Empty: "No sales in these days", Bars: bars})
}
