package kernel

import "sync"

// ConfigCache keeps configurations this process read from the database,
// by key, at most configCacheSize of them (an arbitrary one makes room
// for a new one). Entries are never changed, only replaced: the caller
// checks an entry's version against the database's before using it.
type ConfigCache[T any] struct {
	mu sync.Mutex
	m  map[string]*T
}

const configCacheSize = 50000

// Get is the entry of key, nil when none is kept.
func (c *ConfigCache[T]) Get(key string) *T {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m[key]
}

// Put keeps cfg as the entry of key.
func (c *ConfigCache[T]) Put(key string, cfg *T) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]*T{}
	}
	if _, ok := c.m[key]; !ok && len(c.m) >= configCacheSize {
		for k := range c.m {
			delete(c.m, k)
			break
		}
	}
	c.m[key] = cfg
}
