package app

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
// It is exact for them because an API key names the same bot for the bot's
// whole life (keys are never rotated and bots never deleted), and because
// everything a payment decides on that can change (claim, owner, freeze,
// wallet) is read again inside the payment's own transaction under the
// wallet lock. Only claimed bots are kept (their owner never changes), for
// at most botAuthLife, so the descriptive fields a notification uses (the
// bot's name) are at most that old. Every other endpoint authenticates
// against the database (AuthenticateBot).
func (s *Service) AuthenticateBotForSpending(ctx context.Context, apiKey string) (botpay.Bot, error) {
	if !botpay.WellFormedSecret(apiKey, botpay.APIKeyPrefix) {
		return botpay.Bot{}, errBotAuth
	}
	hash := botpay.Digest(apiKey)
	now := s.clock.Now()
	if b, ok := s.botAuth.get(hash, now); ok {
		return b, nil
	}
	b, err := s.store.BotByAPIKeyHash(ctx, hash)
	if botpay.AsError(err) != nil {
		return b, errBotAuth
	}
	if err == nil && b.Claimed() {
		s.botAuth.put(hash, b, now.Add(botAuthLife))
	}
	return b, err
}

// botAuthLife bounds how long a bot read by AuthenticateBotForSpending is
// used without reading it again.
const botAuthLife = 30 * time.Second

// botAuthCache maps API key digests to the claimed bot they authenticate.
type botAuthCache struct {
	mu sync.Mutex
	m  map[string]cachedBot
}

type cachedBot struct {
	bot   botpay.Bot
	until time.Time
}

// botAuthCacheSize bounds the cache; when it is full, expired entries go
// first, else all of them.
const botAuthCacheSize = 100000

func (c *botAuthCache) get(hash string, now time.Time) (botpay.Bot, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[hash]
	if !ok || !now.Before(e.until) {
		return botpay.Bot{}, false
	}
	return e.bot, true
}

func (c *botAuthCache) put(hash string, b botpay.Bot, until time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]cachedBot{}
	}
	if len(c.m) >= botAuthCacheSize {
		for k, e := range c.m {
			if !until.Add(-botAuthLife).Before(e.until) {
				delete(c.m, k)
			}
		}
		if len(c.m) >= botAuthCacheSize {
			clear(c.m)
		}
	}
	c.m[hash] = cachedBot{bot: b, until: until}
}
