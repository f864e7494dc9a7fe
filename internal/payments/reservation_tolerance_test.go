package payments_test

import (
	"testing"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
)

// Settlement accepts an authorization until validBefore plus a clock-skew
// tolerance, so its reservation must last as long: a second signature made
// just after validBefore must not promise the same funds again.
func TestASignatureStaysReservedThroughTheSettlementTolerance(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		st, clock := storetest.OpenWithClock(t, d)
		owner := storetest.NewOwner(t, st)
		b, _ := storetest.Shopper(t, st, owner, func(g *botpay.Guardrails) { g.Daily, g.AskApprovalAbove = 1000, nil })
		if err := paymentsOf(st).CreateProcessorWalletAt(ctx, owner.ID, b.ID, "0x00000000000000000000000000000000000000aa", []byte("sealed")); err != nil {
			t.Fatal(err)
		}
		if err := paymentsOf(st).FundProcessorWalletMicro(ctx, owner.ID, b.ID, 10_000_000, "test"); err != nil {
			t.Fatal(err)
		}
		first := signAvailable(t, st, owner, b, 10_000_000, 11)
		if first.available != 10_000_000 || first.ReservedUntil != time.Unix(first.ValidBefore, 0).Add(botpay.SettlementTolerance) {
			t.Fatalf("first signature saw %d available, reserved until %v (valid before %d)", first.available, first.ReservedUntil, first.ValidBefore)
		}
		for _, step := range []struct {
			after time.Duration
			want  botpay.Micro
		}{
			{11*time.Second + 300*time.Millisecond, 0},             // lapsed, yet still settleable
			{botpay.SettlementTolerance - 301*time.Millisecond, 0}, // the last moment settlement accepts it
			{time.Millisecond, 10_000_000},                         // no longer settleable: free again
		} {
			clock.Advance(step.after)
			if got := signAvailable(t, st, owner, b, 1, 60).available; got != step.want {
				t.Fatalf("at %v after the first signature a signing request saw %d available, want %d",
					clock.Now().Sub(first.CreatedAt), got, step.want)
			}
		}
	})
}

type judged struct {
	botpay.SigningRequest
	available botpay.Micro
}

// signAvailable asks to sign and reports what was available; requests for
// less than the balance are refused without reserving, so that later
// steps see only the first signature.
func signAvailable(t *testing.T, st *store.Store, owner botpay.Owner, b botpay.Bot, micro botpay.Micro, validFor int64) judged {
	t.Helper()
	var out judged
	r, _, err := paymentsOf(st).ReserveJudged(ctx, signingRequest(st, owner, b, micro, validFor), nil,
		func(f botpay.SigningFacts) (botpay.SigningVerdict, error) {
			out.available = f.Available
			return botpay.SigningVerdict{Blocked: micro == 1}, nil
		})
	if err != nil {
		t.Fatal(err)
	}
	out.SigningRequest = r
	return out
}
