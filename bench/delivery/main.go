// Command delivery measures botpay's event delivery on one machine: how many
// webhook deliveries per second the dispatcher makes to a local receiver, and
// the lag from an event's commit to its arrival at the receiver (p50/p99) at
// a steady event rate. It runs the real store (SQLite in a temporary folder,
// or PostgreSQL with -database-url), the real dispatcher and a real HTTP
// receiver on loopback; events are written by the real owner-funding use
// case, one transaction each, exactly as in production.
//
//	go run ./bench/delivery                        # SQLite
//	go run ./bench/delivery -database-url postgres://postgres@127.0.0.1:5432/test?sslmode=disable
//
// Flags: -n events for the throughput run (written first, then drained);
// -rate and -d for the lag run; -bots spreads events over that many bots.
// The PostgreSQL run uses a fresh schema and drops it afterwards; -in-place
// runs on an existing database instead (e.g. one filled by bench/seed).
package main

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/bots"
	"github.com/botpay/botpay/internal/kernel"
	"github.com/botpay/botpay/internal/notifications"
	"github.com/botpay/botpay/internal/seal"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/wallets"
	_ "github.com/jackc/pgx/v5/stdlib"
)

func main() {
	dbURL := flag.String("database-url", "", "PostgreSQL URL (a fresh schema is used); empty: SQLite in a temporary folder")
	n := flag.Int("n", 10000, "events for the throughput run")
	rate := flag.Int("rate", 500, "events per second for the lag run")
	dur := flag.Duration("d", 10*time.Second, "length of the lag run")
	bots := flag.Int("bots", 20, "bots the events are spread over")
	inPlace := flag.String("in-place", "", "use this existing database as it is (a PostgreSQL URL, or a SQLite data folder), e.g. one filled by bench/seed")
	flag.Parse()
	if err := run(*dbURL, *inPlace, *n, *rate, *dur, *bots); err != nil {
		fmt.Fprintln(os.Stderr, "delivery:", err)
		os.Exit(1)
	}
}

// receiver counts deliveries and records each one's lag from the event's
// timestamp (stamped in the transaction that wrote it).
type receiver struct {
	count atomic.Int64
	mu    sync.Mutex
	lags  []time.Duration
	track atomic.Bool
}

func (rc *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	now := time.Now()
	rc.count.Add(1)
	if rc.track.Load() {
		var p struct {
			Timestamp time.Time `json:"timestamp"`
		}
		if json.Unmarshal(body, &p) == nil {
			rc.mu.Lock()
			rc.lags = append(rc.lags, now.Sub(p.Timestamp))
			rc.mu.Unlock()
		}
	}
	w.WriteHeader(http.StatusNoContent)
}

func run(dbURL, inPlace string, n, rate int, dur time.Duration, nBots int) error {
	ctx := context.Background()
	opts, cleanup, engine, err := database(dbURL)
	if inPlace != "" {
		opts, cleanup, engine, err = existingDatabase(inPlace)
	}
	if err != nil {
		return err
	}
	defer cleanup()
	st, err := store.Open(ctx, opts)
	if err != nil {
		return err
	}
	defer st.Close()
	if _, err := st.Kernel().Migrate(ctx); err != nil {
		return err
	}
	key := make([]byte, 32)
	rand.Read(key)
	sealer, _ := seal.New(key)
	rc := &receiver{}
	srv := httptest.NewServer(rc)
	defer srv.Close()
	owner, bots, err := setup(ctx, st, sealer, srv.URL+"/hook", nBots)
	if err != nil {
		return err
	}
	fund := funder(ctx, st, owner, bots)

	// Throughput: n events waiting, then drained by a fresh dispatcher.
	fmt.Printf("engine %s: writing %d events for %d bots…\n", engine, n, nBots)
	if err := parallel(n, 8, fund); err != nil {
		return err
	}
	base := rc.count.Load()
	d := notifications.New(notifications.Config{DB: st.Kernel(), Outbox: st.Outbox(), Sealer: sealer, AllowPrivate: true})
	start := time.Now()
	stop := d.Start(ctx)
	drained := int64(n + nBots) // and each bot's wallet.activated
	for rc.count.Load()-base < drained {
		time.Sleep(time.Millisecond)
	}
	elapsed := time.Since(start)
	fmt.Printf("throughput: %d deliveries in %s = %.0f deliveries/s\n", drained, elapsed.Round(time.Millisecond), float64(drained)/elapsed.Seconds())

	// Lag: a steady rate of events, each its own committed transaction.
	rc.track.Store(true)
	total := int(float64(rate) * dur.Seconds())
	tick := time.NewTicker(time.Second / time.Duration(rate))
	var wg sync.WaitGroup
	for i := 0; i < total; i++ {
		<-tick.C
		wg.Add(1)
		go func() { defer wg.Done(); fund(i) }()
	}
	tick.Stop()
	wg.Wait()
	want := drained + int64(total)
	for deadline := time.Now().Add(30 * time.Second); rc.count.Load()-base < want && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
	stop()
	rc.mu.Lock()
	lags := slices.Clone(rc.lags)
	rc.mu.Unlock()
	slices.Sort(lags)
	pct := func(p float64) time.Duration {
		if len(lags) == 0 {
			return 0
		}
		return lags[min(len(lags)-1, int(p*float64(len(lags))))]
	}
	fmt.Printf("lag at %d events/s for %s (%d events): p50 %s, p99 %s, max %s\n", rate, dur, len(lags),
		pct(0.50).Round(100*time.Microsecond), pct(0.99).Round(100*time.Microsecond), pct(1).Round(100*time.Microsecond))
	return nil
}

