package payments_test

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/payments"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
)

// Held signing requests whose approval window closes are expired by the
// sweep exactly once, even with two replicas sweeping at once: each
// announces purchase.expired once, stops counting against the wallet's
// reservations and the bot's budgets, and a late decision is 410 expired.
func TestHeldSigningRequestsExpireOnceAcrossReplicas(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		clock := botpay.NewManualClock(time.Date(2026, 11, 21, 9, 30, 0, 0, time.UTC))
		db := storetest.Open(t, d, clock)
		st := db.Store
		replicas := []*store.Store{st, db.OpenAnother(t)}
		type signer struct {
			owner botpay.Owner
			bot   botpay.Bot
			held  []botpay.SigningRequest
		}
		var signers []signer
		for range 3 {
			owner, b := autoShopperAt(t, st, fmt.Sprintf("0x%040x", rand.Uint64()))
			s := signer{owner: owner, bot: b}
			for range 5 {
				_, r := signAs(t, st, owner, b, 100_000, botpay.SigningVerdict{NeedsApproval: true})
				s.held = append(s.held, r)
			}
			signers = append(signers, s)
		}
		clock.Advance(botpay.SigningApprovalWindow - time.Millisecond)
		if n, err := paymentsOf(st).ExpireOverdueSigning(ctx, 100); err != nil || n != 0 {
			t.Fatalf("before the window closed: expired %d, %v", n, err)
		}
		clock.Advance(time.Millisecond)

		if total := storetest.SweepOnReplicas(t, []*payments.Service{paymentsOf(replicas[0]), paymentsOf(replicas[1])}, (*payments.Service).ExpireOverdueSigning); total != 15 {
			t.Errorf("expired %d signing requests in all, want 15", total)
		}
		for _, s := range signers {
			n := 0
			for _, ty := range storetest.EventTypes(t, st, s.bot.ID) {
				if ty == botpay.EventPurchaseExpired {
					n++
				}
			}
			if n != 5 {
				t.Errorf("bot %s: %d purchase.expired events, want 5", s.bot.ID, n)
			}
			_, err := paymentsOf(st).DecideHeld(ctx, s.owner.ID, s.held[0].ID, payments.SigningDecision{Approve: true, Event: botpay.PurchaseApprovedData{}})
			storetest.WantCode(t, err, "expired")
			if w, _, err := paymentsOf(st).ReadProcessorWallet(ctx, s.bot.ID); err != nil || w.Reserved != 0 {
				t.Errorf("wallet = %+v, %v; want nothing reserved", w, err)
			}
			if seen := sign(t, st, s.owner, s.bot, 1); seen.BotDay != 0 || seen.BotMonth != 0 {
				t.Errorf("the next signature saw %+v spent, want nothing: expired requests do not count", seen)
			}
		}
		if n, err := paymentsOf(st).ExpireOverdueSigning(ctx, 100); err != nil || n != 0 {
			t.Errorf("a second sweep expired %d, %v; want 0", n, err)
		}
	})
}

// A held request denied by its owner is never expired by the sweep, and an
// expired one can no longer be denied.
func TestSigningDecisionAndExpiryNeverBothApply(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		st, clock := storetest.OpenWithClock(t, d)
		owner, b := autoShopper(t, st)
		held := botpay.SigningVerdict{NeedsApproval: true}
		_, denied := signAs(t, st, owner, b, 1_000_000, held)
		if _, err := paymentsOf(st).DecideHeld(ctx, owner.ID, denied.ID, payments.SigningDecision{Event: botpay.PurchaseRejectedData{}}); err != nil {
			t.Fatal(err)
		}
		_, lapsed := signAs(t, st, owner, b, 2_000_000, held)
		clock.Advance(botpay.SigningApprovalWindow)
		if n, err := paymentsOf(st).ExpireOverdueSigning(ctx, 10); err != nil || n != 1 {
			t.Fatalf("expired %d, %v; want only the undecided request", n, err)
		}
		_, err := paymentsOf(st).DecideHeld(ctx, owner.ID, lapsed.ID, payments.SigningDecision{Event: botpay.PurchaseRejectedData{}})
		storetest.WantCode(t, err, "expired")
		_, err = paymentsOf(st).DecideHeld(ctx, owner.ID, denied.ID, payments.SigningDecision{Event: botpay.PurchaseRejectedData{}})
		storetest.WantCode(t, err, "already_decided")
		types := storetest.EventTypes(t, st, b.ID)
		if got := types[len(types)-2:]; got[0] != botpay.EventPurchaseRejected || got[1] != botpay.EventPurchaseExpired {
			t.Errorf("last events = %v, want purchase.rejected then purchase.expired", got)
		}
	})
}

// An owner's decision racing the expiry sweep of another replica whose
// clock is a millisecond ahead (so both may act on the same request) ends
// in exactly one outcome, and neither fails: every transaction that
// changes a reservation takes the processor wallet first, so the two
// cannot deadlock.
func TestSigningDecisionRacingExpiryOnAnotherReplicaEndsOnce(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		start := time.Date(2026, 11, 21, 9, 30, 0, 0, time.UTC)
		deciderClock := botpay.NewManualClock(start)
		db := storetest.Open(t, d, deciderClock)
		st := db.Store
		sweeperClock := botpay.NewManualClock(start)
		opts := db.Options
		opts.Clock = sweeperClock
		sweeper, err := store.Open(ctx, opts)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { sweeper.Close() })
		owner, b := autoShopper(t, st)
		for i := range 10 {
			_, r := signAs(t, st, owner, b, 1_000_000, botpay.SigningVerdict{NeedsApproval: true})
			deciderClock.Advance(botpay.SigningApprovalWindow - time.Millisecond)
			sweeperClock.Advance(botpay.SigningApprovalWindow)
			done := make(chan error, 1)
			go func() {
				_, err := paymentsOf(st).DecideHeld(ctx, owner.ID, r.ID, payments.SigningDecision{Approve: true, Nonce: botpay.NewID("0x"),
					ValidBefore: deciderClock.Now().Unix() + 300, Event: botpay.PurchaseApprovedData{}})
				done <- err
			}()
			expired, err := paymentsOf(sweeper).ExpireOverdueSigning(ctx, 10)
			if err != nil {
				t.Fatalf("round %d: sweep: %v", i, err)
			}
			decideErr := <-done
			if e := botpay.AsError(decideErr); decideErr != nil && (e == nil || e.Code != "expired") {
				t.Fatalf("round %d: decision: %v", i, decideErr)
			}
			if (decideErr == nil) == (expired == 1) {
				t.Fatalf("round %d: approved %v and expired %d; want exactly one", i, decideErr == nil, expired)
			}
			deciderClock.Advance(time.Millisecond)
			checkReserved(t, st, b.ID, deciderClock.Now())
		}
	})
}
