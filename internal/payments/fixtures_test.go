package payments_test

import (
	"context"
	"sync"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/bots"
	"github.com/botpay/botpay/internal/earning"
	"github.com/botpay/botpay/internal/kernel"
	"github.com/botpay/botpay/internal/payments"
	"github.com/botpay/botpay/internal/store"
)

var ctx = context.Background()

var services sync.Map // *store.Store → *payments.Service

// paymentsOf is the Service over st's database, one per store as app.New
// builds one per process (so its signing rules in memory are kept), with
// neither wallet keys nor mail: the tests judge and sign nothing. Sales
// and refunds go through internal/earning, as app.New wires them.
func paymentsOf(st *store.Store) *payments.Service {
	if s, ok := services.Load(st); ok {
		return s.(*payments.Service)
	}
	sales := earningOf(st)
	s, _ := services.LoadOrStore(st, payments.New(payments.Deps{DB: st.Kernel(), Outbox: st.Outbox(), Bots: bots.New(bots.Deps{DB: st.Kernel(), Outbox: st.Outbox()}),
		Sales: sales, Refunds: saleRefunds{sales}, Offers: saleOffers{sales}}))
	return s.(*payments.Service)
}

// earningOf is the sale path over st's database (internal/earning), as
// app.New builds it without receipt mail or on-chain refunds: a link held
// by an x402 claim of paymentsOf(st) waits for it.
func earningOf(st *store.Store) *earning.Service {
	return earning.New(earning.Deps{DB: st.Kernel(), Outbox: st.Outbox(), Claims: claimsOf{st}})
}

// claimsOf reads the claims of st's payments service when asked, as
// app.New wires the two services built one after the other.
type claimsOf struct{ st *store.Store }

func (c claimsOf) LinkBeingPaid(ctx context.Context, tx *kernel.Tx, linkID string) (bool, error) {
	return paymentsOf(c.st).LinkBeingPaid(ctx, tx, linkID)
}

// saleRefunds is internal/earning's side of on-chain refunds, as app.New
// wires it.
type saleRefunds struct{ *earning.Service }

func (r saleRefunds) SalePayer(ctx context.Context, botID, saleID string) (string, error) {
	sale, err := r.SaleForRefund(ctx, botID, saleID)
	return sale.Payer, err
}

// saleOffers are internal/earning's pages, invoices and links, as app.New
// wires them.
type saleOffers struct{ *earning.Service }

func (o saleOffers) PaidInvoice(ctx context.Context, pageID, ref string) (botpay.Invoice, error) {
	inv, err := o.InvoiceByRef(ctx, pageID, ref)
	return o.WithPayToken(inv), err
}
