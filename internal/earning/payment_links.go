package earning

import (
	"context"
	"strings"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/validate"
)

// errLinkWalletNotActive is payment-link creation's 400 for a bot without
// an active wallet (docs/api.md).
var errLinkWalletNotActive = botpay.Errorf(botpay.KindInvalid, botpay.CodeWalletNotActive,
	"the wallet is not active: the bot's owner has not claimed it yet")

// CreatePaymentLink validates and stores a link that lives 24 hours.
func (s *Service) CreatePaymentLink(ctx context.Context, bot botpay.Bot, amount botpay.Money, description, payerEmail string) (botpay.PaymentLink, error) {
	now := s.clock.Now()
	p := validate.Problems{}
	if amount < botpay.MinPaymentLink || amount > botpay.MaxPaymentLink {
		p.Add("amount_usd", "must be from 0.50 to 10000.00")
	}
	l := botpay.PaymentLink{ID: botpay.NewID("pl_"), BotID: bot.ID, Amount: amount, CreatedAt: now,
		ExpiresAt: now.Add(botpay.PaymentLinkLifetime)}
	l.Description = p.Text("description", description, 1, 500, true)
	if strings.TrimSpace(payerEmail) != "" {
		l.PayerEmail = p.Email("payer_email", payerEmail)
	}
	if err := p.Err(); err != nil {
		return l, err
	}
	if !bot.Claimed() {
		return l, errLinkWalletNotActive
	}
	// x402 payers pay a link to its seller's processor wallet, as they pay
	// a checkout page; a bot without one gets it with its first link.
	if _, err := s.wallets.EnsureProcessorWallet(ctx, bot.OwnerID, bot.ID); err != nil {
		return l, err
	}
	return l, s.insertLink(ctx, l)
}

// PaymentLinks pages through a bot's links; none before the claim.
func (s *Service) PaymentLinks(ctx context.Context, bot botpay.Bot, status string, page botpay.PageRequest) (botpay.Page[botpay.PaymentLink], error) {
	if err := ValidPaymentLinkStatus(status); err != nil {
		return botpay.Page[botpay.PaymentLink]{}, err
	}
	if !bot.Claimed() {
		return botpay.Page[botpay.PaymentLink]{Items: []botpay.PaymentLink{}}, nil
	}
	return s.linksOf(ctx, bot.ID, status, page)
}

// ValidPaymentLinkStatus checks the status filter of the links list
// (checked before a cursor, so a wrong filter is named as such).
func ValidPaymentLinkStatus(status string) error {
	switch status {
	case "", botpay.LinkPending, botpay.LinkCompleted, botpay.LinkExpired:
		return nil
	}
	return botpay.ValidationError(map[string]string{"status": "must be pending, completed or expired"})
}
