package notifications_test

import (
	"net/http"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/notifications"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
)

// failingReceiver answers every delivery 503 and notes when it came, in the
// bubble's fake time.
type failingReceiver struct {
	mu    sync.Mutex
	times map[string][]time.Time // event id → attempt times
}

func (f *failingReceiver) client() *http.Client {
	return &http.Client{Transport: roundTripper(func(r *http.Request) (*http.Response, error) {
		f.mu.Lock()
		f.times[r.Header.Get(notifications.HeaderDelivery)] = append(f.times[r.Header.Get(notifications.HeaderDelivery)], time.Now())
		f.mu.Unlock()
		return &http.Response{StatusCode: http.StatusServiceUnavailable, Body: http.NoBody, Request: r}, nil
	})}
}

func (f *failingReceiver) attempts(id string) []time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]time.Time(nil), f.times[id]...)
}

// inBubble runs test in a synctest bubble with a dispatcher over a fresh
// SQLite database and the default (production) timings: 30 s base backoff.
func inBubble(t *testing.T, test func(t *testing.T, w *world, rc *failingReceiver)) {
	synctest.Test(t, func(t *testing.T) {
		db := storetest.Open(t, store.SQLite, nil)
		w := newWorld(t, db.Store)
		rc := &failingReceiver{times: map[string][]time.Time{}}
		// Long idle polls keep a simulated week cheap; due retries still
		// wake the dispatcher on time.
		stop := w.dispatcher(notifications.Config{HTTP: rc.client(), Poll: time.Hour, PurgeEvery: time.Hour}).Start(t.Context())
		defer stop()
		test(t, w, rc)
	})
}

func eventIDs(t *testing.T, st *store.Store, botID string) []string {
	t.Helper()
	states, err := storetest.OutboxOf(st).OutboxStates(ctx, botID)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, s := range states {
		ids = append(ids, s.EventID)
	}
	return ids
}

// A failing webhook gets the first attempt and exactly five retries, each
// after base·2^(n-1) plus up to half that again of jitter; retries leave
// health at degraded/1, and the event is staged from the first failure on.
func TestRetriesBackOffExponentiallyFiveTimes(t *testing.T) {
	inBubble(t, func(t *testing.T, w *world, rc *failingReceiver) {
		botID, _ := w.bot("https://bot.example.com/hook") // wallet.activated
		time.Sleep(time.Second)
		id := eventIDs(t, w.st, botID)[0]
		if got := len(rc.attempts(id)); got != 1 {
			t.Fatalf("%d attempts after 1 s, want 1", got)
		}
		if !w.staged(botID)[id] {
			t.Fatal("not staged at the first failure")
		}
		time.Sleep(2 * time.Hour)
		at := rc.attempts(id)
		if len(at) != 6 {
			t.Fatalf("%d attempts in two hours, want 1 + 5", len(at))
		}
		for n := 1; n <= 5; n++ {
			gap := at[n].Sub(at[n-1])
			nominal := notifications.DefaultRetryBase << (n - 1)
			if gap < nominal || gap > nominal+nominal/2+10*time.Millisecond {
				t.Errorf("retry %d came %s after the previous attempt, want %s to %s", n, gap, nominal, nominal+nominal/2)
			}
		}
		if status, fails := w.health(botID); status != botpay.WebhookDegraded || fails != 1 {
			t.Errorf("health %s/%d after retries, want degraded/1 (retries do not change health)", status, fails)
		}
		states, _ := storetest.OutboxOf(w.st).OutboxStates(ctx, botID)
		if s := states[0]; s.Attempts != 6 || s.Outcome != notifications.OutcomeFailed {
			t.Errorf("outbox row %+v, want 6 attempts, failed", s)
		}
	})
}

// Retries run only while health allows: once another event's first attempt
// makes the webhook unreachable, the pending retries stop; and nothing is
// attempted while unreachable.
func TestRetriesStopWhenTheWebhookBecomesUnreachable(t *testing.T) {
	inBubble(t, func(t *testing.T, w *world, rc *failingReceiver) {
		botID, _ := w.bot("https://bot.example.com/hook") // event 1 fails: degraded
		time.Sleep(5 * time.Second)
		w.fund(botID, 1) // event 2 fails: unreachable
		time.Sleep(5 * time.Second)
		if status, fails := w.health(botID); status != botpay.WebhookUnreachable || fails != 2 {
			t.Fatalf("health %s/%d, want unreachable/2", status, fails)
		}
		w.fund(botID, 1) // event 3: not attempted
		time.Sleep(2 * time.Hour)
		ids := eventIDs(t, w.st, botID)
		for i, want := range []int{1, 1, 0} {
			if got := len(rc.attempts(ids[i])); got != want {
				t.Errorf("event %d: %d attempts, want %d", i+1, got, want)
			}
			if !w.staged(botID)[ids[i]] {
				t.Errorf("event %d not staged", i+1)
			}
		}
	})
}

