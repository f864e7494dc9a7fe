package store_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/bots"
	"github.com/botpay/botpay/internal/earning"
	"github.com/botpay/botpay/internal/kernel"
	"github.com/botpay/botpay/internal/notifications"
	"github.com/botpay/botpay/internal/spending"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
)

var ctx = context.Background()

// newOwner creates an owner with a random e-mail.
func newOwner(t testing.TB, st *store.Store) botpay.Owner {
	t.Helper()
	o := botpay.Owner{ID: botpay.NewID("own_"), Email: botpay.NewID("o") + "@example.com", CreatedAt: st.Clock().Now()}
	if err := st.Kernel().InTx(ctx, func(tx *kernel.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO owners (id, email, password_hash, created_at) VALUES ($1, $2, 'hash', $3)`, o.ID, o.Email, kernel.MS(o.CreatedAt))
		return err
	}); err != nil {
		t.Fatalf("create owner: %v", err)
	}
	return o
}

// newBot registers an unclaimed bot and returns it with its claim token.
func newBot(t testing.TB, st *store.Store, name string) (botpay.Bot, string) {
	t.Helper()
	token := botpay.NewClaimToken()
	b := botpay.Bot{ID: botpay.NewID("bot_"), Name: name, OwnerEmail: "owner@example.com", BotType: botpay.DefaultBotType,
		WebhookStatus: botpay.WebhookActive, CallbackURL: "https://bot.example.com/hook", CreatedAt: st.Clock().Now()}
	_, err := registry(st).RegisterBot(ctx, bots.NewBot{Bot: b, APIKeyHash: botpay.Digest(botpay.NewSecret(botpay.APIKeyPrefix)),
		ClaimTokenHash: botpay.Digest(token), WebhookSecretSealed: []byte("sealed"),
		Limit: bots.Limit{Bucket: "register:test", Max: 0}})
	if err != nil {
		t.Fatalf("register: %v", err)
	}
	return b, token
}

// claimedBot registers a bot and has owner claim it.
func claimedBot(t testing.TB, st *store.Store, owner botpay.Owner) botpay.Bot {
	t.Helper()
	_, token := newBot(t, st, botpay.NewID("bot"))
	claimed, err := registry(st).ClaimBot(ctx, owner.ID, botpay.Digest(token))
	if err != nil {
		t.Fatalf("claim: %v", err)
	}
	return claimed
}

func eventTypes(t *testing.T, st *store.Store, botID string) []string {
	t.Helper()
	events, err := st.Events(ctx, botID)
	if err != nil {
		t.Fatal(err)
	}
	var types []string
	for _, e := range events {
		types = append(types, e.Type)
	}
	return types
}

func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	e := botpay.AsError(err)
	if e == nil || e.Code != code {
		t.Fatalf("error = %v, want code %q", err, code)
	}
}

func openWithClock(t *testing.T, d store.Dialect) (*store.Store, *botpay.ManualClock) {
	clock := botpay.NewManualClock(time.Date(2026, 11, 21, 9, 30, 0, 0, time.UTC))
	return storetest.Open(t, d, clock).Store, clock
}

// registry registers and claims bots for the fixtures, as internal/bots
// does, with no registration limit.
func registry(st *store.Store) *bots.Service {
	return bots.New(bots.Deps{DB: st.Kernel(), Outbox: st.Outbox(), Wallets: st})
}

func registration(st *store.Store, name, email string) bots.NewBot {
	return bots.NewBot{
		Bot: botpay.Bot{ID: botpay.NewID("bot_"), Name: name, OwnerEmail: email, BotType: botpay.DefaultBotType,
			WebhookStatus: botpay.WebhookNone, CreatedAt: st.Clock().Now()},
		APIKeyHash:          botpay.Digest(botpay.NewSecret(botpay.APIKeyPrefix)),
		WebhookSecretSealed: []byte("sealed"),
	}
}

// newPairingCode stores a live pairing code of the owner, as the account
// use case would, for the registrations that consume it.
func newPairingCode(st *store.Store, ownerID, code string, expires time.Time) error {
	return st.Kernel().InTx(ctx, func(tx *kernel.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO pairing_codes (code_hash, owner_id, created_at, expires_at) VALUES ($1, $2, $3, $4)`,
			botpay.Digest(code), ownerID, kernel.MS(st.Clock().Now()), kernel.MS(expires))
		return err
	})
}

// earningOf is the sale path over st's database (internal/earning), as
// app.New builds it without receipt mail or on-chain refunds.
func earningOf(st *store.Store) *earning.Service {
	return earning.New(earning.Deps{DB: st.Kernel(), Outbox: st.Outbox()})
}

func newPage(t *testing.T, st *store.Store, botID string, amount *botpay.Money) botpay.CheckoutPage {
	t.Helper()
	p := botpay.CheckoutPage{ID: botpay.NewID("cp_"), BotID: botID, Title: "Widget", Amount: amount, AmountLocked: amount != nil,
		AllowedMethods: botpay.CheckoutMethods, PageType: botpay.PageProduct, CreatedAt: st.Clock().Now()}
	storetest.NewCheckoutPage(t, st, p)
	return p
}

func cents(m botpay.Money) *botpay.Money { return &m }

func countOf(types []string, want string) int {
	n := 0
	for _, typ := range types {
		if typ == want {
			n++
		}
	}
	return n
}

func wantBooksBalanced(t *testing.T, st *store.Store, botID string, balance botpay.Money) {
	t.Helper()
	v, _, err := st.WalletView(ctx, botID)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := st.LedgerSum(ctx, botID)
	if err != nil {
		t.Fatal(err)
	}
	if v.Wallet.Balance != balance || sum != balance {
		t.Fatalf("balance %d, ledger sum %d, want %d", v.Wallet.Balance, sum, balance)
	}
}

// pendingMessages reads a bot's pending messages as the bot does.
func pendingMessages(st *store.Store, botID string, page botpay.PageRequest) (botpay.Page[botpay.PendingMessage], error) {
	return notifications.NewService(notifications.Deps{DB: st.Kernel()}).PendingMessages(ctx, botpay.Bot{ID: botID}, page)
}

// spendings are the spending services of the tests' stores, one per store
// as app.New builds one per process, so that its configuration cache
// lives as long as the store.
var spendings sync.Map

// spendingOf is the checkout and approvals capability over st's database
// (internal/spending), as app.New builds it without a sealer, owner
// notices or signing approvals.
func spendingOf(st *store.Store) *spending.Service {
	if s, ok := spendings.Load(st); ok {
		return s.(*spending.Service)
	}
	s, _ := spendings.LoadOrStore(st, spending.New(spending.Deps{DB: st.Kernel(), Outbox: st.Outbox(), Rules: st.ForSpending(), Signing: st.ForSpending()}))
	return s.(*spending.Service)
}

// processorWalletAt gives the bot a processor wallet at address, as
// internal/payments does, with a made-up sealed key.
func processorWalletAt(t *testing.T, st *store.Store, botID, address string) {
	t.Helper()
	if err := st.Kernel().InTx(ctx, func(tx *kernel.Tx) error {
		now := kernel.MS(st.Clock().Now())
		_, err := tx.Exec(ctx, `INSERT INTO processor_wallets (bot_id, address, sealed_key, balance_micro, created_at, updated_at)
			VALUES ($1, $2, $3, 0, $4, $4)`, botID, strings.ToLower(address), []byte("sealed"), now)
		return err
	}); err != nil {
		t.Fatal(err)
	}
}
