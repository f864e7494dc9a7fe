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

// Overview reads a bot's wallet and guardrails, as the owner's list of
// bots shows them.
func (s *Service) Overview(ctx context.Context, bot botpay.Bot) (BotOverview, error) {
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
	return o, nil
}

// FullOverview is Overview with what only the status endpoint and the
// dashboard show: the processor wallet, the owner's master guardrails and
// the pending-message count.
func (s *Service) FullOverview(ctx context.Context, bot botpay.Bot) (BotOverview, error) {
	o, err := s.Overview(ctx, bot)
	if err != nil || o.Wallet == nil {
		return o, err
	}
	if o.Processor, err = s.processor.ProcessorWallet(ctx, bot.ID); err != nil {
		return o, err
	}
	if o.Master, err = s.reads.MasterGuardrails(ctx, botpay.Owner{ID: bot.OwnerID}); err != nil {
		return o, err
	}
	o.PendingMessages, err = s.reads.PendingMessageCount(ctx, bot.ID)
	return o, err
}

// Transactions pages through a claimed bot's ledger, newest first.
func (s *Service) Transactions(ctx context.Context, bot botpay.Bot, page botpay.PageRequest) (botpay.Page[botpay.Transaction], error) {
	if !bot.Claimed() {
		return botpay.Page[botpay.Transaction]{}, botpay.ErrWalletNotActive
	}
	return s.transactions(ctx, bot.ID, page)
}
