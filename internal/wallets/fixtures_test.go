package wallets_test

import (
	"context"

	"github.com/botpay/botpay/internal/bots"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
	"github.com/botpay/botpay/internal/wallets"
)

var ctx = context.Background()

// registry registers and claims bots for the fixtures, as internal/bots
// does, with no registration limit.
func registry(st *store.Store) *bots.Service {
	return bots.New(bots.Deps{DB: st.Kernel(), Outbox: st.Outbox()})
}

// walletsOf is the card wallet over st's database, as app.New builds it
// without the processor wallet, owner mail or rate limits.
func walletsOf(st *store.Store) *wallets.Service { return storetest.Wallets(st) }
