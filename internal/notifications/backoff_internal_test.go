package notifications

import (
	"testing"
	"time"
)

func TestOutageWaitBacksOffToThirtySeconds(t *testing.T) {
	for failures, want := range map[int]time.Duration{1: 2 * time.Second, 2: 4 * time.Second, 4: 16 * time.Second, 5: 30 * time.Second, 60: 30 * time.Second} {
		if got := outageWait(time.Second, failures); got != want {
			t.Errorf("outageWait(1s, %d) = %s, want %s", failures, got, want)
		}
	}
}
