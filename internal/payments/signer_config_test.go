package payments_test

import (
	"testing"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/spending"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
)

// The sign endpoint keeps a bot's rules in memory as checkout does; the
// signer its decider sees carries every change at once, on this replica
// or another, and the freeze is always read afresh.
func TestSignerSeesEveryConfigurationChangeAtOnce(t *testing.T) {
	t.Parallel()
	changes := []struct {
		name   string
		change func(t *testing.T, st *store.Store, owner botpay.Owner, b botpay.Bot)
		check  func(sg botpay.SigningFacts) bool
	}{
		{"guardrails lowered", func(t *testing.T, st *store.Store, owner botpay.Owner, b botpay.Bot) {
			storetest.LowerPerTransaction(t, st, owner, b, 50)
		}, func(sg botpay.SigningFacts) bool { return sg.Guardrails.PerTransaction == 50 }},
		{"master guardrails set", func(t *testing.T, st *store.Store, owner botpay.Owner, _ botpay.Bot) {
			per := botpay.Money(50)
			if err := spendingOf(st).ReplaceMasterGuardrails(ctx, owner.ID, botpay.MasterGuardrails{PerTransaction: &per}); err != nil {
				t.Fatal(err)
			}
		}, func(sg botpay.SigningFacts) bool { return sg.Master != nil && *sg.Master.PerTransaction == 50 }},
		{"recipient blocked", func(t *testing.T, st *store.Store, owner botpay.Owner, b botpay.Bot) {
			change := spending.ProcurementChange{BlockedDomains: &[]string{"v.example"}}
			if _, err := spendingOf(st).SetProcurement(ctx, owner, b.ID, change); err != nil {
				t.Fatal(err)
			}
		}, func(sg botpay.SigningFacts) bool { return len(sg.Procurement.BlockedDomains) == 1 }},
		{"frozen", func(t *testing.T, st *store.Store, owner botpay.Owner, b botpay.Bot) {
			if _, err := storetest.Wallets(st).Freeze(ctx, owner, b.ID, true); err != nil {
				t.Fatal(err)
			}
		}, func(sg botpay.SigningFacts) bool { return sg.Frozen }},
	}
	for _, ch := range changes {
		storetest.OnEachReplica(t, ch.name, func(t *testing.T, db *storetest.DB, changer *store.Store) {
			owner, b := autoShopper(t, db.Store)
			signer := func() botpay.SigningFacts {
				var seen botpay.SigningFacts
				_, _, err := paymentsOf(db.Store).ReserveJudged(ctx, botpay.SigningRequest{BotID: b.ID, OwnerID: owner.ID,
					ResourceURL: "https://v.example/x", ResourceHost: "v.example", Recipient: "0x209693bc6afc0c5328ba36faf03c514ef312287c",
					Amount: 1000, Nonce: botpay.NewID("0x"), ValidBefore: db.Store.Clock().Now().Unix() + 300, Signature: "0xsig",
					Header: "h", ApprovalMode: botpay.ApprovalUnderThreshold}, nil,
					func(f botpay.SigningFacts) (botpay.SigningVerdict, error) {
						seen = f
						return botpay.SigningVerdict{}, nil
					})
				if err != nil {
					t.Fatal(err)
				}
				return seen
			}
			for i := range 2 { // the second one uses the rules in memory
				if sg := signer(); ch.check(sg) {
					t.Fatalf("signature %d before the change already sees it: %+v", i+1, sg)
				}
			}
			ch.change(t, changer, owner, b)
			if sg := signer(); !ch.check(sg) {
				t.Fatalf("signer after the change = %+v", sg)
			}
		})
	}
}
