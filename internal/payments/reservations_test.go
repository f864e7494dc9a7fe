package payments_test

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/payments"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
)

// TestReservedTotalMatchesTheLiveRequests drives one processor wallet
// through random signatures (signed at once or held), approvals, denials,
// settlements, expiry sweeps and the passing of time, and after every step checks the
// running reserved total against the plain sum of the requests whose
// reservation is still live: what the wallet shows and what a signing
// request is judged against.
func TestReservedTotalMatchesTheLiveRequests(t *testing.T) {
	for _, d := range storetest.Dialects {
		t.Run(string(d), func(t *testing.T) {
			st, clock := storetest.OpenWithClock(t, d)
			maxSteps := 30
			if d == store.Postgres {
				maxSteps = 15
			}
			rapid.Check(t, func(rt *rapid.T) {
				owner, b := autoShopperAt(t, st, fmt.Sprintf("0x%040x", rand.Uint64()))
				w, _, err := paymentsOf(st).ReadProcessorWallet(ctx, b.ID)
				if err != nil {
					rt.Fatal(err)
				}
				seller := storetest.ClaimedBot(t, st, storetest.NewOwner(t, st))
				page := storetest.Page(t, st, seller.ID, storetest.Cents(1))
				var held, signed []botpay.SigningRequest
				for range rapid.IntRange(1, maxSteps).Draw(rt, "steps") {
					switch rapid.IntRange(0, 6).Draw(rt, "op") {
					case 0, 1:
						validFor := rapid.Int64Range(11, 3600).Draw(rt, "valid for (s)")
						v := botpay.SigningVerdict{NeedsApproval: rapid.Bool().Draw(rt, "held")}
						r := reserveChecked(rt, st, owner, b, botpay.Micro(rapid.Int64Range(1, 5_000_000).Draw(rt, "amount")), validFor, v)
						if v.NeedsApproval {
							held = append(held, r)
						} else {
							signed = append(signed, r)
						}
					case 2:
						if len(held) == 0 {
							continue
						}
						i := rapid.IntRange(0, len(held)-1).Draw(rt, "which held")
						approve := rapid.Bool().Draw(rt, "approve")
						d := payments.SigningDecision{Approve: approve, Event: botpay.PurchaseRejectedData{}}
						if approve {
							d.Event = botpay.PurchaseApprovedData{}
							d.Nonce, d.ValidBefore, d.Signature, d.Header = botpay.NewID("0x"), clock.Now().Unix()+rapid.Int64Range(11, 600).Draw(rt, "approved for (s)"), "0xsig", "h"
						}
						r, err := paymentsOf(st).DecideHeld(ctx, owner.ID, held[i].ID, d)
						if e := botpay.AsError(err); err != nil && (e == nil || (e.Code != "already_decided" && e.Code != "expired")) {
							rt.Fatalf("decision: %v", err)
						}
						if err == nil && approve {
							signed = append(signed, r)
						}
						held = append(held[:i], held[i+1:]...)
					case 3:
						if len(signed) == 0 {
							continue
						}
						i := rapid.IntRange(0, len(signed)-1).Draw(rt, "which signed")
						settle(rt, st, page, w.Address, signed[i])
						signed = append(signed[:i], signed[i+1:]...)
					case 4:
						if _, err := paymentsOf(st).ExpireOverdueSigning(ctx, 100); err != nil {
							rt.Fatal(err)
						}
					case 5, 6:
						clock.Advance(time.Duration(rapid.Int64Range(0, 20*60).Draw(rt, "seconds")) * time.Second)
					}
					checkReserved(rt, st, b.ID, clock.Now())
				}
			})
		})
	}
}

