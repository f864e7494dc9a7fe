package bots_test

import (
	"context"

	"github.com/botpay/botpay/internal/bots"
	"github.com/botpay/botpay/internal/ratelimit"
	"github.com/botpay/botpay/internal/store"
)

var ctx = context.Background()

// serviceOf is the Service over st's database, outbox and windows.
func serviceOf(st *store.Store) *bots.Service {
	return bots.New(bots.Deps{DB: st.Kernel(), Outbox: st.Outbox(), RateLimits: ratelimit.New(st.Kernel())})
}
