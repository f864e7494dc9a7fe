package store

import (
	"context"
	"errors"
	"sync"

	"github.com/botpay/botpay/internal/botpay"
)

// checkoutConfig is the part of a checkout's rules that changes only when an
// owner changes it: the bot's guardrails, its owner's master guardrails, its
// procurement controls and its cards with their payment profiles. It is
// read under the wallet lock and kept in memory under the wallet's id and
// configuration version (migration 0009 bumps the version, by trigger, with
// every change to those rows), so most checkouts read only their usage.
type checkoutConfig struct {
	walletID string
	version  int64
	claimed  bool // false: the bot has no guardrails (never claimed)
	rules    botpay.SpendingRules
	cards    []botpay.Card // every card of the bot, any status, oldest first
	details  map[cardProfile][]byte
}

// cardProfile names one payment profile of one card.
type cardProfile struct {
	card  string
	index int
}

// readCheckoutConfig reads the bot's configuration. The caller holds w's
// lock, under which no configuration change can commit (its trigger waits
// for the lock), so the statements agree with each other and with
// w.configVersion.
func (t *Tx) readCheckoutConfig(ctx context.Context, w lockedWallet) (*checkoutConfig, error) {
	c := &checkoutConfig{walletID: w.ID, version: w.ConfigVersion, details: map[cardProfile][]byte{}}
	g, err := scanGuardrails(t.queryRow(ctx, guardrailsQuery, w.BotID))
	if errors.Is(err, botpay.ErrWalletNotActive) {
		return c, nil
	}
	if err != nil {
		return nil, err
	}
	c.claimed, c.rules.Bot = true, g
	if c.rules.Master, err = scanMasterGuardrails(t.queryRow(ctx, masterGuardrailsQuery, w.OwnerID)); err != nil {
		return nil, err
	}
	if c.rules.Procurement, err = scanProcurement(t.queryRow(ctx, procurementQuery, w.BotID)); err != nil {
		return nil, err
	}
	if err := t.eachRow(ctx, step{Query: cardsQuery(`c.bot_id = $1`), Args: []any{w.BotID}, Each: cardCollector(&c.cards)}); err != nil {
		return nil, err
	}
	err = t.eachRow(ctx, step{Query: `SELECT p.card_id, p.profile_index, p.details_sealed FROM card_profiles p
			JOIN cards c ON c.id = p.card_id WHERE c.bot_id = $1`, Args: []any{w.BotID},
		Each: func(row scanner) error {
			var k cardProfile
			var sealed []byte
			if err := row.Scan(&k.card, &k.index, &sealed); err != nil {
				return err
			}
			c.details[k] = sealed
			return nil
		}})
	return c, err
}

// configCache keeps configurations this process read, by bot id, at most
// configCacheSize of them (an arbitrary one makes room for a new one).
// Entries are never changed, only replaced.
type configCache[T any] struct {
	mu sync.Mutex
	m  map[string]*T
}

const configCacheSize = 50000

func (c *configCache[T]) get(botID string) *T {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m[botID]
}

func (c *configCache[T]) put(botID string, cfg *T) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]*T{}
	}
	if _, ok := c.m[botID]; !ok && len(c.m) >= configCacheSize {
		for k := range c.m {
			delete(c.m, k)
			break
		}
	}
	c.m[botID] = cfg
}
