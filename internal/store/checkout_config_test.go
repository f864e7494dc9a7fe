package store_test

import (
	"testing"

	"github.com/botpay/botpay/internal/app"
	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
)

// Checkouts keep the bot's spending configuration in memory between
// requests. Every change an owner makes to it, on this replica or on
// another one, applies to the very next checkout.
func TestCheckoutSeesEveryConfigurationChangeAtOnce(t *testing.T) {
	t.Parallel()
	changes := []struct {
		name   string
		change func(t *testing.T, st *store.Store, owner botpay.Owner, b botpay.Bot, c botpay.Card)
		want   string
	}{
		{"guardrails lowered", func(t *testing.T, st *store.Store, owner botpay.Owner, b botpay.Bot, _ botpay.Card) {
			lowerPerTransaction(t, st, owner, b, 50)
		}, botpay.CodeCardGuardrailViolation},
		{"master guardrails set", func(t *testing.T, st *store.Store, owner botpay.Owner, _ botpay.Bot, _ botpay.Card) {
			per := botpay.Money(50)
			if err := st.SetMasterGuardrails(ctx, owner.ID, botpay.MasterGuardrails{PerTransaction: &per}); err != nil {
				t.Fatal(err)
			}
		}, botpay.CodeMasterBudgetExceeded},
		{"merchant blocked", func(t *testing.T, st *store.Store, owner botpay.Owner, b botpay.Bot, _ botpay.Card) {
			p := botpay.Procurement{AllowedDomains: []string{}, BlockedDomains: []string{}, AllowedMerchants: []string{},
				BlockedMerchants: []string{"Acme"}}
			if err := st.SetProcurement(ctx, owner.ID, b.ID, p); err != nil {
				t.Fatal(err)
			}
		}, botpay.CodeCardGuardrailViolation},
		{"card deactivated", func(t *testing.T, st *store.Store, owner botpay.Owner, b botpay.Bot, c botpay.Card) {
			if _, err := st.SetCardStatus(ctx, owner.ID, b.ID, c.ID, botpay.CardInactive); err != nil {
				t.Fatal(err)
			}
		}, botpay.CodeCardNotActive},
		{"second active card", func(t *testing.T, st *store.Store, owner botpay.Owner, b botpay.Bot, _ botpay.Card) {
			c := botpay.Card{ID: botpay.NewID("card_"), BotID: b.ID, Name: "second", Status: botpay.CardActive, RealProfileIndex: 1,
				Profiles:  []botpay.PaymentProfile{{Index: 1, AllowanceDuration: botpay.AllowanceMonth, Allowance: 100000}},
				CreatedAt: st.Clock().Now()}
			if err := st.CreateCard(ctx, owner.ID, c, map[int][]byte{1: []byte("sealed")}); err != nil {
				t.Fatal(err)
			}
		}, botpay.CodeCardIDRequired},
	}
	for _, ch := range changes {
		onEachReplica(t, ch.name, func(t *testing.T, db *storetest.DB, changer *store.Store) {
			owner := newOwner(t, db.Store)
			b, c := shopper(t, db.Store, owner, func(g *botpay.Guardrails) { g.ApprovalMode = botpay.ApprovalUnderThreshold })
			checkout := func() error {
				_, err := app.DecideCheckout(ctx, db.Store, store.CheckoutInput{BotID: b.ID, ProfileIndex: 1, ItemName: "thing",
					Request: botpay.CheckoutRequest{Amount: 100, MerchantName: "Acme", MerchantURL: "acme.com"}})
				return err
			}
			for i := range 2 { // the second one uses the configuration in memory
				if err := checkout(); err != nil {
					t.Fatalf("checkout %d before the change: %v", i+1, err)
				}
			}
			ch.change(t, changer, owner, b, c)
			wantCode(t, checkout(), ch.want)
		})
	}
}

// onEachReplica runs test, as a parallel subtest on each engine, with a
// fresh database and the store that makes the change: the one under test
// ("same replica"), or a second store on the same database ("other
// replica"), whose changes the first can learn of only from the database.
func onEachReplica(t *testing.T, name string, test func(t *testing.T, db *storetest.DB, changer *store.Store)) {
	for _, d := range storetest.Dialects {
		for _, replica := range []string{"same replica", "other replica"} {
			t.Run(string(d)+"/"+replica+"/"+name, func(t *testing.T) {
				t.Parallel()
				db := storetest.Open(t, d, nil)
				changer := db.Store
				if replica == "other replica" {
					changer = db.OpenAnother(t)
				}
				test(t, db, changer)
			})
		}
	}
}

// lowerPerTransaction sets the bot's per-transaction limit to cents.
func lowerPerTransaction(t *testing.T, st *store.Store, owner botpay.Owner, b botpay.Bot, cents botpay.Money) {
	t.Helper()
	g, err := st.Guardrails(ctx, b.ID)
	if err != nil {
		t.Fatal(err)
	}
	g.PerTransaction = cents
	if err := st.SetGuardrails(ctx, owner.ID, b.ID, g); err != nil {
		t.Fatal(err)
	}
}
