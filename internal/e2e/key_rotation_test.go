package e2e

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/botpay/botpay/client"
	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/mail"
	"github.com/botpay/botpay/internal/store/storetest"
	"github.com/botpay/botpay/internal/testserver"
)

// TestOwnerRotationRevokesTheOldKeyEverywhere: the owner's rotation with
// the default grace (0) ends the old key at once on every endpoint, the
// new key works, rails.updated api_key_rotated is emitted and the owner is
// e-mailed.
func TestOwnerRotationRevokesTheOldKeyEverywhere(t *testing.T) {
	forEachEngine(t, testserver.Options{}, func(t *testing.T, h *harness) {
		s := h.shopper("rotated", client.Dollars(50, 0), nil)
		r := raw{t: t, srv: h.srv}
		if _, err := s.bot.Checkout(h.ctx, purchase(100)); err != nil { // warms the spending cache
			t.Fatal(err)
		}
		old := s.reg.APIKey
		rot := r.must(200, "POST", "/api/v1/owner/bots/"+s.reg.BotID+"/api-key/rotate", s.sess.Token, nil)
		key, _ := rot["api_key"].(string)
		if !strings.HasPrefix(key, botpay.APIKeyPrefix) || key == old {
			t.Fatalf("rotation answer %v", rot)
		}
		if at, err := time.Parse(time.RFC3339, rot["previous_key_expires_at"].(string)); err != nil || time.Since(at) > time.Minute || time.Until(at) > time.Second {
			t.Errorf("previous_key_expires_at %v, want now", rot["previous_key_expires_at"])
		}
		for _, c := range []struct{ method, path string }{
			{"GET", "/api/v1/bot/status"}, {"GET", "/api/v1/bot/wallet/check"}, {"GET", "/api/v1/bot/messages"},
			{"POST", "/api/v1/bot/merchant/checkout"}, {"POST", "/api/v1/processor-wallet/bot/sign"},
			{"PATCH", "/api/v1/bot/profile"}, {"POST", "/api/v1/bot/api-key/rotate"},
		} {
			if a := r.do(c.method, c.path, old, map[string]any{}); a.Status != http.StatusUnauthorized {
				t.Errorf("%s %s with the revoked key = %d %s, want 401", c.method, c.path, a.Status, a.Body)
			}
		}
		if _, err := h.bots.WithAPIKey(key).Checkout(h.ctx, purchase(100)); err != nil {
			t.Errorf("checkout with the new key: %v", err)
		}
		wantEvents(t, h.events(s.reg.BotID), "rails.updated")
		evs, _ := storetest.OutboxOf(h.srv.Store).Events(h.ctx, s.reg.BotID)
		last := evs[len(evs)-1]
		for _, e := range evs {
			if e.Type == "rails.updated" && e.Data["action"] == botpay.ActionAPIKeyRotated {
				last = e
			}
		}
		if last.Data["action"] != botpay.ActionAPIKeyRotated || strings.Contains(last.Data["message"].(string), key) {
			t.Errorf("rotation event %v", last.Data)
		}
		mails := h.mailTo(s.sess.Email)
		if len(mails) == 0 || !strings.Contains(mails[len(mails)-1].Subject, "API key rotated") ||
			strings.Contains(mails[len(mails)-1].Text, key) {
			t.Fatalf("owner mail %+v", mails)
		}
	})
}

// TestBotRotationKeepsThePreviousKeyForItsGrace: the bot's own rotation
// defaults to an hour of grace for the old key, which may no longer rotate;
// a short grace ends on time; a retried Idempotency-Key never shows the new
// key to the superseded one; grace outside 0..604800 is refused.
func TestBotRotationKeepsThePreviousKeyForItsGrace(t *testing.T) {
	forEachEngine(t, testserver.Options{}, func(t *testing.T, h *harness) {
		c := h.claimedBot("graceful")
		r := raw{t: t, srv: h.srv}
		old := c.reg.APIKey
		first := r.do("POST", "/api/v1/bot/api-key/rotate", old, nil, "Idempotency-Key", "rot-1")
		again := r.do("POST", "/api/v1/bot/api-key/rotate", old, nil, "Idempotency-Key", "rot-1")
		if first.Status != 200 || again.Status != 403 || again.json(t)["error"] != "key_superseded" {
			t.Fatalf("rotation %d %s, retry with the superseded key %d %s: want 200, then 403 key_superseded",
				first.Status, first.Body, again.Status, again.Body)
		}
		rot := first.json(t)
		at, _ := time.Parse(time.RFC3339, rot["previous_key_expires_at"].(string))
		if d := time.Until(at); d < 59*time.Minute || d > time.Hour {
			t.Errorf("previous key expires in %v, want an hour", d)
		}
		newKey := rot["api_key"].(string)
		r.must(200, "GET", "/api/v1/bot/status", old, nil)
		r.must(200, "GET", "/api/v1/bot/status", newKey, nil)
		r.must(200, "GET", "/api/v1/bot/wallet/check", old, nil)
		if a := r.do("POST", "/api/v1/bot/api-key/rotate", old, nil); a.Status != 403 || a.json(t)["error"] != "key_superseded" {
			t.Errorf("rotation with the previous key = %d %s, want 403 key_superseded", a.Status, a.Body)
		}
		for _, g := range []any{-1, 604801, 1.5, "60"} {
			if a := r.do("POST", "/api/v1/bot/api-key/rotate", newKey, map[string]any{"grace_seconds": g}); a.Status != 400 {
				t.Errorf("grace %v = %d %s, want 400", g, a.Status, a.Body)
			}
		}
		short := r.must(200, "POST", "/api/v1/bot/api-key/rotate", newKey, map[string]any{"grace_seconds": 1})
		r.must(200, "GET", "/api/v1/bot/status", newKey, nil)
		if a := r.do("GET", "/api/v1/bot/status", old, nil); a.Status != 401 {
			t.Errorf("the key two rotations back = %d, want 401 (one previous key at a time)", a.Status)
		}
		time.Sleep(1100 * time.Millisecond)
		for _, path := range []string{"/api/v1/bot/status", "/api/v1/bot/wallet/check"} {
			if a := r.do("GET", path, newKey, nil); a.Status != 401 {
				t.Errorf("%s after the grace = %d, want 401", path, a.Status)
			}
		}
		r.must(200, "GET", "/api/v1/bot/status", short["api_key"].(string), nil)
	})
}

