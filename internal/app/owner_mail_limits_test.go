package app

import (
	"context"
	"strings"
	"testing"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/mail"
	"github.com/botpay/botpay/internal/notifications"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
)

// Notifications past the daily limit are held back and summed up in one
// digest a day later, sent once whichever replica's pass finds it.
func TestHeldBackNotificationsGoInOneDailyDigest(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		sender := &mail.Memory{}
		s, clock := retryService(t, d, sender)
		ctx := context.Background()
		bot := botpay.Bot{ID: botpay.NewID("bot_"), Name: "unclaimed", OwnerEmail: "Victim@example.com"}
		for range 7 {
			s.notifyAboutBot(ctx, bot, mail.Message{To: bot.OwnerEmail, Subject: "Callback URL changed for your bot", Text: "x"})
		}
		if n := len(sender.Sent()); n != notifications.UnclaimedBotMailsPerDay {
			t.Fatalf("%d sent, want %d", n, notifications.UnclaimedBotMailsPerDay)
		}
		s.retryMailPass(ctx)
		if n := len(sender.Sent()); n != notifications.UnclaimedBotMailsPerDay {
			t.Fatalf("a digest went before its day was over: %d sent", n)
		}
		clock.Advance(notifications.OwnerMailDay)
		s.retryMailPass(ctx)
		s.retryMailPass(ctx)
		sent := sender.Sent()
		if len(sent) != notifications.UnclaimedBotMailsPerDay+1 {
			t.Fatalf("%d sent after the day, want one digest more", len(sent))
		}
		digest := sent[len(sent)-1]
		if digest.To != "victim@example.com" || !strings.Contains(digest.Text, " 5 more notifications") {
			t.Errorf("digest to %q: %s", digest.To, digest.Text)
		}
	})
}
