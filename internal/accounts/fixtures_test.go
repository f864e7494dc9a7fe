package accounts

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
	"github.com/botpay/botpay/internal/mail"
	"github.com/botpay/botpay/internal/ratelimit"
	"github.com/botpay/botpay/internal/store"
)

var ctx = context.Background()

// storeRates counts the limits in the store's windows, as the service's
// wiring does.
type storeRates struct{ st *store.Store }

func (r storeRates) Take(ctx context.Context, l Limit) error {
	return ratelimit.New(r.st.Kernel()).Take(ctx, r.limit(l))
}

func (r storeRates) TakeIn(ctx context.Context, tx *kernel.Tx, l Limit, now time.Time) error {
	return ratelimit.New(r.st.Kernel()).TakeIn(ctx, tx, r.limit(l), now)
}

func (storeRates) limit(l Limit) ratelimit.Limit {
	return ratelimit.Limit{Bucket: l.Bucket, Max: l.Max, Window: l.Window, Unannounced: l.Unannounced}
}

// sentMail keeps the owner mails of a test.
type sentMail struct {
	mu   sync.Mutex
	sent []mail.Message
}

func (m *sentMail) NotifyOwner(_ context.Context, msg mail.Message) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sent = append(m.sent, msg)
}

// newService builds the account use cases over st with the default limits.
func newService(st *store.Store) *Service {
	return New(Deps{DB: st.Kernel(), Clock: st.Clock(), Mail: &sentMail{}, Rates: storeRates{st},
		Limits: Limits{SignupPerHour: 10, LoginPerHour: 20, ResetPerHour: 10, PairingPerHour: 5}, BaseURL: "https://botpay.test"})
}

// newOwner creates an owner with a random e-mail.
func newOwner(t testing.TB, s *Service) botpay.Owner {
	t.Helper()
	o := botpay.Owner{ID: botpay.NewID("own_"), Email: botpay.NewID("o") + "@example.com", CreatedAt: s.clock.Now()}
	if err := s.createOwner(ctx, o, "hash", botpay.Digest(botpay.NewSecret(botpay.OwnerTokenPrefix)), time.Time{}); err != nil {
		t.Fatalf("create owner: %v", err)
	}
	return o
}

func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	e := botpay.AsError(err)
	if e == nil || e.Code != code {
		t.Fatalf("error = %v, want code %q", err, code)
	}
}
