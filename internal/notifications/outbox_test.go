package notifications_test

import (
	"sync/atomic"
	"testing"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/bots"
	"github.com/botpay/botpay/internal/kernel"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
)

// TestEmitStagesEventsOfBotsWithoutAttemptableWebhook checks the central
// dispatch rule applied at emit: events of a bot whose webhook is
// unreachable or none, or that has neither callback URL nor tunnel, are
// pending messages as soon as the change commits and their outbox row is
// done ("staged"); a bot with a live webhook leaves the row to the
// dispatcher and stages nothing.
func TestEmitStagesEventsOfBotsWithoutAttemptableWebhook(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, status, callback, tunnelHash string
		staged                             bool
	}{
		{"active webhook is left to the dispatcher", botpay.WebhookActive, "https://bot.example.com/hook", "", false},
		{"degraded webhook is left to the dispatcher", botpay.WebhookDegraded, "https://bot.example.com/hook", "", false},
		{"tunnel bot is left to the dispatcher", botpay.WebhookActive, "", "tunnel-hash", false},
		{"unreachable webhook is staged", botpay.WebhookUnreachable, "https://bot.example.com/hook", "", true},
		{"status none is staged", botpay.WebhookNone, "", "", true},
		{"no callback and no tunnel is staged", botpay.WebhookActive, "", "", true},
		{"degraded tunnel bot is left to the dispatcher", botpay.WebhookDegraded, "", "tunnel-hash-degraded", false},
		{"degraded without callback or tunnel is staged", botpay.WebhookDegraded, "", "", true},
		{"unreachable tunnel bot is staged", botpay.WebhookUnreachable, "", "tunnel-hash-unreachable", true},
		{"status none with a callback is staged", botpay.WebhookNone, "https://bot.example.com/hook", "", true},
	}
	for _, c := range cases { // the SQL of emit and the dispatcher's Go decide alike
		target := botpay.DeliveryTarget{WebhookStatus: c.status, CallbackURL: c.callback != "", TunnelToken: c.tunnelHash != ""}
		if botpay.AttemptsDelivery(target) == c.staged {
			t.Fatalf("%s: the case disagrees with botpay.AttemptsDelivery", c.name)
		}
	}
	storetest.ForEach(t, func(t *testing.T, db *storetest.DB) {
		st := db.Store
		var wakes atomic.Int64 // the local dispatcher is woken only for events it has to deliver
		st.Outbox().OnEvent(func() { wakes.Add(1) })
		owner := storetest.NewOwner(t, st)
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				token := botpay.NewClaimToken()
				b := botpay.Bot{ID: botpay.NewID("bot_"), Name: botpay.NewID("bot"), OwnerEmail: owner.Email,
					BotType: botpay.DefaultBotType, WebhookStatus: c.status, CallbackURL: c.callback, CreatedAt: st.Clock().Now()}
				if _, err := registry(st).RegisterBot(ctx, bots.NewBot{Bot: b, APIKeyHash: botpay.Digest(botpay.NewSecret(botpay.APIKeyPrefix)),
					ClaimTokenHash: botpay.Digest(token), WebhookSecretSealed: []byte("sealed"), TunnelTokenHash: c.tunnelHash,
					Limit: bots.Limit{Bucket: "register:test", Max: 0}}); err != nil {
					t.Fatalf("register: %v", err)
				}
				before := wakes.Load()
				if _, err := registry(st).ClaimBot(ctx, owner.ID, botpay.Digest(token)); err != nil { // emits wallet.activated
					t.Fatalf("claim: %v", err)
				}
				if woken, want := wakes.Load()-before, map[bool]int64{true: 0, false: 1}[c.staged]; woken != want {
					t.Fatalf("dispatcher woken %d times, want %d", woken, want)
				}
				events, err := storetest.OutboxOf(st).Events(ctx, b.ID)
				if err != nil || len(events) != 1 || events[0].Type != "wallet.activated" {
					t.Fatalf("events = %+v, %v; want one wallet.activated", events, err)
				}
				states, err := storetest.OutboxOf(st).OutboxStates(ctx, b.ID)
				if err != nil {
					t.Fatal(err)
				}
				msgsPage, err := pendingMessages(st, b.ID, botpay.PageRequest{Limit: 10})
				msgs := msgsPage.Items
				if err != nil {
					t.Fatal(err)
				}
				if !c.staged {
					if states[0].Done || states[0].Outcome != "" || len(msgs) != 0 {
						t.Fatalf("outbox = %+v, pending = %+v; want an open row and no message", states[0], msgs)
					}
					return
				}
				if !states[0].Done || states[0].Outcome != "staged" || states[0].Attempts != 0 {
					t.Fatalf("outbox = %+v; want done, staged, no attempt", states[0])
				}
				if len(msgs) != 1 {
					t.Fatalf("pending = %+v; want one message", msgs)
				}
				m := msgs[0]
				if m.EventID != events[0].ID || m.Event != "wallet.activated" || !m.EventAt.Equal(events[0].CreatedAt) ||
					!m.ExpiresAt.Equal(events[0].CreatedAt.Add(botpay.MessageLife("wallet.activated"))) {
					t.Fatalf("message = %+v; want the event %+v expiring after %v", m, events[0], botpay.MessageLife("wallet.activated"))
				}
			})
		}
	})
}

