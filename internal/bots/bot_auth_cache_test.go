package bots

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
	c.put("digest", cachedBot{bot: botpay.Bot{ID: "bot_1"}, until: now.Add(botAuthLife)}, now, 0)
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
		c.put(strconv.Itoa(i), cachedBot{bot: botpay.Bot{ID: strconv.Itoa(i)}, until: now.Add(botAuthLife)}, now, 0)
	}
	if len(c.m) > botAuthCacheSize {
		t.Fatalf("%d entries, want at most %d", len(c.m), botAuthCacheSize)
	}
	last := strconv.Itoa(botAuthCacheSize + 9)
	if b, ok := c.get(last, now); !ok || b.ID != last {
		t.Fatalf("the newest entry is gone")
	}
}

// TestBotAuthCacheDropsEverythingWhenTheKeyEpochMoves: a rotation anywhere
// moves the epoch; every entry may name a key that stopped working.
func TestBotAuthCacheDropsEverythingWhenTheKeyEpochMoves(t *testing.T) {
	t.Parallel()
	var c botAuthCache
	now := time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)
	c.setEpoch(7, time.Now())
	c.put("digest", cachedBot{bot: botpay.Bot{ID: "bot_1"}, until: now.Add(botAuthLife)}, now, 7)
	c.setEpoch(7, time.Now())
	if _, ok := c.get("digest", now); !ok {
		t.Fatal("an unchanged epoch dropped the entry")
	}
	c.setEpoch(8, time.Now())
	if _, ok := c.get("digest", now); ok {
		t.Fatal("the entry outlived a rotation")
	}
}

// TestBotAuthCacheRefusesABotReadBeforeARotation: a bot read under an
// older epoch is not kept once the cache has seen a newer one, so a read
// that raced a rotation cannot outlive it.
func TestBotAuthCacheRefusesABotReadBeforeARotation(t *testing.T) {
	t.Parallel()
	var c botAuthCache
	now := time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)
	c.setEpoch(3, time.Now())
	c.put("digest", cachedBot{bot: botpay.Bot{ID: "bot_1"}, until: now.Add(botAuthLife)}, now, 2)
	if _, ok := c.get("digest", now); ok {
		t.Fatal("a bot read under an older epoch was kept")
	}
}

// TestBotAuthCacheRereadsTheEpochWithinASecond: the epoch read is fresh
// for keyEpochCheckEvery, well under the one second the contract allows.
func TestBotAuthCacheRereadsTheEpochWithinASecond(t *testing.T) {
	t.Parallel()
	if keyEpochCheckEvery >= time.Second/2 {
		t.Fatalf("keyEpochCheckEvery = %v; with a read's own time it must stay under 1 s", keyEpochCheckEvery)
	}
	var c botAuthCache
	read := time.Now()
	c.setEpoch(1, read)
	if _, fresh := c.epochIfFresh(read.Add(keyEpochCheckEvery - time.Millisecond)); !fresh {
		t.Error("stale before its time")
	}
	if _, fresh := c.epochIfFresh(read.Add(keyEpochCheckEvery)); fresh {
		t.Error("fresh past keyEpochCheckEvery")
	}
	c.forgetEpoch()
	if _, fresh := c.epochIfFresh(read); fresh {
		t.Error("fresh after forgetEpoch")
	}
}
