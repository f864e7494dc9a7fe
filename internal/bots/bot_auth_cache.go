package bots

import (
	"context"
	"sync"
	"time"

	"github.com/botpay/botpay/internal/botpay"
)

// AuthenticateBotForSpending authenticates a bot for the two payment
// endpoints (checkout and x402 signing) from memory when it can: most
// of their requests are then one database transaction instead of two.
//
// An API key names the same bot until it is rotated, and everything a
// payment decides on that can change (claim, owner, freeze, wallet) is read
// again inside the payment's own transaction under the wallet lock. What
// memory must not do is keep honouring a key that a rotation ended, on any
// replica: every rotation bumps the service-wide api_key_epoch in its
// transaction, and this cache reads that counter again at most
// keyEpochCheckEvery after it last did, dropping every entry when it moved.
// So a rotated or revoked key is refused here within keyEpochCheckEvery
// (plus one read) of its commit, on every replica, at the cost of one
// single-row read per replica per interval, not per request. A previous
// key in its grace period is kept no longer than its expiry.
//
// Only claimed bots are kept (their owner never changes), for at most
// botAuthLife, so the descriptive fields a notification uses (the bot's
// name) are at most that old. Every other endpoint authenticates against
// the database (AuthenticateBot).
func (s *Service) AuthenticateBotForSpending(ctx context.Context, apiKey string) (botpay.Bot, error) {
	if !botpay.WellFormedSecret(apiKey, botpay.APIKeyPrefix) {
		return botpay.Bot{}, ErrBotAuth
	}
	epoch, err := s.keyEpoch(ctx)
	if err != nil {
		return botpay.Bot{}, err
	}
	hash := botpay.Digest(apiKey)
	now := s.clock.Now()
	if b, ok := s.botAuth.get(hash, now); ok {
		return b, nil
	}
	b, keyExpires, err := s.botByAPIKey(ctx, hash)
	if botpay.AsError(err) != nil {
		return b, ErrBotAuth
	}
	if err == nil && b.Claimed() {
		until := now.Add(botAuthLife)
		if !keyExpires.IsZero() && keyExpires.Before(until) {
			until = keyExpires
		}
		s.botAuth.put(hash, cachedBot{bot: b, until: until}, now, epoch)
	}
	return b, err
}

// botAuthLife bounds how long a bot read by AuthenticateBotForSpending is
// used without reading it again.
const botAuthLife = 30 * time.Second

// keyEpochCheckEvery bounds how long a replica may go on honouring a key
// from memory after a rotation committed anywhere (the contract is one
// second).
const keyEpochCheckEvery = 250 * time.Millisecond

// keyEpoch returns the api_key_epoch the cache is valid for, reading it
// from the database when the last read is older than keyEpochCheckEvery.
// Concurrent callers wait for one read rather than each making their own.
func (s *Service) keyEpoch(ctx context.Context) (int64, error) {
	c := &s.botAuth
	c.checkMu.Lock()
	defer c.checkMu.Unlock()
	if epoch, fresh := c.epochIfFresh(time.Now()); fresh {
		return epoch, nil
	}
	started := time.Now()
	epoch, err := s.apiKeyEpoch(ctx)
	if err != nil {
		return 0, err
	}
	c.setEpoch(epoch, started)
	return epoch, nil
}

// botAuthCache maps API key digests to the claimed bot they authenticate,
// as of one api_key_epoch.
type botAuthCache struct {
	mu sync.Mutex
	m  map[string]cachedBot
	// epoch is the api_key_epoch every entry was read under; checkedAt is
	// when a read of it started (monotonic clock: it bounds real time,
	// whatever the service's clock says).
	epoch     int64
	checkedAt time.Time
	// checkMu lets one caller at a time read the epoch.
	checkMu sync.Mutex
}

type cachedBot struct {
	bot   botpay.Bot
	until time.Time
}

// botAuthCacheSize bounds the cache; when it is full, expired entries go
// first, else all of them.
const botAuthCacheSize = 100000

func (c *botAuthCache) epochIfFresh(now time.Time) (int64, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.epoch, !c.checkedAt.IsZero() && now.Sub(c.checkedAt) < keyEpochCheckEvery
}

// setEpoch records a fresh read of the epoch; when it moved, every entry
// may name a key that no longer works and all are dropped.
func (c *botAuthCache) setEpoch(epoch int64, readAt time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if epoch != c.epoch {
		clear(c.m)
		c.epoch = epoch
	}
	c.checkedAt = readAt
}

// forgetEpoch makes the next caller read the epoch again.
func (c *botAuthCache) forgetEpoch() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.checkedAt = time.Time{}
}

func (c *botAuthCache) get(hash string, now time.Time) (botpay.Bot, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[hash]
	if !ok || !now.Before(e.until) {
		return botpay.Bot{}, false
	}
	return e.bot, true
}

// put keeps b unless the epoch moved since the caller read it: a bot read
// before a rotation committed must not outlive the drop that followed it.
func (c *botAuthCache) put(hash string, e cachedBot, now time.Time, epoch int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if epoch != c.epoch {
		return
	}
	if c.m == nil {
		c.m = map[string]cachedBot{}
	}
	if len(c.m) >= botAuthCacheSize {
		for k, old := range c.m {
			if !now.Before(old.until) {
				delete(c.m, k)
			}
		}
		if len(c.m) >= botAuthCacheSize {
			clear(c.m)
		}
	}
	c.m[hash] = e
}
