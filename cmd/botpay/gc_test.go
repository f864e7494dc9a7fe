package main

import "testing"

func TestServeCollectsLessOftenUnlessTheOperatorSetGOGC(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		gogc string
		want int
	}{{"", serverGCPercent}, {"100", -1}, {"off", -1}} {
		if got := gcPercent(func(k string) string {
			if k == "GOGC" {
				return c.gogc
			}
			return ""
		}); got != c.want {
			t.Errorf("GOGC=%q: %d, want %d", c.gogc, got, c.want)
		}
	}
}
