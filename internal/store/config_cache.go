package store

import "sync"

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
