package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/botpay/botpay/client"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
	"github.com/botpay/botpay/wire"
)

// The chaos test drives a real `botpay serve` with checkouts (approved at
// once and held, then decided), fundings and webhook deliveries from
// several clients at once, kills it with SIGKILL and restarts it mid-run,
// and on PostgreSQL takes the database away and back (every connection
// broken, new ones refused, as in a database restart). Afterwards the books
// must hold (chaos_invariants_test.go). It is bounded in time and talks
// only to loopback.
const (
	chaosBots    = 6
	chaosWorkers = 6
	chaosRun     = 14 * time.Second
)

// chaosBot is one bot set up to spend, with its owner.
type chaosBot struct {
	id, key string
	owner   string // owner token
}

// answered keeps every 2xx answer the clients got: nothing in it may be
// missing afterwards.
type answered struct {
	mu        sync.Mutex
	purchases map[string]string // confirmation id → status the service last confirmed
	fundings  map[int64]bool    // ledger ids of fundings
}

func (a *answered) purchase(id, status string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.purchases[id] = status
}

func (a *answered) funding(id int64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.fundings[id] = true
}

func TestChaosKeepsTheBooks(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and kills it; skipped with -short")
	}
	t.Parallel()
	bin, err := buildBinary()
	if err != nil {
		t.Fatalf("build: %v", err)
	}
	storetest.EachEngine(t, func(t *testing.T, dialect store.Dialect) {
		runChaos(t, bin, dialect)
	})
}

func runChaos(t *testing.T, bin string, dialect store.Dialect) {
	db := storetest.Open(t, dialect, nil)
	env := []string{"BOTPAY_ADDR=127.0.0.1:0", "BOTPAY_WEBHOOK_ALLOW_PRIVATE=true", "BOTPAY_RATE_REGISTER_PER_HOUR=1000",
		"BOTPAY_RATE_CHECKOUT_PER_HOUR=100000", "DATABASE_URL=",
		"BOTPAY_SECRET_KEY=00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"}
	var proxy *storetest.Proxy
	if dialect == store.Postgres {
		var proxied *storetest.DB
		proxied, proxy = db.OpenThroughProxy(t)
		env = append(env, "DATABASE_URL="+proxied.Options.DatabaseURL, "BOTPAY_DATA_DIR="+t.TempDir())
	} else {
		env = append(env, "BOTPAY_DATA_DIR="+db.Options.DataDir)
	}
	var hooks atomic.Int64
	hook := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { hooks.Add(1) }))
	defer hook.Close()

	var base atomic.Pointer[string]
	proc := startBinary(t, bin, env)
	base.Store(&proc.url)
	bots := setUpChaosBots(t, proc.url, hook.URL)
	got := &answered{purchases: map[string]string{}, fundings: map[int64]bool{}}
	ctx, stop := context.WithTimeout(context.Background(), chaosRun)
	defer stop()
	var load sync.WaitGroup
	for w := range chaosWorkers {
		load.Go(func() { chaosWorker(ctx, w, &base, bots, got) })
	}
	time.Sleep(chaosRun / 3)
	proc.cmd.Process.Kill() // SIGKILL, requests in flight
	proc.cmd.Wait()
	proc = startBinary(t, bin, env)
	base.Store(&proc.url)
	if proxy != nil {
		time.Sleep(chaosRun / 4)
		proxy.Down() // every connection broken, new ones refused
		time.Sleep(2 * time.Second)
		proxy.Up()
	}
	load.Wait()
	drainOutbox(t, db.Store)
	t.Logf("%s: %d purchases and %d fundings answered 2xx, %d webhook deliveries", dialect, len(got.purchases), len(got.fundings), hooks.Load())
	if len(got.purchases) < 20 || hooks.Load() == 0 {
		t.Fatalf("too little traffic got through to test anything")
	}
	checkChaosBooks(t, db, got)
}