// TestRevokedKeyIsRefusedOnEveryReplicaWithinASecond: two servers on one
// database; the spending endpoints of the second have the key in memory;
// the owner revokes it through the first; within a second the second
// refuses it on checkout and on signing (the auth cache used to keep it
// for 30 s).
func TestRevokedKeyIsRefusedOnEveryReplicaWithinASecond(t *testing.T) {
	forEachEngine(t, testserver.Options{}, func(t *testing.T, h *harness) {
		replica := h.srv.Replica(t, testserver.Options{})
		hb := newHarness(t, replica)
		s := h.shopper("leaky", client.Dollars(50, 0), nil)
		ra, rb := raw{t: t, srv: h.srv}, raw{t: t, srv: replica}
		ra.must(201, "POST", "/api/v1/owner/bots/"+s.reg.BotID+"/processor-wallet", s.sess.Token, nil)
		ra.must(200, "POST", "/api/v1/owner/bots/"+s.reg.BotID+"/fund", s.sess.Token, map[string]any{"amount_usd": 20, "rail": "processor_wallet"})
		leaked := hb.bots.WithAPIKey(s.reg.APIKey)
		if _, err := leaked.Checkout(h.ctx, purchase(100)); err != nil {
			t.Fatal(err)
		}
		if a := rb.do("POST", "/api/v1/processor-wallet/bot/sign", s.reg.APIKey, signBody(1000)); a.Status != 200 {
			t.Fatalf("sign on the replica = %d %s", a.Status, a.Body)
		}
		ra.must(200, "POST", "/api/v1/owner/bots/"+s.reg.BotID+"/api-key/rotate", s.sess.Token, map[string]any{"grace_seconds": 0})
		revoked := time.Now()
		checkoutRefused, signRefused := time.Duration(0), time.Duration(0)
		for (checkoutRefused == 0 || signRefused == 0) && time.Since(revoked) < 3*time.Second {
			if _, err := leaked.Checkout(h.ctx, purchase(100)); checkoutRefused == 0 && client.IsCode(err, "Authentication required") {
				checkoutRefused = time.Since(revoked)
			}
			if a := rb.do("POST", "/api/v1/processor-wallet/bot/sign", s.reg.APIKey, signBody(1000)); signRefused == 0 && a.Status == 401 {
				signRefused = time.Since(revoked)
			}
			time.Sleep(20 * time.Millisecond)
		}
		if checkoutRefused == 0 || checkoutRefused > time.Second {
			t.Errorf("checkout with the revoked key refused after %v, want within 1s", checkoutRefused)
		}
		if signRefused == 0 || signRefused > time.Second {
			t.Errorf("signing with the revoked key refused after %v, want within 1s", signRefused)
		}
	})
}

// TestFrozenBotCannotRedirectItsEvents: while frozen, the bot's key cannot
// change the callback (it could before) or rotate the key; the owner still
// can set the callback; every change e-mails the owner.
func TestFrozenBotCannotRedirectItsEvents(t *testing.T) {
	forEachEngine(t, testserver.Options{}, func(t *testing.T, h *harness) {
		c := h.claimedBot("frozen-hook")
		if _, err := c.bot.UpdateProfile(h.ctx, "https://bot.example/hook"); err != nil {
			t.Fatal(err)
		}
		if n := countSubject(h.mailTo(c.sess.Email), "Callback URL changed"); n != 1 {
			t.Errorf("%d callback mails after the bot's change, want 1", n)
		}
		if _, err := c.owner.Freeze(h.ctx, c.reg.BotID, true); err != nil {
			t.Fatal(err)
		}
		_, err := c.bot.UpdateProfile(h.ctx, "https://attacker.example/h")
		wantError(t, err, 403, "wallet_frozen")
		_, err = c.bot.RotateAPIKey(h.ctx, 0)
		wantError(t, err, 403, "wallet_frozen")
		if ws, err := c.owner.SetCallbackURL(h.ctx, c.reg.BotID, "https://owner.example/hook?token=SECRET"); err != nil || ws == nil {
			t.Fatalf("owner callback while frozen: %v", err)
		}
		mails := h.mailTo(c.sess.Email)
		if n := countSubject(mails, "Callback URL changed"); n != 2 {
			t.Fatalf("%d callback mails, want 2 (bot's, owner's)", n)
		}
		last := mails[len(mails)-1].Text
		if !strings.Contains(last, "https://owner.example/hook") || strings.Contains(last, "SECRET") || !strings.Contains(last, "https://bot.example/hook") {
			t.Errorf("callback mail:\n%s", last)
		}
		bots, err := c.owner.BotsMine(h.ctx)
		if err != nil || len(bots) != 1 || bots[0].CallbackURL == nil || *bots[0].CallbackURL != "https://owner.example/hook?token=SECRET" {
			t.Errorf("bots/mine %+v %v", bots, err)
		}
	})
}

func countSubject(mails []mail.Message, prefix string) int {
	n := 0
	for _, m := range mails {
		if strings.HasPrefix(m.Subject, prefix) {
			n++
		}
	}
	return n
}
