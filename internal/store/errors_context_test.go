package store_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/store/storetest"
)

// A store error says what the store was doing and for which id, and the
// cause stays matchable; a domain error stays the client's answer as is.
func TestStoreErrorsSayWhatFailedAndKeepTheirCause(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *storetest.DB) {
		st := db.Store
		cancelled, cancel := context.WithCancel(ctx)
		cancel()
		_, err := st.Bot(cancelled, "bot_0123456789abcdef")
		if !errors.Is(err, context.Canceled) || !strings.HasPrefix(err.Error(), "store: bot bot_0123456789abcdef: ") {
			t.Errorf("read error = %v; want it to start with the operation and id, and to be context.Canceled", err)
		}
		// The wallet's writes, cut out of the store, wrap their errors the
		// same way under their own package's name.
		_, err = storetest.Wallets(st).Freeze(cancelled, botpay.Owner{ID: "own_x"}, "bot_x", true)
		if !errors.Is(err, context.Canceled) || !strings.HasPrefix(err.Error(), "wallets: set frozen bot_x: ") {
			t.Errorf("write error = %v; want it to start with the operation and id, and to be context.Canceled", err)
		}
		_, err = st.Bot(ctx, "bot_missing")
		var domain *botpay.Error
		if !errors.As(err, &domain) || domain.Code != botpay.CodeNotFound || err.Error() != domain.Error() {
			t.Errorf("missing bot = %v; want the domain error unwrapped", err)
		}
	})
}
