package storetest

import (
	"context"
	"database/sql"
	"encoding/json"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/bots"
	"github.com/botpay/botpay/internal/kernel"
	"github.com/botpay/botpay/internal/notifications"
	"github.com/botpay/botpay/internal/payments"
	"github.com/botpay/botpay/internal/spending"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/wallets"
)

// The fixture builder of the database layer: the store's tests and the
// capability packages' tests make their owners and bots here, the way the
// service does, so a change to registration or the claim reaches them all.

// NewOwner creates an owner with a random e-mail.
func NewOwner(t testing.TB, st *store.Store) botpay.Owner {
	t.Helper()
	ctx := context.Background()
	o := botpay.Owner{ID: botpay.NewID("own_"), Email: botpay.NewID("o") + "@example.com", CreatedAt: st.Clock().Now()}
	if err := st.Kernel().InTx(ctx, func(tx *kernel.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO owners (id, email, password_hash, created_at) VALUES ($1, $2, 'hash', $3)`,
			o.ID, o.Email, kernel.MS(o.CreatedAt))
		return err
	}); err != nil {
		t.Fatalf("create owner: %v", err)
	}
	return o
}

// registry registers and claims bots over st, as the service wires it.
func registry(st *store.Store) *bots.Service {
	return bots.New(bots.Deps{DB: st.Kernel(), Outbox: st.Outbox()})
}

// NewBot registers an unclaimed bot named name and returns it with its
// claim token.
func NewBot(t testing.TB, st *store.Store, name string) (botpay.Bot, string) {
	t.Helper()
	token := botpay.NewClaimToken()
	b := botpay.Bot{ID: botpay.NewID("bot_"), Name: name, OwnerEmail: "owner@example.com", BotType: botpay.DefaultBotType,
		WebhookStatus: botpay.WebhookActive, CallbackURL: "https://bot.example.com/hook", CreatedAt: st.Clock().Now()}
	_, err := registry(st).RegisterBot(context.Background(), bots.NewBot{Bot: b,
		APIKeyHash: botpay.Digest(botpay.NewSecret(botpay.APIKeyPrefix)), ClaimTokenHash: botpay.Digest(token),
		WebhookSecretSealed: []byte("sealed"), Limit: bots.Limit{Bucket: "register:test", Max: 0}})
	if err != nil {
		t.Fatalf("register: %v", err)
	}
	return b, token
}

// ClaimedBot registers a bot and has owner claim it.
func ClaimedBot(t testing.TB, st *store.Store, owner botpay.Owner) botpay.Bot {
	t.Helper()
	_, token := NewBot(t, st, botpay.NewID("bot"))
	claimed, err := registry(st).ClaimBot(context.Background(), owner.ID, botpay.Digest(token))
	if err != nil {
		t.Fatalf("claim: %v", err)
	}
	return claimed
}

// Exec runs one statement in a transaction of its own, for a test that sets
// a row up as no use case would.
func Exec(t testing.TB, st *store.Store, query string, args ...any) {
	t.Helper()
	ctx := context.Background()
	if err := st.Kernel().InTx(ctx, func(tx *kernel.Tx) error { _, err := tx.Exec(ctx, query, args...); return err }); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
}

// NewAPIKey gives the bot a new API key in place of the one it had, and
// returns it (fixtures do not keep the keys they register bots with). It
// writes the key's digest as the stored key, without the rotation's notice.
func NewAPIKey(t testing.TB, st *store.Store, botID string) string {
	t.Helper()
	key := botpay.NewSecret(botpay.APIKeyPrefix)
	Exec(t, st, `UPDATE bots SET api_key_hash = $1 WHERE id = $2`, botpay.Digest(key), botID)
	return key
}

// Wallets is the card wallet capability over st's database, as app.New
// builds it without the processor wallet, owner mail or rate limits: what
// the tests fund bots with and read balances and ledgers through.
func Wallets(st *store.Store) *wallets.Service {
	return wallets.New(wallets.Deps{DB: st.Kernel(), Outbox: st.Outbox(),
		Reads: walletReads{Service: Spending(st), messages: notifications.NewService(notifications.Deps{DB: st.Kernel()})}})
}

// walletReads are the guardrails of spending and the message count of
// notifications, as app wires them for the wallet's status view.
type walletReads struct {
	*spending.Service
	messages *notifications.Service
}

func (r walletReads) PendingMessageCount(ctx context.Context, botID string) (int, error) {
	return r.messages.PendingMessageCount(ctx, botID)
}

// NewCheckoutPage stores p as internal/earning stores a new page, for the
// tests of the sale path and x402 settlement, which only read pages.
func NewCheckoutPage(t testing.TB, st *store.Store, p botpay.CheckoutPage) {
	t.Helper()
	ctx := context.Background()
	methods, err := json.Marshal(p.AllowedMethods)
	if err != nil {
		t.Fatal(err)
	}
	var amount, expires sql.NullInt64
	if p.Amount != nil {
		amount = sql.NullInt64{Int64: int64(*p.Amount), Valid: true}
	}
	if !p.ExpiresAt.IsZero() {
		expires = sql.NullInt64{Int64: kernel.MS(p.ExpiresAt), Valid: true}
	}
	if err := st.Kernel().InTx(ctx, func(tx *kernel.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO checkout_pages (id, bot_id, title, description, amount_cents, amount_locked,
			allowed_methods, page_type, collect_buyer_name, created_at, expires_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
			p.ID, p.BotID, p.Title, p.Description, amount, p.AmountLocked, string(methods), p.PageType, p.CollectBuyerName,
			kernel.MS(p.CreatedAt), expires)
		return err
	}); err != nil {
		t.Fatalf("create checkout page: %v", err)
	}
}

// SetCallbackURL points the bot's webhook at url (empty: none) and resets
// its health to active, as internal/bots does when an owner changes it;
// the tests use it to choose between delivery and staging, so it neither
// validates url nor mails the owner.
func SetCallbackURL(t testing.TB, st *store.Store, botID, url string) {
	t.Helper()
	ctx := context.Background()
	if err := st.Kernel().InTx(ctx, func(tx *kernel.Tx) error {
		_, err := tx.Exec(ctx, `UPDATE bots SET callback_url = $1, webhook_status = $2, webhook_fail_count = 0, updated_at = $3 WHERE id = $4`,
			url, botpay.WebhookActive, kernel.MS(st.Clock().Now()), botID)
		return err
	}); err != nil {
		t.Fatalf("set callback url: %v", err)
	}
}

// NewPaymentLink stores l as a pending link, as internal/earning stores a
// new one.
func NewPaymentLink(t testing.TB, st *store.Store, l botpay.PaymentLink) {
	t.Helper()
	ctx := context.Background()
	if err := st.Kernel().InTx(ctx, func(tx *kernel.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO payment_links (id, bot_id, amount_cents, description, payer_email, completed, created_at, expires_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
			l.ID, l.BotID, int64(l.Amount), l.Description, sql.NullString{String: l.PayerEmail, Valid: l.PayerEmail != ""}, false,
			kernel.MS(l.CreatedAt), kernel.MS(l.ExpiresAt))
		return err
	}); err != nil {
		t.Fatalf("create payment link: %v", err)
	}
}

// WantCode fails the test unless err is the domain error of code.
func WantCode(t testing.TB, err error, code string) {
	t.Helper()
	if e := botpay.AsError(err); e == nil || e.Code != code {
		t.Fatalf("error = %v, want code %q", err, code)
	}
}

// EventTypes lists the types of the events written for botID, oldest
// first.
func EventTypes(t testing.TB, st *store.Store, botID string) []string {
	t.Helper()
	events, err := OutboxOf(st).Events(context.Background(), botID)
	if err != nil {
		t.Fatal(err)
	}
	var types []string
	for _, e := range events {
		types = append(types, e.Type)
	}
	return types
}

// OpenWithClock opens an isolated database of engine d whose clock the
// test moves.
func OpenWithClock(t *testing.T, d store.Dialect) (*store.Store, *botpay.ManualClock) {
	clock := botpay.NewManualClock(time.Date(2026, 11, 21, 9, 30, 0, 0, time.UTC))
	return Open(t, d, clock).Store, clock
}

// Spending is internal/spending over st's database as app.New builds it,
// without card details or owner notices; its approvals list reads the held
// signing requests of internal/payments (HeldSigning).
func Spending(st *store.Store) *spending.Service {
	return spending.New(spending.Deps{DB: st.Kernel(), Outbox: st.Outbox(), Signing: HeldSigning(st)})
}

// HeldSigning is internal/payments' side of the owner's approvals list
// over st's database, as app.New wires it into internal/spending.
func HeldSigning(st *store.Store) spending.HeldSigning {
	return payments.New(payments.Deps{DB: st.Kernel(), Outbox: st.Outbox()})
}

// OutboxOf reads st's outbox (internal/notifications), for the tests that
// prove each change wrote its event and how it was delivered.
func OutboxOf(st *store.Store) *notifications.OutboxReader {
	return notifications.NewOutboxReader(st.Kernel())
}

// Shopper is a claimed bot of owner funded with $1,000, with guardrails
// adjusted from the defaults and one active card (profile 1, $1,000 a
// month), written through internal/spending as an owner would set them.
func Shopper(t testing.TB, st *store.Store, owner botpay.Owner, adjust func(*botpay.Guardrails)) (botpay.Bot, botpay.Card) {
	t.Helper()
	ctx := context.Background()
	b := ClaimedBot(t, st, owner)
	if _, err := Wallets(st).Fund(ctx, owner, b.ID, 100000, ""); err != nil {
		t.Fatal(err)
	}
	g := botpay.DefaultGuardrails(st.Clock().Now())
	adjust(&g)
	s := Spending(st)
	if err := s.ReplaceGuardrails(ctx, owner.ID, b.ID, g); err != nil {
		t.Fatal(err)
	}
	c := botpay.Card{ID: botpay.NewID("card_"), BotID: b.ID, Name: "card", Status: botpay.CardActive, RealProfileIndex: 1,
		Profiles:  []botpay.PaymentProfile{{Index: 1, AllowanceDuration: botpay.AllowanceMonth, Allowance: 100000}},
		CreatedAt: st.Clock().Now()}
	if err := s.AddCard(ctx, owner.ID, c, map[int][]byte{1: []byte("sealed")}); err != nil {
		t.Fatal(err)
	}
	return b, c
}

// HeldShopper is a Shopper whose every checkout waits for its owner.
func HeldShopper(t testing.TB, st *store.Store, owner botpay.Owner) (botpay.Bot, botpay.Card) {
	t.Helper()
	return Shopper(t, st, owner, func(g *botpay.Guardrails) { g.ApprovalMode = botpay.ApprovalAskForEverything })
}

// WantBooksBalanced fails the test unless the bot's wallet balance and the
// sum of its ledger rows both equal balance, and the month's spend the
// wallet keeps equals the sum of the month's spend rows.
func WantBooksBalanced(t testing.TB, st *store.Store, botID string, balance botpay.Money) {
	t.Helper()
	ctx := context.Background()
	v, _, err := Wallets(st).WalletView(ctx, botID)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := Wallets(st).LedgerSum(ctx, botID)
	if err != nil {
		t.Fatal(err)
	}
	if v.Wallet.Balance != balance || sum != balance {
		t.Fatalf("balance %d, ledger sum %d, want %d", v.Wallet.Balance, sum, balance)
	}
	spent, err := Wallets(st).LedgerMonthSpend(ctx, botID)
	if err != nil {
		t.Fatal(err)
	}
	if kept := v.MonthlySpent - v.Wallet.Held; kept != spent {
		t.Fatalf("the wallet keeps %d spent this month, its ledger's spend rows sum to %d", kept, spent)
	}
}

// SweepOnReplicas runs sweep on every replica, two workers each, one item
// at a time until nothing is left, and returns how many items they swept
// in all: a sweep that claims an item twice counts it twice.
func SweepOnReplicas[R any](t testing.TB, replicas []R, sweep func(R, context.Context, int) (int, error)) int64 {
	t.Helper()
	var total atomic.Int64
	var wg sync.WaitGroup
	for _, r := range replicas {
		for range 2 {
			wg.Go(func() {
				for {
					n, err := sweep(r, context.Background(), 1)
					if err != nil {
						t.Error(err)
						return
					}
					total.Add(int64(n))
					if n == 0 {
						return
					}
				}
			})
		}
	}
	wg.Wait()
	return total.Load()
}

// OnEachReplica runs test, as a parallel subtest on each engine, with a
// fresh database and the store that makes the change: the one under test
// ("same replica"), or a second store on the same database ("other
// replica"), whose changes the first can learn of only from the database.
func OnEachReplica(t *testing.T, name string, test func(t *testing.T, db *DB, changer *store.Store)) {
	for _, d := range Dialects {
		for _, replica := range []string{"same replica", "other replica"} {
			t.Run(string(d)+"/"+replica+"/"+name, func(t *testing.T) {
				t.Parallel()
				db := Open(t, d, nil)
				changer := db.Store
				if replica == "other replica" {
					changer = db.OpenAnother(t)
				}
				test(t, db, changer)
			})
		}
	}
}

// LowerPerTransaction sets the bot's per-transaction limit to cents, as
// its owner would.
func LowerPerTransaction(t testing.TB, st *store.Store, owner botpay.Owner, b botpay.Bot, cents botpay.Money) {
	t.Helper()
	ctx := context.Background()
	s := Spending(st)
	g, err := s.OwnedGuardrails(ctx, owner, b.ID)
	if err != nil {
		t.Fatal(err)
	}
	g.PerTransaction = cents
	if err := s.ReplaceGuardrails(ctx, owner.ID, b.ID, g); err != nil {
		t.Fatal(err)
	}
}

// Page creates a product page of botID selling at amount (nil: the buyer
// names the amount).
func Page(t testing.TB, st *store.Store, botID string, amount *botpay.Money) botpay.CheckoutPage {
	t.Helper()
	p := botpay.CheckoutPage{ID: botpay.NewID("cp_"), BotID: botID, Title: "Widget", Amount: amount, AmountLocked: amount != nil,
		AllowedMethods: botpay.CheckoutMethods, PageType: botpay.PageProduct, CreatedAt: st.Clock().Now()}
	NewCheckoutPage(t, st, p)
	return p
}

// Cents is m, addressable, for the optional amounts of requests.
func Cents(m botpay.Money) *botpay.Money { return &m }

// Hold has the bot check out amount through internal/spending and fails
// the test unless the purchase waits for its owner.
func Hold(t testing.TB, st *store.Store, b botpay.Bot, amount botpay.Money) botpay.Purchase {
	t.Helper()
	s := Spending(st)
	res, err := s.DecideCheckout(context.Background(), botpay.CheckoutAsk{BotID: b.ID, ProfileIndex: 1, ItemName: "thing",
		Request: botpay.CheckoutRequest{Amount: amount, MerchantName: "Acme", MerchantURL: "acme.com"}})
	if err != nil || res.Purchase.Status != botpay.PurchasePending {
		t.Fatalf("checkout = %+v, %v; want held", res.Purchase, err)
	}
	return res.Purchase
}

// Registration is a registration of a bot named name for the owner at
// email, without a callback URL.
func Registration(st *store.Store, name, email string) bots.NewBot {
	return bots.NewBot{
		Bot: botpay.Bot{ID: botpay.NewID("bot_"), Name: name, OwnerEmail: email, BotType: botpay.DefaultBotType,
			WebhookStatus: botpay.WebhookNone, CreatedAt: st.Clock().Now()},
		APIKeyHash:          botpay.Digest(botpay.NewSecret(botpay.APIKeyPrefix)),
		WebhookSecretSealed: []byte("sealed"),
	}
}

// NewPairingCode stores a live pairing code of the owner, as the account
// use case would, for the registrations that consume it.
func NewPairingCode(st *store.Store, ownerID, code string, expires time.Time) error {
	ctx := context.Background()
	return st.Kernel().InTx(ctx, func(tx *kernel.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO pairing_codes (code_hash, owner_id, created_at, expires_at) VALUES ($1, $2, $3, $4)`,
			botpay.Digest(code), ownerID, kernel.MS(st.Clock().Now()), kernel.MS(expires))
		return err
	})
}
