package earning_test

import (
	"sync"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/earning"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
)

// Concurrent sends through two handles on one database (two replicas) of
// one owner's two bots never e-mail more than the limits allow: the bot's
// 3, and the owner's 4 over both bots. Refused invoices stay drafts, and an
// invoice without a recipient address counts nothing.
func TestConcurrentInvoiceSendsNeverExceedTheMailLimits(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *storetest.DB) {
		stores := []*store.Store{db.Store, db.OpenAnother(t)}
		owner := storetest.NewOwner(t, db.Store)
		bots := []botpay.Bot{storetest.ClaimedBot(t, db.Store, owner), storetest.ClaimedBot(t, db.Store, owner)}
		limits := func(b botpay.Bot) []earning.Limit {
			return []earning.Limit{{Bucket: "invoice-mails-bot:" + b.ID, Max: 3, Window: 24 * time.Hour},
				{Bucket: "invoice-mails-owner:" + owner.ID, Max: 4, Window: 24 * time.Hour}}
		}
		var wg sync.WaitGroup
		var mu sync.Mutex
		sent := map[string]int{}
		for i := range 12 {
			b := bots[i%2]
			inv := draftInvoice(t, db.Store, b, "r@example.com")
			wg.Go(func() {
				_, err := earningOf(stores[i%2]).MarkInvoiceSent(ctx, b.ID, inv.ID, limits(b)...)
				if e := botpay.AsError(err); err != nil && (e == nil || e.Code != botpay.CodeRateLimited) {
					t.Errorf("send: %v", err)
				}
				mu.Lock()
				defer mu.Unlock()
				if err == nil {
					sent[b.ID]++
				}
			})
		}
		wg.Wait()
		if total := sent[bots[0].ID] + sent[bots[1].ID]; total != 4 || sent[bots[0].ID] > 3 || sent[bots[1].ID] > 3 {
			t.Fatalf("sent %v, want 4 in all and at most 3 per bot", sent)
		}
		unaddressed := draftInvoice(t, db.Store, bots[0], "")
		if _, err := earningOf(db.Store).MarkInvoiceSent(ctx, bots[0].ID, unaddressed.ID, limits(bots[0])...); err != nil {
			t.Fatalf("an invoice without a recipient address: %v", err)
		}
		for _, b := range bots {
			drafts, err := earningOf(db.Store).InvoicesOf(ctx, b.ID, botpay.InvoiceFilter{Status: botpay.InvoiceDraft}, botpay.PageRequest{Limit: 100})
			if err != nil || len(drafts.Items) != 6-sent[b.ID] {
				t.Errorf("bot %s: %d drafts (%v), want %d", b.ID, len(drafts.Items), err, 6-sent[b.ID])
			}
		}
	})
}

func draftInvoice(t *testing.T, st *store.Store, b botpay.Bot, recipient string) botpay.Invoice {
	t.Helper()
	page := storetest.Page(t, st, b.ID, nil)
	now := st.Clock().Now()
	inv := botpay.Invoice{ID: botpay.NewID("inv_"), BotID: b.ID, CheckoutPageID: page.ID, Status: botpay.InvoiceDraft,
		RecipientEmail: recipient, LineItems: []botpay.LineItem{{Description: "Work", Quantity: "1", UnitPrice: 100, Amount: 100}},
		Subtotal: 100, Total: 100, DueDate: now.Add(botpay.InvoiceDefaultDue), CreatedAt: now, UpdatedAt: now}
	if err := earningOf(st).InsertInvoice(ctx, &inv); err != nil {
		t.Fatal(err)
	}
	return inv
}