// An auto-approved checkout writes its wallet.spend.authorized event in its
// own statement on PostgreSQL (recordApprovedInOne) by the same rule as emit:
// staged at once, without waking the dispatcher, for a bot it could not
// deliver to; left to the dispatcher, which is woken, otherwise.
func TestCheckoutEventFollowsTheStagingRule(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		callback string
		staged   bool
	}{{"active webhook", "https://bot.example.com/hook", false}, {"no webhook", "", true}}
	storetest.ForEach(t, func(t *testing.T, db *storetest.DB) {
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				st := db.Store
				var wakes atomic.Int64
				st.Outbox().OnEvent(func() { wakes.Add(1) })
				owner := storetest.NewOwner(t, st)
				b, _ := storetest.Shopper(t, st, owner, func(g *botpay.Guardrails) { g.ApprovalMode = botpay.ApprovalUnderThreshold })
				storetest.SetCallbackURL(t, st, b.ID, c.callback)
				before := wakes.Load()
				res, err := storetest.Spending(st).DecideCheckout(ctx, botpay.CheckoutAsk{BotID: b.ID, ProfileIndex: 1, ItemName: "thing",
					Request: botpay.CheckoutRequest{Amount: 100, MerchantName: "Acme", MerchantURL: "acme.com"}})
				if err != nil || res.Purchase.Status != botpay.PurchaseApproved {
					t.Fatalf("checkout = %+v, %v", res.Purchase, err)
				}
				if n, want := wakes.Load()-before, map[bool]int64{true: 0, false: 1}[c.staged]; n != want {
					t.Fatalf("dispatcher woken %d times, want %d", n, want)
				}
				states, err := storetest.OutboxOf(st).OutboxStates(ctx, b.ID)
				if err != nil {
					t.Fatal(err)
				}
				last := states[len(states)-1]
				msgsPage, err := pendingMessages(st, b.ID, botpay.PageRequest{Limit: 100})
				msgs := msgsPage.Items
				if err != nil {
					t.Fatal(err)
				}
				staged := len(msgs) > 0 && msgs[len(msgs)-1].Event == "wallet.spend.authorized" && msgs[len(msgs)-1].EventID == last.EventID
				if staged != c.staged || last.Done != c.staged || (c.staged && last.Outcome != "staged") {
					t.Fatalf("outbox %+v, messages %+v; want staged %v", last, msgs, c.staged)
				}
			})
		}
	})
}

// TestStagedEventWritesItsPayloadOnce checks that an event staged when it
// is written, by emit or by the checkout's own statement, keeps its payload
// in its pending message only (the outbox row's data is NULL), while an
// event left to the dispatcher keeps it in its outbox row, where the
// dispatcher reads it; OutboxReader.Events reads the payload of both.
func TestStagedEventWritesItsPayloadOnce(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, callback, event string
		staged                bool
	}{
		{"emit for a bot without a webhook", "", "rails.updated", true},
		{"emit for a bot with a webhook", "https://bot.example.com/hook", "rails.updated", false},
		{"checkout of a bot without a webhook", "", "wallet.spend.authorized", true},
		{"checkout of a bot with a webhook", "https://bot.example.com/hook", "wallet.spend.authorized", false},
	}
	storetest.ForEach(t, func(t *testing.T, db *storetest.DB) {
		st := db.Store
		owner := storetest.NewOwner(t, st)
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				b, _ := storetest.Shopper(t, st, owner, func(g *botpay.Guardrails) { g.ApprovalMode = botpay.ApprovalUnderThreshold })
				storetest.SetCallbackURL(t, st, b.ID, c.callback)
				writeEventOf(t, st, b.ID, c.event)
				events, err := storetest.OutboxOf(st).Events(ctx, b.ID)
				if err != nil || len(events) == 0 || events[len(events)-1].Type != c.event || len(events[len(events)-1].Data) == 0 {
					t.Fatalf("events = %+v, %v; want the %s last, with its data", events, err, c.event)
				}
				var withData, messages int
				if err := st.Kernel().QueryRow(ctx, `SELECT COUNT(data), (SELECT COUNT(*) FROM pending_messages WHERE event_id = $1)
					FROM outbox WHERE event_id = $1`, events[len(events)-1].ID).Scan(&withData, &messages); err != nil {
					t.Fatal(err)
				}
				if want := map[bool][2]int{true: {0, 1}, false: {1, 0}}[c.staged]; [2]int{withData, messages} != want {
					t.Fatalf("outbox rows with data %d, pending messages %d; want %d and %d", withData, messages, want[0], want[1])
				}
			})
		}
	})
}

// writeEventOf writes one event of type event for bot: rails.updated by
// emit, wallet.spend.authorized by an auto-approved checkout.
func writeEventOf(t *testing.T, st *store.Store, botID, event string) {
	t.Helper()
	if event == "wallet.spend.authorized" {
		res, err := storetest.Spending(st).DecideCheckout(ctx, botpay.CheckoutAsk{BotID: botID, ProfileIndex: 1, ItemName: "thing",
			Request: botpay.CheckoutRequest{Amount: 100, MerchantName: "Acme", MerchantURL: "acme.com"}})
		if err != nil || res.Purchase.Status != botpay.PurchaseApproved {
			t.Fatalf("checkout = %+v, %v", res.Purchase, err)
		}
		return
	}
	err := st.Kernel().InTx(ctx, func(tx *kernel.Tx) error {
		return st.Outbox().Emit(tx, botpay.NewEvent(botID, botpay.RailsUpdatedData{Action: botpay.ActionLimitsUpdated,
			BotID: botID, Message: "Your owner changed your spending guardrails."}, st.Clock().Now()))
	})
	if err != nil {
		t.Fatalf("emit: %v", err)
	}
}