func setUpChaosBots(t *testing.T, url, hookURL string) []chaosBot {
	ctx := context.Background()
	bots := make([]chaosBot, chaosBots)
	for i := range bots {
		reg, err := client.New(url, "").Register(ctx, client.RegisterRequest{BotName: fmt.Sprintf("chaos-%d", i),
			OwnerEmail: fmt.Sprintf("chaos-%d@example.com", i), CallbackURL: wire.Ptr(hookURL + "/hook")})
		if err != nil {
			t.Fatal(err)
		}
		sess, err := client.NewOwner(url, "").Signup(ctx, fmt.Sprintf("chaos-owner-%d@example.com", i), "correct horse battery staple")
		if err != nil {
			t.Fatal(err)
		}
		owner := client.NewOwner(url, sess.Token)
		if _, err := owner.Claim(ctx, *reg.ClaimToken); err != nil {
			t.Fatal(err)
		}
		if _, err := owner.Fund(ctx, reg.BotID, client.Dollars(5000, 0), ""); err != nil {
			t.Fatal(err)
		}
		above := client.Dollars(25, 0)
		g := client.Guardrails{ApprovalMode: "auto_approve_under_threshold", Limits: client.GuardrailLimits{
			PerTransactionUSD: client.Dollars(100, 0), DailyUSD: client.Dollars(100000, 0), MonthlyUSD: client.Dollars(100000, 0),
			AskApprovalAboveUSD: &above}, ApprovedCategories: []string{}, BlockedCategories: []string{}}
		if _, err := owner.SetGuardrails(ctx, reg.BotID, g); err != nil {
			t.Fatal(err)
		}
		card := client.NewCard{CardName: "chaos", MissingDigits: "4242", ExpiryMonth: "12", ExpiryYear: "2030", RealProfileIndex: 1,
			Profiles: []client.NewPaymentProfile{{ProfileIndex: 1, AllowanceDuration: client.AllowanceMonth, AllowanceUSD: client.Dollars(100000, 0)}}}
		if _, err := owner.CreateCard(ctx, reg.BotID, card); err != nil {
			t.Fatal(err)
		}
		bots[i] = chaosBot{id: reg.BotID, key: reg.APIKey, owner: sess.Token}
	}
	return bots
}

// chaosWorker sends random operations until ctx ends; failures (the
// server is down, the database is away) are expected and not recorded.
func chaosWorker(ctx context.Context, seed int, base *atomic.Pointer[string], bots []chaosBot, got *answered) {
	rng := rand.New(rand.NewPCG(uint64(seed), 42))
	for n := 0; ctx.Err() == nil; n++ {
		b := bots[rng.IntN(len(bots))]
		url := *base.Load()
		bot, owner := client.New(url, b.key), client.NewOwner(url, b.owner)
		switch op := rng.IntN(10); {
		case op < 5:
			chaosCheckout(ctx, bot, owner, int64(100+rng.IntN(1900)), false, got)
		case op < 7:
			chaosCheckout(ctx, bot, owner, int64(3000+rng.IntN(3000)), rng.IntN(2) == 0, got)
		case op < 9:
			key := client.WithIdempotencyKey(fmt.Sprintf("fund-%d-%d", seed, n))
			if f, err := owner.Fund(ctx, b.id, 500, "", key); err == nil {
				got.funding(f.Transaction.ID)
			}
		default:
			bot.WalletCheck(ctx)
		}
	}
}

func chaosCheckout(ctx context.Context, bot *client.Client, owner *client.OwnerClient, cents int64, approve bool, got *answered) {
	res, err := bot.Checkout(ctx, client.CheckoutRequest{ProfileIndex: 1, MerchantName: "Chaos Mart", MerchantURL: "https://mart.example.com",
		ItemName: "thing", AmountCents: cents, Category: wire.Ptr("office")})
	if err != nil {
		return
	}
	got.purchase(res.ConfirmationID, res.Status)
	if res.Approved != nil && *res.Approved {
		return
	}
	decide := owner.DenyPurchase
	if approve {
		decide = owner.ApprovePurchase
	}
	if d, err := decide(ctx, res.ConfirmationID); err == nil {
		got.purchase(res.ConfirmationID, d.Status)
	}
}

// drainOutbox waits until every event is delivered or staged; rows the
// killed process had leased come back when their lease (20 s) runs out.
func drainOutbox(t *testing.T, st *store.Store) {
	deadline := time.Now().Add(60 * time.Second)
	for {
		left, err := storetest.OutboxOf(st).UndeliveredCount(context.Background())
		if err == nil && left == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d events neither delivered nor staged a minute after the run (%v)", left, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
