package store_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/bots"
	"github.com/botpay/botpay/internal/store/storetest"
)

// A database error says which capability was doing what for which id, and
// the cause stays matchable; a domain error stays the client's answer as is.
func TestStoreErrorsSayWhatFailedAndKeepTheirCause(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *storetest.DB) {
		st := db.Store
		registry := bots.New(bots.Deps{DB: st.Kernel(), Outbox: st.Outbox()})
		cancelled, cancel := context.WithCancel(ctx)
		cancel()
		_, err := registry.Bot(cancelled, "bot_0123456789abcdef")
		if !errors.Is(err, context.Canceled) || !strings.HasPrefix(err.Error(), "bots: bot bot_0123456789abcdef: ") {
			t.Errorf("read error = %v; want it to start with the operation and id, and to be context.Canceled", err)
		}
		// Writes wrap their errors the same way.
		_, err = storetest.Wallets(st).Freeze(cancelled, botpay.Owner{ID: "own_x"}, "bot_x", true)
		if !errors.Is(err, context.Canceled) || !strings.HasPrefix(err.Error(), "wallets: set frozen bot_x: ") {
			t.Errorf("write error = %v; want it to start with the operation and id, and to be context.Canceled", err)
		}
		_, err = registry.Bot(ctx, "bot_missing")
		var domain *botpay.Error
		if !errors.As(err, &domain) || domain.Code != botpay.CodeNotFound || err.Error() != domain.Error() {
			t.Errorf("missing bot = %v; want the domain error unwrapped", err)
		}
	})
}
