package spending_test

import (
	"strings"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
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
		owner := storetest.NewOwner(t, st)
		b := storetest.ClaimedBot(t, st, owner)
		now := st.Clock().Now()
		card := botpay.Rail5Card{ID: botpay.NewID("r5card_"), BotID: b.ID, OwnerID: owner.ID, Name: "r5", Last4: "4242",
			Status: botpay.Rail5PendingDelivery, CreatedAt: now}
		delivered := botpay.NewEvent(b.ID, botpay.Rail5CardDeliveredData{CardID: card.ID, FileContent: "CARD-FILE"}, now)
		if err := spendingOf(st).AddRail5Card(ctx, card, []byte("sealed key"), delivered); err != nil {
			t.Fatal(err)
		}
		other := botpay.NewID("evt_")
		for _, id := range []string{delivered.ID, other} {
			queueTunnelRelay(t, st, b.ID, `{"X-Service-Delivery":["`+id+`"]}`, `{"data":{"file_content":"CARD-FILE"},"id":"`+id+`"}`,
				now.Add(time.Minute))
		}
		if _, err := spendingOf(st).ConfirmRail5Delivery(ctx, b, card.ID); err != nil {
			t.Fatal(err)
		}
		if queued := queuedTunnelRelays(t, st, b.ID); len(queued) != 1 || !strings.Contains(queued[0], other) {
			t.Fatalf("queued relays = %v; want only the other event's", queued)
		}
		events, err := storetest.OutboxOf(st).Events(ctx, b.ID)
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

// queueTunnelRelay queues a delivery for the bot's tunnel client, as the
// tunnel hub does.
func queueTunnelRelay(t *testing.T, st *store.Store, botID, headers, body string, expires time.Time) {
	t.Helper()
	if err := st.Kernel().InTx(ctx, func(tx *kernel.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO tunnel_requests (bot_id, path, headers, body, state, created_at, expires_at)
			VALUES ($1, '/hook', $2, $3, 'queued', $4, $5)`, botID, headers, body, kernel.MS(st.Clock().Now()), kernel.MS(expires))
		return err
	}); err != nil {
		t.Fatal(err)
	}
}

// queuedTunnelRelays lists the headers of the bot's relays still waiting
// for its tunnel client, oldest first.
func queuedTunnelRelays(t *testing.T, st *store.Store, botID string) []string {
	t.Helper()
	rows, err := st.Kernel().Query(ctx, `SELECT headers FROM tunnel_requests WHERE bot_id = $1 AND state = 'queued' ORDER BY id`, botID)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var h string
		if err := rows.Scan(&h); err != nil {
			t.Fatal(err)
		}
		out = append(out, h)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
