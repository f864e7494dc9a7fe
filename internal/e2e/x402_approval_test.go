package e2e

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/botpay/botpay/internal/app"
	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/payments"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
	"github.com/botpay/botpay/internal/testserver"
	"github.com/botpay/botpay/internal/x402"
)

func lastEvent(t *testing.T, r raw, botID string) botpay.Event {
	t.Helper()
	events, err := storetest.OutboxOf(r.srv.Store).Events(t.Context(), botID)
	if err != nil || len(events) == 0 {
		t.Fatalf("events: %v %v", events, err)
	}
	return events[len(events)-1]
}

func TestHeldSigningRequestApprovedSignsAndAnnounces(t *testing.T) {
	forEachX402Engine(t, func(t *testing.T, r raw) {
		b := r.walletBot("held", 5)
		r.guardrails(b, map[string]any{"approval_mode": "ask_for_everything"})
		held := func() string {
			a := r.sign(b, signBody(2_000_000))
			if a.Status != 202 {
				t.Fatalf("sign: %d %s", a.Status, a.Body)
			}
			return fmt.Sprint(int64(a.json(t)["approval_id"].(float64)))
		}
		first, second := held(), held()
		// Both holds reserve: 5 - 2 - 2 leaves 1 available.
		if a := r.sign(b, signBody(1_000_001)); a.Status != 403 || a.json(t)["error"] != "insufficient_token_balance" {
			t.Fatalf("third: %d %s", a.Status, a.Body)
		}
		list := r.must(200, "GET", "/api/v1/owner/signing-requests", b.OwnerToken, nil)["approvals"].([]any)
		if len(list) != 2 {
			t.Fatalf("approvals = %v", list)
		}
		e := list[0].(map[string]any)
		if e["kind"] != "signing" || fmt.Sprint(e["id"]) != first || e["bot_id"] != b.ID || e["amount_usd"] != 2.0 ||
			e["merchant_name"] != "api.vendor.example" || e["item_name"] != "https://api.vendor.example/report?q=1" || e["status"] != "pending" || e["expires_at"] == nil {
			t.Fatalf("entry = %v", e)
		}
		other := r.claimedBot("stranger")
		if a := r.do("POST", "/api/v1/owner/signing-requests/"+first+"/approve", other.OwnerToken, nil); a.Status != 404 {
			t.Fatalf("foreign approve: %d %s", a.Status, a.Body)
		}
		for _, bad := range []string{"0", "-1", "x", "99999999999999999999"} {
			if a := r.do("POST", "/api/v1/owner/signing-requests/"+bad+"/approve", b.OwnerToken, nil); a.Status != 404 {
				t.Fatalf("approve %s: %d %s", bad, a.Status, a.Body)
			}
		}

		got := r.must(200, "POST", "/api/v1/owner/signing-requests/"+first+"/approve", b.OwnerToken, nil)
		if fmt.Sprint(got["approval_id"]) != first || got["status"] != "approved" || len(got) != 2 {
			t.Fatalf("approve = %v", got)
		}
		ev := lastEvent(t, r, b.ID)
		if ev.Type != "purchase.approved" || ev.Data["currency"] != "USDC" || ev.Data["amount"] != 2.0 || ev.Data["vendor"] != "api.vendor.example" {
			t.Fatalf("event = %+v", ev)
		}
		p, err := x402.Decode(ev.Data["x_payment_header"].(string))
		if err != nil {
			t.Fatal(err)
		}
		if from, err := x402.Recover(x402.BaseUSDC.Digest(p.Authorization), p.Signature); err != nil || from.Hex() != b.Address || p.Authorization.Value != 2_000_000 {
			t.Fatalf("approved header recovers to %s (%v)", from, err)
		}
		if a := r.do("POST", "/api/v1/owner/signing-requests/"+first+"/deny", b.OwnerToken, nil); a.Status != 409 || a.json(t)["error"] != "already_decided" {
			t.Fatalf("decide twice: %d %s", a.Status, a.Body)
		}

		got = r.must(200, "POST", "/api/v1/owner/signing-requests/"+second+"/deny", b.OwnerToken, nil)
		if got["status"] != "denied" {
			t.Fatalf("deny = %v", got)
		}
		if ev := lastEvent(t, r, b.ID); ev.Type != "purchase.rejected" || ev.Data["reason"] != "denied by owner" || ev.Data["amount"] != 2.0 {
			t.Fatalf("event = %+v", ev)
		}
		// The denial released its reservation; the approval keeps its own.
		checkSigned(t, r.sign2(b, 3_000_000), b.Address, 3_000_000)
		if list := r.must(200, "GET", "/api/v1/owner/signing-requests", b.OwnerToken, nil)["approvals"].([]any); len(list) != 0 {
			t.Fatalf("approvals after decisions = %v", list)
		}
	})
}

// sign2 signs after loosening the approval mode.
func (r raw) sign2(b x402Bot, amount int64) answer {
	r.guardrails(b, map[string]any{"approval_mode": "auto_approve_under_threshold", "limits": map[string]any{"ask_approval_above_usd": nil}})
	return r.sign(b, signBody(amount))
}

