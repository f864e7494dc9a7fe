package store_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/bots"
	"github.com/botpay/botpay/internal/kernel"
	"github.com/botpay/botpay/internal/notifications"
	"github.com/botpay/botpay/internal/spending"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
)

var ctx = context.Background()

// registry registers and claims bots for the fixtures, as internal/bots
// does, with no registration limit.
func registry(st *store.Store) *bots.Service {
	return bots.New(bots.Deps{DB: st.Kernel(), Outbox: st.Outbox()})
}

func countOf(types []string, want string) int {
	n := 0
	for _, typ := range types {
		if typ == want {
			n++
		}
	}
	return n
}

// pendingMessages reads a bot's pending messages as the bot does.
func pendingMessages(st *store.Store, botID string, page botpay.PageRequest) (botpay.Page[botpay.PendingMessage], error) {
	return notifications.NewService(notifications.Deps{DB: st.Kernel()}).PendingMessages(ctx, botpay.Bot{ID: botID}, page)
}

// spendings are the spending services of the tests' stores, one per store
// as app.New builds one per process, so that its configuration cache
// lives as long as the store.
var spendings sync.Map

// spendingOf is the checkout and approvals capability over st's database
// (internal/spending), as app.New builds it without a sealer, owner
// notices or signing approvals.
func spendingOf(st *store.Store) *spending.Service {
	if s, ok := spendings.Load(st); ok {
		return s.(*spending.Service)
	}
	s, _ := spendings.LoadOrStore(st, spending.New(spending.Deps{DB: st.Kernel(), Outbox: st.Outbox(), Signing: storetest.HeldSigning(st)}))
	return s.(*spending.Service)
}

// processorWalletAt gives the bot a processor wallet at address, as
// internal/payments does, with a made-up sealed key.
func processorWalletAt(t *testing.T, st *store.Store, botID, address string) {
	t.Helper()
	if err := st.Kernel().InTx(ctx, func(tx *kernel.Tx) error {
		now := kernel.MS(st.Clock().Now())
		_, err := tx.Exec(ctx, `INSERT INTO processor_wallets (bot_id, address, sealed_key, balance_micro, created_at, updated_at)
			VALUES ($1, $2, $3, 0, $4, $4)`, botID, strings.ToLower(address), []byte("sealed"), now)
		return err
	}); err != nil {
		t.Fatal(err)
	}
}
