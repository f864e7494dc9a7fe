package payments_test

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/payments"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
)

// linkClaims claims authorizations of distinct payers at one link.
type linkClaims struct {
	link botpay.PaymentLink
	n    int
}

func (c *linkClaims) claim(st *store.Store) (int64, error) {
	c.n++
	return c.claimAs(st, c.n)
}

func (c *linkClaims) claimAs(st *store.Store, payer int) (int64, error) {
	return paymentsOf(st).ClaimX402Payment(ctx, payments.X402Payment{Payer: fmt.Sprintf("0x%040x", payer), Nonce: fmt.Sprintf("0x%064x", 7),
		LinkID: c.link.ID, BotID: c.link.BotID, Amount: botpay.MicroOf(c.link.Amount), Route: c.link.ID})
}

func newLink(t *testing.T, st *store.Store, botID string) botpay.PaymentLink {
	t.Helper()
	now := st.Clock().Now()
	l := botpay.PaymentLink{ID: botpay.NewID("pl_"), BotID: botID, Amount: 2500, Description: "Held",
		CreatedAt: now, ExpiresAt: now.Add(botpay.PaymentLinkLifetime)}
	storetest.NewPaymentLink(t, st, l)
	return l
}

// Of payers racing for one link on two replicas, exactly one claims it;
// the others are refused before anything could be sent on chain.
func TestOnePayerAtATimeClaimsAPaymentLink(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *storetest.DB) {
		st, other := db.Store, db.OpenAnother(t)
		c := &linkClaims{link: newLink(t, st, storetest.ClaimedBot(t, st, storetest.NewOwner(t, st)).ID)}
		const racers = 6
		errs := make([]error, racers)
		var wg sync.WaitGroup
		for i := range racers {
			replica := []*store.Store{st, other}[i%2]
			wg.Go(func() { _, errs[i] = c.claimAs(replica, 100+i) })
		}
		wg.Wait()
		won := 0
		for _, err := range errs {
			switch e := botpay.AsError(err); {
			case err == nil:
				won++
			case e == nil || e.Code != botpay.CodePaymentLinkNotPending:
				t.Errorf("racing claim: %v", err)
			}
		}
		if won != 1 {
			t.Fatalf("%d claims of one link won, want 1", won)
		}
	})
}

// A claim holds its link until it is released or fails on chain; one that
// was never submitted is abandoned after payments.AbandonedLinkClaim and can
// then never be submitted; a link held while pending records its sale even
// when the chain confirms it after the link expired.
func TestAClaimHoldsItsPaymentLinkUntilSettled(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		st, clock := storetest.OpenWithClock(t, d)
		bot := storetest.ClaimedBot(t, st, storetest.NewOwner(t, st))
		c := &linkClaims{link: newLink(t, st, bot.ID)}
		relayer := payments.RelayerAccount{ChainID: 8453, Address: "0x00000000000000000000000000000000000000ee"}
		first, err := c.claim(st)
		if err != nil {
			t.Fatal(err)
		}
		// The same authorization again is a replay, not a second payer.
		if _, err := c.claimAs(st, 1); !errors.Is(err, store.ErrUnique) {
			t.Fatalf("the same authorization again: %v, want ErrUnique", err)
		}
		_, err = c.claim(st)
		storetest.WantCode(t, err, botpay.CodePaymentLinkNotPending)
		_, err = earningOf(st).RecordSale(ctx, botpay.SaleInput{LinkID: c.link.ID, Method: botpay.MethodUSDCDirect, BuyerType: botpay.BuyerEmail,
			BuyerIdentifier: "b@example.com", BuyerEmail: "b@example.com"})
		storetest.WantCode(t, err, botpay.CodePaymentLinkNotPending)
		if err := paymentsOf(st).ReleaseX402Payment(ctx, first); err != nil {
			t.Fatal(err)
		}
		submitted, err := c.claim(st)
		if err != nil {
			t.Fatalf("a claim after the release: %v", err)
		}
		if _, err := paymentsOf(st).SubmitX402Payment(ctx, submitted, relayer, 0, fakeSigner); err != nil {
			t.Fatal(err)
		}
		clock.Advance(payments.AbandonedLinkClaim + time.Second)
		_, err = c.claim(st)
		storetest.WantCode(t, err, botpay.CodePaymentLinkNotPending) // a submitted transaction is the chain's to decide
		if err := paymentsOf(st).FailX402Payment(ctx, submitted, "reverted"); err != nil {
			t.Fatal(err)
		}
		abandoned, err := c.claim(st)
		if err != nil {
			t.Fatalf("a claim after a failure on chain: %v", err)
		}
		clock.Advance(payments.AbandonedLinkClaim + time.Second)
		last, err := c.claim(st)
		if err != nil {
			t.Fatalf("a claim after an abandoned one: %v", err)
		}
		if _, err := paymentsOf(st).SubmitX402Payment(ctx, abandoned, relayer, 0, fakeSigner); !errors.Is(err, payments.ErrNotSubmittable) {
			t.Fatalf("submitting the abandoned claim: %v, want ErrNotSubmittable", err)
		}
		sub, err := paymentsOf(st).SubmitX402Payment(ctx, last, relayer, 0, fakeSigner)
		if err != nil {
			t.Fatal(err)
		}
		clock.Advance(botpay.PaymentLinkLifetime)
		amount := c.link.Amount
		res, err := paymentsOf(st).ConfirmX402Payment(ctx, last, botpay.SaleInput{LinkID: c.link.ID, LinkHeld: true, OnChain: true,
			Method: botpay.MethodX402, BuyerType: botpay.BuyerWallet, BuyerIdentifier: fmt.Sprintf("0x%040x", c.n), TxHash: sub.TxHash, Amount: &amount})
		if err != nil || res.Link == nil || !res.Link.Completed {
			t.Fatalf("confirming a held link after its expiry: %+v, %v", res.Link, err)
		}
		_, err = c.claim(st)
		storetest.WantCode(t, err, botpay.CodePaymentLinkNotPending)
	})
}