func TestHeldSigningRequestExpiresAfterFifteenMinutes(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		clock := botpay.NewManualClock(time.Now())
		r := raw{t: t, srv: testserver.Start(t, d, testserver.Options{Limits: app.Limits{RegisterPerHour: 100}, Clock: clock})}
		b := r.walletBot("late", 5)
		r.guardrails(b, map[string]any{"approval_mode": "ask_for_everything"})
		a := r.sign(b, signBody(5_000_000))
		id := fmt.Sprint(int64(a.json(t)["approval_id"].(float64)))
		clock.Advance(15 * time.Minute)
		if a := r.do("POST", "/api/v1/owner/signing-requests/"+id+"/approve", b.OwnerToken, nil); a.Status != 410 || a.json(t)["error"] != "expired" {
			t.Fatalf("late approve: %d %s", a.Status, a.Body)
		}
		// Its reservation ended with the window: the full balance signs.
		checkSigned(t, r.sign2(b, 5_000_000), b.Address, 5_000_000)
	})
}

// TestExpiredHeldSigningRequestStopsCountingAgainstTheDailyLimit: a held
// request counts toward the day's budget only inside its approval window,
// even before anything marks it expired.
func TestExpiredHeldSigningRequestStopsCountingAgainstTheDailyLimit(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		clock := botpay.NewManualClock(time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC))
		r := raw{t: t, srv: testserver.Start(t, d, testserver.Options{Limits: app.Limits{RegisterPerHour: 100}, Clock: clock})}
		b := r.walletBot("budget", 20)
		r.guardrails(b, map[string]any{"approval_mode": "ask_for_everything", "limits": map[string]any{"daily_usd": 6}})
		if a := r.sign(b, signBody(5_000_000)); a.Status != 202 {
			t.Fatalf("held request: %d %s", a.Status, a.Body)
		}
		// Inside the window the held $5 counts: another $5 passes the $6 day.
		r.guardrails(b, map[string]any{"approval_mode": "auto_approve_under_threshold", "limits": map[string]any{"ask_approval_above_usd": nil}})
		if a := r.sign(b, signBody(5_000_000)); a.Status != 403 || a.json(t)["error"] != "guardrail_blocked" {
			t.Fatalf("inside the window: %d %s", a.Status, a.Body)
		}
		clock.Advance(15*time.Minute + time.Second)
		checkSigned(t, r.sign(b, signBody(5_000_000)), b.Address, 5_000_000)
	})
}

// The expiry worker, run by two replicas on one database, expires a held
// signing request at 15 minutes: purchase.expired is written exactly once
// with its approval_id, its reservation is released and a late approval is
// 410 expired. Time is synctest's fake clock: nothing sleeps for real.
func TestExpiryWorkersOnTwoReplicasExpireAHeldSigningRequestOnce(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, dialect store.Dialect) {
		h := start(t, dialect, manyBots)
		replica := h.srv.Replica(t, manyBots)
		r := raw{t: t, srv: h.srv}
		b := r.walletBot("patient", 5)
		r.guardrails(b, map[string]any{"approval_mode": "ask_for_everything"})
		bot, err := h.srv.App.Bots().Bot(h.ctx, b.ID)
		if err != nil {
			t.Fatal(err)
		}
		warm(h.srv.Store, replica.Store)
		synctest.Test(t, func(t *testing.T) {
			ctx := context.Background()
			held, err := h.srv.App.Payments().Sign(ctx, bot, payments.SignRequest{ResourceURL: "https://vendor.example/data", Amount: 5_000_000,
				Recipient: "0x209693Bc6afc0C5328bA36FaF03C514EF312287C"})
			if err != nil || !held.Pending {
				t.Fatalf("sign = %+v, %v; want held", held, err)
			}
			workers, stop := context.WithCancel(ctx)
			var wg sync.WaitGroup
			for _, svc := range []*app.Service{h.srv.App, replica.App} {
				wg.Go(func() { svc.ExpireHeldPurchases(workers, time.Second) })
			}
			reserved := func() botpay.Micro {
				w, _, err := storedWallet(ctx, h.srv.App, bot.ID)
				if err != nil {
					t.Fatal(err)
				}
				return w.Reserved
			}

			time.Sleep(botpay.SigningApprovalWindow - 2*time.Second)
			synctest.Wait()
			if n := len(h.eventsOf(t, bot.ID, botpay.EventPurchaseExpired)); n != 0 || reserved() != 5_000_000 {
				t.Fatalf("before 15 minutes: %d purchase.expired, %d reserved; want 0 and 5000000", n, reserved())
			}
			time.Sleep(3 * time.Second)
			synctest.Wait()
			time.Sleep(time.Minute) // more passes change nothing
			synctest.Wait()
			expired := h.eventsOf(t, bot.ID, botpay.EventPurchaseExpired)
			if len(expired) != 1 || fmt.Sprint(expired[0].Data["approval_id"]) != fmt.Sprint(held.Request.ID) {
				t.Fatalf("purchase.expired events = %+v, want exactly one for approval %d", expired, held.Request.ID)
			}
			if got := reserved(); got != 0 {
				t.Errorf("reserved = %d after expiry, want 0", got)
			}
			owner, err := h.srv.App.Accounts().OwnerByID(ctx, bot.OwnerID)
			if err != nil {
				t.Fatal(err)
			}
			_, err = h.srv.App.Payments().DecideSigning(ctx, owner, held.Request.ID, true)
			if e := botpay.AsError(err); e == nil || e.Code != "expired" {
				t.Errorf("late approval: %v, want expired", err)
			}
			stop()
			wg.Wait()
		})
	})
}
