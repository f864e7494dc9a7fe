package notifications_test

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/bots"
	"github.com/botpay/botpay/internal/kernel"
	"github.com/botpay/botpay/internal/notifications"
	"github.com/botpay/botpay/internal/seal"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
)

var ctx = context.Background()

func newSealer(t testing.TB) *seal.Sealer {
	key := make([]byte, 32)
	rand.Read(key)
	s, err := seal.New(key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// world is a database with one owner, the sealer of its secrets, and bots.
type world struct {
	t      testing.TB
	st     *store.Store
	sealer *seal.Sealer
	owner  botpay.Owner
}

func newWorld(t testing.TB, st *store.Store) *world {
	w := &world{t: t, st: st, sealer: newSealer(t)}
	w.owner = botpay.Owner{ID: botpay.NewID("own_"), Email: botpay.NewID("o") + "@example.com", CreatedAt: st.Clock().Now()}
	if err := st.Kernel().InTx(ctx, func(tx *kernel.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO owners (id, email, password_hash, created_at) VALUES ($1, $2, 'hash', $3)`,
			w.owner.ID, w.owner.Email, kernel.MS(w.owner.CreatedAt))
		return err
	}); err != nil {
		t.Fatalf("create owner: %v", err)
	}
	return w
}

// bot registers a bot with callbackURL (webhook active), claims it — which
// writes its first event, wallet.activated — and returns its id and secret.
func (w *world) bot(callbackURL string) (id, secret string) {
	w.t.Helper()
	secret = botpay.NewSecret(botpay.WebhookSecretPrefix)
	token := botpay.NewClaimToken()
	b := botpay.Bot{ID: botpay.NewID("bot_"), Name: botpay.NewID("b"), OwnerEmail: "owner@example.com", BotType: botpay.DefaultBotType,
		WebhookStatus: botpay.WebhookActive, CallbackURL: callbackURL, CreatedAt: w.st.Clock().Now()}
	_, err := registry(w.st).RegisterBot(ctx, bots.NewBot{Bot: b, APIKeyHash: botpay.Digest(botpay.NewSecret(botpay.APIKeyPrefix)),
		ClaimTokenHash: botpay.Digest(token), WebhookSecretSealed: w.sealer.Seal([]byte(secret), []byte("webhook_secret:"+b.ID)),
		Limit: bots.Limit{Bucket: "register:test", Max: 0}})
	if err != nil {
		w.t.Fatalf("register: %v", err)
	}
	if _, err := registry(w.st).ClaimBot(ctx, w.owner.ID, botpay.Digest(token)); err != nil {
		w.t.Fatalf("claim: %v", err)
	}
	return b.ID, secret
}

// fund writes n wallet.funded events for bot.
func (w *world) fund(botID string, n int) {
	w.t.Helper()
	for range n {
		if _, err := storetest.Wallets(w.st).Fund(ctx, w.owner, botID, 1, ""); err != nil {
			w.t.Fatalf("fund: %v", err)
		}
	}
}

func (w *world) dispatcher(cfg notifications.Config) *notifications.Dispatcher {
	cfg.DB, cfg.Outbox, cfg.Sealer, cfg.AllowPrivate = w.st.Kernel(), w.st.Outbox(), w.sealer, true
	return notifications.New(cfg)
}

// health reads a bot's webhook status and fail count.
func (w *world) health(botID string) (string, int) {
	w.t.Helper()
	b, err := registry(w.st).Bot(ctx, botID)
	if err != nil {
		w.t.Fatal(err)
	}
	return b.WebhookStatus, b.WebhookFailCount
}

// waitDone waits (in real time) until the outbox has nothing left to do.
func (w *world) waitDone(st *store.Store, within time.Duration) {
	w.t.Helper()
	deadline := time.Now().Add(within)
	for {
		n, err := storetest.OutboxOf(st).UndeliveredCount(ctx)
		if err != nil {
			w.t.Fatal(err)
		}
		if n == 0 {
			return
		}
		if time.Now().After(deadline) {
			w.t.Fatalf("%d outbox rows still undelivered after %s", n, within)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func (w *world) staged(botID string) map[string]bool {
	w.t.Helper()
	msgsPage, err := w.messages().PendingMessages(ctx, botpay.Bot{ID: botID}, botpay.PageRequest{Limit: 1000})
	msgs := msgsPage.Items
	if err != nil {
		w.t.Fatal(err)
	}
	out := map[string]bool{}
	for _, m := range msgs {
		out[m.EventID] = true
	}
	return out
}

// receiver is a real local HTTP server that records deliveries and answers
// with its current behaviour.
type receiver struct {
	t        testing.TB
	srv      *httptest.Server
	mu       sync.Mutex
	secret   map[string]string // bot id → secret, to check signatures
	hits     map[string]int    // event id → requests received
	ok       map[string]int    // event id → 2xx answers given
	inFlight map[string]bool
	overlap  []string                                          // event ids received while a copy was in flight
	behave   func(w http.ResponseWriter, r *http.Request) bool // true: answered 2xx
}

func newReceiver(t testing.TB) *receiver {
	rc := &receiver{t: t, secret: map[string]string{}, hits: map[string]int{}, ok: map[string]int{}, inFlight: map[string]bool{}}
	rc.behave = func(w http.ResponseWriter, r *http.Request) bool { w.WriteHeader(http.StatusNoContent); return true }
	rc.srv = httptest.NewServer(http.HandlerFunc(rc.serve))
	t.Cleanup(rc.srv.Close)
	return rc
}

func (rc *receiver) url() string { return rc.srv.URL + "/hook" }

func (rc *receiver) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	id := r.Header.Get(notifications.HeaderDelivery)
	var p struct {
		Event     string          `json:"event"`
		Timestamp string          `json:"timestamp"`
		BotID     string          `json:"bot_id"`
		Data      json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(body, &p); err != nil {
		rc.t.Errorf("delivery body is not JSON: %s", body)
	}
	rc.mu.Lock()
	secret := rc.secret[p.BotID]
	rc.hits[id]++
	if rc.inFlight[id] {
		rc.overlap = append(rc.overlap, id)
	}
	rc.inFlight[id] = true
	behave := rc.behave
	rc.mu.Unlock()
	if secret != "" {
		if got, want := r.Header.Get(notifications.HeaderSignature), notifications.Signature([]byte(secret), body); got != want {
			rc.t.Errorf("signature %q, want %q", got, want)
		}
	}
	good := behave(w, r)
	rc.mu.Lock()
	delete(rc.inFlight, id)
	if good {
		rc.ok[id]++
	}
	rc.mu.Unlock()
}

func (rc *receiver) setBehaviour(f func(w http.ResponseWriter, r *http.Request) bool) {
	rc.mu.Lock()
	rc.behave = f
	rc.mu.Unlock()
}

func (rc *receiver) counts(id string) (hits, ok int) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return rc.hits[id], rc.ok[id]
}

// resetConnection answers by tearing the TCP connection down (RST).
func resetConnection(w http.ResponseWriter, r *http.Request) bool {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(err)
	}
	if tcp, ok := conn.(*net.TCPConn); ok {
		tcp.SetLinger(0)
	}
	conn.Close()
	return false
}

// registry registers and claims bots for the fixtures, as internal/bots
// does, with no registration limit.
func registry(st *store.Store) *bots.Service {
	return bots.New(bots.Deps{DB: st.Kernel(), Outbox: st.Outbox()})
}

// messages is the Service that hands the world's bots their messages.
func (w *world) messages() *notifications.Service {
	return notifications.NewService(notifications.Deps{DB: w.st.Kernel(), Sealer: w.sealer})
}

// pendingMessages reads a bot's pending messages as the bot does.
func pendingMessages(st *store.Store, botID string, page botpay.PageRequest) (botpay.Page[botpay.PendingMessage], error) {
	return notifications.NewService(notifications.Deps{DB: st.Kernel()}).PendingMessages(ctx, botpay.Bot{ID: botID}, page)
}
