package e2e

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/botpay/botpay/client"
	"github.com/botpay/botpay/client/webhook"
	"github.com/botpay/botpay/wire"
)

// A receiver built with the SDK's client/webhook verifies real deliveries
// (both signature schemes, fresh timestamp) and sees each event once.
func TestWebhookDeliveriesVerifyWithTheSDK(t *testing.T) {
	forEachEngine(t, delivering, func(t *testing.T, h *harness) {
		var mu sync.Mutex
		var got []*webhook.Event
		var secret string
		rcv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			v := webhook.Verifier{Secret: secret}
			mu.Unlock()
			ev, err := v.ReadRequest(r)
			if err != nil {
				t.Errorf("delivery refused by the SDK: %v", err)
				w.WriteHeader(http.StatusUnauthorized)
				return
			}
			mu.Lock()
			got = append(got, ev)
			mu.Unlock()
		}))
		defer rcv.Close()
		mu.Lock()
		bot, reg := h.register(client.RegisterRequest{BotName: "verifier", OwnerEmail: uniqueEmail("verifier"), CallbackURL: wire.Ptr(rcv.URL + "/hook")})
		secret = reg.WebhookSecret
		mu.Unlock()
		owner, _ := h.signup(uniqueEmail("verifier-owner"))
		if _, err := owner.Claim(h.ctx, *reg.ClaimToken); err != nil {
			t.Fatal(err)
		}
		if _, err := owner.Fund(h.ctx, reg.BotID, 2500, ""); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(10 * time.Second)
		for {
			mu.Lock()
			n := len(got)
			mu.Unlock()
			if n == 2 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%d deliveries verified, want 2", n)
			}
			time.Sleep(10 * time.Millisecond)
		}
		types := map[string]bool{got[0].Event: true, got[1].Event: true} // two deliveries may overtake each other
		if !types["wallet.activated"] || !types["wallet.funded"] || got[0].BotID != reg.BotID ||
			got[0].ID == "" || got[0].ID == got[1].ID {
			t.Errorf("events %+v %+v", got[0], got[1])
		}
		if st := status(t, h, bot); st.WebhookStatus != "active" || st.PendingMessages != 0 {
			t.Errorf("status %s, %d pending; want active and none", st.WebhookStatus, st.PendingMessages)
		}
	})
}
