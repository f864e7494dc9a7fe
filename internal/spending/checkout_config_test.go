package spending_test

import (
	"testing"

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
			storetest.LowerPerTransaction(t, st, owner, b, 50)
		}, botpay.CodeCardGuardrailViolation},
		{"master guardrails set", func(t *testing.T, st *store.Store, owner botpay.Owner, _ botpay.Bot, _ botpay.Card) {
			per := botpay.Money(50)
			if err := spendingOf(st).ReplaceMasterGuardrails(ctx, owner.ID, botpay.MasterGuardrails{PerTransaction: &per}); err != nil {
				t.Fatal(err)
			}
		}, botpay.CodeMasterBudgetExceeded},
		{"merchant blocked", func(t *testing.T, st *store.Store, owner botpay.Owner, b botpay.Bot, _ botpay.Card) {
			p := botpay.Procurement{AllowedDomains: []string{}, BlockedDomains: []string{}, AllowedMerchants: []string{},
				BlockedMerchants: []string{"Acme"}}
			if err := spendingOf(st).WriteProcurement(ctx, owner.ID, b.ID, p); err != nil {
				t.Fatal(err)
			}
		}, botpay.CodeCardGuardrailViolation},
		{"card deactivated", func(t *testing.T, st *store.Store, owner botpay.Owner, b botpay.Bot, c botpay.Card) {
			if _, err := spendingOf(st).SetCardStatus(ctx, owner, b.ID, c.ID, botpay.CardInactive); err != nil {
				t.Fatal(err)
			}
		}, botpay.CodeCardNotActive},
		{"second active card", func(t *testing.T, st *store.Store, owner botpay.Owner, b botpay.Bot, _ botpay.Card) {
			c := botpay.Card{ID: botpay.NewID("card_"), BotID: b.ID, Name: "second", Status: botpay.CardActive, RealProfileIndex: 1,
				Profiles:  []botpay.PaymentProfile{{Index: 1, AllowanceDuration: botpay.AllowanceMonth, Allowance: 100000}},
				CreatedAt: st.Clock().Now()}
			if err := spendingOf(st).AddCard(ctx, owner.ID, c, map[int][]byte{1: []byte("sealed")}); err != nil {
				t.Fatal(err)
			}
		}, botpay.CodeCardIDRequired},
	}
	for _, ch := range changes {
		storetest.OnEachReplica(t, ch.name, func(t *testing.T, db *storetest.DB, changer *store.Store) {
			owner := storetest.NewOwner(t, db.Store)
			b, c := storetest.Shopper(t, db.Store, owner, func(g *botpay.Guardrails) { g.ApprovalMode = botpay.ApprovalUnderThreshold })
			checkout := func() error {
				_, err := spendingOf(db.Store).DecideCheckout(ctx, botpay.CheckoutAsk{BotID: b.ID, ProfileIndex: 1, ItemName: "thing",
					Request: botpay.CheckoutRequest{Amount: 100, MerchantName: "Acme", MerchantURL: "acme.com"}})
				return err
			}
			for i := range 2 { // the second one uses the configuration in memory
				if err := checkout(); err != nil {
					t.Fatalf("checkout %d before the change: %v", i+1, err)
				}
			}
			ch.change(t, changer, owner, b, c)
			storetest.WantCode(t, checkout(), ch.want)
		})
	}
}
