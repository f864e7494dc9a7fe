package bots

import (
	"context"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/validate"
)

// UpdateCallbackURL points a bot's webhook at a new URL and resets health.
// ownerID is empty when the bot itself asks (PATCH /api/v1/bot/profile),
// which a frozen bot may not; the owner may, frozen or not. Either way the
// owner is e-mailed.
func (s *Service) UpdateCallbackURL(ctx context.Context, ownerID, botID, url string) (botpay.Bot, error) {
	p := validate.Problems{}
	url = p.WebhookURL("callback_url", url)
	if err := p.Err(); err != nil {
		return botpay.Bot{}, err
	}
	if err := s.refuseInternal("callback_url", url); err != nil {
		return botpay.Bot{}, err
	}
	b, previous, err := s.setCallbackURL(ctx, ownerID, botID, url)
	if err != nil {
		return b, err
	}
	by := "the bot itself (with its API key)"
	if ownerID != "" {
		by = "you (the owner)"
	}
	if previous != b.CallbackURL {
		s.ownerMail.NotifyCallbackChanged(ctx, b, previous, by)
	}
	return b, nil
}
