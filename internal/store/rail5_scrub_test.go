package store_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
)

// Once the bot confirms a rail5 delivery the service keeps no copy of the
// card file: not in the event, and not in a managed-tunnel relay of it that
// is still waiting for the bot's tunnel client (its stored body is the
// signed delivery). Relays of other events stay queued.
func TestConfirmedRail5DeliveryLeavesNoTunnelRelayOfTheFile(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *storetest.DB) {
		st := db.Store
		owner := newOwner(t, st)
		b := claimedBot(t, st, owner)
		now := st.Clock().Now()
		card := botpay.Rail5Card{ID: botpay.NewID("r5card_"), BotID: b.ID, OwnerID: owner.ID, Name: "r5", Last4: "4242",
			Status: botpay.Rail5PendingDelivery, CreatedAt: now}
		delivered := botpay.NewEvent(b.ID, botpay.Rail5CardDeliveredData{CardID: card.ID, FileContent: "CARD-FILE"}, now)
		if err := st.CreateRail5Card(ctx, card, []byte("sealed key"), delivered); err != nil {
			t.Fatal(err)
		}
		other := botpay.NewID("evt_")
		for _, id := range []string{delivered.ID, other} {
			if _, err := st.QueueTunnelRequest(ctx, b.ID, store.TunnelRequest{Path: "/hook",
				Headers: http.Header{"X-Service-Delivery": {id}}, Body: []byte(`{"data":{"file_content":"CARD-FILE"},"id":"` + id + `"}`)},
				now.Add(time.Minute)); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := st.ConfirmRail5Delivery(ctx, b.ID, card.ID); err != nil {
			t.Fatal(err)
		}
		r, err := st.ClaimTunnelRequest(ctx, b.ID)
		if err != nil || r == nil || r.Headers.Get("X-Service-Delivery") != other {
			t.Fatalf("first queued relay = %+v, %v; want only the other event's", r, err)
		}
		if r, err := st.ClaimTunnelRequest(ctx, b.ID); err != nil || r != nil {
			t.Fatalf("a relay of the card file is still queued: %+v, %v", r, err)
		}
		events, err := st.Events(ctx, b.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range events {
			if f, _ := e.Data["file_content"].(string); strings.Contains(f, "CARD-FILE") {
				t.Errorf("event %s still carries the card file", e.Type)
			}
		}
	})
}
