package spending_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/spending"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
)

var ctx = context.Background()

// spendings are the services of the tests' stores, one per store as
// app.New builds one per process, so that a service's configuration cache
// lives as long as its store (a second store on the same database is a
// second replica).
var spendings sync.Map

// spendingOf is the Service over st's database, as app.New builds it
// without card details, owner notices or signing approvals.
func spendingOf(st *store.Store) *spending.Service {
	if s, ok := spendings.Load(st); ok {
		return s.(*spending.Service)
	}
	s, _ := spendings.LoadOrStore(st, spending.New(spending.Deps{DB: st.Kernel(), Outbox: st.Outbox(), Rules: st.ForSpending(),
		Signing: st.ForSpending()}))
	return s.(*spending.Service)
}

// statementByStatement makes st's service write every checkout statement
// by statement (tests compare the two paths on PostgreSQL).
func statementByStatement(st *store.Store) {
	spendings.Store(st, spending.New(spending.Deps{DB: st.Kernel(), Outbox: st.Outbox(), Rules: st.ForSpending(),
		Signing: st.ForSpending(), StatementByStatement: true}))
}

func hold(t *testing.T, st *store.Store, b botpay.Bot, amount botpay.Money) botpay.Purchase {
	t.Helper()
	res, err := spendingOf(st).DecideCheckout(ctx, botpay.CheckoutAsk{BotID: b.ID, ProfileIndex: 1, ItemName: "thing",
		Request: botpay.CheckoutRequest{Amount: amount, MerchantName: "Acme", MerchantURL: "acme.com"}})
	if err != nil || res.Purchase.Status != botpay.PurchasePending {
		t.Fatalf("checkout = %+v, %v; want held", res.Purchase, err)
	}
	return res.Purchase
}

// sweepOnReplicas runs sweep on every replica, two workers each, one item
// at a time until nothing is left, and returns how many items they swept
// in all.
func sweepOnReplicas(t *testing.T, replicas []*store.Store, sweep func(*store.Store, context.Context, int) (int, error)) int64 {
	t.Helper()
	var total atomic.Int64
	var wg sync.WaitGroup
	for _, st := range replicas {
		for range 2 {
			wg.Go(func() {
				for {
					n, err := sweep(st, ctx, 1)
					if err != nil {
						t.Error(err)
						return
					}
					total.Add(int64(n))
					if n == 0 {
						return
					}
				}
			})
		}
	}
	wg.Wait()
	return total.Load()
}

// onEachReplica runs test, as a parallel subtest on each engine, with a
// fresh database and the store that makes the change: the one under test
// ("same replica"), or a second store on the same database ("other
// replica"), whose changes the first can learn of only from the database.
func onEachReplica(t *testing.T, name string, test func(t *testing.T, db *storetest.DB, changer *store.Store)) {
	for _, d := range storetest.Dialects {
		for _, replica := range []string{"same replica", "other replica"} {
			t.Run(string(d)+"/"+replica+"/"+name, func(t *testing.T) {
				t.Parallel()
				db := storetest.Open(t, d, nil)
				changer := db.Store
				if replica == "other replica" {
					changer = db.OpenAnother(t)
				}
				test(t, db, changer)
			})
		}
	}
}

// lowerPerTransaction sets the bot's per-transaction limit to cents.
func lowerPerTransaction(t *testing.T, st *store.Store, owner botpay.Owner, b botpay.Bot, cents botpay.Money) {
	t.Helper()
	g, err := st.Guardrails(ctx, b.ID)
	if err != nil {
		t.Fatal(err)
	}
	g.PerTransaction = cents
	if err := spendingOf(st).ReplaceGuardrails(ctx, owner.ID, b.ID, g); err != nil {
		t.Fatal(err)
	}
}
