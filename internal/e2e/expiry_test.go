package e2e

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/botpay/botpay/client"
	"github.com/botpay/botpay/internal/app"
	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/spending"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
	"github.com/botpay/botpay/internal/testserver"
)

// An overdue hold reads expired at once, whatever the worker has done yet,
// and an approval after the window is 410 expired.
func TestHeldPurchaseReadsExpiredAfterFifteenMinutes(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, dialect store.Dialect) {
		clock := botpay.NewManualClock(time.Date(2026, 11, 21, 9, 30, 0, 0, time.UTC))
		h := start(t, dialect, testserver.Options{Clock: clock})
		s := h.shopper("slow-owner", client.Dollars(100, 0), nil)
		held, err := s.bot.Checkout(h.ctx, purchase(5000))
		if err != nil || isTrue(held.Approved) {
			t.Fatalf("checkout = %+v, %v; want held", held, err)
		}
		if !held.ExpiresAt.Equal(clock.Now().Add(15 * time.Minute)) {
			t.Errorf("expires_at = %s, want 15 minutes from now", held.ExpiresAt)
		}
		clock.Advance(15*time.Minute - time.Millisecond)
		if st, _ := s.bot.CheckoutStatus(h.ctx, held.ConfirmationID); st.Status != client.PurchasePending {
			t.Errorf("status just before expiry = %s, want pending", st.Status)
		}
		clock.Advance(time.Millisecond)
		if st, _ := s.bot.CheckoutStatus(h.ctx, held.ConfirmationID); st.Status != client.PurchaseExpired {
			t.Errorf("status at expiry = %s, want expired", st.Status)
		}
		if list, _ := s.owner.Approvals(h.ctx); len(list) != 0 {
			t.Errorf("approvals = %+v, want none once expired", list)
		}
		_, err = s.owner.ApprovePurchase(h.ctx, held.ConfirmationID)
		wantError(t, err, http.StatusGone, client.CodeExpired)
		_, err = s.owner.DenyPurchase(h.ctx, held.ConfirmationID)
		wantError(t, err, http.StatusGone, client.CodeExpired)
		if got := s.available(h); got != client.Dollars(100, 0) {
			t.Errorf("available = %s, want the hold released", got)
		}
		if n := countOf(h.events(s.reg.BotID), "purchase.expired"); n != 1 {
			t.Errorf("purchase.expired written %d times, want 1", n)
		}
	})
}

// The expiry worker, run by two replicas on one database, expires a held
// purchase at 15 minutes, releases its hold and writes purchase.expired
// exactly once. Time is synctest's fake clock: nothing sleeps for real.
func TestExpiryWorkersOnTwoReplicasExpireAHoldOnce(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, dialect store.Dialect) {
		h := start(t, dialect, manyBots)
		replica := h.srv.Replica(t, manyBots)
		s := h.shopper("sleepy-owner", client.Dollars(100, 0), nil)
		bot, err := h.srv.App.Bots().Bot(h.ctx, s.reg.BotID)
		if err != nil {
			t.Fatal(err)
		}
		warm(h.srv.Store, replica.Store)
		synctest.Test(t, func(t *testing.T) {
			ctx := context.Background()
			idx := 1
			held, err := h.srv.App.Spending().Checkout(ctx, bot, spending.CheckoutInput{ProfileIndex: &idx, MerchantName: "Acme",
				MerchantURL: "https://acme.com", ItemName: "Desk", AmountCents: ptr(5000)})
			if err != nil || held.Purchase.Status != botpay.PurchasePending {
				t.Fatalf("checkout = %+v, %v; want held", held.Purchase, err)
			}
			workers, stop := context.WithCancel(ctx)
			var wg sync.WaitGroup
			for _, svc := range []*app.Service{h.srv.App, replica.App} {
				wg.Go(func() { svc.ExpireHeldPurchases(workers, time.Second) })
			}
			expired := func() int { return countOf(h.events(bot.ID), "purchase.expired") }

			time.Sleep(15*time.Minute - 2*time.Second)
			synctest.Wait()
			if n := expired(); n != 0 {
				t.Fatalf("purchase.expired written %d times before 15 minutes", n)
			}
			wv, _, _ := h.srv.App.Wallets().WalletView(ctx, bot.ID)
			if wv.Wallet.Held != 5000 {
				t.Fatalf("held = %d before expiry, want 5000", wv.Wallet.Held)
			}
			time.Sleep(3 * time.Second)
			synctest.Wait()
			if n := expired(); n != 1 {
				t.Errorf("purchase.expired written %d times, want exactly 1", n)
			}
			wv, _, _ = h.srv.App.Wallets().WalletView(ctx, bot.ID)
			if wv.Wallet.Held != 0 || wv.Wallet.Balance != 10000 {
				t.Errorf("wallet = %+v after expiry, want the hold released", wv.Wallet)
			}
			time.Sleep(time.Minute) // more passes change nothing
			synctest.Wait()
			if n := expired(); n != 1 {
				t.Errorf("purchase.expired written %d times after more passes, want 1", n)
			}
			stop()
			wg.Wait()
		})
	})
}

// warm opens connections outside the bubble, so that the bubble's queries
// reuse them instead of dialling from inside it.
func warm(stores ...*store.Store) {
	var wg sync.WaitGroup
	for _, st := range stores {
		for range 8 {
			wg.Go(func() {
				st.Kernel().QueryRow(context.Background(), `SELECT 1`).Scan(new(int))
				storetest.OutboxOf(st).Events(context.Background(), "bot_none")
			})
		}
	}
	wg.Wait()
}

func ptr(v int) *int { return &v }
