package app

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/mail"
	"github.com/botpay/botpay/internal/store"
)

// Owner notifications about a bot (claim, key rotated, callback changed,
// approvals, low balance, top-up requests) are limited per bot and per
// recipient address over a rolling day: a bot registered with a
// stranger's address, or a runaway one, cannot mail without bound. What a
// limit holds back is counted and summed up in one daily digest, which
// carries no bot's text.
const (
	ownerMailDay = 24 * time.Hour
	// unclaimedBotMailsPerDay: the address an unclaimed bot named gets
	// its claim e-mail and at most one more a day; nobody has confirmed
	// that address wants mail about the bot.
	unclaimedBotMailsPerDay = 2
	digestBatch             = 100
)

// admitOwnerMail takes one notification about b to address to from the
// daily limits; false when it is held back for the digest.
func (s *Service) admitOwnerMail(ctx context.Context, b botpay.Bot, to string) bool {
	perBot := s.limits.OwnerMailsPerBotPerDay
	if !b.Claimed() {
		perBot = unclaimedBotMailsPerDay
	}
	recipient := strings.ToLower(strings.TrimSpace(to))
	err := s.store.TakeAll(ctx, []store.Limit{
		{Bucket: "owner-mail-bot:" + b.ID, Max: perBot, Window: ownerMailDay, Unannounced: true},
		{Bucket: "owner-mail-to:" + botpay.Digest(recipient), Max: s.limits.OwnerMailsPerAddressPerDay, Window: ownerMailDay, Unannounced: true},
	})
	if e := botpay.AsError(err); e != nil && e.Kind == botpay.KindRateLimited {
		if herr := s.store.HoldForDigest(context.WithoutCancel(ctx), recipient, ownerMailDay); herr != nil {
			s.log.WarnContext(ctx, "held-back notification not counted", "bot_id", b.ID, "err", herr)
		}
		return false
	}
	if err != nil {
		// The change this mail reports has committed; its owner hearing
		// of it matters more than the count.
		s.log.WarnContext(ctx, "owner mail limits not checked", "bot_id", b.ID, "err", err)
	}
	return true
}

// notifyAboutBot sends m, about bot b, within the daily limits.
func (s *Service) notifyAboutBot(ctx context.Context, b botpay.Bot, m mail.Message) {
	if s.admitOwnerMail(ctx, b, m.To) {
		s.notifyOwner(ctx, m)
	}
}

// sendDueDigests sends every digest of held-back notifications that is due.
func (s *Service) sendDueDigests(ctx context.Context) {
	for ctx.Err() == nil {
		due, err := s.store.TakeDueDigests(ctx, digestBatch)
		if err != nil {
			if ctx.Err() == nil {
				s.log.WarnContext(ctx, "taking due digests failed", "err", err)
			}
			return
		}
		for _, d := range due {
			s.notifyOwner(ctx, s.digestMail(d))
		}
		if len(due) < digestBatch {
			return
		}
	}
}

func (s *Service) digestMail(d store.MailDigest) mail.Message {
	text := fmt.Sprintf("Since %s UTC, %d more notifications about bots that name this address were held back: "+
		"botpay sends at most %d a day about one bot (%d while it is unclaimed) and %d a day to one address.\n\n"+
		"If you own these bots, see what happened in your dashboard: %s/dashboard\n"+
		"If you do not recognise them, ignore this message; nothing happens until you claim a bot.\n",
		d.FirstHeldAt.UTC().Format("2006-01-02 15:04"), d.Held, s.limits.OwnerMailsPerBotPerDay, unclaimedBotMailsPerDay,
		s.limits.OwnerMailsPerAddressPerDay, s.baseURL)
	return mail.Message{To: d.Recipient, Subject: "botpay: notifications held back today", Text: text}
}