// funder funds the i-th funding's bot by one cent, through the card
// wallet's use case as the owner API does: one ledger row and one event.
func funder(ctx context.Context, st *store.Store, owner string, bots []string) func(i int) error {
	w := wallets.New(wallets.Deps{DB: st.Kernel(), Outbox: st.Outbox()})
	return func(i int) error {
		_, err := w.Fund(ctx, botpay.Owner{ID: owner}, bots[i%len(bots)], 1, "")
		return err
	}
}

// setup creates an owner and nBots claimed bots delivering to hook.
func setup(ctx context.Context, st *store.Store, sealer *seal.Sealer, hook string, nBots int) (string, []string, error) {
	now := time.Now()
	o := botpay.Owner{ID: botpay.NewID("own_"), Email: botpay.NewID("o") + "@example.com", CreatedAt: now}
	if err := st.Kernel().InTx(ctx, func(tx *kernel.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO owners (id, email, password_hash, created_at) VALUES ($1, $2, 'x', $3)`, o.ID, o.Email, kernel.MS(now))
		return err
	}); err != nil {
		return "", nil, err
	}
	registry := bots.New(bots.Deps{DB: st.Kernel(), Outbox: st.Outbox()})
	var ids []string
	for range nBots {
		token := botpay.NewClaimToken()
		b := botpay.Bot{ID: botpay.NewID("bot_"), Name: botpay.NewID("b"), OwnerEmail: "bench@example.com", BotType: botpay.DefaultBotType,
			WebhookStatus: botpay.WebhookActive, CallbackURL: hook, CreatedAt: now}
		secret := botpay.NewSecret(botpay.WebhookSecretPrefix)
		_, err := registry.RegisterBot(ctx, bots.NewBot{Bot: b, APIKeyHash: botpay.Digest(botpay.NewSecret(botpay.APIKeyPrefix)),
			ClaimTokenHash: botpay.Digest(token), WebhookSecretSealed: sealer.Seal([]byte(secret), []byte("webhook_secret:"+b.ID)),
			Limit: bots.Limit{Bucket: "bench", Max: 0}})
		if err != nil {
			return "", nil, err
		}
		if _, err := registry.ClaimBot(ctx, o.ID, botpay.Digest(token)); err != nil {
			return "", nil, err
		}
		ids = append(ids, b.ID)
	}
	return o.ID, ids, nil
}

// parallel runs f(0..n-1) on workers goroutines.
func parallel(n, workers int, f func(int) error) error {
	var next atomic.Int64
	var first error
	var once sync.Once
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1)) - 1; i < n; i = int(next.Add(1)) - 1 {
				if err := f(i); err != nil {
					once.Do(func() { first = err })
					return
				}
			}
		}()
	}
	wg.Wait()
	return first
}

// existingDatabase uses a database as it is (a seeded one, to measure
// delivery beside a million finished outbox rows); nothing is dropped after.
func existingDatabase(target string) (store.Options, func(), string, error) {
	if strings.HasPrefix(target, "postgres://") || strings.HasPrefix(target, "postgresql://") {
		return store.Options{DatabaseURL: target}, func() {}, "postgres", nil
	}
	return store.Options{DataDir: target}, func() {}, "sqlite", nil
}

// database prepares an empty database: a temporary SQLite folder, or a
// fresh schema on the PostgreSQL server at dbURL.
func database(dbURL string) (store.Options, func(), string, error) {
	if dbURL == "" {
		dir, err := os.MkdirTemp("", "botpay-bench")
		if err != nil {
			return store.Options{}, nil, "", err
		}
		return store.Options{DataDir: dir}, func() { os.RemoveAll(dir) }, "sqlite", nil
	}
	admin, err := sql.Open("pgx", dbURL)
	if err != nil {
		return store.Options{}, nil, "", err
	}
	b := make([]byte, 6)
	rand.Read(b)
	schema := "bench_" + hex.EncodeToString(b)
	if _, err := admin.Exec(`CREATE SCHEMA ` + schema); err != nil {
		return store.Options{}, nil, "", err
	}
	u, err := url.Parse(dbURL)
	if err != nil {
		return store.Options{}, nil, "", err
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	cleanup := func() { admin.Exec(`DROP SCHEMA ` + schema + ` CASCADE`); admin.Close() }
	return store.Options{DatabaseURL: u.String()}, cleanup, "postgres", nil
}
