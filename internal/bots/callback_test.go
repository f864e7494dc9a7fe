package bots_test

import (
	"context"
	"reflect"
	"slices"
	"sync"
	"testing"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/bots"
	"github.com/botpay/botpay/internal/mail"
	"github.com/botpay/botpay/internal/ratelimit"
	"github.com/botpay/botpay/internal/store/storetest"
)

// changeMail records the callback changes the owner is told about.
type changeMail struct {
	mu      sync.Mutex
	changes []string
}

func (*changeMail) OwnerAddress(context.Context, botpay.Bot) (string, error) { return "", nil }
func (*changeMail) NotifyAboutBot(context.Context, botpay.Bot, mail.Message) {}
func (m *changeMail) NotifyCallbackChanged(_ context.Context, b botpay.Bot, previous, by string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.changes = append(m.changes, previous+" -> "+b.CallbackURL+" by "+by)
}

// TestUpdateCallbackURLAnswersTheBotAsStored: the owner's change of a
// bot's callback URL resets its webhook health and answers the bot as the
// database now holds it, and the owner is told once; the bot may not
// change it while frozen, nor may another owner.
func TestUpdateCallbackURLAnswersTheBotAsStored(t *testing.T) {
	t.Parallel()
	storetest.ForEach(t, func(t *testing.T, db *storetest.DB) {
		st, told := db.Store, &changeMail{}
		s := bots.New(bots.Deps{DB: st.Kernel(), Outbox: st.Outbox(), RateLimits: ratelimit.New(st.Kernel()), OwnerMail: told, AllowPrivate: true})
		owner := storetest.NewOwner(t, st)
		b := storetest.ClaimedBot(t, st, owner)
		storetest.Exec(t, st, `UPDATE bots SET callback_url = 'https://hooks.example.com/old', webhook_status = 'unreachable', webhook_fail_count = 3 WHERE id = $1`, b.ID)
		got, err := s.UpdateCallbackURL(ctx, owner.ID, b.ID, "https://hooks.example.com/new")
		if err != nil {
			t.Fatal(err)
		}
		if got.ID != b.ID || got.CallbackURL != "https://hooks.example.com/new" || got.WebhookStatus != botpay.WebhookActive || got.WebhookFailCount != 0 {
			t.Fatalf("answered %+v", got)
		}
		if stored, err := s.Bot(ctx, b.ID); err != nil || !reflect.DeepEqual(stored, got) {
			t.Fatalf("answered %+v, stored %+v (%v)", got, stored, err)
		}
		if want := []string{"https://hooks.example.com/old -> https://hooks.example.com/new by you (the owner)"}; !slices.Equal(told.changes, want) {
			t.Fatalf("owner told %q, want %q", told.changes, want)
		}
		storetest.Exec(t, st, `UPDATE bots SET frozen = TRUE WHERE id = $1`, b.ID)
		if _, err := s.UpdateCallbackURL(ctx, "", b.ID, "https://hooks.example.com/bot"); botpay.AsError(err) == nil {
			t.Fatalf("a frozen bot changed its callback URL: %v", err)
		}
		if _, err := s.UpdateCallbackURL(ctx, storetest.NewOwner(t, st).ID, b.ID, "https://hooks.example.com/x"); botpay.AsError(err) == nil || botpay.AsError(err).Kind != botpay.KindNotFound {
			t.Fatalf("another owner's change: %v", err)
		}
		if stored, _ := s.Bot(ctx, b.ID); stored.CallbackURL != "https://hooks.example.com/new" || len(told.changes) != 1 {
			t.Fatalf("refused changes left %q, told %q", stored.CallbackURL, told.changes)
		}
	})
}