// reserveChecked reserves a signature of micro USDC valid for validFor
// seconds, judged v, and checks that the decider saw the balance less the
// live reservations.
func reserveChecked(rt *rapid.T, st *store.Store, owner botpay.Owner, b botpay.Bot, micro botpay.Micro, validFor int64, v botpay.SigningVerdict) botpay.SigningRequest {
	w, _, err := paymentsOf(st).ReadProcessorWallet(ctx, b.ID)
	if err != nil {
		rt.Fatal(err)
	}
	live, err := paymentsOf(st).LiveReservations(ctx, b.ID, st.Clock().Now())
	if err != nil {
		rt.Fatal(err)
	}
	var seen botpay.Micro
	r, _, err := paymentsOf(st).ReserveJudged(ctx, signingRequest(st, owner, b, micro, validFor), nil,
		func(f botpay.SigningFacts) (botpay.SigningVerdict, error) {
			seen = f.Available
			return v, nil
		})
	if err != nil {
		rt.Fatal(err)
	}
	if want := w.Balance - live; seen != want {
		rt.Fatalf("signing saw %d micro available, want %d (balance %d less %d live)", seen, want, w.Balance, live)
	}
	return r
}

// settle pays a checkout page with a signed request, through the wallet.
func settle(rt *rapid.T, st *store.Store, page botpay.CheckoutPage, payer string, r botpay.SigningRequest) {
	id, err := paymentsOf(st).ClaimX402Payment(ctx, payments.X402Payment{Payer: payer, Nonce: r.Nonce, PageID: page.ID, Amount: r.Amount})
	if err != nil {
		rt.Fatal(err)
	}
	if _, err := paymentsOf(st).CompleteX402Payment(ctx, id, botpay.SaleInput{PageID: page.ID, Method: botpay.MethodX402, BuyerType: botpay.BuyerWallet,
		BuyerIdentifier: payer, TxHash: botpay.NewID("0x")}, &payments.InternalDebit{Payer: payer, Nonce: r.Nonce, Amount: r.Amount}); err != nil {
		rt.Fatalf("settle: %v", err)
	}
}

// fatalf is what checkReserved needs of a *testing.T or *rapid.T.
type fatalf interface {
	Fatal(args ...any)
	Fatalf(format string, args ...any)
}

func checkReserved(rt fatalf, st *store.Store, botID string, now time.Time) {
	w, _, err := paymentsOf(st).ReadProcessorWallet(ctx, botID)
	if err != nil {
		rt.Fatal(err)
	}
	live, err := paymentsOf(st).LiveReservations(ctx, botID, now)
	if err != nil {
		rt.Fatal(err)
	}
	if w.Reserved != live {
		rt.Fatalf("wallet shows %d micro reserved, the live requests sum to %d", w.Reserved, live)
	}
}

// Migration 0010 gives each existing wallet a total that counts its signed
// and held requests as of time 0; the next read and the next signature
// sweep the expired ones, so both see exactly the live reservations.
func TestMigration0010CountsExistingReservations(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		st, clock := storetest.OpenWithClock(t, d)
		owner, b := autoShopper(t, st)
		signAs(t, st, owner, b, 1_000_000, botpay.SigningVerdict{})                    // runs out after 300 s
		signAs(t, st, owner, b, 2_000_000, botpay.SigningVerdict{NeedsApproval: true}) // after the approval window
		clock.Advance(400 * time.Second)
		signAs(t, st, owner, b, 4_000_000, botpay.SigningVerdict{})
		if err := paymentsOf(st).RerunReservedBackfill(ctx); err != nil {
			t.Fatal(err)
		}
		w, _, err := paymentsOf(st).ReadProcessorWallet(ctx, b.ID)
		if err != nil || w.Reserved != 6_000_000 {
			t.Fatalf("after the backfill the wallet shows %d reserved (%v), want 6000000: the held $2 and the live $4", w.Reserved, err)
		}
		var seen botpay.Micro
		if _, _, err := paymentsOf(st).ReserveJudged(ctx, signingRequest(st, owner, b, 1, 60), nil,
			func(f botpay.SigningFacts) (botpay.SigningVerdict, error) {
				seen = f.Available
				return botpay.SigningVerdict{Blocked: true}, nil
			}); err != nil {
			t.Fatal(err)
		}
		if want := w.Balance - 6_000_000; seen != want {
			t.Fatalf("the next signature saw %d available, want %d", seen, want)
		}
	})
}
