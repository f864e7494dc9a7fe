package spending_test

import (
	"context"
	"sync"

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
	s, _ := spendings.LoadOrStore(st, spending.New(spending.Deps{DB: st.Kernel(), Outbox: st.Outbox(), Signing: storetest.HeldSigning(st)}))
	return s.(*spending.Service)
}

// statementByStatement makes st's service write every checkout statement
// by statement (tests compare the two paths on PostgreSQL).
func statementByStatement(st *store.Store) {
	s := spending.New(spending.Deps{DB: st.Kernel(), Outbox: st.Outbox(), Signing: storetest.HeldSigning(st)})
	s.WriteStatementByStatement()
	spendings.Store(st, s)
}
