package e2e

import (
	"strings"
	"testing"

	"github.com/botpay/botpay/client"
	"github.com/botpay/botpay/internal/testserver"
)

func TestHeldPurchaseMailEscapesWhatTheBotWrote(t *testing.T) {
	forEachEngine(t, testserver.Options{}, func(t *testing.T, h *harness) {
		s := h.shopper("evilbot", client.Dollars(200, 0), askForEverything)
		req := purchase(4000)
		req.ItemName = `<script>alert(1)</script>`
		req.MerchantName = `<img src=x onerror=alert(2)>`
		if _, err := s.bot.Checkout(h.ctx, req); err != nil {
			t.Fatal(err)
		}
		var held []string
		for _, m := range h.mailTo(s.sess.Email) {
			if strings.HasPrefix(m.Subject, "Approval needed") {
				held = append(held, m.HTML)
				if strings.ContainsAny(m.Subject, "\r\n") {
					t.Errorf("subject has line breaks: %q", m.Subject)
				}
			}
		}
		if len(held) != 1 {
			t.Fatalf("held-purchase mails: %d, want 1", len(held))
		}
		html := held[0]
		for _, raw := range []string{"<script>", "<img"} {
			if strings.Contains(html, raw) {
				t.Errorf("mail HTML contains %q unescaped", raw)
			}
		}
		if !strings.Contains(html, "&lt;script&gt;alert(1)&lt;/script&gt;") {
			t.Errorf("mail HTML does not show the item name escaped")
		}
	})
}

func TestLowBalanceMailOncePerCrossing(t *testing.T) {
	forEachEngine(t, testserver.Options{}, func(t *testing.T, h *harness) {
		s := h.shopper("thrifty", client.Dollars(10, 0), nil)
		for _, cents := range []int64{400, 200, 100} { // $10 → $6 → $4 (crosses $5) → $3
			co, err := s.bot.Checkout(h.ctx, purchase(cents))
			if err != nil || !isTrue(co.Approved) {
				t.Fatalf("checkout %d: %+v %v", cents, co, err)
			}
		}
		n := 0
		for _, m := range h.mailTo(s.sess.Email) {
			if strings.HasPrefix(m.Subject, "Low balance") {
				n++
				if !strings.Contains(m.Text, "$4.00 available") {
					t.Errorf("low-balance mail: %q", m.Text)
				}
			}
		}
		if n != 1 {
			t.Errorf("low-balance mails: %d, want 1", n)
		}
	})
}

func TestOwnerHearsOfNewBotAndTopupRequest(t *testing.T) {
	forEachEngine(t, testserver.Options{}, func(t *testing.T, h *harness) {
		email := uniqueEmail("newbot-owner")
		h.register(client.RegisterRequest{BotName: "newcomer", OwnerEmail: email})
		// The bot chose its name, so the name is in the body and never in
		// the Subject.
		if m := h.mailTo(email); len(m) != 1 || !strings.Contains(m[0].Text, "newcomer") || strings.Contains(m[0].Subject, "newcomer") {
			t.Errorf("mail about the newly registered bot: %+v", m)
		}
		c := h.claimedBot("asker")
		h.fund(c, client.Dollars(5, 0))
		if _, err := c.bot.TopupRequest(h.ctx, client.Dollars(20, 0), "need more"); err != nil {
			t.Fatal(err)
		}
		found := false
		for _, m := range h.mailTo(c.sess.Email) {
			found = found || strings.HasPrefix(m.Subject, "Top-up request")
		}
		if !found {
			t.Error("no top-up request mail to the owner")
		}
	})
}
