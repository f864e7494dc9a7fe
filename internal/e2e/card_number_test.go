package e2e

import (
	"bytes"
	"io"
	"log/slog"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/botpay/botpay/client"
	"github.com/botpay/botpay/internal/app"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
	"github.com/botpay/botpay/internal/testserver"
)

// tap keeps every request and answer body that passes through it.
type tap struct {
	next  http.RoundTripper
	mu    sync.Mutex
	sent  []string
	answs []string
}

func (t *tap) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		b, _ := io.ReadAll(req.Body)
		req.Body = io.NopCloser(bytes.NewReader(b))
		t.mu.Lock()
		t.sent = append(t.sent, string(b))
		t.mu.Unlock()
	}
	resp, err := t.next.RoundTrip(req)
	if err != nil {
		return resp, err
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body = io.NopCloser(bytes.NewReader(b))
	t.mu.Lock()
	t.answs = append(t.answs, string(b))
	t.mu.Unlock()
	return resp, nil
}

// panLike finds a 13-19 digit card number, possibly grouped by spaces or
// dashes, that is not part of a longer token (such as a hex record id).
var panLike = regexp.MustCompile(`(^|[^0-9A-Za-z_])(\d[ -]?){12,18}\d($|[^0-9A-Za-z_])`)

func TestNoAnswerLogLineOrEventCarriesAFullCardNumber(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, dialect store.Dialect) {
		logs := &storetest.LogBuffer{}
		logger := slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
		h := start(t, dialect, testserver.Options{Logger: logger, Limits: app.Limits{RegisterPerHour: 1000}})
		wire := &tap{next: h.wire.next}
		h.wire.next = wire

		s := h.shopper("careful", client.Dollars(100, 0), nil)
		// An owner who pastes a full number where the missing digits go,
		// or a number that fails its checksum, is refused without an echo.
		bad := newCard("Pasted")
		bad.MissingDigits = testPAN
		_, err := s.owner.CreateCard(h.ctx, s.reg.BotID, bad)
		wantError(t, err, http.StatusBadRequest, client.CodeValidation)
		wrong := newRail5Card()
		wrong.Number = "4111111111111112"
		_, err = s.owner.CreateRail5Card(h.ctx, s.reg.BotID, wrong)
		wantError(t, err, http.StatusBadRequest, client.CodeValidation)

		useEveryCardPath(t, h, s)

		if len(wire.sent) == 0 || !strings.Contains(strings.Join(wire.sent, "\n"), testPANAlt) {
			t.Fatal("the tap saw no request carrying the test card number; the test proves nothing")
		}
		check := func(where, text string) {
			t.Helper()
			if strings.Contains(text, testPAN) || strings.Contains(text, testPANAlt) || panLike.MatchString(text) {
				t.Errorf("%s carries a full card number: %s", where, text)
			}
		}
		for _, a := range wire.answs {
			check("an answer", a)
		}
		if logs.String() == "" {
			t.Fatal("no log lines were captured; the test proves nothing")
		}
		for _, line := range strings.Split(logs.String(), "\n") {
			check("a log line", line)
		}
		evs, err := storetest.OutboxOf(h.srv.Store).Events(h.ctx, s.reg.BotID)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range evs {
			for k, v := range e.Data {
				text, _ := v.(string)
				check("event "+e.Type+" field "+k, text)
			}
		}
	})
}

// useEveryCardPath walks the whole life of a rail5 card and of card-wallet
// purchases (approved, held and approved, decoy) and reads them back.
func useEveryCardPath(t *testing.T, h *harness, s shopper) {
	if _, err := s.owner.CreateRail5Card(h.ctx, s.reg.BotID, newRail5Card()); err != nil {
		t.Fatal(err)
	}
	if _, err := s.bot.ConfirmRail5Delivery(h.ctx, ""); err != nil {
		t.Fatal(err)
	}
	chk, err := s.bot.Rail5Checkout(h.ctx, client.Rail5CheckoutRequest{MerchantName: "Acme", MerchantURL: "acme.com", ItemName: "Pen", AmountCents: 500})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.bot.Rail5Key(h.ctx, chk.CheckoutID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.bot.Rail5Complete(h.ctx, chk.CheckoutID, true, ""); err != nil {
		t.Fatal(err)
	}
	approved, _ := s.bot.Checkout(h.ctx, purchase(1000))
	held, _ := s.bot.Checkout(h.ctx, purchase(3000))
	decoy := purchase(1000)
	decoy.ProfileIndex = 2
	s.bot.Checkout(h.ctx, decoy)
	s.owner.ApprovePurchase(h.ctx, held.ConfirmationID)
	s.bot.CheckoutStatus(h.ctx, approved.ConfirmationID)
	s.bot.CheckoutStatus(h.ctx, held.ConfirmationID)
	s.owner.Approvals(h.ctx)
	s.owner.Cards(h.ctx, s.reg.BotID)
	s.bot.Transactions(h.ctx, 0)
	s.bot.Status(h.ctx)

}
