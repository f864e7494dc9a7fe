package spending_test

import (
	"slices"
	"testing"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/store/storetest"
)

func TestGuardrailsRoundTripAndEmitLimitsUpdated(t *testing.T) {
	t.Parallel()
	storetest.ForEach(t, func(t *testing.T, db *storetest.DB) {
		st := db.Store
		owner := storetest.NewOwner(t, st)
		b := storetest.ClaimedBot(t, st, owner)
		g, err := spendingOf(st).BotGuardrails(ctx, b)
		if err != nil || g.ApprovalMode != botpay.ApprovalUnderThreshold {
			t.Fatalf("default guardrails = %+v, %v", g, err)
		}
		notes := "office supplies only"
		g.ApprovalMode, g.PerTransaction, g.AskApprovalAbove, g.Notes = botpay.ApprovalByCategory, 4200, nil, &notes
		g.ApprovedCategories, g.BlockedCategories = []string{"office"}, []string{"gambling", "crypto"}
		if err := spendingOf(st).ReplaceGuardrails(ctx, owner.ID, b.ID, g); err != nil {
			t.Fatal(err)
		}
		got, err := spendingOf(st).BotGuardrails(ctx, b)
		if err != nil {
			t.Fatal(err)
		}
		if got.ApprovalMode != botpay.ApprovalByCategory || got.PerTransaction != 4200 || got.AskApprovalAbove != nil ||
			*got.Notes != notes || !slices.Equal(got.BlockedCategories, []string{"gambling", "crypto"}) {
			t.Fatalf("guardrails = %+v", got)
		}
		if types := storetest.EventTypes(t, st, b.ID); types[len(types)-1] != botpay.EventRailsUpdated {
			t.Fatalf("events = %v", types)
		}
	})
}

func TestMasterGuardrailsNotifyEveryBotOfTheOwner(t *testing.T) {
	t.Parallel()
	storetest.ForEach(t, func(t *testing.T, db *storetest.DB) {
		st := db.Store
		owner := storetest.NewOwner(t, st)
		if m, err := spendingOf(st).MasterGuardrails(ctx, owner); err != nil || m != nil {
			t.Fatalf("unset master guardrails = %+v, %v", m, err)
		}
		bots := []botpay.Bot{storetest.ClaimedBot(t, st, owner), storetest.ClaimedBot(t, st, owner)}
		daily := botpay.Money(50000)
		if err := spendingOf(st).ReplaceMasterGuardrails(ctx, owner.ID, botpay.MasterGuardrails{DailyBudget: &daily, UpdatedAt: st.Clock().Now()}); err != nil {
			t.Fatal(err)
		}
		m, err := spendingOf(st).MasterGuardrails(ctx, owner)
		if err != nil || m.PerTransaction != nil || *m.DailyBudget != daily || m.MonthlyBudget != nil {
			t.Fatalf("master guardrails = %+v, %v", m, err)
		}
		for _, b := range bots {
			if types := storetest.EventTypes(t, st, b.ID); types[len(types)-1] != botpay.EventRailsUpdated {
				t.Fatalf("bot %s events = %v", b.ID, types)
			}
		}
	})
}
