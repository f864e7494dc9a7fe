package app

import (
	"strconv"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/botpay"
)

func TestBotAuthCacheForgetsABotAtTheEndOfItsLife(t *testing.T) {
	t.Parallel()
	var c botAuthCache
	now := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	c.put("digest", botpay.Bot{ID: "bot_1"}, now.Add(botAuthLife))
	steps := []struct {
		at   time.Duration
		want bool
	}{{0, true}, {botAuthLife - time.Millisecond, true}, {botAuthLife, false}, {time.Hour, false}}
	for _, s := range steps {
		b, ok := c.get("digest", now.Add(s.at))
		if ok != s.want || (ok && b.ID != "bot_1") {
			t.Errorf("after %v: %+v, %v; want found %v", s.at, b, ok, s.want)
		}
	}
	if _, ok := c.get("other", now); ok {
		t.Error("an unknown digest was found")
	}
}

func TestBotAuthCacheStaysWithinItsSize(t *testing.T) {
	t.Parallel()
	var c botAuthCache
	now := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	for i := range botAuthCacheSize + 10 {
		c.put(strconv.Itoa(i), botpay.Bot{ID: strconv.Itoa(i)}, now.Add(botAuthLife))
	}
	if len(c.m) > botAuthCacheSize {
		t.Fatalf("%d entries, want at most %d", len(c.m), botAuthCacheSize)
	}
	last := strconv.Itoa(botAuthCacheSize + 9)
	if b, ok := c.get(last, now); !ok || b.ID != last {
		t.Fatalf("the newest entry is gone")
	}
}