// Staged messages expire 7 days after staging (24 h for purchase.* and
// rail5.card.delivered): hidden at once on read, deleted by the purge worker
// within its interval.
func TestPendingMessagesExpireAndArePurged(t *testing.T) {
	inBubble(t, func(t *testing.T, w *world, rc *failingReceiver) {
		botID, _ := w.bot("https://bot.example.com/hook")
		time.Sleep(time.Second)
		msgsPage, err := w.messages().PendingMessages(ctx, botpay.Bot{ID: botID}, botpay.PageRequest{Limit: 10})
		msgs := msgsPage.Items
		if err != nil || len(msgs) != 1 {
			t.Fatalf("messages %v, %v; want one", msgs, err)
		}
		time.Sleep(time.Until(msgs[0].ExpiresAt) - time.Millisecond)
		if n, _ := w.messages().PendingMessageCount(ctx, botID); n != 1 {
			t.Fatalf("%d pending just before expiry, want 1", n)
		}
		time.Sleep(time.Millisecond)
		if left, _ := w.messages().PendingMessages(ctx, botpay.Bot{ID: botID}, botpay.PageRequest{Limit: 10}); len(left.Items) != 0 {
			t.Errorf("an expired message was handed out: %+v", left)
		}
		if n, _ := w.messages().PendingMessageCount(ctx, botID); n != 0 {
			t.Errorf("status would count %d expired messages", n)
		}
		time.Sleep(time.Hour + time.Second)
		if n, _ := notifications.StoredMessageCount(w.st.Kernel(), botID); n != 0 {
			t.Errorf("%d expired rows left after a purge interval", n)
		}
	})
}

func TestMessageLifeDependsOnEventType(t *testing.T) {
	for typ, want := range map[string]time.Duration{
		"rail5.card.delivered": 24 * time.Hour, "purchase.approved": 24 * time.Hour, "purchase.expired": 24 * time.Hour,
		"wallet.funded": 7 * 24 * time.Hour, "rails.updated": 7 * 24 * time.Hour, "rail5.checkout.failed": 7 * 24 * time.Hour,
	} {
		if got := botpay.MessageLife(typ); got != want {
			t.Errorf("MessageLife(%s) = %s, want %s", typ, got, want)
		}
	}
}

func TestBackoffStaysWithinItsJitterBand(t *testing.T) {
	for n := 1; n <= 5; n++ {
		nominal := 30 * time.Second << (n - 1)
		for range 200 {
			if d := notifications.Backoff(30*time.Second, n); d < nominal || d > nominal+nominal/2 {
				t.Fatalf("Backoff(30s, %d) = %s, want %s..%s", n, d, nominal, nominal+nominal/2)
			}
		}
	}
}

// A receiver that never answers costs one attempt of exactly the 10 s
// time-out, then counts as a failure.
func TestAnAttemptTimesOutAfterTenSeconds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		db := storetest.Open(t, store.SQLite, nil)
		w := newWorld(t, db.Store)
		var mu sync.Mutex
		var waited []time.Duration
		hang := &http.Client{Transport: roundTripper(func(r *http.Request) (*http.Response, error) {
			start := time.Now()
			<-r.Context().Done()
			mu.Lock()
			waited = append(waited, time.Since(start))
			mu.Unlock()
			return nil, r.Context().Err()
		})}
		stop := w.dispatcher(notifications.Config{HTTP: hang, Poll: time.Hour, PurgeEvery: time.Hour}).Start(t.Context())
		defer stop()
		botID, _ := w.bot("https://bot.example.com/hook")
		time.Sleep(11 * time.Second)
		mu.Lock()
		got := append([]time.Duration(nil), waited...)
		mu.Unlock()
		if len(got) != 1 || got[0] != notifications.DefaultTimeout {
			t.Fatalf("attempts waited %v, want one of %s", got, notifications.DefaultTimeout)
		}
		if status, fails := w.health(botID); status != botpay.WebhookDegraded || fails != 1 {
			t.Errorf("health %s/%d, want degraded/1", status, fails)
		}
	})
}
