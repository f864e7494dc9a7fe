package wallets

import (
	"context"

	"github.com/botpay/botpay/internal/botpay"
)

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
	w, ok, err := s.WalletView(ctx, bot.ID)
	if err != nil || !ok {
		return o, err
	}
	o.Wallet = &w
	g, err := s.reads.BotGuardrails(ctx, bot)
	if err != nil {
		return o, err
	}
	o.Guardrails = &g
	if full {
		if o.Processor, err = s.processor.ProcessorWallet(ctx, bot.ID); err != nil {
			return o, err
		}
		if o.Master, err = s.reads.MasterGuardrails(ctx, botpay.Owner{ID: bot.OwnerID}); err != nil {
			return o, err
		}
		if o.PendingMessages, err = s.reads.PendingMessageCount(ctx, bot.ID); err != nil {
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
	return s.transactions(ctx, bot.ID, page)
}
