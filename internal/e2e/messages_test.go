package e2e

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/botpay/botpay/client"
	"github.com/botpay/botpay/internal/app"
	"github.com/botpay/botpay/internal/testserver"
	"github.com/botpay/botpay/wire"
)

var delivering = testserver.Options{Limits: app.Limits{RegisterPerHour: 1000}, Deliver: true}

// waitMessages polls until the bot has n pending messages.
func waitMessages(t *testing.T, h *harness, bot *client.Client, n int) []client.PendingMessage {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		msgs, err := bot.Messages(h.ctx, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(msgs) == n {
			return msgs
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d pending messages, want %d", len(msgs), n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// A managed-tunnel bot whose client never connected (webhook none) gets its
// events as pending messages; it reads and acknowledges them.
func TestPendingMessagesListAndAck(t *testing.T) {
	forEachEngine(t, delivering, func(t *testing.T, h *harness) {
		c := h.claimedBot("poller") // wallet.activated
		h.fund(c, 1250)             // wallet.funded
		msgs := waitMessages(t, h, c.bot, 2)
		if msgs[0].Event != "wallet.activated" || msgs[1].Event != "wallet.funded" || msgs[0].MessageID >= msgs[1].MessageID {
			t.Fatalf("messages = %+v, want wallet.activated then wallet.funded", msgs)
		}
		f := h.wire.fields("GET /api/v1/bot/messages")
		if string(f["count"]) != "2" {
			t.Errorf("count = %s, want 2", f["count"])
		}
		m := msgs[1]
		if !bytes.Contains(m.Data, []byte(`"amount"`)) || m.EventID == "" || m.StagedAt.IsZero() ||
			m.ExpiresAt.Sub(m.StagedAt.Time) != 7*24*time.Hour || m.Timestamp.After(m.StagedAt.Time) {
			t.Errorf("message = %+v (data %s); want data, 7-day expiry", m, m.Data)
		}
		if st := status(t, h, c.bot); st.PendingMessages != 2 {
			t.Errorf("status pending_messages = %d, want 2", st.PendingMessages)
		}

		other := h.claimedBot("other-poller")
		otherMsgs := waitMessages(t, h, other.bot, 1)
		res, err := c.bot.Ack(h.ctx, []int64{msgs[0].MessageID, 99999999, otherMsgs[0].MessageID, msgs[0].MessageID})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Acknowledged) != 1 || res.Acknowledged[0] != msgs[0].MessageID || len(res.NotFound) != 2 {
			t.Errorf("ack = %+v, want [%d] acknowledged, the unknown and the other bot's id not found", res, msgs[0].MessageID)
		}
		left := waitMessages(t, h, c.bot, 1)
		if left[0].MessageID != msgs[1].MessageID {
			t.Errorf("left %+v, want the funding message", left)
		}
		if st := status(t, h, c.bot); st.PendingMessages != 1 {
			t.Errorf("status pending_messages after ack = %d, want 1", st.PendingMessages)
		}
		again, err := c.bot.Ack(h.ctx, []int64{msgs[0].MessageID})
		if err != nil || len(again.Acknowledged) != 1 || len(again.NotFound) != 0 {
			t.Errorf("second ack of the same id = %+v, %v; want acknowledged again", again, err)
		}
		if n := len(waitMessages(t, h, other.bot, 1)); n != 1 {
			t.Errorf("the other bot lost its message")
		}
	})
}

func TestAckRefusesMalformedIDs(t *testing.T) {
	forEachEngine(t, manyBots, func(t *testing.T, h *harness) {
		bot, reg := h.register(client.RegisterRequest{BotName: "acker", OwnerEmail: uniqueEmail("acker")})
		for _, body := range []string{`{}`, `{"message_ids":"1"}`, `{"message_ids":[1.5]}`, `{"message_ids":["1"]}`,
			`{"message_ids":[0]}`, `{"message_ids":[-3]}`, `{"message_ids":null}`} {
			req, _ := http.NewRequest(http.MethodPost, h.srv.URL+"/api/v1/bot/messages/ack", bytes.NewBufferString(body))
			req.Header.Set("Authorization", "Bearer "+reg.APIKey)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusBadRequest {
				t.Errorf("%s: HTTP %d, want 400", body, resp.StatusCode)
			}
		}
		if _, err := bot.Messages(h.ctx, 501); err == nil {
			t.Error("limit 501 accepted")
		} else {
			wantError(t, err, http.StatusBadRequest, client.CodeValidation)
		}
		res, err := bot.Ack(h.ctx, nil)
		if err != nil || len(res.Acknowledged) != 0 || len(res.NotFound) != 0 {
			t.Errorf("empty ack = %+v, %v", res, err)
		}
	})
}

// GET /api/v1/bots/mine shows the health the dispatcher recorded.
func TestBotsMineShowsWebhookHealth(t *testing.T) {
	forEachEngine(t, delivering, func(t *testing.T, h *harness) {
		down := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusServiceUnavailable)
		}))
		defer down.Close()
		bot, reg := h.register(client.RegisterRequest{BotName: "flaky", OwnerEmail: uniqueEmail("flaky"), CallbackURL: wire.Ptr(down.URL + "/hook")})
		owner, _ := h.signup(uniqueEmail("flaky-owner"))
		if _, err := owner.Claim(h.ctx, *reg.ClaimToken); err != nil { // wallet.activated fails: degraded/1
			t.Fatal(err)
		}
		deadline := time.Now().Add(10 * time.Second)
		for {
			mine, err := owner.BotsMine(h.ctx)
			if err != nil {
				t.Fatal(err)
			}
			if mine[0].WebhookStatus == "degraded" && mine[0].WebhookFailCount == 1 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("bots/mine shows %s/%d, want degraded/1", mine[0].WebhookStatus, mine[0].WebhookFailCount)
			}
			time.Sleep(10 * time.Millisecond)
		}
		waitMessages(t, h, bot, 1) // staged at the first failure
	})
}

// With the guard on (production), callback URLs at internal addresses are
// refused up front at registration and on both update paths.
func TestCallbackURLsAtInternalAddressesAreRefused(t *testing.T) {
	guarded := manyBots
	guarded.WebhookGuard = true
	forEachEngine(t, guarded, func(t *testing.T, h *harness) {
		c := h.claimedBot("guarded")
		for _, u := range []string{"http://127.0.0.1/hook", "http://10.0.0.1/hook", "http://169.254.169.254/latest/meta-data",
			"http://[::1]:8080/hook", "http://localhost:9000/hook"} {
			_, err := h.bots.Register(h.ctx, client.RegisterRequest{BotName: "ssrf", OwnerEmail: uniqueEmail("ssrf"), CallbackURL: wire.Ptr(u)})
			if e := wantError(t, err, http.StatusBadRequest, client.CodeValidation); e.Details["callback_url"] == "" {
				t.Errorf("register %s: details %v, want callback_url named", u, e.Details)
			}
			_, err = c.bot.UpdateProfile(h.ctx, u)
			wantError(t, err, http.StatusBadRequest, client.CodeValidation)
			_, err = c.owner.SetCallbackURL(h.ctx, c.reg.BotID, u)
			wantError(t, err, http.StatusBadRequest, client.CodeValidation)
		}
		if _, err := c.bot.UpdateProfile(h.ctx, "https://bot.example.com/hook"); err != nil {
			t.Errorf("a public URL was refused: %v", err)
		}
	})
}
