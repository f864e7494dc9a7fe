package wallets

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/mail"
	"github.com/botpay/botpay/internal/ratelimit"
	"github.com/botpay/botpay/internal/validate"
)

// maxQueuedTopups bounds the top-up requests the approvals queue shows.
const maxQueuedTopups = 100

// RequestTopup records a top-up request and e-mails the owner.
func (s *Service) RequestTopup(ctx context.Context, bot botpay.Bot, amount botpay.Money, reason string) (botpay.TopupRequest, error) {
	p := validate.Problems{}
	validAmount(p, "amount_usd", amount, MaxFunding)
	reason = p.Text("reason", reason, 0, 500, true)
	if err := p.Err(); err != nil {
		return botpay.TopupRequest{}, err
	}
	if !bot.Claimed() {
		return botpay.TopupRequest{}, botpay.ErrWalletNotActive
	}
	if err := s.rateLimits.Take(ctx, ratelimit.Limit{Bucket: "topup:" + bot.ID, Max: s.topupsPerHour, Window: time.Hour}); err != nil {
		return botpay.TopupRequest{}, err
	}
	r := botpay.TopupRequest{BotID: bot.ID, Amount: amount, Reason: reason, Status: botpay.TopupSent, CreatedAt: s.clock.Now()}
	id, err := s.createTopupRequest(ctx, r)
	if err != nil {
		return r, err
	}
	r.ID = id
	to, err := s.ownerMail.OwnerEmail(ctx, bot.OwnerID)
	if err != nil {
		return r, err
	}
	if s.ownerMail.MailOnce(ctx, bot, topupMail(to, bot, r, s.baseURL)) {
		r.OwnerNotified = true
		if err := s.markTopupNotified(ctx, id); err != nil {
			s.log.WarnContext(ctx, "could not record top-up notification", "topup_request_id", id, "err", err)
		}
	}
	return r, nil
}

func topupMail(to string, bot botpay.Bot, r botpay.TopupRequest, baseURL string) mail.Message {
	var b strings.Builder
	fmt.Fprintf(&b, "Your bot %q asks you to add $%s to its wallet.\n\n", bot.Name, r.Amount.USD())
	if r.Reason != "" {
		fmt.Fprintf(&b, "Its reason: %s\n\n", r.Reason)
	}
	fmt.Fprintf(&b, "Fund it from your dashboard: %s/dashboard\n(bot %s, request #%d)\n", baseURL, bot.ID, r.ID)
	return mail.Message{To: to, Subject: "Top-up request from your bot", Text: b.String()}
}

// OpenTopupRequests lists the owner's bots' top-up requests that still
// wait for the owner, oldest first.
func (s *Service) OpenTopupRequests(ctx context.Context, owner botpay.Owner) ([]botpay.TopupRequest, error) {
	return s.openTopupRequests(ctx, owner.ID, maxQueuedTopups)
}

// FundTopupRequest funds the bot's card wallet with the amount an open
// request asked for, as Fund does: the funding covers open requests oldest
// first, this one included when nothing older is open.
func (s *Service) FundTopupRequest(ctx context.Context, owner botpay.Owner, id int64) (botpay.Funding, error) {
	r, err := s.openTopupRequest(ctx, owner.ID, id)
	if err != nil {
		return botpay.Funding{}, err
	}
	return s.Fund(ctx, owner, r.BotID, r.Amount, botpay.RailCardWallet)
}

// DismissTopupRequest closes an open request without funding it.
func (s *Service) DismissTopupRequest(ctx context.Context, owner botpay.Owner, id int64) error {
	return s.dismissTopupRequest(ctx, owner.ID, id)
}
