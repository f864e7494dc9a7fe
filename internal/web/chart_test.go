package web

import (
	"strings"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/botpay"
)

func TestNiceCeilRoundsTheAxisUp(t *testing.T) {
	for in, want := range map[int64]int64{0: 1000, 1: 1000, 1000: 1000, 1001: 2000, 2500: 5000, 7300: 10000, 120000: 200000} {
		if got := niceCeil(in); got != want {
			t.Errorf("niceCeil(%d) = %d, want %d", in, got, want)
		}
	}
}

func TestSpendingChartDrawsTwoBarsPerDayWithATitle(t *testing.T) {
	day := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	days := make([]botpay.DaySpending, 30)
	for i := range days {
		days[i].Day = day.AddDate(0, 0, i)
	}
	days[29].Approved, days[29].Declined = 2500, 1500
	svg := string(spendingChart(days))
	if n := strings.Count(svg, "<rect"); n != 60 {
		t.Errorf("%d bars, want 60", n)
	}
	if !strings.Contains(svg, "$25.00 approved, $15.00 declined") || !strings.Contains(svg, `role="img"`) {
		t.Errorf("title or role missing: %.300s", svg)
	}
	if strings.Contains(string(spendingChart(make([]botpay.DaySpending, 30))), "No spending") == false {
		t.Error("an empty chart does not say so")
	}
}
