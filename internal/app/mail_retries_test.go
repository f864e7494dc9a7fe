package app

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/bots"
	"github.com/botpay/botpay/internal/jobs"
	"github.com/botpay/botpay/internal/mail"
	"github.com/botpay/botpay/internal/notifications"
	"github.com/botpay/botpay/internal/seal"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
)

// flakySender fails its first failures sends, then delivers.
type flakySender struct {
	mu        sync.Mutex
	failures  int
	attempts  int
	delivered []mail.Message
}

func (f *flakySender) Send(_ context.Context, m mail.Message) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.attempts++
	if f.attempts <= f.failures {
		return errors.New("421 service not available")
	}
	f.delivered = append(f.delivered, m)
	return nil
}

func (f *flakySender) counts() (attempts, delivered int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.attempts, len(f.delivered)
}

func retryService(t *testing.T, d store.Dialect, sender mail.Sender) (*Service, *botpay.ManualClock) {
	t.Helper()
	clock := botpay.NewManualClock(time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC))
	sealer, err := seal.New(make([]byte, 32))
	if err != nil {
		t.Fatal(err)
	}
	return New(Config{Store: storetest.Open(t, d, clock).Store, Sealer: sealer, Mail: sender}), clock
}

// An owner notification whose attempt fails is tried again with backoff
// (30 s, then 60 s plus up to half again of jitter, ...) until it goes,
// exactly once, as it was written.
func TestOwnerNotificationIsRetriedUntilItIsSent(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		sender := &flakySender{failures: 2}
		s, clock := retryService(t, d, sender)
		ctx := context.Background()
		m := mail.Message{To: "owner@example.com", Subject: "Approval needed: $5.00", Text: "Approve: https://x/approve?t=secret",
			HTML: "<p>Approve</p>", Attachments: []mail.Attachment{{Name: "a.txt", ContentType: "text/plain", Data: []byte("hi")}}}
		s.notifyOwner(ctx, m)
		steps := []struct {
			advance             time.Duration
			attempts, delivered int
		}{
			{0, 1, 0}, // the first attempt failed; nothing is due yet
			{notifications.MailRetryFirst - time.Second, 1, 0},
			{time.Second, 2, 0}, // second attempt at 30 s fails
			{2*notifications.MailRetryFirst - time.Second, 2, 0},
			{notifications.MailRetryFirst + time.Second, 3, 1}, // third, 60 to 90 s later, goes
			{time.Hour, 3, 1}, // and is forgotten
		}
		for i, st := range steps {
			clock.Advance(st.advance)
			s.retryMailPass(ctx)
			if a, n := sender.counts(); a != st.attempts || n != st.delivered {
				t.Fatalf("step %d: %d attempts, %d delivered; want %d and %d", i, a, n, st.attempts, st.delivered)
			}
		}
		if !reflect.DeepEqual(sender.delivered[0], m) {
			t.Errorf("delivered %+v, want the message as written %+v", sender.delivered[0], m)
		}
	})
}

// A message that never goes is attempted notifications.MailRetryTries times in all, then
// dropped.
func TestOwnerNotificationIsDroppedAfterEveryAttempt(t *testing.T) {
	t.Parallel()
	sender := &flakySender{failures: 1 << 30}
	s, clock := retryService(t, store.SQLite, sender)
	ctx := context.Background()
	s.notifyOwner(ctx, mail.Message{To: "owner@example.com", Subject: "Low balance", Text: "fund me"})
	for range 2 * notifications.MailRetryTries {
		clock.Advance(notifications.MailRetryMax)
		s.retryMailPass(ctx)
	}
	if a, _ := sender.counts(); a != notifications.MailRetryTries {
		t.Errorf("%d attempts, want %d", a, notifications.MailRetryTries)
	}
}

// A message claimed by one replica is not attempted by another until the
// claim's lease has passed.
func TestMailRetryIsAttemptedByOneReplicaAtATime(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		clock := botpay.NewManualClock(time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC))
		db := storetest.Open(t, d, clock)
		ctx := context.Background()
		for range 5 {
			if err := jobs.NewQueue(db.Store.Kernel()).Enqueue(ctx, jobs.NewJob{Kind: notifications.MailRetryKind, Payload: []byte("sealed"), Attempts: 1,
				RunAt: clock.Now(), LastError: "421"}); err != nil {
				t.Fatal(err)
			}
		}
		other := db.OpenAnother(t)
		claim := func(st *store.Store, limit int) []jobs.Job {
			due, err := jobs.NewQueue(st.Kernel()).Claim(ctx, []string{notifications.MailRetryKind}, limit, notifications.MailRetryLease)
			if err != nil {
				t.Fatal(err)
			}
			return due
		}
		first := claim(db.Store, 3)
		if len(first) != 3 {
			t.Fatalf("first claim: %d; want 3", len(first))
		}
		second := claim(other, 10)
		if len(second) != 2 {
			t.Fatalf("the other replica's claim: %d; want the 2 unclaimed", len(second))
		}
		seen := map[int64]bool{}
		for _, r := range append(first, second...) {
			if seen[r.ID] || r.Attempts != 1 {
				t.Fatalf("claimed %+v twice or with the wrong count", r)
			}
			seen[r.ID] = true
		}
		clock.Advance(notifications.MailRetryLease - time.Millisecond)
		if again := claim(other, 10); len(again) != 0 {
			t.Fatalf("claimed %d again inside the lease", len(again))
		}
		clock.Advance(time.Millisecond)
		if again := claim(other, 10); len(again) != 5 {
			t.Fatalf("after the lease: %d claimable, want 5", len(again))
		}
	})
}

// The claim e-mail of a registration is an owner notification: when the
// mail server refuses it, it is kept and goes on the next attempt, with
// the claim token it was written with.
func TestClaimMailOfARegistrationIsRetried(t *testing.T) {
	t.Parallel()
	sender := &flakySender{failures: 1}
	s, clock := retryService(t, store.SQLite, sender)
	ctx := context.Background()
	reg, err := s.Bots().Register(ctx, bots.RegisterInput{BotName: "retry-bot", OwnerEmail: "owner@example.com", ClientIP: "192.0.2.1"})
	if err != nil {
		t.Fatal(err)
	}
	clock.Advance(notifications.MailRetryFirst)
	s.retryMailPass(ctx)
	if a, n := sender.counts(); a != 2 || n != 1 {
		t.Fatalf("%d attempts, %d delivered; want the refused claim e-mail sent on the retry", a, n)
	}
	if m := sender.delivered[0]; m.To != "owner@example.com" || !strings.Contains(m.Text, reg.ClaimToken) {
		t.Errorf("delivered %+v, want the claim e-mail with token %s", m, reg.ClaimToken)
	}
}

// retryMailPass runs what the job runner would run of owner mail when the
// clock has moved on: due digests, then every due retry.
func (s *Service) retryMailPass(ctx context.Context) {
	s.sendDueDigests(ctx)
	r := jobs.New(jobs.Config{Queue: s.jobs, Logger: s.log})
	r.Register(s.mailRetryJob())
	r.RunDue(ctx)
}
