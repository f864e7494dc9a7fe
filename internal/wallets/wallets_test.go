package wallets_test

import (
	"slices"
	"sync"
	"testing"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/store/storetest"
)

func TestFundWritesLedgerRowAndEventTogether(t *testing.T) {
	t.Parallel()
	storetest.ForEach(t, func(t *testing.T, db *storetest.DB) {
		st := db.Store
		owner := storetest.NewOwner(t, st)
		b := storetest.ClaimedBot(t, st, owner)
		f, err := walletsOf(st).Fund(ctx, owner, b.ID, 2501, "")
		if err != nil {
			t.Fatal(err)
		}
		if f.Transaction.Type != botpay.TxFund || f.Transaction.Amount != 2501 || *f.Transaction.BalanceAfter != 2501 || f.Wallet.Balance != 2501 {
			t.Fatalf("funding = %+v", f)
		}
		if got := storetest.EventTypes(t, st, b.ID); !slices.Equal(got, []string{botpay.EventWalletActivated, botpay.EventWalletFunded}) {
			t.Fatalf("events = %v", got)
		}
		txsPage, err := walletsOf(st).Transactions(ctx, b, botpay.PageRequest{Limit: 50})
		txs := txsPage.Items
		if err != nil || len(txs) != 1 || txs[0].ID != f.Transaction.ID {
			t.Fatalf("transactions = %+v, %v", txs, err)
		}
	})
}

func TestFundRefusesBotsTheOwnerDoesNotOwn(t *testing.T) {
	t.Parallel()
	storetest.ForEach(t, func(t *testing.T, db *storetest.DB) {
		st := db.Store
		owner, stranger := storetest.NewOwner(t, st), storetest.NewOwner(t, st)
		b := storetest.ClaimedBot(t, st, owner)
		unclaimed, _ := storetest.NewBot(t, st, "unclaimed")
		for name, botID := range map[string]string{"another owner's bot": b.ID, "unclaimed bot": unclaimed.ID, "missing bot": "bot_nope"} {
			_, err := walletsOf(st).Fund(ctx, stranger, botID, 100, "")
			if e := botpay.AsError(err); e == nil || e.Kind != botpay.KindNotFound {
				t.Errorf("%s: err = %v, want not found", name, err)
			}
		}
		if sum, _ := walletsOf(st).LedgerSum(ctx, b.ID); sum != 0 {
			t.Fatalf("ledger sum = %d after refused fundings", sum)
		}
	})
}

// TestConcurrentFundingsKeepBalanceEqualToLedger fires 100 fundings at once;
// the balance must equal the sum of ledger rows and every balance_after must
// be distinct (each funding saw the previous one).
func TestConcurrentFundingsKeepBalanceEqualToLedger(t *testing.T) {
	t.Parallel()
	storetest.ForEach(t, func(t *testing.T, db *storetest.DB) {
		st := db.Store
		owner := storetest.NewOwner(t, st)
		b := storetest.ClaimedBot(t, st, owner)
		const n = 100
		var wg sync.WaitGroup
		errs := make(chan error, n)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, err := walletsOf(st).Fund(ctx, owner, b.ID, botpay.Money(100+i), "")
				errs <- err
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatalf("fund: %v", err)
			}
		}
		var want botpay.Money
		for i := range n {
			want += botpay.Money(100 + i)
		}
		view, ok, err := walletsOf(st).WalletView(ctx, b.ID)
		if err != nil || !ok {
			t.Fatal(err)
		}
		sum, err := walletsOf(st).LedgerSum(ctx, b.ID)
		if err != nil {
			t.Fatal(err)
		}
		if view.Wallet.Balance != want || sum != want {
			t.Fatalf("balance %d, ledger sum %d, want %d", view.Wallet.Balance, sum, want)
		}
		txsPage, err := walletsOf(st).Transactions(ctx, b, botpay.PageRequest{Limit: 100})
		txs := txsPage.Items
		if err != nil || len(txs) != n {
			t.Fatalf("transactions: %d, %v", len(txs), err)
		}
		seen := map[botpay.Money]bool{}
		for _, tx := range txs {
			if seen[*tx.BalanceAfter] {
				t.Fatalf("two fundings report balance_after %d", *tx.BalanceAfter)
			}
			seen[*tx.BalanceAfter] = true
		}
		if got := len(storetest.EventTypes(t, st, b.ID)); got != n+1 {
			t.Fatalf("%d events, want %d (activation + one per funding)", got, n+1)
		}
	})
}

func TestFundingFulfilsTheTopupRequestsItCovers(t *testing.T) {
	t.Parallel()
	storetest.ForEach(t, func(t *testing.T, db *storetest.DB) {
		st := db.Store
		owner := storetest.NewOwner(t, st)
		b := storetest.ClaimedBot(t, st, owner)
		for _, amount := range []botpay.Money{1000, 2000, 500} {
			if _, err := walletsOf(st).CreateTopupRequest(ctx, botpay.TopupRequest{BotID: b.ID, Amount: amount, CreatedAt: st.Clock().Now()}); err != nil {
				t.Fatal(err)
			}
		}
		// 2500 covers the first request (1000) but not the second (2000);
		// requests are fulfilled oldest first and never skipped.
		f, err := walletsOf(st).Fund(ctx, owner, b.ID, 2500, "")
		if err != nil {
			t.Fatal(err)
		}
		if len(f.Fulfilled) != 1 || f.Fulfilled[0].Amount != 1000 {
			t.Fatalf("fulfilled = %+v", f.Fulfilled)
		}
		view, _, _ := walletsOf(st).WalletView(ctx, b.ID)
		if view.PendingTopups != 2 {
			t.Fatalf("pending topups = %d, want 2", view.PendingTopups)
		}
		want := []string{botpay.EventWalletActivated, botpay.EventWalletFunded, botpay.EventWalletTopupCompleted}
		if got := storetest.EventTypes(t, st, b.ID); !slices.Equal(got, want) {
			t.Fatalf("events = %v, want %v", got, want)
		}
	})
}

func TestSetFrozenEmitsOnlyOnChange(t *testing.T) {
	t.Parallel()
	storetest.ForEach(t, func(t *testing.T, db *storetest.DB) {
		st := db.Store
		owner := storetest.NewOwner(t, st)
		b := storetest.ClaimedBot(t, st, owner)
		for _, frozen := range []bool{true, true, false} {
			got, err := walletsOf(st).Freeze(ctx, owner, b.ID, frozen)
			if err != nil || got.Frozen != frozen || got.ID != b.ID || got.Name != b.Name || got.OwnerID != owner.ID {
				t.Fatalf("SetFrozen(%v) = %+v, %v", frozen, got, err)
			}
		}
		events, _ := storetest.OutboxOf(st).Events(ctx, b.ID)
		var actions []string
		for _, e := range events[1:] {
			actions = append(actions, e.Data["action"].(string))
		}
		if !slices.Equal(actions, []string{botpay.ActionWalletFrozen, botpay.ActionWalletUnfrozen}) {
			t.Fatalf("rails.updated actions = %v", actions)
		}
		if _, err := walletsOf(st).Freeze(ctx, storetest.NewOwner(t, st), b.ID, true); botpay.AsError(err) == nil {
			t.Fatal("another owner froze the bot")
		}
	})
}
