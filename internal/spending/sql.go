package spending

import (
	"database/sql"
	"errors"
	"sync"
	"time"

	"github.com/botpay/botpay/internal/kernel"
)

// Times are stored as integer Unix milliseconds on both engines.
func ms(t time.Time) int64 { return kernel.MS(t) }

func fromMS(v int64) time.Time { return kernel.FromMS(v) }

func nullTime(t time.Time) sql.NullInt64 {
	return sql.NullInt64{Int64: kernel.MS(t), Valid: !t.IsZero()}
}

func fromNullMS(v sql.NullInt64) time.Time {
	if !v.Valid {
		return time.Time{}
	}
	return fromMS(v.Int64)
}

func fromNullableMS(v *int64) *time.Time {
	if v == nil {
		return nil
	}
	t := fromMS(*v)
	return &t
}

func nullString(s string) sql.NullString {
	return sql.NullString{String: s, Valid: s != ""}
}

func isNoRows(err error) bool { return errors.Is(err, sql.ErrNoRows) }

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
