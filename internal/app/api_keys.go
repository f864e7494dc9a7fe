package app

import (
	"context"
	"fmt"
	"net/url"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/mail"
	"github.com/botpay/botpay/internal/store"
)

// Default grace periods of a rotation (docs/api.md): the owner rotating is
// usually containing a leak (revoke at once); the bot rotating is usually
// routine, and gets an hour to switch its running copies over.
const (
	OwnerRotationGrace = 0
	BotRotationGrace   = 3600
)

// KeyRotation is a new API key, shown once, and when the key it replaced
// stops working.
type KeyRotation struct {
	APIKey               string
	PreviousKeyExpiresAt time.Time
}

// RotateAPIKeyAsOwner gives an owned bot a new API key; the previous one
// works for graceSeconds more (0 revokes it at once).
func (s *Service) RotateAPIKeyAsOwner(ctx context.Context, owner botpay.Owner, botID string, graceSeconds int) (KeyRotation, error) {
	return s.rotateAPIKey(ctx, store.RotateKey{OwnerID: owner.ID, BotID: botID}, graceSeconds, "you (the owner)")
}

// RotateAPIKeyAsBot is the bot's own rotation, with its current key
// (apiKey); a frozen bot is refused.
func (s *Service) RotateAPIKeyAsBot(ctx context.Context, bot botpay.Bot, apiKey string, graceSeconds int) (KeyRotation, error) {
	k := store.RotateKey{BotID: bot.ID, PresentedKeyHash: botpay.Digest(apiKey)}
	return s.rotateAPIKey(ctx, k, graceSeconds, "the bot itself (with its API key)")
}

func (s *Service) rotateAPIKey(ctx context.Context, k store.RotateKey, graceSeconds int, by string) (KeyRotation, error) {
	if graceSeconds < 0 || graceSeconds > botpay.MaxKeyGraceSeconds {
		return KeyRotation{}, botpay.ValidationError(map[string]string{
			"grace_seconds": fmt.Sprintf("must be an integer from 0 to %d", botpay.MaxKeyGraceSeconds)})
	}
	key := botpay.NewSecret(botpay.APIKeyPrefix)
	k.NewKeyHash, k.Grace = botpay.Digest(key), time.Duration(graceSeconds)*time.Second
	r, err := s.store.RotateAPIKey(ctx, k)
	if err != nil {
		return KeyRotation{}, err
	}
	s.botAuth.forgetEpoch() // this replica refuses the old key at once
	s.notifyKeyRotated(ctx, r, graceSeconds, by)
	return KeyRotation{APIKey: key, PreviousKeyExpiresAt: r.PreviousKeyExpiresAt}, nil
}

// ownerAddress is where mail about a bot goes: its owner's account, or
// before the claim the address the bot registered with.
func (s *Service) ownerAddress(ctx context.Context, b botpay.Bot) (string, error) {
	if !b.Claimed() {
		return b.OwnerEmail, nil
	}
	o, err := s.accounts.OwnerByID(ctx, b.OwnerID)
	return o.Email, err
}

func (s *Service) notifyKeyRotated(ctx context.Context, r store.KeyRotation, graceSeconds int, by string) {
	to, err := s.ownerAddress(ctx, r.Bot)
	if err != nil {
		s.log.WarnContext(ctx, "key rotation mail: no owner address", "bot_id", r.Bot.ID, "err", err)
		return
	}
	previous := "The previous key stopped working at once."
	if graceSeconds > 0 {
		previous = "The previous key keeps working until " + r.PreviousKeyExpiresAt.UTC().Format("2006-01-02 15:04:05") + " UTC."
	}
	text := fmt.Sprintf("The API key of your bot %q (%s) was rotated by %s.\n\n%s\n\n"+
		"If you did not expect this, freeze the bot and rotate its key yourself from the owner API "+
		"(POST /api/v1/owner/bots/%s/api-key/rotate): that ends every other key at once.\n\nDashboard: %s/dashboard/bots/%s\n",
		r.Bot.Name, r.Bot.ID, by, previous, r.Bot.ID, s.baseURL, r.Bot.ID)
	s.notifyAboutBot(ctx, r.Bot, mail.Message{To: to, Subject: "API key rotated for your bot", Text: text})
}

// notifyCallbackChanged tells the owner where the bot's events go now: a
// leaked key that redirects them is seen at once.
func (s *Service) notifyCallbackChanged(ctx context.Context, b botpay.Bot, previous, by string) {
	to, err := s.ownerAddress(ctx, b)
	if err != nil {
		s.log.WarnContext(ctx, "callback mail: no owner address", "bot_id", b.ID, "err", err)
		return
	}
	text := fmt.Sprintf("The callback URL of your bot %q (%s) was changed by %s.\n\nBefore: %s\nNow:    %s\n\n"+
		"Its events (webhooks) now go to the new address. If you did not expect this, freeze the bot, set the "+
		"callback URL back from your dashboard and rotate the bot's API key.\n\nDashboard: %s/dashboard/bots/%s\n",
		b.Name, b.ID, by, displayURL(previous), displayURL(b.CallbackURL), s.baseURL, b.ID)
	s.notifyAboutBot(ctx, b, mail.Message{To: to, Subject: "Callback URL changed for your bot", Text: text})
}

// displayURL shows a callback URL without its query or user info, which
// may hold the receiver's own secret.
func displayURL(raw string) string {
	if raw == "" {
		return "(none)"
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "(unreadable)"
	}
	u.RawQuery, u.User, u.Fragment = "", nil, ""
	return u.String()
}
