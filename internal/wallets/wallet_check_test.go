package wallets_test

import (
	"testing"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/store/storetest"
)

func TestWalletCheckReadsBotWalletAndGuardrailsInOneGo(t *testing.T) {
	t.Parallel()
	storetest.ForEach(t, func(t *testing.T, db *storetest.DB) {
		st := db.Store
		key := botpay.NewSecret(botpay.APIKeyPrefix)
		token := botpay.NewClaimToken()
		nb := storetest.Registration(st, "checker", "check@example.com")
		nb.APIKeyHash, nb.ClaimTokenHash = botpay.Digest(key), botpay.Digest(token)
		if _, err := registry(st).RegisterBot(ctx, nb); err != nil {
			t.Fatal(err)
		}
		before, err := walletsOf(st).WalletCheckOfDigest(ctx, botpay.Digest(key))
		if err != nil || before.Bot.ID != nb.Bot.ID || before.Wallet != nil || before.Guardrails != nil {
			t.Fatalf("unclaimed: %+v, %v", before, err)
		}
		owner := storetest.NewOwner(t, st)
		if _, err := registry(st).ClaimBot(ctx, owner.ID, botpay.Digest(token)); err != nil {
			t.Fatal(err)
		}
		if _, err := walletsOf(st).Fund(ctx, owner, nb.Bot.ID, 1234, ""); err != nil {
			t.Fatal(err)
		}
		if _, err := walletsOf(st).CreateTopupRequest(ctx, botpay.TopupRequest{BotID: nb.Bot.ID, Amount: 99999, CreatedAt: st.Clock().Now()}); err != nil {
			t.Fatal(err)
		}
		got, err := walletsOf(st).WalletCheckOfDigest(ctx, botpay.Digest(key))
		if err != nil {
			t.Fatal(err)
		}
		want, _, _ := walletsOf(st).WalletView(ctx, nb.Bot.ID)
		g, _ := storetest.Spending(st).OwnedGuardrails(ctx, owner, nb.Bot.ID)
		if got.Bot.OwnerID != owner.ID || *got.Wallet != want || got.Wallet.Wallet.Balance != 1234 || got.Wallet.PendingTopups != 1 {
			t.Fatalf("wallet = %+v, want %+v", got.Wallet, want)
		}
		if got.Guardrails.ApprovalMode != g.ApprovalMode || got.Guardrails.Monthly != g.Monthly ||
			*got.Guardrails.AskApprovalAbove != *g.AskApprovalAbove || len(got.Guardrails.BlockedCategories) != 0 {
			t.Fatalf("guardrails = %+v, want %+v", got.Guardrails, g)
		}
		_, err = walletsOf(st).WalletCheckOfDigest(ctx, botpay.Digest(botpay.NewSecret(botpay.APIKeyPrefix)))
		if e := botpay.AsError(err); e == nil || e.Kind != botpay.KindNotFound {
			t.Fatalf("unknown key: %v", err)
		}
	})
}
