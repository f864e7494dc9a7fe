package notifications_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/notifications"
	"github.com/botpay/botpay/internal/store/storetest"
)

// fastRetries keeps the real-time fault matrix short: 10 ms base backoff
// (10..465 ms over five retries) and a 300 ms attempt time-out.
var fastRetries = notifications.Config{RetryBase: 10 * time.Millisecond, Timeout: 300 * time.Millisecond, Poll: 5 * time.Millisecond, Lease: 5 * time.Second}

func answer(status int) func(w http.ResponseWriter, r *http.Request) bool {
	return func(w http.ResponseWriter, r *http.Request) bool {
		w.WriteHeader(status)
		return status >= 200 && status < 300
	}
}

// receiverFault is one way a webhook receiver can behave; ok says whether
// deliveries to it succeed.
type receiverFault struct {
	name   string
	behave func(w http.ResponseWriter, r *http.Request) bool
	ok     bool
}

func receiverFaults(t *testing.T) []receiverFault {
	return []receiverFault{
		{"500", answer(http.StatusInternalServerError), false},
		{"404", answer(http.StatusNotFound), false},
		{"410", answer(http.StatusGone), false},
		{"hang past the time-out", func(w http.ResponseWriter, r *http.Request) bool {
			select {
			case <-r.Context().Done():
			case <-time.After(5 * time.Second):
			}
			return false
		}, false},
		{"reset connection", resetConnection, false},
		{"302 redirect", func(w http.ResponseWriter, r *http.Request) bool {
			if r.URL.Path == "/elsewhere" {
				t.Errorf("the redirect was followed")
				w.WriteHeader(http.StatusOK)
				return true
			}
			http.Redirect(w, r, "/elsewhere", http.StatusFound)
			return false
		}, false},
		{"slow success", func(w http.ResponseWriter, r *http.Request) bool {
			time.Sleep(150 * time.Millisecond)
			w.WriteHeader(http.StatusOK)
			return true
		}, true},
		{"202 accepted", answer(http.StatusAccepted), true},
	}
}

func TestReceiverFaultMatrix(t *testing.T) {
	for _, f := range receiverFaults(t) {
		t.Run(f.name, func(t *testing.T) {
			t.Parallel()
			storetest.ForEach(t, func(t *testing.T, db *storetest.DB) { deliverThreeEvents(t, db, f) })
		})
	}
}

// faultOutcome is what three events to one receiver left behind.
type faultOutcome struct {
	afterTwo string // webhook health after the second event
	status   string // webhook health at the end
	fails    int
	states   []notifications.OutboxState
	staged   map[string]bool
}

// deliverThreeEvents sends three events to a receiver that behaves as f
// and checks health, attempts and that no event is lost.
func deliverThreeEvents(t *testing.T, db *storetest.DB, f receiverFault) {
	w := newWorld(t, db.Store)
	rc := newReceiver(t)
	rc.setBehaviour(f.behave)
	botID, secret := w.bot(rc.url()) // event 1: wallet.activated
	rc.secret[botID] = secret
	cfg := fastRetries
	if f.ok {
		// A receiver that answers in time must never be timed out by a
		// loaded machine: the failure cases keep the short time-out,
		// the successes get a long one (the slow one answers in 150 ms).
		cfg.Timeout = 5 * time.Second
	}
	stop := w.dispatcher(cfg).Start(t.Context())
	defer stop()

	// Event 1 reaches an active webhook.
	w.waitDone(db.Store, 10*time.Second)
	afterOne, failsOne := w.health(botID)
	if want := map[bool]string{true: botpay.WebhookActive, false: botpay.WebhookDegraded}[f.ok]; afterOne != want || failsOne != map[bool]int{true: 0, false: 1}[f.ok] {
		t.Errorf("health after event 1: %s/%d, want %s", afterOne, failsOne, want)
	}
	var out faultOutcome
	w.fund(botID, 1) // event 2
	w.waitDone(db.Store, 10*time.Second)
	out.afterTwo, _ = w.health(botID)
	w.fund(botID, 1) // event 3
	w.waitDone(db.Store, 10*time.Second)

	out.status, out.fails = w.health(botID)
	states, err := storetest.OutboxOf(db.Store).OutboxStates(ctx, botID)
	if err != nil || len(states) != 3 {
		t.Fatalf("outbox states %v, %v", states, err)
	}
	out.states, out.staged = states, w.staged(botID)
	for i, s := range states {
		hits, ok := rc.counts(s.EventID)
		if s.Attempts > 1+5 || hits > 1+5 {
			t.Errorf("event %d: %d attempts recorded, %d received; at most 6", i+1, s.Attempts, hits)
		}
		if ok == 0 && !out.staged[s.EventID] {
			t.Errorf("event %d (%s) neither delivered nor staged: lost", i+1, s.Outcome)
		}
	}
	if f.ok {
		checkHealthyReceiver(t, out)
		return
	}
	checkFailingReceiver(t, out, rc)
}

func checkHealthyReceiver(t *testing.T, out faultOutcome) {
	if out.status != botpay.WebhookActive || out.fails != 0 || len(out.staged) != 0 {
		t.Errorf("health %s/%d, %d staged; want active/0 and nothing staged", out.status, out.fails, len(out.staged))
	}
	for i, s := range out.states {
		if s.Attempts != 1 || s.Outcome != notifications.OutcomeDelivered {
			t.Errorf("event %d: %d attempts, %s; want 1, delivered", i+1, s.Attempts, s.Outcome)
		}
	}
}

// checkFailingReceiver: webhook health (docs/api.md): active → degraded/1 at the first failure
// (event 1 retried five times without changing health) → unreachable/2 at
// the next first attempt (event 2); then nothing is attempted (event 3)
// and events only go to pending messages.
func checkFailingReceiver(t *testing.T, out faultOutcome, rc *receiver) {
	want := []struct {
		attempts int
		outcome  string
	}{{6, notifications.OutcomeFailed}, {1, notifications.OutcomeStaged}, {0, notifications.OutcomeStaged}}
	for i, s := range out.states {
		if s.Attempts != want[i].attempts || s.Outcome != want[i].outcome || !out.staged[s.EventID] {
			t.Errorf("event %d: %d attempts, %s, staged %v; want %d, %s, staged", i+1, s.Attempts, s.Outcome,
				out.staged[s.EventID], want[i].attempts, want[i].outcome)
		}
	}
	if out.afterTwo != botpay.WebhookUnreachable || out.status != botpay.WebhookUnreachable || out.fails != 2 {
		t.Errorf("health after event 2: %s; at the end %s/%d; want unreachable, unreachable/2", out.afterTwo, out.status, out.fails)
	}
	if hits, _ := rc.counts(out.states[2].EventID); hits != 0 {
		t.Errorf("event 3 was attempted %d times while unreachable", hits)
	}
}
