package app

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/mail"
	"github.com/botpay/botpay/internal/ratelimit"
	"github.com/botpay/botpay/internal/spending"
	"github.com/botpay/botpay/internal/validate"
)

// MaxFunding bounds one funding or top-up request (one million dollars).
const MaxFunding = spending.MaxAmount

// BotOverview is everything the status and wallet endpoints report.
type BotOverview struct {
	Bot             botpay.Bot
	Wallet          *botpay.WalletView // nil before the claim
	Guardrails      *botpay.Guardrails
	Master          *botpay.MasterGuardrails
	PendingMessages int
	Processor       *botpay.ProcessorWallet // nil until the owner creates one
}

// ActiveRails lists the rails the bot can spend from now.
func (o BotOverview) ActiveRails() []string {
	if o.Wallet == nil || o.Bot.Frozen {
		return []string{}
	}
	if o.Processor != nil {
		return []string{botpay.RailCardWallet, botpay.RailProcessorWallet}
	}
	return []string{botpay.RailCardWallet}
}

// Overview reads a bot's wallet and guardrails. full also reads what
// only the status endpoint and the dashboard show: the processor wallet,
// the owner's master guardrails and the pending-message count.
func (s *Service) Overview(ctx context.Context, bot botpay.Bot, full bool) (BotOverview, error) {
	o := BotOverview{Bot: bot}
	if !bot.Claimed() {
		return o, nil
	}
	w, ok, err := s.store.WalletView(ctx, bot.ID)
	if err != nil || !ok {
		return o, err
	}
	o.Wallet = &w
	g, err := s.store.Guardrails(ctx, bot.ID)
	if err != nil {
		return o, err
	}
	o.Guardrails = &g
	if full {
		if o.Processor, err = s.processorWalletWithBalance(ctx, bot.ID); err != nil {
			if o.Processor, err = s.processorWalletUnread(ctx, bot.ID, err); err != nil {
				return o, err
			}
		}
		if o.Master, err = s.store.MasterGuardrails(ctx, bot.OwnerID); err != nil {
			return o, err
		}
		if o.PendingMessages, err = s.store.PendingMessageCount(ctx, bot.ID); err != nil {
			return o, err
		}
	}
	return o, nil
}

// Transactions pages through a claimed bot's ledger, newest first.
func (s *Service) Transactions(ctx context.Context, bot botpay.Bot, page botpay.PageRequest) (botpay.Page[botpay.Transaction], error) {
	if !bot.Claimed() {
		return botpay.Page[botpay.Transaction]{}, botpay.ErrWalletNotActive
	}
	return s.store.Transactions(ctx, bot.ID, page)
}

func validAmount(p validate.Problems, field string, amount botpay.Money, max botpay.Money) {
	switch {
	case amount <= 0:
		p.Add(field, "must be greater than 0")
	case amount > max:
		p.Add(field, "must be at most "+max.USD())
	}
}

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
	if err := s.windows.Take(ctx, ratelimit.Limit{Bucket: "topup:" + bot.ID, Max: s.limits.TopupPerHour, Window: time.Hour}); err != nil {
		return botpay.TopupRequest{}, err
	}
	r := botpay.TopupRequest{BotID: bot.ID, Amount: amount, Reason: reason, Status: botpay.TopupSent, CreatedAt: s.clock.Now()}
	id, err := s.store.CreateTopupRequest(ctx, r)
	if err != nil {
		return r, err
	}
	r.ID = id
	owner, err := s.accounts.OwnerByID(ctx, bot.OwnerID)
	if err != nil {
		return r, err
	}
	if s.admitOwnerMail(ctx, bot, owner.Email) && s.notify(ctx, topupMail(owner.Email, bot, r, s.baseURL)) {
		r.OwnerNotified = true
		if err := s.store.MarkTopupNotified(ctx, id); err != nil {
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

// WalletCheck authenticates an API key and reads what wallet/check shows in
// one database round trip (the hottest call of the bot API).
func (s *Service) WalletCheck(ctx context.Context, apiKey string) (BotOverview, error) {
	if !botpay.WellFormedSecret(apiKey, botpay.APIKeyPrefix) {
		return BotOverview{}, errBotAuth
	}
	bw, err := s.store.WalletCheck(ctx, botpay.Digest(apiKey))
	if botpay.AsError(err) != nil {
		return BotOverview{}, errBotAuth
	}
	if err != nil {
		return BotOverview{}, err
	}
	return BotOverview{Bot: bw.Bot, Wallet: bw.Wallet, Guardrails: bw.Guardrails}, nil
}
