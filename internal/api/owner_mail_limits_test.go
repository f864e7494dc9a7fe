package api_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/botpay/botpay/internal/mail"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
	"github.com/botpay/botpay/internal/testserver"
)

func mailsTo(srv *testserver.Server, to string) []mail.Message {
	var out []mail.Message
	for _, m := range srv.Mail.Sent() {
		if strings.EqualFold(m.To, to) {
			out = append(out, m)
		}
	}
	return out
}

const prizeText = "WIN A PRIZE visit prize-claim.example now"

// TestUnclaimedBotMailsItsAddressTwiceADay reproduces the finding: an
// unclaimed bot registered with a victim's address and a name of the
// attacker's choosing changes its callback again and again. The address
// gets the claim e-mail and one more, and no Subject carries the bot's text.
func TestUnclaimedBotMailsItsAddressTwiceADay(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		srv := testserver.Start(t, d, lenient())
		victim := unique("victim") + "@example.com"
		body := botBody(victim)
		body["bot_name"] = prizeText
		reg := register(t, srv, body)
		for i := range 10 {
			url := fmt.Sprintf("https://prize-claim.example/%d", i)
			wantStatus(t, do(t, srv, http.MethodPatch, "/api/v1/bot/profile", map[string]any{"callback_url": url}, auth(reg.str("api_key"))...), http.StatusOK)
		}
		got := mailsTo(srv, victim)
		if len(got) != 2 {
			t.Fatalf("the victim got %d mails, want the claim e-mail and one more", len(got))
		}
		for _, m := range got {
			if strings.Contains(strings.ToLower(m.Subject), "prize") {
				t.Errorf("Subject carries the bot's text: %q", m.Subject)
			}
		}
	})
}

// TestOwnerMailIsLimitedPerBotAndPerAddress: a claimed bot's changes mail
// its owner at most 20 times a day (the claim e-mail included), and one
// address hears about all its bots at most OwnerMailsPerAddressPerDay times.
func TestOwnerMailIsLimitedPerBotAndPerAddress(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		srv := testserver.Start(t, d, lenient())
		o := signup(t, srv)
		key, _ := claimedBot(t, srv, o)
		before := len(mailsTo(srv, o.email))
		for i := range 25 {
			url := fmt.Sprintf("https://bot.example.com/hook/%d", i)
			wantStatus(t, do(t, srv, http.MethodPatch, "/api/v1/bot/profile", map[string]any{"callback_url": url}, auth(key)...), http.StatusOK)
		}
		if got := len(mailsTo(srv, o.email)) - before; got != 19 {
			t.Fatalf("25 callback changes mailed the owner %d times, want 19 (20 a day with the claim e-mail)", got)
		}
	})
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		opts := lenient()
		opts.Limits.OwnerMailsPerAddressPerDay = 5
		srv := testserver.Start(t, d, opts)
		o := signup(t, srv)
		before := len(mailsTo(srv, o.email)) // the account's own verification mail
		for range 4 {
			key, _ := claimedBot(t, srv, o)
			do(t, srv, http.MethodPatch, "/api/v1/bot/profile", map[string]any{"callback_url": "https://bot.example.com/moved"}, auth(key)...)
		}
		if got := len(mailsTo(srv, o.email)) - before; got != 5 {
			t.Fatalf("four bots mailed their owner %d times, want the address's limit of 5", got)
		}
	})
}
