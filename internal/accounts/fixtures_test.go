package accounts

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/mail"
	"github.com/botpay/botpay/internal/ratelimit"
	"github.com/botpay/botpay/internal/store"
)

var ctx = context.Background()

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
	return New(Deps{DB: st.Kernel(), Clock: st.Clock(), Mail: &sentMail{}, Rates: ratelimit.New(st.Kernel()),
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
