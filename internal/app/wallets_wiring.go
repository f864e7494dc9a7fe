package app

import (
	"context"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/mail"
	"github.com/botpay/botpay/internal/wallets"
)

// newWallets builds the card wallet capability over the store's kernel and
// outbox; the guardrails come from internal/spending, the pending-message
// count from internal/notifications, the processor wallet from
// internal/payments and the owner's mail from this package.
func newWallets(s *Service, c Config) *wallets.Service {
	return wallets.New(wallets.Deps{DB: c.Store.Kernel(), Outbox: c.Store.Outbox(), Reads: walletsPorts{s},
		Processor: walletsPorts{s}, OwnerMail: walletsPorts{s}, RateLimits: s.windows,
		TopupsPerHour: s.limits.TopupPerHour, BotAuthFailed: errBotAuth, BaseURL: s.baseURL, Logger: s.log})
}

// walletsPorts gives internal/wallets the reads of internal/spending and
// internal/notifications, the processor wallet of internal/payments and
// the owner mail of this package.
type walletsPorts struct{ s *Service }

func (p walletsPorts) BotGuardrails(ctx context.Context, bot botpay.Bot) (botpay.Guardrails, error) {
	return p.s.spending.BotGuardrails(ctx, bot)
}

func (p walletsPorts) MasterGuardrails(ctx context.Context, owner botpay.Owner) (*botpay.MasterGuardrails, error) {
	return p.s.spending.MasterGuardrails(ctx, owner)
}

func (p walletsPorts) PendingMessageCount(ctx context.Context, botID string) (int, error) {
	return p.s.notifications.PendingMessageCount(ctx, botID)
}

// ProcessorWallet reads the processor wallet with its balance on chain; a
// balance the chain could not give leaves the wallet without it, as
// internal/payments decides.
func (p walletsPorts) ProcessorWallet(ctx context.Context, botID string) (*botpay.ProcessorWallet, error) {
	w, err := p.s.payments.ProcessorWalletWithBalance(ctx, botID)
	if err != nil {
		return p.s.payments.ProcessorWalletUnread(ctx, botID, err)
	}
	return w, nil
}

func (p walletsPorts) FundProcessorWallet(ctx context.Context, owner botpay.Owner, botID string, amount botpay.Money) (botpay.Funding, error) {
	return p.s.payments.FundProcessorWallet(ctx, owner, botID, amount)
}

func (p walletsPorts) OwnerEmail(ctx context.Context, ownerID string) (string, error) {
	owner, err := p.s.accounts.OwnerByID(ctx, ownerID)
	return owner.Email, err
}

// MailOnce makes one attempt, not retried: the bot's answer says whether
// its owner was told.
func (p walletsPorts) MailOnce(ctx context.Context, bot botpay.Bot, m mail.Message) bool {
	return p.s.admitOwnerMail(ctx, bot, m.To) && p.s.notify(ctx, m)
}

// Wallets is a bot's card wallet as its owner and the bot see it: funding,
// freezing, top-up requests, the wallet check and the wallet's reads.
func (s *Service) Wallets() *wallets.Service { return s.wallets }
