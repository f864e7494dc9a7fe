package web

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/app"
	"github.com/botpay/botpay/internal/botpay"
)

func TestNiceCeilRoundsTheAxisUp(t *testing.T) {
	for in, want := range map[int64]int64{0: 1000, 1: 1000, 1000: 1000, 1001: 2000, 2500: 5000, 7300: 10000, 120000: 200000} {
		if got := niceCeil(in); got != want {
			t.Errorf("niceCeil(%d) = %d, want %d", in, got, want)
		}
	}
}

var barRE = regexp.MustCompile(`<rect class="bar" x="[0-9.]+" y="[0-9.]+" width="[0-9.]+" height="([0-9.]+)" fill="[^"]+"><title>([^<]*)</title>`)

// barHeights reads the height of each bar of an SVG chart by its title.
func barHeights(t *testing.T, svg string) map[string]float64 {
	t.Helper()
	out := map[string]float64{}
	for _, m := range barRE.FindAllStringSubmatch(svg, -1) {
		h, err := strconv.ParseFloat(m[1], 64)
		if err != nil {
			t.Fatal(err)
		}
		out[m[2]] = h
	}
	return out
}

func monthOfDays(approved, declined map[int]botpay.Money) []app.DaySpending {
	first := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	days := make([]app.DaySpending, 30)
	for i := range days {
		days[i] = app.DaySpending{Day: first.AddDate(0, 0, i), Approved: approved[i], Declined: declined[i]}
	}
	return days
}

// THE CHART TEST: a declined $9,999 attempt beside $5 purchases
// leaves the approved bars visible. The old chart drew both on one scale,
// so the $5 bars were 0.08 px high.
func TestDeclinedAttemptNeverShrinksTheApprovedBars(t *testing.T) {
	days := monthOfDays(map[int]botpay.Money{27: 500, 28: 500, 29: 500}, map[int]botpay.Money{29: 999900})
	plot := float64(chartHeight - chartTop - chartBottom)
	approved := barHeights(t, string(approvedChart(days)))
	for _, day := range []string{"Nov 28: $5.00", "Nov 29: $5.00", "Nov 30: $5.00"} {
		if h, ok := approved[day]; !ok || h < plot/3 {
			t.Errorf("approved bar %q is %.2f px high (plot %.0f px): not clearly visible", day, h, plot)
		}
	}
	for title := range approved {
		if strings.Contains(title, "9,999") {
			t.Errorf("the declined attempt is in the approved chart: %q", title)
		}
	}
	declined := barHeights(t, string(declinedChart(days)))
	if h := declined["Nov 30: $9,999.00"]; h < plot*0.9 {
		t.Errorf("the declined attempt's own chart draws it %.2f px high", h)
	}
}

func TestEveryNonZeroBarIsVisibleAndZeroDaysAreEmpty(t *testing.T) {
	days := monthOfDays(map[int]botpay.Money{0: 1, 1: 1_000_000}, nil)
	bars := barHeights(t, string(approvedChart(days)))
	if h := bars["Nov 1: $0.01"]; h < minBarHeight {
		t.Errorf("a one-cent bar is %.2f px high", h)
	}
	if h := bars["Nov 3: $0.00"]; h != 0 {
		t.Errorf("an empty day has a %.2f px bar", h)
	}
}

var tickRE = regexp.MustCompile(`<text x="(\d+)" y="[0-9.]+" font-size="13" text-anchor="end" fill="[^"]+">([^<]+)</text>`)

// The y-axis labels are right-aligned at x: each must fit between the
// left edge and x, "$" included, whatever the scale.
func TestAxisLabelsAreNotClipped(t *testing.T) {
	for _, peak := range []botpay.Money{500, 99_999, 9_999_999, 999_999_999} {
		svg := string(approvedChart(monthOfDays(map[int]botpay.Money{3: peak}, nil)))
		ticks := tickRE.FindAllStringSubmatch(svg, -1)
		if len(ticks) != 5 {
			t.Fatalf("peak %d: %d axis labels", peak, len(ticks))
		}
		for _, tick := range ticks {
			x, _ := strconv.Atoi(tick[1])
			if !strings.HasPrefix(tick[2], "$") || x < len(tick[2])*charWidth {
				t.Errorf("peak %d: label %q ends at x=%d, too little room", peak, tick[2], x)
			}
		}
	}
}

func TestChartsSayWhatTheyShowAndWhenEmpty(t *testing.T) {
	svg := string(approvedChart(monthOfDays(map[int]botpay.Money{29: 1_234_500}, nil)))
	if !strings.Contains(svg, `aria-labelledby="chart-approved"`) || !strings.Contains(svg, "last 30 days: $12,345.00 in all") {
		t.Errorf("title: %.400s", svg)
	}
	if !strings.Contains(string(approvedChart(monthOfDays(nil, nil))), "No approved spending") {
		t.Error("an empty chart does not say so")
	}
	cats := string(categoryChart([]app.CategorySpending{{Category: "<b>office</b>", Approved: 2500}, {Approved: 500}}))
	if !strings.Contains(cats, "&lt;b&gt;office&lt;/b&gt;: $25.00") || !strings.Contains(cats, "(no category)") || strings.Contains(cats, "<b>") {
		t.Errorf("category chart: %s", cats)
	}
}
