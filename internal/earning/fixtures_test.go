package earning_test

import (
	"context"

	"github.com/botpay/botpay/internal/ratelimit"
	"github.com/botpay/botpay/internal/spending"
	"github.com/botpay/botpay/internal/store/storetest"

	"github.com/botpay/botpay/internal/earning"
	"github.com/botpay/botpay/internal/store"
)

var ctx = context.Background()

// earningOf is the Service over st's database, as app.New builds it
// (without receipt mail, on-chain refunds or processor wallets).
func earningOf(st *store.Store) *earning.Service {
	return earning.New(earning.Deps{DB: st.Kernel(), Outbox: st.Outbox(), RateLimits: ratelimit.New(st.Kernel())})
}

// spendingOf is the checkout capability over st's database, as app.New
// builds it without a sealer, owner notices or signing approvals.
func spendingOf(st *store.Store) *spending.Service {
	return spending.New(spending.Deps{DB: st.Kernel(), Outbox: st.Outbox(), Signing: storetest.HeldSigning(st),
		Sealer: unopened{}})
}

// unopened stands in for the sealer: the tests read purchases, not cards.
type unopened struct{}

func (unopened) Seal(plaintext, _ []byte) []byte { return plaintext }

func (unopened) Open(_, _ []byte) ([]byte, error) { return []byte("{}"), nil }
