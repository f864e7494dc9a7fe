package bots_test

import (
	"context"
	"time"

	"github.com/botpay/botpay/internal/bots"
	"github.com/botpay/botpay/internal/kernel"
	"github.com/botpay/botpay/internal/ratelimit"
	"github.com/botpay/botpay/internal/store"
)

var ctx = context.Background()

// storeLimits counts the Service's rate limits in the store's windows, as
// the service's wiring does.
type storeLimits struct{ st *store.Store }

func storeLimit(l bots.Limit) ratelimit.Limit {
	return ratelimit.Limit{Bucket: l.Bucket, Max: l.Max, Window: l.Window, FixedRetryAfter: l.FixedRetryAfter}
}

func (s storeLimits) Take(ctx context.Context, l bots.Limit) error {
	return ratelimit.New(s.st.Kernel()).Take(ctx, storeLimit(l))
}

func (s storeLimits) TakeIn(ctx context.Context, tx *kernel.Tx, l bots.Limit, now time.Time) error {
	return ratelimit.New(s.st.Kernel()).TakeIn(ctx, tx, storeLimit(l), now)
}

func (s storeLimits) RefuseWhenSpentIn(ctx context.Context, tx *kernel.Tx, l bots.Limit, now time.Time) error {
	return ratelimit.New(s.st.Kernel()).RefuseWhenSpentIn(ctx, tx, storeLimit(l), now)
}

func (s storeLimits) HitIn(ctx context.Context, tx *kernel.Tx, l bots.Limit, now time.Time) error {
	return ratelimit.New(s.st.Kernel()).HitIn(ctx, tx, storeLimit(l), now)
}

// serviceOf is the Service over st's database, outbox and windows.
func serviceOf(st *store.Store) *bots.Service {
	return bots.New(bots.Deps{DB: st.Kernel(), Outbox: st.Outbox(), Wallets: st, RateLimits: storeLimits{st}})
}
