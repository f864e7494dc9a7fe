package notifications_test

import (
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/notifications"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
)

// Two dispatchers, each with its own connection pool as two replicas would
// have, share one PostgreSQL database while events keep arriving: every event
// is delivered, none twice at the same time — and, with nobody crashing,
// none twice at all.
func TestTwoDispatchersShareOnePostgreSQLOutbox(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t, store.Postgres, nil)
	w := newWorld(t, db.Store)
	rc := newReceiver(t)
	rc.setBehaviour(func(wr http.ResponseWriter, r *http.Request) bool {
		time.Sleep(time.Millisecond) // long enough for claims to interleave
		wr.WriteHeader(http.StatusOK)
		return true
	})
	const bots, perBot = 10, 100
	ids := make([]string, bots)
	for i := range ids {
		var secret string
		ids[i], secret = w.bot(rc.url())
		rc.secret[ids[i]] = secret
	}
	var sentA, sentB atomic.Int64
	cfg := notifications.Config{Poll: 5 * time.Millisecond, Workers: 16, HTTP: countingClient(&sentA)}
	a := w.dispatcher(cfg)
	other := db.OpenAnother(t)
	cfgB := cfg
	cfgB.DB, cfgB.Outbox, cfgB.Sealer, cfgB.HTTP = other.Kernel(), other.Outbox(), w.sealer, countingClient(&sentB)
	b := notifications.New(cfgB)
	stopA, stopB := a.Start(t.Context()), b.Start(t.Context())
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Add(1)
		go func() { defer wg.Done(); w.fund(id, perBot) }()
	}
	wg.Wait()
	w.waitDone(db.Store, 60*time.Second)
	stopA()
	stopB()

	total := 0
	for _, id := range ids {
		states, err := storetest.OutboxOf(db.Store).OutboxStates(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range states {
			total++
			hits, ok := rc.counts(s.EventID)
			if ok != 1 || hits != 1 || s.Outcome != notifications.OutcomeDelivered {
				t.Errorf("event %s: received %d times (%d answered 2xx), outcome %s; want exactly once", s.EventID, hits, ok, s.Outcome)
			}
		}
	}
	if total != bots*(perBot+1) {
		t.Errorf("%d events in the outbox, want %d", total, bots*(perBot+1))
	}
	if sentA.Load() == 0 || sentB.Load() == 0 {
		t.Errorf("dispatcher A sent %d, B sent %d; both should share the work", sentA.Load(), sentB.Load())
	}
	if len(rc.overlap) > 0 {
		t.Errorf("%d events were delivered twice at the same time: %v", len(rc.overlap), rc.overlap)
	}
}

// countingClient counts the requests it sends.
func countingClient(n *atomic.Int64) *http.Client {
	return &http.Client{Transport: roundTripper(func(r *http.Request) (*http.Response, error) {
		n.Add(1)
		return http.DefaultTransport.RoundTrip(r)
	})}
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
