package bots_test

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/bots"
	"github.com/botpay/botpay/internal/store/storetest"
)

func TestPairingCodeIsSingleUseUnderConcurrency(t *testing.T) {
	t.Parallel()
	storetest.ForEach(t, func(t *testing.T, db *storetest.DB) {
		st := db.Store
		owner := storetest.NewOwner(t, st)
		code := botpay.NewPairingCode()
		if err := storetest.NewPairingCode(st, owner.ID, code, st.Clock().Now().Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		var wins, refusals atomic.Int32
		var wg sync.WaitGroup
		for i := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				nb := storetest.Registration(st, botpay.NewID("racer"), "racer@example.com")
				nb.PairingCodeHash = botpay.Digest(code)
				ownerID, err := serviceOf(st).RegisterBot(ctx, nb)
				switch {
				case err == nil && ownerID == owner.ID:
					wins.Add(1)
				case botpay.AsError(err) != nil && botpay.AsError(err).Code == botpay.CodeInvalidPairingCode:
					refusals.Add(1)
				default:
					t.Errorf("registration %d: owner %q, err %v", i, ownerID, err)
				}
			}()
		}
		wg.Wait()
		if wins.Load() != 1 || refusals.Load() != 7 {
			t.Fatalf("%d registrations used the code and %d were refused; want 1 and 7", wins.Load(), refusals.Load())
		}
	})
}

func TestPairingCodeExpiresAfterAnHour(t *testing.T) {
	t.Parallel()
	for _, d := range storetest.Dialects {
		t.Run(string(d), func(t *testing.T) {
			st, clock := storetest.OpenWithClock(t, d)
			owner := storetest.NewOwner(t, st)
			code := botpay.NewPairingCode()
			if err := storetest.NewPairingCode(st, owner.ID, code, clock.Now().Add(time.Hour)); err != nil {
				t.Fatal(err)
			}
			clock.Advance(time.Hour)
			nb := storetest.Registration(st, "late", "late@example.com")
			nb.PairingCodeHash = botpay.Digest(code)
			_, err := serviceOf(st).RegisterBot(ctx, nb)
			storetest.WantCode(t, err, botpay.CodeInvalidPairingCode)
		})
	}
}

func TestDuplicateRegistrationIsRefusedEvenConcurrently(t *testing.T) {
	t.Parallel()
	storetest.ForEach(t, func(t *testing.T, db *storetest.DB) {
		st := db.Store
		var ok, dup atomic.Int32
		var wg sync.WaitGroup
		for range 6 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, err := serviceOf(st).RegisterBot(ctx, storetest.Registration(st, "twin", "same@example.com"))
				if err == nil {
					ok.Add(1)
				} else if e := botpay.AsError(err); e != nil && e.Code == botpay.CodeDuplicateRegistration {
					dup.Add(1)
				} else {
					t.Errorf("unexpected: %v", err)
				}
			}()
		}
		wg.Wait()
		if ok.Load() != 1 || dup.Load() != 5 {
			t.Fatalf("%d registered, %d duplicates; want 1 and 5", ok.Load(), dup.Load())
		}
	})
}

func TestRegistrationRateLimitCountsOnlyAdmittedRegistrations(t *testing.T) {
	t.Parallel()
	for _, d := range storetest.Dialects {
		t.Run(string(d), func(t *testing.T) {
			st, clock := storetest.OpenWithClock(t, d)
			limit := bots.Limit{Bucket: "register:198.51.100.7", Max: 3, Window: time.Hour, FixedRetryAfter: time.Hour}
			register := func(name string) error {
				nb := storetest.Registration(st, name, "limit@example.com")
				nb.Limit = limit
				_, err := serviceOf(st).RegisterBot(ctx, nb)
				return err
			}
			if err := register("a"); err != nil {
				t.Fatal(err)
			}
			storetest.WantCode(t, register("a"), botpay.CodeDuplicateRegistration) // rolled back: not counted
			for _, name := range []string{"b", "c"} {
				if err := register(name); err != nil {
					t.Fatal(err)
				}
			}
			err := register("d")
			storetest.WantCode(t, err, botpay.CodeRateLimited)
			if e := botpay.AsError(err); e.Kind != botpay.KindRateLimited || e.RetryAfterSeconds != 3600 {
				t.Fatalf("rate limit error = %+v", e)
			}
			clock.Advance(time.Hour + time.Millisecond)
			if err := register("d"); err != nil {
				t.Fatalf("after the window: %v", err)
			}
		})
	}
}

func TestClaimTokenWorksOnceUnderConcurrency(t *testing.T) {
	t.Parallel()
	storetest.ForEach(t, func(t *testing.T, db *storetest.DB) {
		st := db.Store
		b, token := storetest.NewBot(t, st, "contested")
		owners := []botpay.Owner{storetest.NewOwner(t, st), storetest.NewOwner(t, st), storetest.NewOwner(t, st), storetest.NewOwner(t, st)}
		var wins atomic.Int32
		var wg sync.WaitGroup
		for _, o := range owners {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, err := serviceOf(st).ClaimBot(ctx, o.ID, botpay.Digest(token))
				if err == nil {
					wins.Add(1)
				} else if e := botpay.AsError(err); e == nil || e.Code != botpay.CodeInvalidClaimToken {
					t.Errorf("claim: %v", err)
				}
			}()
		}
		wg.Wait()
		if wins.Load() != 1 {
			t.Fatalf("%d owners claimed the bot, want 1", wins.Load())
		}
		got, err := serviceOf(st).Bot(ctx, b.ID)
		if err != nil || !got.Claimed() {
			t.Fatalf("bot after claim = %+v, %v", got, err)
		}
		if types := storetest.EventTypes(t, st, b.ID); len(types) != 1 || types[0] != botpay.EventWalletActivated {
			t.Fatalf("events = %v, want one wallet.activated", types)
		}
	})
}
